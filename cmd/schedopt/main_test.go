package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/kinds"
)

// repo is the repository root, where instances/ lives.
const repo = "../.."

func inst(name string) string { return filepath.Join(repo, "instances", name) }

// schedopt runs the command line in-process and returns the exit status, stdout and
// stderr.
func schedopt(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// oneObject decodes stdout, which must hold exactly one JSON object.
func oneObject(t *testing.T, stdout string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(stdout))
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		t.Fatalf("stdout is not a JSON object: %v\n%s", err, stdout)
	}
	var extra any
	if err := dec.Decode(&extra); err != io.EOF {
		t.Fatalf("stdout holds more than one JSON value (next: %v, %v)", extra, err)
	}
	return obj
}

func writeFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSolveJSONIsOneObjectWithTheSpecFields(t *testing.T) {
	code, out, errs := schedopt(t, "solve", inst("dlt-single-table5.1-mintime.json"), "--json")
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	obj := oneObject(t, out)
	for _, k := range []string{"kind", "name", "backend", "status", "objective", "bound", "gap", "seconds", "model", "solution", "check"} {
		if _, ok := obj[k]; !ok {
			t.Errorf("result lacks field %q", k)
		}
	}
	if obj["kind"] != "dlt-single" || obj["backend"] != "highs" || obj["status"] != "optimal" {
		t.Errorf("kind/backend/status = %v/%v/%v", obj["kind"], obj["backend"], obj["status"])
	}
	secs, _ := obj["seconds"].(map[string]any)
	mod, _ := obj["model"].(map[string]any)
	check, _ := obj["check"].(map[string]any)
	for _, k := range []string{"build", "solve"} {
		if _, ok := secs[k]; !ok {
			t.Errorf("seconds lacks %q", k)
		}
	}
	for _, k := range []string{"variables", "integers", "rows", "nonzeros"} {
		if v, _ := mod[k].(float64); v <= 0 && k != "integers" {
			t.Errorf("model.%s = %v", k, mod[k])
		}
	}
	ev, _ := check["evaluator"].(map[string]any)
	if ev["ok"] != true {
		t.Errorf("check.evaluator = %v", check["evaluator"])
	}
	if _, ok := check["exact"]; !ok {
		t.Errorf("check lacks exact")
	}
	if strings.Contains(out, "solving ") {
		t.Errorf("progress text leaked to stdout")
	}
}

func TestSolveBackendsAndExactAgree(t *testing.T) {
	var objs []float64
	for _, b := range []string{"highs", "lpsolve", "exact"} {
		code, out, errs := schedopt(t, "solve", inst("workload-fig10-minenergy.json"), "--backend", b, "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", b, code, errs)
		}
		obj := oneObject(t, out)
		if obj["status"] != "optimal" || obj["backend"] != b {
			t.Fatalf("%s: status %v backend %v", b, obj["status"], obj["backend"])
		}
		objs = append(objs, obj["objective"].(float64))
	}
	for _, v := range objs[1:] {
		if math.Abs(v-objs[0]) > 1e-6*math.Max(1, math.Abs(objs[0])) {
			t.Errorf("objectives differ across backends: %v", objs)
		}
	}
}

