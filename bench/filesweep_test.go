package bench_test

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedopt/schedopt/bench"
	"github.com/schedopt/schedopt/benchfile"
	"github.com/schedopt/schedopt/benchstats"
	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/model"
	"github.com/schedopt/schedopt/solu"
	"github.com/schedopt/schedopt/solve"
)

// fileSpec writes a spec naming the test set's directory, a .solu file and the JSON
// instance bundled with the repository, and returns its path.
func fileSpec(t *testing.T, spec string, soluText string) string {
	t.Helper()
	dir := t.TempDir()
	abs, err := filepath.Abs("testdata/miplib3")
	if err != nil {
		t.Fatal(err)
	}
	spec = strings.ReplaceAll(spec, "SET", abs)
	if err := os.WriteFile(filepath.Join(dir, "set.solu"), []byte(soluText), 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "spec.json")
	if err := os.WriteFile(p, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func filePlan(t *testing.T, specPath string) (*bench.Plan, error) {
	t.Helper()
	s, err := bench.LoadSpec(specPath)
	if err != nil {
		return nil, err
	}
	return bench.NewPlan(s, bench.PlanOptions{SpecFile: specPath})
}

// The .solu file of the tests: p0033's optimum deliberately wrong (every correct
// answer is a fail), flugpl's =best= worse than its optimum 1201500 (a better), egout
// right.
const testSolu = "# test\n=opt= p0033 3000\n=best= flugpl 1300000\n=opt= egout 568.1007\n"

func TestFileSweepVerdictsPermutationsAndReport(t *testing.T) {
	specPath := fileSpec(t, `{"instances": [{"files": ["SET"]}], "solu": "set.solu",
	  "backends": ["highs", "cbc"], "time_limits": ["20s"], "permutations": 1, "sgm_shift": 10}`, testSolu)
	p, err := filePlan(t, specPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Instances) != 3 || len(p.Jobs) != 3*2*2 {
		t.Fatalf("%d instances, %d jobs; want 3 and 12", len(p.Instances), len(p.Jobs))
	}
	for _, j := range p.Jobs {
		if !strings.HasSuffix(j.Key, "|perm=0") && !strings.HasSuffix(j.Key, "|perm=1") {
			t.Fatalf("key %q lacks the permutation", j.Key)
		}
	}
	out := filepath.Join(t.TempDir(), "r.jsonl")
	sum, err := bench.RunSweep(context.Background(), p, bench.SweepOptions{Output: out, Workers: 2, CheckPoint: bench.RatCheck(benchfile.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Ran != 12 {
		t.Fatalf("ran %d jobs, want 12", sum.Ran)
	}
	recs, err := bench.ReadRecords(out)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]solu.Verdict{"p0033": solu.Fail, "flugpl": solu.Better, "egout": solu.OK}
	for _, r := range recs {
		if r.Kind != "mps" || r.Solu == nil || r.Sense != "min" {
			t.Fatalf("%s: kind %q, solu %v, sense %q", r.Key, r.Kind, r.Solu, r.Sense)
		}
		if r.Status != solve.StatusOptimal {
			t.Errorf("%s: status %s (%s)", r.Key, r.Status, r.Error)
			continue
		}
		if r.Solu.Verdict != want[r.Name] {
			t.Errorf("%s: verdict %s (%s), want %s", r.Key, r.Solu.Verdict, r.Solu.Reason, want[r.Name])
		}
		if r.Solu.Expected == nil || r.Solu.Value == nil {
			t.Errorf("%s: .solu entry not recorded: %+v", r.Key, r.Solu)
		}
		if pc := r.PointCheck; pc == nil || !pc.Feasible || !pc.FloatFeasible || pc.Objective == "" {
			t.Errorf("%s: exact point check %+v", r.Key, pc)
		}
	}
	// Resume: nothing runs again.
	sum, err = bench.RunSweep(context.Background(), p, bench.SweepOptions{Output: out, Workers: 2})
	if err != nil || sum.Ran != 0 || sum.Skipped != 12 {
		t.Fatalf("resume ran %d, skipped %d, err %v", sum.Ran, sum.Skipped, err)
	}
	rep := bench.BuildReport(recs)
	if rep.Files == nil {
		t.Fatal("no file-set section")
	}
	if got := rep.Files.Fails(); got != 4 {
		t.Errorf("%d fails, want 4 (p0033 on 2 backends × 2 permutations)", got)
	}
	if len(rep.Files.Notable) != 8 {
		t.Errorf("%d fails and betters listed, want 8", len(rep.Files.Notable))
	}
	s := rep.Files.Stats
	if s.Problems != 6 || len(s.Backends) != 2 || s.VirtualBest.Solved != 4 {
		t.Errorf("stats: %d problems, %d backends, virtual best solved %d; want 6, 2, 4", s.Problems, len(s.Backends), s.VirtualBest.Solved)
	}
	if pts := rep.Files.Points; len(pts) != 2 || pts[0].Checked != 6 || pts[0].FloatOnly != 0 {
		t.Errorf("point summaries %+v, want 6 points checked per backend", pts)
	}
	if len(s.Variability) != 6 {
		t.Errorf("%d variability rows, want 6 (3 instances × 2 backends)", len(s.Variability))
	}
	var sumText strings.Builder
	if err := rep.WriteSummary(&sumText); err != nil || !strings.Contains(sumText.String(), "MPS/LP files: 6 problems") ||
		!strings.Contains(sumText.String(), "virtual best") {
		t.Errorf("summary lacks the file-set table (%v):\n%s", err, sumText.String())
	}
	var csvText strings.Builder
	if err := rep.WriteCSV(&csvText); err != nil || !strings.Contains(csvText.String(), "table,files") ||
		strings.Count(csvText.String(), ",opt,3000,fail,") != 4 || strings.Count(csvText.String(), ",best,1.3e+06,better,") != 4 {
		t.Errorf("CSV lacks the file-set tables or their fails and betters (%v):\n%s", err, csvText.String())
	}
	var md strings.Builder
	if err := rep.WriteMarkdown(&md, "t"); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"## Benchmark set (MPS and LP files)", "| highs |", "| cbc |", "*virtual best*",
		"Every fail and better (8)", "**fail**", "**better**", "Variability across permutations", "performance_profile.svg"} {
		if !strings.Contains(md.String(), w) {
			t.Errorf("report lacks %q", w)
		}
	}
}

func TestFileInstancesMixWithKindInstances(t *testing.T) {
	abs, _ := filepath.Abs("../instances/workload-small.json")
	specPath := fileSpec(t, `{"instances": [{"files": ["SET/p0033.mps.gz", "`+abs+`"]}],
	  "backends": ["highs", "exact"], "time_limits": ["20s"]}`, "")
	p, err := filePlan(t, specPath)
	if err != nil {
		t.Fatal(err)
	}
	var files, kinds int
	for _, j := range p.Jobs {
		if j.Instance.IsModelFile() {
			files++
			if j.Backend != "highs" {
				t.Errorf("model file job on %s", j.Backend)
			}
		} else {
			kinds++
		}
	}
	if files != 1 || kinds != 2 {
		t.Fatalf("%d file jobs and %d kind jobs, want 1 and 2", files, kinds)
	}
}

func TestBadModelFileStopsThePlanWithFileAndLine(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "broken.mps")
	os.WriteFile(bad, []byte("NAME b\nROWS\n N obj\nCOLUMNS\n x obj oops\nENDATA\n"), 0o644)
	for _, tc := range []struct{ name, spec, solu, want string }{
		{"malformed MPS", `{"instances": [{"files": ["` + dir + `"]}], "backends": ["highs"]}`, "", bad + ": line 5:"},
		{"malformed .solu", `{"instances": [{"files": ["SET"]}], "solu": "set.solu", "backends": ["highs"]}`, "=opt= p0033\n", "set.solu: line 1:"},
		{"empty directory", `{"instances": [{"files": ["` + t.TempDir() + `"]}], "backends": ["highs"]}`, "", "holds no .mps"},
		{"bad sc reading", `{"instances": [{"files": ["SET"]}], "sc_in_integer": "cplex", "backends": ["highs"]}`, "", "sc_in_integer"},
		{"negative permutations", `{"instances": [{"files": ["SET"]}], "permutations": -1, "backends": ["highs"]}`, "", "permutations: must be >= 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := filePlan(t, fileSpec(t, tc.spec, tc.solu))
			var fe *domain.FieldError
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want a FieldError containing %q", err, tc.want)
			}
		})
	}
}

