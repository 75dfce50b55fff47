package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const tinySweep = `{"instances":[{"gen":"dlt-multi","args":{"m":3,"n":3,"V":3000},"seeds":"1..3"}],
  "backends":["heuristic:*"],"time_limits":["10s"]}`

func TestBenchSlurmFlagsAreCheckedWithExitTwoNamingTheFlag(t *testing.T) {
	dir := t.TempDir()
	spec := writeFile(t, dir, "spec.json", tinySweep)
	for flag, args := range map[string][]string{
		"--partition":     {"--partition", "p"},
		"--array-size":    {"--slurm", "--array-size", "0"},
		"--throttle":      {"--slurm", "--throttle", "-1"},
		"--time":          {"--slurm", "--time", "soon"},
		"--cpus-per-task": {"--slurm", "--cpus-per-task", "0"},
		"--mem":           {"--slurm", "--mem", "lots", "--dry-run"},
		"--sbatch":        {"--slurm", "--sbatch", "qos=low", "--dry-run"},
		"--shard":         {"--slurm", "--shard", "1/2"},
		"--workers":       {"--slurm", "--workers", "2"},
	} {
		code, _, errs := schedopt(t, append([]string{"bench", spec, "-o", filepath.Join(dir, "r.jsonl")}, args...)...)
		if code != 2 || !strings.HasPrefix(errs, "schedopt: "+flag+":") || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line naming %s", args, code, errs, flag)
		}
	}
}

func TestBenchSlurmDryRunPrintsTheScriptsAndCommandsAndWritesNothing(t *testing.T) {
	dir := t.TempDir()
	spec := writeFile(t, dir, "spec.json", tinySweep)
	out := filepath.Join(dir, "r.jsonl")
	code, stdout, errs := schedopt(t, "bench", spec, "-o", out, "--slurm", "--dry-run", "--array-size", "3",
		"--slurm-partition", "short", "--time", "1:00:00", "--sbatch", "--qos=low")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"#SBATCH --array=1-3", "#SBATCH --partition=short", "#SBATCH --time=0-01:00:00", "#SBATCH --qos=low",
		`--shard "$SLURM_ARRAY_TASK_ID/3"`, "bench merge -o " + out, "jobid=$(sbatch --parsable --array=1-3 ",
		"sbatch --dependency=afterany:$jobid "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("dry run lacks %q:\n%s", want, stdout)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "r.slurm")); !os.IsNotExist(err) {
		t.Errorf("the dry run created the Slurm directory: %v", err)
	}
}

func TestBenchStatusCountsTheShardsOfAManualSplit(t *testing.T) {
	dir := t.TempDir()
	spec := writeFile(t, dir, "spec.json", tinySweep)
	t.Chdir(dir)
	if code, _, errs := schedopt(t, "bench", "spec.json", "--shard", "2/2", "--workers", "1"); code != 0 {
		t.Fatalf("shard run: exit %d: %s", code, errs)
	}
	code, stdout, errs := schedopt(t, "bench", "status", spec, "--shards", "2")
	if code != 0 {
		t.Fatalf("status: exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 4 {
		t.Fatalf("status printed %d lines, want header, 2 shards and the total:\n%s", len(lines), stdout)
	}
	f1, f2 := strings.Fields(lines[1]), strings.Fields(lines[2])
	if f1[0] != "1/2" || f1[2] != "0" || f1[4] != f1[1] || f2[0] != "2/2" || f2[2] != f2[1] || f2[4] != "0" {
		t.Errorf("status after running shard 2 of 2 only:\n%s", stdout)
	}
}