func TestSolveInfeasibleIsADefiniteStatusWithExitZero(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(inst("dlt-single-table5.1-minenergy.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(data, &m)
	m["deadline"] = 400.0 // below the shortest schedule (about 762 s), above the simple lower bound
	m["fixed_length"] = true
	b, _ := json.Marshal(m)
	p := writeFile(t, dir, "tight.json", string(b))
	code, out, errs := schedopt(t, "solve", p, "--json")
	if code != 0 {
		t.Fatalf("exit %d, want 0 for infeasible; stderr %s", code, errs)
	}
	if obj := oneObject(t, out); obj["status"] != "infeasible" || obj["objective"] != nil {
		t.Errorf("status %v objective %v, want infeasible and null", obj["status"], obj["objective"])
	}
}

const knapsackMPS = `NAME knap
ROWS
 N obj
 L cap
COLUMNS
 MARKER 'MARKER' 'INTORG'
 x obj -5 cap 2
 y obj -4 cap 3
 z obj -3 cap 1
 MARKER 'MARKER' 'INTEND'
RHS
 rhs cap 4
BOUNDS
 UP bnd x 1
 UP bnd y 1
 UP bnd z 1
ENDATA
`

func TestSolveMPSReportsKindMPSAndVerifiedValues(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "knap.mps", knapsackMPS)
	// max 5x+4y+3z s.t. 2x+3y+z <= 4, binary: x=z=1 (weight 3) gives 8; x+y is 5 > 4.
	for _, b := range []string{"highs", "lpsolve"} {
		code, out, errs := schedopt(t, "solve-mps", p, "--backend", b, "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", b, code, errs)
		}
		obj := oneObject(t, out)
		if obj["kind"] != "mps" || obj["status"] != "optimal" || obj["objective"] != -8.0 {
			t.Errorf("%s: kind %v status %v objective %v, want mps optimal -8", b, obj["kind"], obj["status"], obj["objective"])
		}
		vals := obj["solution"].(map[string]any)["values"].(map[string]any)
		if vals["x"] != 1.0 || vals["y"] != 0.0 || vals["z"] != 1.0 {
			t.Errorf("%s: values %v, want x=1 y=0 z=1", b, vals)
		}
	}
}

func TestExportedMPSSolvesToTheSameOptimum(t *testing.T) {
	dir := t.TempDir()
	mps := filepath.Join(dir, "w.mps")
	if code, _, errs := schedopt(t, "export", inst("workload-fig10-mintime.json"), "--format", "mps", "-o", mps); code != 0 {
		t.Fatalf("export: exit %d: %s", code, errs)
	}
	_, a, _ := schedopt(t, "solve", inst("workload-fig10-mintime.json"), "--json", "--no-check")
	code, b, errs := schedopt(t, "solve-mps", mps, "--json")
	if code != 0 {
		t.Fatalf("solve-mps: exit %d: %s", code, errs)
	}
	oa, ob := oneObject(t, a), oneObject(t, b)
	if math.Abs(oa["objective"].(float64)-ob["objective"].(float64)) > 1e-6 {
		t.Errorf("solve gives %v, solve-mps of the export gives %v", oa["objective"], ob["objective"])
	}
	code, lp, _ := schedopt(t, "export", inst("workload-fig10-mintime.json"), "--format", "lp")
	if code != 0 || !strings.Contains(strings.ToLower(lp), "subject to") {
		t.Errorf("export --format lp: exit %d, output %.200q", code, lp)
	}
}

