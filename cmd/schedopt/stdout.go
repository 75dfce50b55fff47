package main

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// guardStdout keeps the C solver libraries off the program's standard output, which
// belongs to schedopt alone (`--json` promises exactly one JSON object there). HiGHS
// 1.10 prints some diagnostics with printf whatever its log settings (for example
// "Highs::returnFromRun: ... Iteration limit reached"), and CBC writes parts of its
// log to stdout. guardStdout duplicates file descriptor 1 for schedopt's own output
// and points descriptor 1, which C's stdout writes to, at standard error.
func guardStdout() (*os.File, error) {
	fd, err := unix.Dup(1)
	if err != nil {
		return nil, fmt.Errorf("guard stdout: dup: %w", err)
	}
	unix.CloseOnExec(fd)
	if err := unix.Dup2(2, 1); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("guard stdout: dup2: %w", err)
	}
	return os.NewFile(uintptr(fd), "/dev/stdout"), nil
}
