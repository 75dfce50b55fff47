package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/maps/energy"
	"github.com/schedopt/schedopt/maps/flatmap"
)

// readPoints reads a `map isoenergy` CSV: header level,x,y, then numbers.
func readPoints(t *testing.T, path string) [][3]float64 {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	rows, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 || strings.Join(rows[0], ",") != "level,x,y" {
		t.Fatalf("%s: header %v, want level,x,y", path, rows)
	}
	var out [][3]float64
	for _, r := range rows[1:] {
		var v [3]float64
		for i := range v {
			if v[i], err = strconv.ParseFloat(r[i], 64); err != nil {
				t.Fatalf("%s: row %v: %v", path, r, err)
			}
		}
		out = append(out, v)
	}
	return out
}

// Held-out style check: for several parameter pairs, --set deviations and levels, every
// row of the CSV has, by an independent evaluation of (4.16) (the 1024-bit literal
// formulas), the energy of its level within 1e-9 relative.
func TestMapIsoenergyCSVPointsLieOnTheirLevels(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name string
		args []string
		x, y string
		set  map[string]float64
	}{
		{"V-C", []string{"--x", "V", "--y", "C", "--x-range", "1e9,1e15", "--y-range", "1e-10,1e-2", "--levels", "2.5e10,1e12,1e14"}, "V", "C", nil},
		{"m-PN", []string{"--x", "m", "--y", "PN", "--x-range", "1,1500", "--y-range", "1,1e7", "--levels", "2.1e10,3e10"}, "m", "PN", nil},
		{"m-C a=1e-2", []string{"--x", "m", "--y", "C", "--set", "a=1e-2", "--x-range", "1,300", "--levels", "2.1e11,3e11"}, "m", "C", map[string]float64{"a": 1e-2}},
		{"PN-a", []string{"--x", "PN", "--y", "a", "--x-range", "1,1e13", "--y-range", "1e-4,1e-1", "--levels", "1e12,1e14"}, "PN", "a", nil},
		{"C-S a=10, default levels", []string{"--x", "C", "--y", "S", "--set", "a=10", "--x-range", "1e-8,1", "--y-range", "1e-2,1e7"}, "C", "S", map[string]float64{"a": 10}},
		{"k-m", []string{"--x", "k", "--y", "m", "--y-range", "1,1500", "--levels", "2.2e10,2.6e10"}, "k", "m", nil},
	}
	d := energy.DLT{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".csv")
			code, stdout, stderr := schedopt(t, append([]string{"map", "isoenergy", "--samples", "80", "--csv", out}, c.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !strings.Contains(stdout, "points on") {
				t.Errorf("stdout %q", stdout)
			}
			pts := readPoints(t, out)
			if len(pts) < 20 {
				t.Fatalf("%d points traced", len(pts))
			}
			xi, _ := energy.Index(d, c.x)
			yi, _ := energy.Index(d, c.y)
			for _, pt := range pts {
				p := d.Reference()
				for k, v := range c.set {
					i, _ := energy.Index(d, k)
					p[i] = v
				}
				p[xi], p[yi] = pt[1], pt[2]
				e, _, ok := energy.BigDLT(p)
				if !ok || energy.RelErr(e, pt[0]) > 1e-9 {
					t.Errorf("row %v: feasible %v, E = %.17g", pt, ok, e)
				}
			}
		})
	}
}

func TestMapIsoenergyPlotGridAndVerify(t *testing.T) {
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "mk.csv")
	code, stdout, stderr := schedopt(t, "map", "isoenergy", "--x", "m", "--y", "k", "--x-range", "1,200",
		"--levels", "2.1e10,2.3e10", "--grid", "12", "--plot-grid", "20", "--csv", csvPath, "--plot", filepath.Join(dir, "mk"), "--verify")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, f := range []string{"mk.svg", "mk.png", "mk-grid.csv"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	grid, _ := os.ReadFile(filepath.Join(dir, "mk-grid.csv"))
	lines := strings.Split(strings.TrimSpace(string(grid)), "\n")
	if lines[0] != "x,y,energy,time" || len(lines) != 1+12*12 {
		t.Errorf("grid CSV: header %q, %d rows; want x,y,energy,time and 144 rows", lines[0], len(lines)-1)
	}
	if !strings.Contains(stdout, "verify: ") {
		t.Errorf("no verify line: %s", stdout)
	}
	// The energy laws.
	code, _, stderr = schedopt(t, "map", "isoenergy", "--model", "gustafson", "--x", "m", "--y", "k", "--set", "f=0.8",
		"--x-range", "1,64", "--levels", "10,20", "--csv", filepath.Join(dir, "g.csv"), "--verify")
	if code != 0 {
		t.Fatalf("gustafson: exit %d: %s", code, stderr)
	}
	for _, pt := range readPoints(t, filepath.Join(dir, "g.csv")) {
		m, k := pt[1], pt[2]
		if e := 0.2*(1+(m-1)/k) + m*0.8; energy.RelErr(e, pt[0]) > 1e-12 {
			t.Errorf("gustafson row %v: (4.2) gives %g", pt, e)
		}
	}
}

