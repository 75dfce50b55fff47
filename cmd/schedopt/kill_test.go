package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary act as the schedopt command, so tests can run it as a
// separate process and kill it.
func TestMain(m *testing.M) {
	if os.Getenv("SCHEDOPT_TEST_AS_CLI") == "1" {
		os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func countLines(t *testing.T, path string) (complete int, partial bool) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	return strings.Count(string(b), "\n"), len(b) > 0 && b[len(b)-1] != '\n'
}

func TestKilledSweepResumesWithOnlyTheMissingJobs(t *testing.T) {
	dir := t.TempDir()
	// 20 instances × 30 heuristics: 600 short jobs.
	spec := writeFile(t, dir, "spec.json", `{"instances":[{"gen":"dlt-multi","args":{"m":8,"n":4},"seeds":"1..20"}],
	  "backends":["heuristic:*"],"time_limits":["10s"]}`)
	out := filepath.Join(dir, "r.jsonl")
	cmd := exec.Command(os.Args[0], "bench", spec, "-o", out, "--workers", "2")
	cmd.Env = append(os.Environ(), "SCHEDOPT_TEST_AS_CLI=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		n, _ := countLines(t, out)
		if n >= 50 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the sweep wrote fewer than 50 results in 60 s")
		}
		time.Sleep(2 * time.Millisecond)
	}
	cmd.Process.Kill() // SIGKILL: no chance to clean up
	cmd.Wait()
	killedAt, _ := countLines(t, out)
	if killedAt >= 600 {
		t.Skipf("the sweep finished (%d jobs) before it could be killed", killedAt)
	}

	code, _, errs := schedopt(t, "bench", spec, "-o", out, "--workers", "2")
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "resuming:") {
		t.Errorf("the rerun did not resume: %q", errs)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	lines := 0
	for sc.Scan() {
		lines++
		line := sc.Text()
		i := strings.Index(line, `"key":"`)
		if i < 0 {
			t.Fatalf("line %d has no key: %.80s", lines, line)
		}
		key := line[i+7:]
		key = key[:strings.Index(key, `"`)]
		seen[key]++
	}
	if lines != 600 || len(seen) != 600 {
		t.Errorf("after resuming: %d lines, %d distinct jobs; want 600 and 600", lines, len(seen))
	}
	for k, n := range seen {
		if n > 1 {
			t.Errorf("job %s recorded %d times", k, n)
		}
	}
}