// stubRunner is a FileRunner that answers from a table, to test the judging without
// a solver.
type stubRunner struct{ res map[string]*solve.Result }

func (s stubRunner) RunFile(ctx context.Context, j bench.FileJob) (bench.FileOutcome, error) {
	r := *s.res[j.Name]
	return bench.FileOutcome{Result: &r, PeakRSS: 42 << 20, Memory: "stub"}, nil
}

func TestFileRunnerSeamJudgesAnyRunner(t *testing.T) {
	v := func(x float64) *float64 { return &x }
	ok := &solve.EvaluatorCheck{OK: true}
	runner := stubRunner{res: map[string]*solve.Result{
		"p0033":  {Status: solve.StatusInfeasible},
		"flugpl": {Status: solve.StatusFeasible, Objective: v(1250000), Check: solve.Check{Evaluator: ok}, Solution: map[string]any{"values": map[string]any{"x": 1.0}}},
		"egout":  {Status: solve.StatusError, Objective: v(1), Check: solve.Check{Evaluator: &solve.EvaluatorCheck{OK: false, Message: "row r1 violated"}}},
	}}
	specPath := fileSpec(t, `{"instances": [{"files": ["SET"]}], "solu": "set.solu", "backends": ["highs"], "time_limits": ["1s"]}`,
		"=opt= p0033 3089\n=best= flugpl 1300000\n=opt= egout 568.1007\n")
	p, err := filePlan(t, specPath)
	if err != nil {
		t.Fatal(err)
	}
	var checked []string
	out := filepath.Join(t.TempDir(), "r.jsonl")
	_, err = bench.RunSweep(context.Background(), p, bench.SweepOptions{Output: out, Workers: 1, FileRunner: runner, Overrun: time.Second,
		CheckPoint: func(ctx context.Context, path string, names []string, x []float64) (*bench.PointCheck, error) {
			checked = append(checked, filepath.Base(path))
			return &bench.PointCheck{Feasible: false, FloatFeasible: true, MaxAbsViolation: 1e-3, Worst: "row R1 by 1e-3"}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := bench.ReadRecords(out)
	got := map[string]*bench.Record{}
	for _, r := range recs {
		got[r.Name] = r
	}
	if v := got["p0033"].Solu.Verdict; v != solu.Fail {
		t.Errorf("infeasible on a known optimum: %s", v)
	}
	// flugpl's point beats =best=, but the exact check rejects it: fail, with the evidence.
	if r := got["flugpl"]; r.Solu.Verdict != solu.Fail || !strings.Contains(r.Solu.Reason, "row R1") || r.PointCheck == nil || !r.PointCheck.FloatFeasible {
		t.Errorf("flugpl: %+v, point check %+v", r.Solu, r.PointCheck)
	}
	if v := got["egout"].Solu.Verdict; v != solu.Fail {
		t.Errorf("a point that violates the model: %s", v)
	}
	if len(checked) != 1 || checked[0] != "flugpl.mps.gz" {
		t.Errorf("points checked: %v, want flugpl's only", checked)
	}
	if r := got["p0033"]; r.PeakRSS == nil || *r.PeakRSS != 42<<20 || r.Memory != "stub" {
		t.Errorf("memory not recorded: %v %q", r.PeakRSS, r.Memory)
	}
	fr := bench.BuildReport(recs).Files
	if len(fr.Points) != 1 || fr.Points[0].FloatOnly != 1 {
		t.Errorf("point summary %+v, want one float-only rejection", fr.Points)
	}
	if o := bench.Outcome(got["flugpl"]); o != benchstats.Fail {
		t.Errorf("outcome %v", o)
	}
}

// TestCommandLineBackends runs the installed highs and cbc programs as the backends
// cmd:highs and cmd:cbc, on the files as written and on a permutation (which they
// read as a written MPS file), and judges them as any backend. flugpl's permuted file
// is the one CBC once refused ("Bad image": two-character column names).
func TestCommandLineBackends(t *testing.T) {
	specPath := fileSpec(t, `{"instances": [{"files": ["SET/p0033.mps.gz", "SET/egout.mps.gz", "SET/flugpl.mps.gz"]}], "solu": "set.solu",
	  "backends": ["cmd:highs", "cmd:cbc"], "time_limits": ["20s"], "permutations": 1}`, "=opt= p0033 3089\n=opt= egout 568.1007\n=opt= flugpl 1201500\n")
	p, err := filePlan(t, specPath)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "r.jsonl")
	if _, err := bench.RunSweep(context.Background(), p, bench.SweepOptions{Output: out, Workers: 2, CheckPoint: bench.RatCheck(benchfile.Options{})}); err != nil {
		t.Fatal(err)
	}
	recs, _ := bench.ReadRecords(out)
	if len(recs) != 12 {
		t.Fatalf("%d records, want 12", len(recs))
	}
	for _, r := range recs {
		if r.Status != solve.StatusOptimal || r.Solu.Verdict != solu.OK {
			t.Errorf("%s: status %s (%s), verdict %s %s", r.Key, r.Status, r.Error, r.Solu.Verdict, r.Solu.Reason)
		}
		if r.PeakRSS == nil || *r.PeakRSS <= 0 || r.Memory != bench.CmdMemory {
			t.Errorf("%s: peak memory %v (%q)", r.Key, r.PeakRSS, r.Memory)
		}
		if r.PointCheck == nil || !r.PointCheck.Feasible {
			t.Errorf("%s: point check %+v", r.Key, r.PointCheck)
		}
	}
	st := bench.BuildReport(recs).Files.Stats
	for _, b := range st.Backends {
		if b.Solved != 6 || math.IsNaN(b.FirstSGM) || b.CertSeconds != 0 {
			t.Errorf("%s: solved %d, first-solve sgm %g, certification %g s", b.Backend, b.Solved, b.FirstSGM, b.CertSeconds)
		}
	}
	if _, err := filePlan(t, fileSpec(t, `{"instances": [{"files": ["SET"]}], "backends": ["cmd:gurobi"]}`, "")); err == nil ||
		!strings.Contains(err.Error(), `backends[0]: unknown command-line solver "cmd:gurobi"`) {
		t.Errorf("unknown program: %v", err)
	}
}

// killedRunner waits for its context like a child process killed at the hard stop.
type killedRunner struct{}

func (killedRunner) RunFile(ctx context.Context, j bench.FileJob) (bench.FileOutcome, error) {
	<-ctx.Done()
	return bench.FileOutcome{}, errors.New("child killed")
}

func TestFileJobStoppedAtTheHardStopIsATimeout(t *testing.T) {
	specPath := fileSpec(t, `{"instances": [{"files": ["SET/p0033.mps.gz"]}], "solu": "set.solu", "backends": ["highs"], "time_limits": ["0.1s"]}`,
		"=opt= p0033 3089\n")
	p, err := filePlan(t, specPath)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "r.jsonl")
	if _, err := bench.RunSweep(context.Background(), p, bench.SweepOptions{Output: out, Workers: 1, FileRunner: killedRunner{}, Overrun: 50 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	recs, _ := bench.ReadRecords(out)
	if len(recs) != 1 {
		t.Fatalf("%d records", len(recs))
	}
	r := recs[0]
	if r.Status != solve.StatusTimeLimit || !r.Abandoned || r.Solu.Verdict != solu.Timeout || bench.Outcome(r) != benchstats.Timeout {
		t.Errorf("status %s, abandoned %v, verdict %s, outcome %v; want a time-out", r.Status, r.Abandoned, r.Solu.Verdict, bench.Outcome(r))
	}
}

// RatCheck reads SC bounds inside integer markers as the sweep does, so the exact check
// judges the column kinds the solvers were given.
func TestRatCheckFollowsTheSCReading(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sc.mps")
	os.WriteFile(p, []byte("NAME sc\nROWS\n N obj\n L c1\nCOLUMNS\n    m 'MARKER' 'INTORG'\n    x obj -1 c1 1\n    m 'MARKER' 'INTEND'\nRHS\n    RHS c1 10\nBOUNDS\n LO BND x 2\n SC BND x 5.5\nENDATA\n"), 0o644)
	for _, tc := range []struct {
		sc   model.SCReading
		want bool
	}{{model.SCSemiContinuous, true}, {model.SCSemiInteger, false}} {
		pc, err := bench.RatCheck(benchfile.Options{SCInInteger: tc.sc})(context.Background(), p, []string{"x"}, []float64{2.5})
		if err != nil {
			t.Fatal(err)
		}
		if pc.Feasible != tc.want || pc.FloatFeasible != tc.want {
			t.Errorf("reading %v: x = 2.5 feasible %v (float %v), want %v", tc.sc, pc.Feasible, pc.FloatFeasible, tc.want)
		}
	}
}

// The agreement table compares maximisations the right way round: a solution below a
// maximisation's upper bound agrees with it, one above it does not.
func TestAgreementOnMaximisation(t *testing.T) {
	v := func(x float64) *float64 { return &x }
	g := 1e-6
	rec := func(backend, status string, obj, bound float64) *bench.Record {
		return &bench.Record{Key: backend, Instance: "m.mps", Kind: "mps", Name: "m", Backend: backend, Sense: "max", RelGap: &g, Status: status,
			Result: &solve.Result{Status: status, Objective: v(obj), Bound: v(bound), Check: solve.Check{Evaluator: &solve.EvaluatorCheck{OK: true}}}}
	}
	ok := bench.BuildReport([]*bench.Record{rec("highs", solve.StatusOptimal, 10, 10), rec("cbc", solve.StatusFeasible, 9, 12)})
	if len(ok.Disagreements) != 0 {
		t.Errorf("a worse point of a maximisation disagrees: %+v", ok.Disagreements)
	}
	bad := bench.BuildReport([]*bench.Record{rec("highs", solve.StatusOptimal, 10, 10), rec("cbc", solve.StatusFeasible, 11, 12)})
	if len(bad.Disagreements) != 1 || !strings.Contains(bad.Disagreements[0].Reason, "11 beats highs's proven optimum 10") &&
		!strings.Contains(bad.Disagreements[0].Reason, "11 is above highs's proven bound 10") {
		t.Errorf("a point above a proven maximum: %+v", bad.Disagreements)
	}
}

// A permuted file is written with names of our own, so a program's answer maps back
// even when the file's names are ones the MPS writer rewrites (a leading digit, as
// in MIPLIB's stein27).
func TestCommandLinePermutationWithDigitNames(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "digits.mps")
	os.WriteFile(p, []byte("NAME digits\nROWS\n N obj\n G 1r\n G 2r\nCOLUMNS\n    M 'MARKER' 'INTORG'\n    0001 obj 1 1r 1\n    0002 obj 2 1r 1\n    0002 2r 1\n    0003 obj 3 2r 1\n    M 'MARKER' 'INTEND'\nRHS\n    RHS 1r 1\n    RHS 2r 1\nBOUNDS\n UP BND 0001 1\n UP BND 0002 1\n UP BND 0003 1\nENDATA\n"), 0o644)
	specPath := fileSpec(t, `{"instances": [{"files": ["`+p+`"]}], "solu": "set.solu", "backends": ["cmd:highs"], "time_limits": ["20s"], "permutations": 2}`,
		"=opt= digits 2\n")
	pl, err := filePlan(t, specPath)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "r.jsonl")
	if _, err := bench.RunSweep(context.Background(), pl, bench.SweepOptions{Output: out, Workers: 1, CheckPoint: bench.RatCheck(benchfile.Options{})}); err != nil {
		t.Fatal(err)
	}
	recs, _ := bench.ReadRecords(out)
	if len(recs) != 3 {
		t.Fatalf("%d records, want 3", len(recs))
	}
	for _, r := range recs {
		if r.Status != solve.StatusOptimal || r.Solu.Verdict != solu.OK || r.PointCheck == nil || !r.PointCheck.Feasible {
			t.Errorf("permutation %d: status %s (%s), verdict %s, point check %+v", r.Permutation, r.Status, r.Error, r.Solu.Verdict, r.PointCheck)
		}
	}
}

// TestSoluStatusesAreTheResultStatuses: package solu spells the result statuses it
// judges itself (it stays free of the solve layer), and the sweep hands it the
// statuses of solve; the two lists must not drift apart.
func TestSoluStatusesAreTheResultStatuses(t *testing.T) {
	pairs := [][2]string{
		{solu.StatusOptimal, solve.StatusOptimal},
		{solu.StatusFeasible, solve.StatusFeasible},
		{solu.StatusInfeasible, solve.StatusInfeasible},
		{solu.StatusUnbounded, solve.StatusUnbounded},
		{solu.StatusTimeLimit, solve.StatusTimeLimit},
		{solu.StatusInterrupted, solve.StatusInterrupted},
		{solu.StatusError, solve.StatusError},
	}
	for _, p := range pairs {
		if p[0] != p[1] {
			t.Errorf("solu says %q where solve says %q", p[0], p[1])
		}
	}
}
