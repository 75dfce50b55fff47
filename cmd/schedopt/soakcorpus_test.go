package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSoakFindsStayFixed runs solve on every input the soak (schedopt soak,
// docs/robustness.md) found to crash or overrun: each must end within the time limit
// + 1 s + 5% with exit 0, 1 or 2, and never with a Go runtime error.
func TestSoakFindsStayFixed(t *testing.T) {
	files, err := filepath.Glob("testdata/soak/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no soak corpus: %v", err)
	}
	const limit = 2 * time.Second
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			// A child process: a run abandoned at the deadline goes on until its
			// process exits, which must not be the test binary.
			cmd := exec.Command(os.Args[0], "solve", f, "--json", "--threads", "1", "--time-limit", limit.String())
			cmd.Env = append(os.Environ(), "SCHEDOPT_TEST_AS_CLI=1")
			var stderr strings.Builder
			cmd.Stderr = &stderr
			start := time.Now()
			_ = cmd.Run()
			code, errs := cmd.ProcessState.ExitCode(), stderr.String()
			if took, max := time.Since(start), limit+time.Second+limit/20; took > max {
				t.Errorf("took %s, want at most %s", took, max)
			}
			if code != 0 && code != 1 && code != 2 {
				t.Errorf("exit %d: %s", code, errs)
			}
			if strings.Contains(errs, "panic") || strings.Contains(errs, "fatal error") {
				t.Errorf("runtime error: %s", errs)
			}
		})
	}
}