func TestBadInputExitsTwoWithOneLineNamingFileFieldAndReason(t *testing.T) {
	dir := t.TempDir()
	badJSON := writeFile(t, dir, "broken.json", `{"kind": "dlt-single", `)
	badKind := writeFile(t, dir, "kind.json", `{"kind": "tsp"}`)
	badMPS := writeFile(t, dir, "sect.mps", "NAME x\nROWS\n N obj\nFOO\nENDATA\n")
	nanMPS := writeFile(t, dir, "nan.mps", "NAME x\nROWS\n N obj\n L c\nCOLUMNS\n x obj NaN c 1\nRHS\n r c 1\nENDATA\n")
	truncMPS := writeFile(t, dir, "trunc.mps", "NAME x\nROWS\n N obj\n L c\nCOLUMNS\n x obj\n")
	badSpec := writeFile(t, dir, "spec.json", `{"instances":[{"files":["missing.json"]}],"backends":["highs"]}`)
	durSpec := writeFile(t, dir, "dur.json", `{"instances":[{"files":["`+inst("workload-fig10.json")+`"]}],"backends":["highs"],"time_limits":["ten"]}`)
	beSpec := writeFile(t, dir, "be.json", `{"instances":[{"files":["`+inst("workload-fig10.json")+`"]}],"backends":["cplex"]}`)
	good := inst("workload-fig10.json")
	wl := func(name, n, points, objective string) string {
		return writeFile(t, dir, name, `{"kind":"workload","n":`+n+`,"objective":"`+objective+`","processors":[{"points":[`+points+`]}]}`)
	}
	wlNaN := wl("wnan.json", "2", `{"size":1,"time":1,"energy":1},{"size":2,"time":NaN,"energy":1}`, "pareto")
	wlDup := wl("wdup.json", "2", `{"size":2,"time":1,"energy":1},{"size":2,"time":2,"energy":1}`, "pareto")
	wlFrac := wl("wfrac.json", "2", `{"size":1.5,"time":1,"energy":1}`, "pareto")
	wlStr := wl("wstr.json", "2", `{"size":"2","time":1,"energy":1}`, "pareto")
	wlFar := wl("wfar.json", "3", `{"size":2,"time":1,"energy":1}`, "pareto")
	wlObj := wl("wobj.json", "2", `{"size":2,"time":1,"energy":1}`, "min-cost")
	nanSpec := writeFile(t, dir, "nanspec.json", `{"instances":[{"files":["`+good+`"]}],"backends":["highs"],"gaps":[NaN]}`)
	cases := []struct {
		name string
		args []string
		want []string // substrings of the one stderr line
	}{
		{"missing instance", []string{"solve", filepath.Join(dir, "none.json")}, []string{"none.json", "no such file"}},
		{"broken JSON", []string{"solve", badJSON}, []string{"broken.json", "invalid JSON"}},
		{"unknown kind", []string{"solve", badKind}, []string{"kind.json", "kind", "unknown kind"}},
		{"workload NaN", []string{"solve", wlNaN}, []string{"wnan.json", "processors[0].points[1].time", "NaN"}},
		{"workload duplicate size", []string{"solve", wlDup}, []string{"wdup.json", "processors[0].points[1].size", "duplicate"}},
		{"workload non-integer size", []string{"solve", wlFrac}, []string{"wfrac.json", "processors[0].points[0].size", "integer"}},
		{"workload size as a string", []string{"solve", wlStr}, []string{"wstr.json", "processors[0].points[0].size", "number"}},
		{"workload unreachable n", []string{"solve", wlFar, "--backend", "exact"}, []string{"wfar.json", "n:", "cannot be formed"}},
		{"workload unknown objective", []string{"solve", wlObj}, []string{"wobj.json", "objective", "min-cost"}},
		{"unknown backend", []string{"solve", good, "--backend", "cplex"}, []string{"--backend", "unknown backend"}},
		{"gap out of range", []string{"solve", good, "--gap", "2"}, []string{"--gap", "[0, 1)"}},
		{"malformed time limit", []string{"solve", good, "--time-limit", "ten"}, []string{"time-limit"}},
		{"two instances", []string{"solve", "a.json", "b.json"}, []string{"accepts at most 1 arg"}},
		{"unknown command", []string{"sovle"}, []string{"unknown command"}},
		{"unknown flag", []string{"solve", good, "--fast"}, []string{"unknown flag"}},
		{"export without format", []string{"export", good}, []string{"--format"}},
		{"export bad format", []string{"export", good, "--format", "xls"}, []string{"--format", "xls"}},
		{"solve-mps missing file", []string{"solve-mps", filepath.Join(dir, "none.mps")}, []string{"none.mps", "no such file"}},
		{"solve-mps unknown section", []string{"solve-mps", badMPS}, []string{"sect.mps", "line 4", "FOO"}},
		{"solve-mps NaN", []string{"solve-mps", nanMPS}, []string{"nan.mps", "line 6"}},
		{"solve-mps truncated", []string{"solve-mps", truncMPS}, []string{"trunc.mps", "line"}},
		{"solve-mps exact", []string{"solve-mps", badMPS, "--backend", "exact"}, []string{"--backend", "exact"}},
		{"bench missing instance", []string{"bench", badSpec, "-o", filepath.Join(dir, "r.jsonl")}, []string{"spec.json", "instances[0].files[0]", "no such file"}},
		{"bench malformed duration", []string{"bench", durSpec, "-o", filepath.Join(dir, "r.jsonl")}, []string{"dur.json", "time_limits[0]", "malformed duration"}},
		{"bench NaN gap", []string{"bench", nanSpec, "-o", filepath.Join(dir, "r.jsonl")}, []string{"nanspec.json", "gaps[0]", "NaN"}},
		{"bench unknown backend", []string{"bench", beSpec, "-o", filepath.Join(dir, "r.jsonl")}, []string{"be.json", "backends[0]", "unknown backend"}},
		{"bench bad shard", []string{"bench", beSpec, "--shard", "3/2"}, []string{"--shard", "3/2"}},
		{"report missing file", []string{"bench", "report", filepath.Join(dir, "none.jsonl")}, []string{"none.jsonl", "no such file"}},
		{"gen unknown kind", []string{"gen", "tsp"}, []string{"tsp"}},
		{"exact without an algorithm", []string{"solve", "testdata/dlt-multi-table6.1-energy-limit.json", "--backend", "exact"}, []string{"dlt-multi-table6.1-energy-limit.json", "no exact algorithm"}},
		{"front unsupported kind", []string{"front", inst("dlt-flat-ch4-reference.json")}, []string{"dlt-flat"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := schedopt(t, c.args...)
			if code != 2 {
				t.Fatalf("exit %d, want 2; stderr %q", code, errs)
			}
			if out != "" {
				t.Errorf("stdout not empty: %q", out)
			}
			if strings.Count(errs, "\n") != 1 || !strings.HasSuffix(errs, "\n") {
				t.Errorf("stderr is not one line: %q", errs)
			}
			for _, w := range c.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr %q lacks %q", errs, w)
				}
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "r.jsonl")); !os.IsNotExist(err) {
		t.Errorf("a bad spec created the results file (err %v): it must fail before any job", err)
	}
}

