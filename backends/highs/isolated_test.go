package highs_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/backendtest"
	"github.com/schedopt/schedopt/backends/highs"
	"github.com/schedopt/schedopt/model"
)

func TestIsolatedConformance(t *testing.T) {
	s := highs.NewIsolated()
	defer s.Close()
	backendtest.Run(t, s)
}

// TestIsolatedStopsAnOverrunningSolve: on the HiGHS 1.10 reproducer, whose solve runs
// about 26 s past a 5 s limit in a sub-MIP where HiGHS watches neither its clock nor
// the interrupt callback, the isolated backend returns within the limit plus a second
// and leaves no process running: the worker was killed, not abandoned.
func TestIsolatedStopsAnOverrunningSolve(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "testdata", "highs-1.10-time-limit-overrun.mps"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := model.ReadMPS(f)
	if err != nil {
		t.Fatal(err)
	}
	s := highs.NewIsolated()
	defer s.Close()
	// At 5 s HiGHS is inside the sub-MIP (the `highs` program ends after 31 s); at 1 s
	// it still stops by itself.
	const limit = 5 * time.Second
	t0 := time.Now()
	res, err := s.Solve(context.Background(), m, backends.Options{TimeLimit: limit, Threads: 1})
	took := time.Since(t0)
	if err != nil {
		t.Fatal(err)
	}
	if promise := limit + time.Second; took > promise {
		t.Errorf("returned after %v, want within %v", took, promise)
	}
	switch res.Status {
	case backends.TimeLimit, backends.Optimal, backends.Infeasible, backends.Interrupted:
	default:
		t.Errorf("status %s (%s)", res.Status, res.Message)
	}
	t.Logf("status %s after %v: %s", res.Status, took, res.Message)
	// Give the reaper a moment, then look for children of this process still running
	// a solve (idle workers of the pool are waiting on their input, not solving).
	s.Close()
	deadline := time.Now().Add(2 * time.Second)
	for len(children(t)) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if c := children(t); len(c) > 0 {
		t.Errorf("child processes still running after Close: %v", c)
	}
}

// children lists the live child processes of this process (Linux /proc).
func children(t *testing.T) []string {
	t.Helper()
	me := strconv.Itoa(os.Getpid())
	dirs, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may contain spaces, so split after ')'.
		s := string(b)
		rest := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(rest) >= 2 && rest[1] == me && rest[0] != "Z" {
			out = append(out, s[:strings.IndexByte(s, ' ')])
		}
	}
	return out
}