// Bad input exits 2 with one line naming the flag and the reason.
func TestMapIsoenergyBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.csv")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unknown x", []string{"--x", "Q", "--y", "C"}, "--x"},
		{"unknown y", []string{"--x", "V", "--y", "pc"}, "--y"},
		{"x == y", []string{"--x", "V", "--y", "V"}, "--y"},
		{"bad range", []string{"--x", "V", "--y", "C", "--x-range", "1e12,1e9"}, "--x-range"},
		{"range not a pair", []string{"--x", "V", "--y", "C", "--y-range", "abc"}, "--y-range"},
		{"log range through 0", []string{"--x", "V", "--y", "C", "--y-range", "0,1"}, "--y-range"},
		{"unparsable set", []string{"--x", "V", "--y", "C", "--set", "m=lots"}, "--set"},
		{"set without =", []string{"--x", "V", "--y", "C", "--set", "m"}, "--set"},
		{"set unknown", []string{"--x", "V", "--y", "C", "--set", "z=1"}, "--set"},
		{"set m fractional", []string{"--x", "V", "--y", "C", "--set", "m=2.5"}, "--set"},
		{"negative level", []string{"--x", "V", "--y", "C", "--levels", "-1"}, "--levels"},
		{"bad level", []string{"--x", "V", "--y", "C", "--levels", "x"}, "--levels"},
		{"unknown model", []string{"--model", "foo", "--x", "V", "--y", "C"}, "--model"},
		{"bad scale", []string{"--x", "V", "--y", "C", "--x-scale", "cubic"}, "--x-scale"},
		{"flat with verify", []string{"--model", "flat", "--x", "B", "--y", "C", "--verify"}, "--verify"},
		{"flat unknown backend", []string{"--model", "flat", "--x", "B", "--y", "C", "--backend", "nope"}, "--backend"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := schedopt(t, append([]string{"map", "isoenergy", "--csv", out}, c.args...)...)
			if code != 2 {
				t.Fatalf("exit %d, want 2: %s", code, stderr)
			}
			if strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, c.want) {
				t.Errorf("stderr %q: want one line naming %s", stderr, c.want)
			}
		})
	}
	if code, _, _ := schedopt(t, "map", "isoenergy", "--x", "V", "--y", "C"); code != 2 {
		t.Errorf("missing --csv: exit %d, want 2", code)
	}
}

// The flat-memory model: a grid of LPs, contoured; where memory is ample its energy is
// the closed form's.
func TestMapIsoenergyFlat(t *testing.T) {
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "flat.csv")
	code, stdout, stderr := schedopt(t, "map", "isoenergy", "--model", "flat", "--x", "B", "--y", "C", "--set", "m=20",
		"--x-range", "4.9e9,1e10", "--y-range", "1e-9,1e-4", "--grid", "8", "--levels", "2.1e10,3e10", "--csv", csvPath)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "64 LPs") {
		t.Errorf("stdout %q", stdout)
	}
	grid, err := os.ReadFile(filepath.Join(dir, "flat-grid.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(grid)), "\n")[1:]
	nan, checked := 0, 0
	for _, r := range rows {
		f := strings.Split(r, ",")
		B, _ := strconv.ParseFloat(f[0], 64)
		C, _ := strconv.ParseFloat(f[1], 64)
		E, _ := strconv.ParseFloat(f[2], 64)
		if B*20 < 1e11 {
			if f[2] != "NaN" {
				t.Errorf("B = %g: V > m·B but E = %s", B, f[2])
			}
			nan++
			continue
		}
		p := flatmap.Model{}.Reference()
		p[energy.M], p[energy.C], p[flatmap.B] = 20, C, B
		// Where the closed form is feasible and its chunks fit in B, the LP's energy is
		// (4.16) with the closed-form T.
		if cf := (flatmap.Model{}).Eval(p); cf.Feasible {
			checked++
			if energy.RelErr(E, cf.E) > 1e-6 {
				t.Errorf("B = %g, C = %g: LP E = %g, closed form %g", B, C, E, cf.E)
			}
		}
	}
	if nan == 0 || checked == 0 {
		t.Errorf("%d infeasible nodes, %d compared with the closed form; want some of each", nan, checked)
	}
}

// The files map writes are messages for people: they go to stderr (docs/cli.md,
// Conventions), and stdout keeps the map's own summary.
func TestMapNamesTheFilesItWroteOnStderr(t *testing.T) {
	dir := t.TempDir()
	csv, svg := filepath.Join(dir, "mC.csv"), filepath.Join(dir, "mC.svg")
	code, stdout, stderr := schedopt(t, "map", "isoenergy", "--x", "m", "--y", "C", "--samples", "40", "--grid", "8",
		"--levels", "2.1e11,3e11", "--csv", csv, "--plot", svg)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(stdout, svg) || strings.Contains(stdout, "wrote") {
		t.Errorf("stdout names the plot: %q", stdout)
	}
	if !strings.Contains(stderr, "wrote "+svg) {
		t.Errorf("stderr does not name the plot: %q", stderr)
	}
	if _, err := os.Stat(svg); err != nil {
		t.Errorf("no plot: %v", err)
	}
}
