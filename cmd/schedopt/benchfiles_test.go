package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchFileSetEndToEnd runs schedopt bench on three small MIPLIB 3 files with
// HiGHS and CBC (permutation 1 of one instance too), each job in a child process, and a .solu file with a wrong =opt= (p0033: every correct answer is a fail)
// and a =best= worse than the optimum (flugpl: a better). It checks the result lines
// of the spec ("Benchmarking files"), the verdicts, and the report and its plots.
func TestBenchFileSetEndToEnd(t *testing.T) {
	t.Setenv("SCHEDOPT_TEST_AS_CLI", "1") // the children are this test binary acting as schedopt
	set, err := filepath.Abs(filepath.Join(repo, "bench", "testdata", "miplib3"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFile(t, dir, "set.solu", "=opt= p0033 3000\n=best= flugpl 1300000\n=opt= egout 568.1007\n")
	spec := writeFile(t, dir, "spec.json", `{"name": "e2e", "instances": [{"files": ["`+set+`/*.mps.gz"]}], "solu": "set.solu",
	  "backends": ["highs", "cbc"], "time_limits": ["20s"], "threads": 1}`)
	out := filepath.Join(dir, "r.jsonl")
	rep := filepath.Join(dir, "report")
	code, stdout, stderr := schedopt(t, "bench", spec, "-o", out, "--report", rep, "--workers", "2")
	if code != 0 {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{"p0033": "fail", "flugpl": "better", "egout": "ok"}
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		n++
		var line map[string]any
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"key", "kind", "name", "status", "result", "solu", "rep", "permutation", "backend", "wall_seconds", "peak_rss_bytes"} {
			if _, ok := line[k]; !ok {
				t.Errorf("result line lacks %q: %s", k, sc.Text()[:200])
			}
		}
		name, _ := line["name"].(string)
		res, _ := line["result"].(map[string]any)
		s, _ := line["solu"].(map[string]any)
		if line["kind"] != "mps" || line["status"] != "optimal" || res["objective"] == nil || res["bound"] == nil {
			t.Errorf("%s: kind %v, status %v, result %v", name, line["kind"], line["status"], res["objective"])
		}
		if s["verdict"] != want[name] || s["expected"] == nil || s["value"] == nil {
			t.Errorf("%s on %s: solu %v, want verdict %s", name, line["backend"], s, want[name])
		}
		if rss, _ := line["peak_rss_bytes"].(float64); !(rss > 1<<20) {
			t.Errorf("%s: peak memory %v bytes", name, line["peak_rss_bytes"])
		}
		if pc, _ := line["point_check"].(map[string]any); pc["feasible"] != true {
			t.Errorf("%s: exact point check %v", name, line["point_check"])
		}
	}
	if n != 6 {
		t.Fatalf("%d result lines, want 6 (3 instances × 2 backends)", n)
	}
	md, err := os.ReadFile(filepath.Join(rep, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"## Benchmark set (MPS and LP files)", "Every fail and better (4)", "| p0033 | 0 | highs | optimal |",
		"**better**", "*virtual best*", "### Exact verification of the points", "| highs | 3 | 0 | 0 |"} {
		if !strings.Contains(string(md), w) {
			t.Errorf("report.md lacks %q", w)
		}
	}
	for _, f := range []string{"performance_profile.svg", "performance_profile.png", "solved_within.svg", "solved_within.png"} {
		if st, err := os.Stat(filepath.Join(rep, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	// bench report rewrites the same report from the results.
	rep2 := filepath.Join(dir, "report2")
	if code, _, stderr := schedopt(t, "bench", "report", out, "-o", rep2, "--no-plots"); code != 0 {
		t.Fatalf("bench report: exit %d: %s", code, stderr)
	}
	if md2, _ := os.ReadFile(filepath.Join(rep2, "report.md")); !strings.Contains(string(md2), "Every fail and better (4)") {
		t.Error("bench report lost the file-set section")
	}
}

func TestBenchBadModelFileExits2WithFileAndLine(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "broken.mps", "NAME b\nROWS\n N obj\nCOLUMNS\n x obj oops\nENDATA\n")
	spec := writeFile(t, dir, "spec.json", `{"instances": [{"files": ["broken.mps"]}], "backends": ["highs"]}`)
	code, _, stderr := schedopt(t, "bench", spec, "-o", filepath.Join(dir, "r.jsonl"))
	if code != 2 || !strings.Contains(stderr, bad+": line 5:") {
		t.Fatalf("exit %d, stderr %q; want 2 naming %s and line 5", code, stderr, bad)
	}
	if strings.Contains(stderr, "invalid JSON") {
		t.Errorf("an MPS file was read as JSON: %s", stderr)
	}
}

func TestSolveMPSSCReadingFlag(t *testing.T) {
	dir := t.TempDir()
	// min -x with x semi (0 or in [2, 5.5]) inside integer markers: semi-continuous
	// gives -5.5, semi-integer -5.
	p := writeFile(t, dir, "sc.mps", "NAME sc\nROWS\n N obj\n L c1\nCOLUMNS\n    m 'MARKER' 'INTORG'\n    x obj -1 c1 1\n    m 'MARKER' 'INTEND'\nRHS\n    RHS c1 10\nBOUNDS\n LO BND x 2\n SC BND x 5.5\nENDATA\n")
	for _, tc := range []struct {
		flag string
		want float64
	}{{"", -5.5}, {"--sc-in-integer=semi-continuous", -5.5}, {"--sc-in-integer=semi-integer", -5}} {
		args := []string{"solve-mps", p, "--json"}
		if tc.flag != "" {
			args = append(args, tc.flag)
		}
		code, out, stderr := schedopt(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		if obj := oneObject(t, out)["objective"]; obj != tc.want {
			t.Errorf("%v: objective %v, want %g", args, obj, tc.want)
		}
	}
	if code, _, _ := schedopt(t, "solve-mps", p, "--sc-in-integer=cplex"); code != 2 {
		t.Errorf("a bad reading: exit %d, want 2", code)
	}
}
