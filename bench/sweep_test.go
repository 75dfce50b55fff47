package bench_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/bench"
	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/solve"
)

// fakeProblem is a Problem whose "solve" returns the instance's value: enough to test
// the sweep machinery without a solver.
type fakeProblem struct {
	name  string
	value float64
	panic bool
	fail  bool
	deaf  time.Duration // sleep this long ignoring ctx, like a solver in HiGHS presolve
	calls *atomic.Int64
}

func (p *fakeProblem) Kind() string { return "workload" }
func (p *fakeProblem) Name() string { return p.name }
func (p *fakeProblem) Formulate() (*solve.Formulated, error) {
	return nil, errors.New("fake: no model")
}
func (p *fakeProblem) Solve(ctx context.Context, req solve.Request) (*solve.Result, error) {
	if p.calls != nil {
		p.calls.Add(1)
	}
	if p.panic {
		panic("fake adapter bug")
	}
	if p.fail {
		return nil, errors.New("fake solver failure")
	}
	if p.deaf > 0 {
		time.Sleep(p.deaf)
	}
	if req.Backend == solve.Exact && p.value < 0 {
		return nil, solve.ErrNoExact
	}
	v := p.value
	return &solve.Result{Kind: "workload", Name: p.name, Backend: req.Backend, Status: solve.StatusOptimal,
		Objective: &v, Bound: &v, Seconds: solve.Seconds{Solve: 0.01},
		Check: solve.Check{Evaluator: &solve.EvaluatorCheck{OK: true, Objective: v}}}, nil
}
func (p *fakeProblem) Heuristics() []string { return []string{"greedy"} }
func (p *fakeProblem) RunHeuristic(ctx context.Context, name string) (*solve.Result, error) {
	v := p.value * 1.5
	return &solve.Result{Kind: "workload", Name: p.name, Backend: "heuristic:" + name, Status: solve.StatusFeasible,
		Objective: &v, Check: solve.Check{Evaluator: &solve.EvaluatorCheck{OK: true, Objective: v}}}, nil
}

// fakeLoader loads {"kind":"workload","value":..,"panic":..,"fail":..}.
func fakeLoader(calls *atomic.Int64) func([]byte, string) (kinds.Problem, error) {
	return func(data []byte, name string) (kinds.Problem, error) {
		var in struct {
			Kind  string   `json:"kind"`
			Value *float64 `json:"value"`
			Panic bool     `json:"panic"`
			Fail  bool     `json:"fail"`
			Deaf  float64  `json:"deaf_seconds"`
		}
		if err := json.Unmarshal(data, &in); err != nil {
			return nil, domain.Errorf("", "invalid JSON: %v", err)
		}
		if in.Value == nil {
			return nil, domain.Errorf("value", "missing")
		}
		return &fakeProblem{name: name, value: *in.Value, panic: in.Panic, fail: in.Fail,
			deaf: time.Duration(in.Deaf * float64(time.Second)), calls: calls}, nil
	}
}

func fakeSolver(name string) (backends.Solver, error) { return nil, nil }

