package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestMapIsoefficiencyBadInput(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"m range reversed", []string{"--m-range", "5,2"}, "--m-range"},
		{"m range not a pair", []string{"--m-range", "4"}, "--m-range"},
		{"m = 0", []string{"--m-range", "0,3"}, "--m-range"},
		{"n = 0", []string{"--n", "0"}, "--n"},
		{"negative level", []string{"--levels", "-2"}, "--levels"},
		{"bad level", []string{"--levels", "x"}, "--levels"},
		{"empty V range", []string{"--v-range", "100,100"}, "--v-range"},
		{"V range through 0", []string{"--v-range", "0,100"}, "--v-range"},
		{"V tolerance 0", []string{"--v-tol", "0"}, "--v-tol"},
		{"scan too short", []string{"--scan", "2"}, "--scan"},
		{"gap 1", []string{"--gap", "1"}, "--gap"},
		{"no workers", []string{"--workers", "0"}, "--workers"},
		{"unknown backend", []string{"--backend", "nope"}, "--backend"},
		{"bad time limit", []string{"--time-limit", "soon"}, "--time-limit"},
		{"bad plot format", []string{"--plot", "x.pdf"}, "--plot"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := schedopt(t, append([]string{"map", "isoefficiency"}, c.args...)...)
			if code != 2 {
				t.Fatalf("exit %d, want 2: %s", code, stderr)
			}
			if strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, c.want) {
				t.Errorf("stderr %q: want one line naming %s", stderr, c.want)
			}
		})
	}
}

// A small real map through the command: every output is written, every point's
// efficiency in the CSV is within the tolerances of its level, and the table has a row
// per m beside Table 5.2.
// TestMapIsoefficiencySmallRun: with the MIP probe (HiGHS) and with the sequence
// branch-and-bound probe (--backend exact), a small map finds every level point
// within its tolerances and writes the CSV, the plots and the table.
func TestMapIsoefficiencySmallRun(t *testing.T) {
	if testing.Short() {
		t.Skip("solves MIPs")
	}
	for _, backend := range []string{"highs", "exact"} {
		t.Run(backend, func(t *testing.T) { mapIsoefficiencySmallRun(t, backend) })
	}
}

func mapIsoefficiencySmallRun(t *testing.T, backend string) {
	dir := t.TempDir()
	csvPath, table := filepath.Join(dir, "e.csv"), filepath.Join(dir, "e.md")
	code, stdout, stderr := schedopt(t, "map", "isoefficiency", "--m-range", "2,3", "--n", "2", "--levels", "5",
		"--v-range", "1000,40000", "--scan", "5", "--e-tol", "1e-2", "--workers", "2",
		"--csv", csvPath, "--plot", filepath.Join(dir, "e"), "--table", table, "--backend", backend)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "probes") {
		t.Errorf("no progress on stderr: %q", stderr)
	}
	for _, f := range []string{"e.svg", "e.png"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	fh, err := os.Open(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	rows, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	levels := 0
	for _, r := range rows[1:] {
		if r[0] != "level" {
			continue
		}
		levels++
		e, _ := strconv.ParseFloat(r[6], 64)
		vlo, _ := strconv.ParseFloat(r[7], 64)
		vhi, _ := strconv.ParseFloat(r[8], 64)
		if !(e > 5*(1-1e-2) && e < 5*(1+1e-2) || vhi-vlo < 1) {
			t.Errorf("row %v: E = %g is not within the tolerances of level 5", r, e)
		}
	}
	if levels != 4 {
		t.Errorf("%d level points, want 4 (m = 2, 3, both sides)", levels)
	}
	md, err := os.ReadFile(table)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "| 2 |") || !strings.Contains(string(md), "| 34.2 | 134485 |") {
		t.Errorf("table:\n%s", md)
	}
}
