//go:build slurm

// The integration test runs sweeps through a real Slurm: slurmctld and slurmd started
// by scripts/slurm-local.sh (make slurm-test starts and stops them). It fails, never
// skips, when Slurm does not answer.

package slurm_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/schedopt/schedopt/bench"
	"github.com/schedopt/schedopt/cluster/slurm"
)

// checkSpec is a sweep of 240 jobs with deterministic answers (heuristics, exact
// algorithms and HiGHS at gap 0 on small generated instances), whose HiGHS jobs make
// every array task run for seconds. docs/bench.md runs the same check by hand.
const checkSpec = "../../bench/specs/slurm-check.json"

const tasks = 4

type cli struct {
	t   *testing.T
	bin string
	dir string
}

// run runs schedopt in the work directory and returns stdout and stderr; it fails the
// test on a non-zero exit.
func (c cli) run(args ...string) (string, string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Dir = c.dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		c.t.Fatalf("schedopt %s: %v\n%s%s", strings.Join(args, " "), err, out.String(), errb.String())
	}
	return out.String(), errb.String()
}

func schedoptBinary(t *testing.T) string {
	if b := os.Getenv("SCHEDOPT_BIN"); b != "" {
		abs, err := filepath.Abs(b)
		if err != nil {
			t.Fatal(err)
		}
		return abs
	}
	bin := filepath.Join(t.TempDir(), "schedopt")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/schedopt/schedopt/cmd/schedopt").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func requireSlurm(t *testing.T) {
	for _, c := range []string{"sbatch", "squeue", "scancel", "sinfo"} {
		if _, err := exec.LookPath(c); err != nil {
			t.Fatalf("no %s on PATH: this test needs a running Slurm (make slurm-test starts one)", c)
		}
	}
	out, err := exec.Command("sinfo", "-h", "-o", "%T").CombinedOutput()
	if err != nil || !regexp.MustCompile(`idle|mixed|alloc`).Match(out) {
		t.Fatalf("sinfo finds no usable node (SLURM_CONF=%q): %v\n%s", os.Getenv("SLURM_CONF"), err, out)
	}
}

// outcome is what must be equal between two runs of one job (timings differ).
type outcome struct {
	Status    string
	Objective string
}

func outcomes(t *testing.T, path string) map[string]outcome {
	t.Helper()
	recs, err := bench.ReadRecords(path)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]outcome{}
	for _, r := range recs {
		if _, dup := m[r.Key]; dup {
			t.Errorf("%s: job %s recorded twice", path, r.Key)
		}
		o := outcome{Status: r.Status, Objective: "none"}
		if v, ok := r.Objective(); ok {
			o.Objective = fmt.Sprintf("%.12g", v)
		}
		m[r.Key] = o
	}
	return m
}

// sameOutcomes compares two runs job by job.
func sameOutcomes(t *testing.T, what string, got, want map[string]outcome) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d jobs, the local run has %d", what, len(got), len(want))
	}
	diff := 0
	for k, w := range want {
		g, ok := got[k]
		switch {
		case !ok:
			t.Errorf("%s: job %s missing", what, k)
		case g != w:
			t.Errorf("%s: job %s: %+v, the local run %+v", what, k, g, w)
		default:
			continue
		}
		if diff++; diff > 10 {
			t.Fatalf("%s: more than 10 differences", what)
		}
	}
}

func lines(path string) int {
	b, _ := os.ReadFile(path)
	return bytes.Count(b, []byte("\n"))
}

