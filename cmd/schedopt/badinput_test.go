package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// badCorpus is the corpus of bad inputs: every file listed in its MANIFEST.tsv must be
// refused with exit status 2 and one line on stderr naming the file, the field and the
// reason.
const badCorpus = "testdata/bad"

// badCase is one line of MANIFEST.tsv.
type badCase struct {
	file, command, field, reason string
}

func readManifest(t *testing.T) []badCase {
	t.Helper()
	f, err := os.Open(filepath.Join(badCorpus, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []badCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "\t")
		if len(parts) != 4 {
			t.Fatalf("manifest line %q: want 4 tab-separated columns", line)
		}
		cases = append(cases, badCase{parts[0], parts[1], parts[2], parts[3]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestBadInputCorpusExitsTwo is the exit-status policy's table test: 0 for a definite
// answer, 2 for bad input (with file, field and reason), 1 otherwise. Every case of the
// corpus is bad input.
func TestBadInputCorpusExitsTwo(t *testing.T) {
	cases := readManifest(t)
	if len(cases) < 60 {
		t.Fatalf("the corpus has %d cases, want at least 60", len(cases))
	}
	kinds := map[string]bool{}
	for _, c := range cases {
		kinds[strings.SplitN(c.file, "-", 2)[0]] = true
	}
	for _, k := range []string{"dlt", "stencil", "workload", "partition", "mps", "any"} {
		if !kinds[k] {
			t.Errorf("the corpus has no %s case", k)
		}
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join(badCorpus, c.file)
			// On highs: a scale that no MILP solver takes is bad input for the MILP path
			// (the default backend auto may answer such a workload by its exact DP).
			code, out, errs := schedopt(t, c.command, path, "--time-limit", "10s", "--backend", "highs")
			if code != exitBadInput {
				t.Fatalf("exit %d, want %d; stderr %q", code, exitBadInput, errs)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			msg := strings.TrimSuffix(errs, "\n")
			if strings.Contains(msg, "\n") {
				t.Errorf("stderr spans lines: %q", errs)
			}
			want := "schedopt: " + path + ": "
			switch c.field {
			case "*":
			case "-":
				// A whole-file problem: the reason follows the file directly (or a line number).
			default:
				want += c.field + ": "
			}
			if !strings.HasPrefix(msg, want) {
				t.Errorf("stderr %q, want it to start with %q", msg, want)
			}
			if !strings.Contains(msg, c.reason) {
				t.Errorf("stderr %q lacks the reason %q", msg, c.reason)
			}
		})
	}
}

// Usage mistakes outside the instance corpus: each exits 2 with one line naming what
// is wrong (docs/cli.md, Conventions), and writes nothing.
func TestUsageMistakesExitTwoNamingTheCulprit(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	merged := filepath.Join(dir, "merged.jsonl")
	cases := []struct {
		name string
		args []string
		want string // in the one line on stderr
	}{
		{"merge of an empty file", []string{"bench", "merge", "-o", merged, empty}, empty + ": holds no results"},
		{"status with a Slurm directory that does not exist", []string{"bench", "status", filepath.Join(repo, "bench/specs/slurm-check.json"),
			"--slurm-dir", filepath.Join(dir, "no-such-dir")}, "--slurm-dir: " + filepath.Join(dir, "no-such-dir") + " does not exist"},
		{"status with a file as Slurm directory", []string{"bench", "status", filepath.Join(repo, "bench/specs/slurm-check.json"),
			"--slurm-dir", empty}, "is not a directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := schedopt(t, c.args...)
			if code != exitBadInput {
				t.Fatalf("exit %d, want %d; stdout %q stderr %q", code, exitBadInput, out, errs)
			}
			if out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
				t.Errorf("stdout %q, stderr %q: want one line with %q", out, errs, c.want)
			}
		})
	}
	if _, err := os.Stat(merged); err == nil {
		t.Errorf("merge wrote %s from no results", merged)
	}
}