func TestBenchRunsMergesAndReports(t *testing.T) {
	dir := t.TempDir()
	abs, _ := filepath.Abs(inst("workload-fig10-*.json"))
	spec := writeFile(t, dir, "spec.json", `{"name":"t","instances":[{"files":["`+abs+`"]}],
	  "backends":["highs",{"name":"lpsolve","max_integers":100},"exact"],"time_limits":["30s"]}`)
	out := filepath.Join(dir, "r.jsonl")
	code, stdout, errs := schedopt(t, "bench", spec, "-o", out, "--workers", "2", "--report", filepath.Join(dir, "rep"), "--no-plots")
	if code != 0 {
		t.Fatalf("bench: exit %d: %s", code, errs)
	}
	if !strings.Contains(stdout, "highs") || !strings.Contains(stdout, "0 disagreement(s)") {
		t.Errorf("summary table:\n%s", stdout)
	}
	lines := strings.Split(strings.TrimSpace(readFile(t, out)), "\n")
	if len(lines) != 9 { // 3 instances × 3 backends
		t.Errorf("%d result lines, want 9", len(lines))
	}
	for _, f := range []string{"report.md", "report.csv", "report.html"} {
		if _, err := os.Stat(filepath.Join(dir, "rep", f)); err != nil {
			t.Errorf("report file %s: %v", f, err)
		}
	}
	// Rerunning runs nothing; shards merge to the same set of jobs.
	code, _, errs = schedopt(t, "bench", spec, "-o", out)
	if code != 0 || !strings.Contains(errs, "9 job(s) already done, 0 to run") {
		t.Errorf("rerun: exit %d, stderr %q", code, errs)
	}
	var parts []string
	for _, sh := range []string{"1/2", "2/2"} {
		p := filepath.Join(dir, "part"+sh[:1]+".jsonl")
		if code, _, errs := schedopt(t, "bench", spec, "--shard", sh, "-o", p); code != 0 {
			t.Fatalf("shard %s: exit %d: %s", sh, code, errs)
		}
		parts = append(parts, p)
	}
	merged := filepath.Join(dir, "merged.jsonl")
	if code, _, errs := schedopt(t, append([]string{"bench", "merge", "-o", merged}, parts...)...); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errs)
	}
	if n := len(strings.Split(strings.TrimSpace(readFile(t, merged)), "\n")); n != 9 {
		t.Errorf("merged shards hold %d records, want 9", n)
	}
	code, stdout, errs = schedopt(t, "bench", "report", merged, "-o", filepath.Join(dir, "rep2"))
	if code != 0 || !strings.Contains(stdout, "lpsolve") {
		t.Errorf("report: exit %d, stdout %q, stderr %q", code, stdout, errs)
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFrontSweepsTheDeadline(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := schedopt(t, "front", inst("dlt-single-table5.1-minenergy.json"), "--steps", "3", "--json", "--plot", filepath.Join(dir, "f.svg"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	obj := oneObject(t, out)
	pts := obj["points"].([]any)
	tmin := obj["t_min"].(float64)
	if len(pts) != 3 {
		t.Fatalf("%d points, want 3", len(pts))
	}
	first := pts[0].(map[string]any)
	last := pts[2].(map[string]any)
	if math.Abs(first["T"].(float64)-tmin) > 1e-9 || math.Abs(last["T"].(float64)-2*tmin) > 1e-6 {
		t.Errorf("deadlines from %v to %v, want T*=%v to 2T*", first["T"], last["T"], tmin)
	}
	for _, p := range pts {
		if q := p.(map[string]any); q["status"] != "optimal" || q["E"] == nil {
			t.Errorf("point %v not solved", q)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "f.svg")); err != nil {
		t.Errorf("plot: %v", err)
	}
}

// TestFrontOfWorkloadIsSeed000Fig10: `schedopt front` on the Fig. 10 instance prints
// the paper's three points [000:L250] and, with --total at P_S = 0.5, their total
// energies 6, 5.5 and 5 (ref §2.6); t_min is T* = 2.
func TestFrontOfWorkloadIsSeed000Fig10(t *testing.T) {
	for _, c := range []struct {
		args []string
		want [][2]float64
	}{
		{[]string{"front", inst("workload-fig10.json"), "--json"}, [][2]float64{{2, 5}, {3, 4}, {6, 2}}},
		{[]string{"front", inst("workload-fig10-total-ps0.5.json"), "--total", "--json"}, [][2]float64{{2, 6}, {3, 5.5}, {6, 5}}},
	} {
		t.Run(strings.Join(c.args[1:], " "), func(t *testing.T) {
			code, out, errs := schedopt(t, c.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			obj := oneObject(t, out)
			pts := obj["points"].([]any)
			if len(pts) != len(c.want) {
				t.Fatalf("%d points, want %v", len(pts), c.want)
			}
			for k, w := range c.want {
				q := pts[k].(map[string]any)
				if q["T"].(float64) != w[0] || math.Abs(q["E"].(float64)-w[1]) > 1e-9 {
					t.Errorf("point %d = (%v, %v), want %v", k, q["T"], q["E"], w)
				}
			}
			if tm, ok := obj["t_min"].(float64); !ok || tm != 2 {
				t.Errorf("t_min = %v, want 2", obj["t_min"])
			}
			for k := range pts {
				if g, ok := pts[k].(map[string]any)["gap"].(float64); !ok || g != 0 {
					t.Errorf("point %d: gap %v, want 0 (a proven front)", k, pts[k].(map[string]any)["gap"])
				}
			}
		})
	}
}

// The fields docs/cli.md lists for front --json are there: t_min (null when --from
// and --to spare the min-time solve) and every point's gap; warm starts are given
// only where they are valid (--fixed-length=false), so no start is rejected.
func TestFrontJSONHasTheDocumentedFieldsAndValidStarts(t *testing.T) {
	for _, fixed := range []string{"true", "false"} {
		t.Run("fixed-length="+fixed, func(t *testing.T) {
			code, out, errs := schedopt(t, "front", inst("dlt-multi-tiny-m3-n4.json"), "--from", "300", "--to", "400", "--step", "50",
				"--fixed-length="+fixed, "--time-limit", "30s", "--json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			obj := oneObject(t, out)
			if v, ok := obj["t_min"]; !ok || v != nil {
				t.Errorf("t_min = %v (present %v), want null", v, ok)
			}
			pts := obj["points"].([]any)
			if len(pts) != 3 {
				t.Fatalf("%d points, want 3", len(pts))
			}
			for _, p := range pts {
				q := p.(map[string]any)
				if _, ok := q["gap"].(float64); !ok || q["status"] != "optimal" {
					t.Errorf("point %v: want optimal with a gap", q)
				}
				if msg, _ := q["message"].(string); strings.Contains(msg, "start rejected") {
					t.Errorf("point T=%v: %s", q["T"], msg)
				}
			}
		})
	}
}

// instancePath matches the bundled instance files that help texts refer to.
var instancePath = regexp.MustCompile(`instances/[A-Za-z0-9._-]+\.json`)

func TestEveryCommandHasHelpWithExamples(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Name() == "help" {
			return
		}
		if strings.TrimSpace(c.Example) == "" {
			t.Errorf("%s has no examples in --help", c.CommandPath())
		}
		for _, f := range instancePath.FindAllString(c.Example+c.Long, -1) {
			if _, err := os.Stat(filepath.Join(repo, f)); err != nil {
				t.Errorf("%s --help names %s, which does not exist", c.CommandPath(), f)
			}
		}
		if c.Short == "" {
			t.Errorf("%s has no summary", c.CommandPath())
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(newRoot(&env{stdout: io.Discard, stderr: io.Discard}))
	code, out, _ := schedopt(t, "bench", "--help")
	if code != 0 || !strings.Contains(out, "Examples:") || !strings.Contains(out, "--shard") {
		t.Errorf("bench --help: exit %d\n%s", code, out)
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := schedopt(t, "version", "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	obj := oneObject(t, out)
	if !strings.HasPrefix(obj["highs"].(string), "HiGHS 1.") || !strings.HasPrefix(obj["lpsolve"].(string), "lp_solve 5.5") {
		t.Errorf("versions %v", obj)
	}
}

func TestGenWritesLoadableDeterministicInstances(t *testing.T) {
	dir := t.TempDir()
	extra := map[string][]string{"stencil": {"--grid", "cuboid"}}
	for _, kind := range []string{"dlt-flat", "dlt-single", "dlt-multi", "stencil", "workload"} {
		t.Run(kind, func(t *testing.T) {
			args := append([]string{"gen", kind, "--seed", "7"}, extra[kind]...)
			code, a, errs := schedopt(t, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			_, b, _ := schedopt(t, args...)
			if a != b {
				t.Errorf("the same seed gave two different instances")
			}
			obj := oneObject(t, a)
			if obj["kind"] != kind {
				t.Errorf("kind %v, want %s", obj["kind"], kind)
			}
			p := filepath.Join(dir, kind+".json")
			if code, _, errs := schedopt(t, append(args, "-o", p)...); code != 0 || readFile(t, p) != a {
				t.Errorf("-o: exit %d (%s), or the file differs from stdout", code, errs)
			}
		})
	}
	code, _, errs := schedopt(t, "gen", "dlt-multi", "--m", "many")
	if code != 2 || !strings.Contains(errs, "--m") {
		t.Errorf("bad flag value: exit %d, stderr %q", code, errs)
	}
}

// TestInstanceOnStandardInput: `schedopt gen ... | schedopt solve` (no argument, or
// "-") reads the instance from stdin, under the same input limit, and bad input there
// is named "stdin" (exit 2).
func TestInstanceOnStandardInput(t *testing.T) {
	inst, err := os.ReadFile("../../instances/dlt-multi-tiny-m3-n4.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		args  []string
		input string
		code  int
		want  string // in stdout (exit 0) or stderr
	}{
		{"solve with no argument", []string{"solve", "--json"}, string(inst), 0, `"status": "optimal"`},
		{"solve -", []string{"solve", "-", "--json"}, string(inst), 0, `"status": "optimal"`},
		{"export with no argument", []string{"export", "--format", "lp"}, string(inst), 0, "Subject To"},
		{"bad input on stdin", []string{"solve"}, `{"kind":"dlt-multi","V":-1}`, 2, "schedopt: stdin: "},
		{"empty stdin", []string{"solve", "-"}, ``, 2, "schedopt: stdin: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], tc.args...)
			cmd.Env = append(os.Environ(), "SCHEDOPT_TEST_AS_CLI=1")
			cmd.Stdin = strings.NewReader(tc.input)
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			_ = cmd.Run()
			if code := cmd.ProcessState.ExitCode(); code != tc.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, tc.code, stderr.String())
			}
			out := stdout.String()
			if tc.code != 0 {
				out = stderr.String()
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("output %.300q does not contain %q", out, tc.want)
			}
		})
	}
	t.Run("stdin over the input limit", func(t *testing.T) {
		e := &env{stdin: strings.NewReader(strings.Repeat(" ", 100)), limits: kinds.Limits{MaxInputBytes: 10}}
		_, err := e.readInstance(stdinArg)
		var fe *domain.FieldError
		if !errors.As(err, &fe) || fe.File != stdinName || !strings.Contains(fe.Reason, "more than 10 bytes") {
			t.Errorf("got %v, want a FieldError for stdin over 10 bytes", err)
		}
	})
}