// writeInstances writes n fake instances into dir and returns dir.
func writeInstances(t *testing.T, dir string, n int, extra map[int]string) {
	t.Helper()
	for i := 0; i < n; i++ {
		body := fmt.Sprintf(`{"kind":"workload","value":%d}`, 10+i)
		if e, ok := extra[i]; ok {
			body = e
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("inst%02d.json", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func writeSpec(t *testing.T, dir, body string) string {
	t.Helper()
	p := filepath.Join(dir, "spec.json")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func plan(t *testing.T, specPath string, calls *atomic.Int64) *bench.Plan {
	t.Helper()
	spec, err := bench.LoadSpec(specPath)
	if err != nil {
		t.Fatal(err)
	}
	p, err := bench.NewPlan(spec, bench.PlanOptions{SpecFile: specPath, Load: fakeLoader(calls)})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func readKeys(t *testing.T, path string) []string {
	t.Helper()
	recs, err := bench.ReadRecords(path)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, r := range recs {
		keys = append(keys, r.Key)
	}
	return keys
}

const threeBackends = `{"instances":[{"files":["inst*.json"]}],
  "backends":["highs","exact","heuristic:*"], "time_limits":["10s"], "gaps":[1e-6, 0.1]}`

func TestSweepPlanExpandsEveryCombination(t *testing.T) {
	dir := t.TempDir()
	writeInstances(t, dir, 3, nil)
	p := plan(t, writeSpec(t, dir, threeBackends), nil)
	// 3 instances × (highs at 2 gaps + exact + heuristic:greedy) = 12 jobs.
	if got, want := len(p.Jobs), 12; got != want {
		t.Fatalf("jobs = %d, want %d", got, want)
	}
	seen := map[string]bool{}
	for _, j := range p.Jobs {
		if seen[j.Key] {
			t.Errorf("duplicate job key %q", j.Key)
		}
		seen[j.Key] = true
	}
	if !seen[filepath.Join(dir, "inst01.json")+"|heuristic:greedy|tl=10s|rep=0"] {
		t.Errorf("no heuristic job for inst01 in %v", p.Jobs)
	}
}

func TestSweepResumesAfterBeingKilled(t *testing.T) {
	dir := t.TempDir()
	writeInstances(t, dir, 5, nil)
	spec := writeSpec(t, dir, threeBackends)
	out := filepath.Join(dir, "results.jsonl")
	var calls atomic.Int64
	p := plan(t, spec, &calls)
	total := len(p.Jobs)

	// Kill the sweep after 4 finished jobs.
	ctx, cancel := context.WithCancel(context.Background())
	var done atomic.Int64
	_, err := bench.RunSweep(ctx, p, bench.SweepOptions{Output: out, Workers: 2, NewSolver: fakeSolver, Load: fakeLoader(&calls),
		OnDone: func(*bench.Record) {
			if done.Add(1) == 4 {
				cancel()
			}
		}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("killed sweep returned %v, want context.Canceled", err)
	}
	first := readKeys(t, out)
	if len(first) < 4 || len(first) >= total {
		t.Fatalf("after the kill the file has %d records, want between 4 and %d", len(first), total-1)
	}
	// A kill during a write leaves half a line: the rerun must repair it.
	f, _ := os.OpenFile(out, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"key":"half a rec`)
	f.Close()

	calls.Store(0)
	sum, err := bench.RunSweep(context.Background(), p, bench.SweepOptions{Output: out, Workers: 2, NewSolver: fakeSolver, Load: fakeLoader(&calls)})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Skipped != len(first) || sum.Ran != total-len(first) {
		t.Errorf("rerun skipped %d and ran %d, want %d and %d", sum.Skipped, sum.Ran, len(first), total-len(first))
	}
	keys := readKeys(t, out)
	if len(keys) != total {
		t.Fatalf("after the rerun the file has %d records, want %d", len(keys), total)
	}
	uniq := map[string]bool{}
	for _, k := range keys {
		uniq[k] = true
	}
	if len(uniq) != total {
		t.Errorf("the file has %d distinct keys for %d records: jobs ran twice", len(uniq), len(keys))
	}
	// A third run has nothing to do.
	sum, err = bench.RunSweep(context.Background(), p, bench.SweepOptions{Output: out, NewSolver: fakeSolver, Load: fakeLoader(nil)})
	if err != nil || sum.Ran != 0 || sum.Skipped != total {
		t.Errorf("third run: %+v, %v; want nothing to run", sum, err)
	}
}

func TestSweepRecordsCrashesAndFailuresAndGoesOn(t *testing.T) {
	dir := t.TempDir()
	writeInstances(t, dir, 4, map[int]string{
		1: `{"kind":"workload","value":5,"panic":true}`,
		2: `{"kind":"workload","value":5,"fail":true}`,
	})
	spec := writeSpec(t, dir, `{"instances":[{"files":["inst*.json"]}],"backends":["highs"]}`)
	out := filepath.Join(dir, "r.jsonl")
	sum, err := bench.RunSweep(context.Background(), plan(t, spec, nil), bench.SweepOptions{Output: out, NewSolver: fakeSolver, Load: fakeLoader(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Ran != 4 || sum.Failed != 2 {
		t.Errorf("ran %d, failed %d; want 4 and 2", sum.Ran, sum.Failed)
	}
	recs, _ := bench.ReadRecords(out)
	by := map[string]*bench.Record{}
	for _, r := range recs {
		by[filepath.Base(r.Instance)] = r
	}
	if r := by["inst01.json"]; r == nil || !r.Crashed || r.Status != solve.StatusError || !strings.Contains(r.Error, "fake adapter bug") {
		t.Errorf("panicking job recorded as %+v", r)
	}
	if r := by["inst02.json"]; r == nil || r.Crashed || r.Status != solve.StatusError || !strings.Contains(r.Error, "fake solver failure") {
		t.Errorf("failing job recorded as %+v", r)
	}
	if r := by["inst03.json"]; r == nil || r.Status != solve.StatusOptimal {
		t.Errorf("job after the failures recorded as %+v", r)
	}
}

func TestSweepGivesUpOnASolverDeafToItsHardStop(t *testing.T) {
	dir := t.TempDir()
	writeInstances(t, dir, 3, map[int]string{0: `{"kind":"workload","value":5,"deaf_seconds":30}`})
	spec := writeSpec(t, dir, `{"instances":[{"files":["inst*.json"]}],"backends":["highs"],"time_limits":["100ms"]}`)
	out := filepath.Join(dir, "r.jsonl")
	t0 := time.Now()
	sum, err := bench.RunSweep(context.Background(), plan(t, spec, nil), bench.SweepOptions{Output: out, Workers: 1,
		Overrun: 100 * time.Millisecond, NewSolver: fakeSolver, Load: fakeLoader(nil)})
	took := time.Since(t0)
	if err != nil {
		t.Fatal(err)
	}
	// 0.1 s limit + 0.1 s overrun + GiveUpGrace, then two instant jobs; far below the 30 s sleep.
	if limit := 200*time.Millisecond + bench.GiveUpGrace + 3*time.Second; took > limit {
		t.Errorf("sweep took %s with a deaf job; want under %s", took, limit)
	}
	if sum.Ran != 3 {
		t.Errorf("ran %d jobs; want 3 (the deaf one recorded, the others run)", sum.Ran)
	}
	recs, _ := bench.ReadRecords(out)
	by := map[string]*bench.Record{}
	for _, r := range recs {
		by[filepath.Base(r.Instance)] = r
	}
	if r := by["inst00.json"]; r == nil || !r.Abandoned || r.Status != solve.StatusTimeLimit || !strings.Contains(r.Error, "abandoned") {
		t.Errorf("deaf job recorded as %+v; want abandoned with status time_limit", r)
	}
	for _, name := range []string{"inst01.json", "inst02.json"} {
		if r := by[name]; r == nil || r.Status != solve.StatusOptimal || r.Abandoned {
			t.Errorf("%s after the deaf job recorded as %+v", name, r)
		}
	}
}

func TestShardsPartitionTheJobsAndMergeJoinsThem(t *testing.T) {
	dir := t.TempDir()
	writeInstances(t, dir, 6, nil)
	spec := writeSpec(t, dir, threeBackends)
	p := plan(t, spec, nil)
	const n = 3
	var parts []string
	owned := map[string]int{}
	ranIn := map[string]int{} // key -> the shard index whose part holds it
	for i := 1; i <= n; i++ {
		sh, err := bench.ParseShard(fmt.Sprintf("%d/%d", i, n))
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, fmt.Sprintf("part%d.jsonl", i))
		if _, err := bench.RunSweep(context.Background(), p, bench.SweepOptions{Output: out, Shard: sh, NewSolver: fakeSolver, Load: fakeLoader(nil)}); err != nil {
			t.Fatal(err)
		}
		for _, k := range readKeys(t, out) {
			owned[k]++
			ranIn[k] = i
		}
		parts = append(parts, out)
	}
	for _, j := range p.Jobs {
		if owned[j.Key] != 1 {
			t.Errorf("job %s ran in %d shards, want exactly 1", j.Key, owned[j.Key])
		}
	}
	// Merging a part twice drops the duplicates.
	merged := filepath.Join(dir, "all.jsonl")
	res, err := bench.Merge(merged, append(parts, parts[0]))
	if err != nil {
		t.Fatal(err)
	}
	keys := readKeys(t, merged)
	if len(keys) != len(p.Jobs) || res.Records != len(p.Jobs) || res.Duplicates != len(readKeys(t, parts[0])) {
		t.Errorf("merge wrote %d records (%+v), want %d", len(keys), res, len(p.Jobs))
	}
	if !sort.StringsAreSorted(keys) {
		t.Errorf("merged records are not sorted by key")
	}
	// Sharding is a function of the key alone: a Shard built afresh owns exactly the
	// jobs its run executed, and no other shard owns them.
	for _, j := range p.Jobs {
		for i := 1; i <= n; i++ {
			sh := bench.Shard{Index: i, Count: n}
			if want := ranIn[j.Key] == i; sh.Owns(j.Key) != want {
				t.Errorf("Shard %v.Owns(%s) = %v, but the job ran in shard %d", sh, j.Key, sh.Owns(j.Key), ranIn[j.Key])
			}
		}
	}
}

func TestParseShardRejectsMalformed(t *testing.T) {
	for _, s := range []string{"", "1", "0/2", "3/2", "a/b", "1/0", "-1/3"} {
		if _, err := bench.ParseShard(s); !errors.Is(err, domain.ErrBadInput) {
			t.Errorf("ParseShard(%q) = %v, want a bad-input error", s, err)
		}
	}
}

func TestBadSpecsFailBeforeAnyJobWithFileFieldAndReason(t *testing.T) {
	cases := []struct {
		name, spec string
		field      string // must appear in the message
		reason     string
	}{
		{"missing instance file", `{"instances":[{"files":["nope.json"]}],"backends":["highs"]}`, "instances[0].files[0]", "no such file"},
		{"glob matching nothing", `{"instances":[{"files":["none*.json"]}],"backends":["highs"]}`, "instances[0].files[0]", "no file matches"},
		{"unknown backend", `{"instances":[{"files":["inst*.json"]}],"backends":["gurobi"]}`, "backends[0]", "unknown backend"},
		{"malformed duration", `{"instances":[{"files":["inst*.json"]}],"backends":["highs"],"time_limits":["6o s"]}`, "time_limits", "malformed duration"},
		{"unknown field", `{"instances":[{"files":["inst*.json"]}],"backends":["highs"],"timelimit":"6s"}`, "timelimit", "unknown field"},
		{"bad seeds", `{"instances":[{"gen":"workload","seeds":"1..x"}],"backends":["highs"]}`, "seeds", "malformed seed range"},
		{"gap out of range", `{"instances":[{"files":["inst*.json"]}],"backends":["highs"],"gaps":[1.5]}`, "gaps[0]", "must be in [0, 1)"},
		{"bad instance", `{"instances":[{"files":["bad.json"]}],"backends":["highs"]}`, "instances[0].files[0]", "value: missing"},
		{"no backends", `{"instances":[{"files":["inst*.json"]}],"backends":[]}`, "backends", "empty"},
		{"unknown heuristic", `{"instances":[{"files":["inst*.json"]}],"backends":["heuristic:nope"]}`, "backends[0]", "no instance"},
		{"broken JSON", "{\"instances\":\n[", "", "JSON"},
		{"a near-miss field name", `{"instances":[{"files":["inst*.json"]}],"backends":["highs"],"time_limit":["6s"]}`, "time_limit", `did you mean "time_limits"?`},
		{"a near miss in a backend object", `{"instances":[{"files":["inst*.json"]}],"backends":[{"name":"highs","max_integer":3}]}`, "backends[0].max_integer", `did you mean "max_integers"?`},
		{"a duplicate key", `{"instances":[{"files":["inst*.json"]}],"backends":["highs"],"backends":["cbc"]}`, "backends", "duplicate key"},
		{"data after the spec", `{"instances":[{"files":["inst*.json"]}],"backends":["highs"]} {}`, "", "data after the top-level value"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeInstances(t, dir, 2, nil)
			os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`{"kind":"workload"}`), 0o644)
			path := writeSpec(t, dir, c.spec)
			spec, err := bench.LoadSpec(path)
			if err == nil {
				_, err = bench.NewPlan(spec, bench.PlanOptions{SpecFile: path, Load: fakeLoader(nil)})
			}
			if !errors.Is(err, domain.ErrBadInput) {
				t.Fatalf("got %v, want a bad-input error", err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, path+": ") || !strings.Contains(msg, c.field) || !strings.Contains(msg, c.reason) {
				t.Errorf("message %q lacks file %q, field %q or reason %q", msg, path, c.field, c.reason)
			}
		})
	}
}

func TestTimeScaleShrinksLimits(t *testing.T) {
	dir := t.TempDir()
	writeInstances(t, dir, 1, nil)
	path := writeSpec(t, dir, `{"instances":[{"files":["inst*.json"]}],"backends":["highs"],"time_limits":["20m", 90]}`)
	spec, err := bench.LoadSpec(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := bench.NewPlan(spec, bench.PlanOptions{SpecFile: path, Load: fakeLoader(nil), TimeScale: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, j := range p.Jobs {
		got = append(got, j.TimeLimit.String())
	}
	if strings.Join(got, ",") != "2m0s,9s" {
		t.Errorf("scaled limits = %v, want [2m0s 9s]", got)
	}
}

// TestBundledSpecsLoad: every spec in bench/specs parses, names known backends and
// well-formed durations, and every file pattern matches at least one instance. (Their
// generator calls are expanded by `schedopt bench --dry-run`, too slow for a unit test
// at seed scale.)
// sharedSets is how a bundled spec reaches the benchmark sets of shared/, and
// sharedSetCopies names the repository's copy of some files of each such set.
const sharedSets = "../../../shared/benchsets/"

var sharedSetCopies = map[string]string{"miplib3-dev": "testdata/miplib3"}

func TestBundledSpecsLoad(t *testing.T) {
	specs, err := filepath.Glob("specs/*.json")
	if err != nil || len(specs) < 5 {
		t.Fatalf("found %d specs (%v)", len(specs), err)
	}
	for _, path := range specs {
		t.Run(filepath.Base(path), func(t *testing.T) {
			s, err := bench.LoadSpec(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Instances) == 0 || len(s.Backends) == 0 || len(s.TimeLimits) == 0 {
				t.Errorf("spec lists %d instance sets, %d backends, %d time limits", len(s.Instances), len(s.Backends), len(s.TimeLimits))
			}
			for i, in := range s.Instances {
				for _, pat := range in.Files {
					m, _ := filepath.Glob(filepath.Join(filepath.Dir(path), pat))
					if len(m) == 0 && strings.HasPrefix(pat, sharedSets) {
						// shared/ sits beside the clone in CI only; elsewhere the
						// repository's copy of the set's files stands in for it.
						copyDir, ok := sharedSetCopies[strings.TrimPrefix(pat, sharedSets)]
						if !ok {
							t.Errorf("instances[%d]: %q: no copy of this shared set in the repository", i, pat)
							continue
						}
						m, _ = filepath.Glob(filepath.Join(copyDir, "*.mps.gz"))
					}
					if len(m) == 0 {
						t.Errorf("instances[%d]: %q matches no file", i, pat)
					}
				}
			}
		})
	}
}

// The exact backend runs at gap 0 (one job, no gap in the key) unless its own entry
// lists gaps; then it gets one job per listed gap, like a MILP backend.
func TestSweepPlanGapsOfTheExactBackend(t *testing.T) {
	for _, c := range []struct {
		name     string
		backends string
		wantGaps []float64 // nil: one job without a gap
	}{
		{"plain name ignores the spec's gaps", `["exact"]`, nil},
		{"entry without gaps", `[{"name":"exact"}]`, nil},
		{"entry with gaps", `[{"name":"exact","gaps":[0.002,0.01]}]`, []float64{0.002, 0.01}},
	} {
		dir := t.TempDir()
		writeInstances(t, dir, 1, nil)
		p := plan(t, writeSpec(t, dir, `{"instances":[{"files":["inst*.json"]}], "backends":`+c.backends+
			`, "time_limits":["10s"], "gaps":[1e-6, 0.1]}`), nil)
		var gaps []float64
		for _, j := range p.Jobs {
			if j.HasGap != strings.Contains(j.Key, "|gap=") {
				t.Errorf("%s: job %q: HasGap %v disagrees with its key", c.name, j.Key, j.HasGap)
			}
			if j.HasGap {
				gaps = append(gaps, j.Gap)
			}
		}
		wantJobs := max(len(c.wantGaps), 1)
		if len(p.Jobs) != wantJobs || !slices.Equal(gaps, c.wantGaps) {
			t.Errorf("%s: %d jobs with gaps %v, want %d with %v", c.name, len(p.Jobs), gaps, wantJobs, c.wantGaps)
		}
	}
}

// TestSweepRunsTheBackendAuto: a job of the backend "auto" runs the kind's strongest
// path (package portfolio; the fake kind has no plan, so the default MILP backend) and
// its result names that path.
func TestSweepRunsTheBackendAuto(t *testing.T) {
	dir := t.TempDir()
	writeInstances(t, dir, 2, nil)
	spec := writeSpec(t, dir, `{"instances":[{"files":["inst*.json"]}], "backends":["auto"], "time_limits":["10s"]}`)
	out := filepath.Join(dir, "results.jsonl")
	sum, err := bench.RunSweep(context.Background(), plan(t, spec, nil), bench.SweepOptions{Output: out, Workers: 1, NewSolver: fakeSolver, Load: fakeLoader(nil)})
	if err != nil || sum.Ran != 2 {
		t.Fatalf("sweep: %+v, %v; want 2 jobs run", sum, err)
	}
	recs, err := bench.ReadRecords(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Backend != solve.Auto || r.Status != solve.StatusOptimal || r.Result == nil || r.Result.Backend != solve.MILPBackends()[0] || len(r.Result.Paths) != 1 {
			t.Errorf("record %s: backend %q, status %q, result %+v; want auto answered by %s", r.Key, r.Backend, r.Status, r.Result, solve.MILPBackends()[0])
		}
	}
}