func TestIntegrationSweepThroughSlurmEqualsTheLocalRunAndResumesAfterACancel(t *testing.T) {
	t0 := time.Now()
	requireSlurm(t)
	bin := schedoptBinary(t)
	dir := t.TempDir()
	spec, err := os.ReadFile(checkSpec)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "spec.json"), spec, 0o644); err != nil {
		t.Fatal(err)
	}
	c := cli{t: t, bin: bin, dir: dir}

	// The reference: the same sweep on this machine.
	c.run("bench", "spec.json", "-o", "local.jsonl", "--workers", "2")
	local := outcomes(t, filepath.Join(dir, "local.jsonl"))
	if len(local) < 100 {
		t.Fatalf("the sweep has %d jobs; the test wants at least 100", len(local))
	}
	t.Logf("local run: %d jobs, %.1f s", len(local), time.Since(t0).Seconds())

	// 1. The whole sweep as an array of 4 tasks; --wait returns when the merge job ended.
	t1 := time.Now()
	_, errs := c.run("bench", "spec.json", "-o", "a.jsonl", "--slurm", "--array-size", fmt.Sprint(tasks), "--wait")
	if !strings.Contains(errs, fmt.Sprintf("(tasks 1-%d,", tasks)) {
		t.Errorf("the first submission was not an array of %d tasks:\n%s", tasks, errs)
	}
	sameOutcomes(t, "slurm run", outcomes(t, filepath.Join(dir, "a.jsonl")), local)
	if _, err := os.Stat(filepath.Join(dir, "a.slurm", "report", "report.md")); err != nil {
		t.Errorf("the merge job wrote no report: %v", err)
	}
	t.Logf("slurm run: %d tasks, %.1f s", tasks, time.Since(t1).Seconds())

	// 2. Cancel one task while it runs, resume, and lose or duplicate nothing.
	t2 := time.Now()
	_, errs = c.run("bench", "spec.json", "-o", "b.jsonl", "--slurm", "--array-size", fmt.Sprint(tasks))
	sdir := filepath.Join(dir, "b.slurm")
	st, err := slurm.LoadState(sdir)
	if err != nil || st == nil || len(st.Submissions) != 1 {
		t.Fatalf("no submission recorded in %s: %+v, %v\n%s", sdir, st, err, errs)
	}
	arrayJob := st.Submissions[0].ArrayJob
	perShard := map[int]int{}
	for k := range local {
		for i := 1; i <= tasks; i++ {
			if (bench.Shard{Index: i, Count: tasks}).Owns(k) {
				perShard[i]++
			}
		}
	}
	cancelled := 0
	deadline := time.Now().Add(2 * time.Minute)
	for cancelled == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no task was seen running with part of its jobs done within 2 minutes")
		}
		for i := 1; i <= tasks && cancelled == 0; i++ {
			if n := lines(filepath.Join(sdir, fmt.Sprintf("part-%d.jsonl", i))); n >= 1 && n < perShard[i] {
				out, err := exec.Command("scancel", fmt.Sprintf("%s_%d", arrayJob, i)).CombinedOutput()
				if err != nil {
					t.Fatalf("scancel: %v\n%s", err, out)
				}
				cancelled = i
				t.Logf("cancelled task %d with %d of its %d jobs done", i, n, perShard[i])
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := slurm.Wait(context.Background(), &slurm.Client{}, []string{arrayJob, st.Submissions[0].MergeJob}, time.Second); err != nil {
		t.Fatal(err)
	}
	part := filepath.Join(sdir, fmt.Sprintf("part-%d.jsonl", cancelled))
	if n := lines(part); n >= perShard[cancelled] {
		t.Fatalf("the cancelled task %d finished all its %d jobs anyway", cancelled, n)
	}
	status, _ := c.run("bench", "status", "spec.json", "--slurm-dir", sdir)
	t.Logf("after the cancel:\n%s", status)
	if !regexp.MustCompile(fmt.Sprintf(`(?m)^\s*%d/%d\s+%d\s+\d+\s+0\s+[1-9]`, cancelled, tasks, perShard[cancelled])).MatchString(status) {
		t.Errorf("bench status does not show missing jobs for shard %d/%d:\n%s", cancelled, tasks, status)
	}
	partial := outcomes(t, filepath.Join(dir, "b.jsonl"))
	if len(partial) >= len(local) {
		t.Errorf("the merge after the cancel has %d jobs, want fewer than %d", len(partial), len(local))
	}

	// Resume: only the cancelled task is submitted again.
	_, errs = c.run("bench", "spec.json", "-o", "b.jsonl", "--slurm", "--wait")
	if !strings.Contains(errs, fmt.Sprintf("(tasks %d,", cancelled)) {
		t.Errorf("the rerun did not submit exactly task %d:\n%s", cancelled, errs)
	}
	sameOutcomes(t, "slurm run after cancel and resume", outcomes(t, filepath.Join(dir, "b.jsonl")), local)
	// Nothing duplicated: every job is in exactly one part, once.
	seen := map[string]string{}
	for i := 1; i <= tasks; i++ {
		p := filepath.Join(sdir, fmt.Sprintf("part-%d.jsonl", i))
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > 0 && b[len(b)-1] != '\n' {
			t.Errorf("%s ends with a cut line", p)
		}
		for k := range outcomes(t, p) {
			if prev, dup := seen[k]; dup {
				t.Errorf("job %s is in %s and %s", k, prev, p)
			}
			seen[k] = p
		}
	}
	if len(seen) != len(local) {
		t.Errorf("the parts hold %d jobs, want %d", len(seen), len(local))
	}
	// The cancelled task's log shows that schedopt stopped on Slurm's SIGTERM.
	log, _ := os.ReadFile(filepath.Join(sdir, "logs", fmt.Sprintf("task-%d.out", cancelled)))
	if !strings.Contains(string(log), "interrupted after") {
		t.Errorf("the cancelled task's log does not show a clean stop on SIGTERM:\n%s", log)
	}
	t.Logf("cancel and resume: %.1f s; whole test %.1f s", time.Since(t2).Seconds(), time.Since(t0).Seconds())
}
