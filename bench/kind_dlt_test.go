package bench

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/highs"
	"github.com/schedopt/schedopt/backends/lpsolve"
	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/domain/dlt"
	"github.com/schedopt/schedopt/formulations/dltsingle"
)

func instancePath(name string) string { return filepath.Join("..", "instances", name) }

// solveDLT solves p exactly (gap 0) with the named backend and fails the test unless the
// result is optimal, the evaluator accepts it and the exact oracle (when it has one)
// agrees.
func solveDLT(t *testing.T, p Problem, backend string) *Result {
	t.Helper()
	var s backends.Solver = highs.New()
	if backend == BackendLPSolve {
		s = lpsolve.New()
	}
	res, err := p.Solve(context.Background(), SolveRequest{Backend: backend, Solver: s, Options: backends.Options{}})
	if err != nil {
		t.Fatalf("%s with %s: %v", p.Name(), backend, err)
	}
	if res.Status == StatusInfeasible {
		if res.Check.Exact != nil && !res.Check.Exact.Agree {
			t.Fatalf("%s with %s: infeasible, but %s finds %v (instance %s)", p.Name(), backend,
				res.Check.Exact.Algorithm, res.Check.Exact.Objective, instanceJSON(p))
		}
		return res
	}
	if res.Check.Evaluator == nil || !res.Check.Evaluator.OK {
		t.Fatalf("%s with %s: status %s, evaluator %+v (instance %s)", p.Name(), backend, res.Status, res.Check.Evaluator, instanceJSON(p))
	}
	if res.Check.Exact != nil && !res.Check.Exact.Agree {
		t.Fatalf("%s with %s: objective %v disagrees with %s: %v (%s)", p.Name(), backend, *res.Objective,
			res.Check.Exact.Algorithm, res.Check.Exact.Objective, res.Check.Exact.Message)
	}
	if relDiffB(res.Check.Evaluator.Objective, *res.Objective) > 1e-6 {
		t.Fatalf("%s: model objective %g, evaluator %g", p.Name(), *res.Objective, res.Check.Evaluator.Objective)
	}
	return res
}

func instanceJSON(p Problem) string {
	var v any
	switch q := p.(type) {
	case *DLTFlatProblem:
		v = q.Inst
	case *DLTSingleProblem:
		v = q.Inst
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func relDiffB(a, b float64) float64 {
	return math.Abs(a-b) / math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

func mustLoad(t *testing.T, name string) Problem {
	t.Helper()
	p, err := LoadFile(instancePath(name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Table 3.4 (seed 004, L352-358): the E^R row recomputed from the LP's split.
func TestDLTTable34(t *testing.T) {
	mem := dlt.Memory{A1: 0.006, A2: 0.4, K1: 0.4, K2: 22, Rho: 7500}
	want := map[string][3]float64{ // α1, α2, E^R as printed
		"10000": {5714, 4286, 4000}, "12000": {6857, 5143, 4800}, "14000": {8000, 6000, 16400},
		"16000": {9143, 6857, 41886}, "18000": {10286, 7714, 72000},
	}
	for V, row := range want {
		t.Run("V="+V, func(t *testing.T) {
			p := mustLoad(t, "dlt-flat-table3.4-V"+V+".json")
			res := solveDLT(t, p, BackendHiGHS)
			if res.Status != StatusOptimal || res.Check.Exact == nil {
				t.Fatalf("status %s, exact %+v", res.Status, res.Check.Exact)
			}
			a := res.Solution.(*dlt.FlatSolution).Alpha
			eR := mem.Eps(a[0]) + mem.Eps(a[1])
			if math.Round(a[0]) != row[0] || math.Round(a[1]) != row[1] || math.Round(eR) != row[2] {
				t.Errorf("alpha %v, E^R %g; Table 3.4 prints %v", a, eR, row)
			}
		})
	}
}

// The chapter 4 reference instance (L489-491): T ≈ 1.51E5 s, E ≈ 2.34E10 J.
func TestDLTChapter4ReferenceLP(t *testing.T) {
	p := mustLoad(t, "dlt-flat-ch4-reference.json")
	res := solveDLT(t, p, BackendHiGHS)
	if res.Status != StatusOptimal || res.Check.Exact == nil {
		t.Fatalf("status %s, exact %+v", res.Status, res.Check.Exact)
	}
	T := *res.Objective
	e := dlt.EnergyCh4(dlt.Ch4System{M: 1000, A: 1e-3, C: 1e-8, S: 100, V: 1e11, K: 3, PC: 200, PN: 50}, T)
	if math.Abs(T-1.51e5)/1.51e5 > 0.005 || math.Abs(e.E-2.34e10)/2.34e10 > 0.005 {
		t.Errorf("T = %g, E = %g; the thesis prints 1.51E5 s and 2.34E10 J", T, e.E)
	}
}

// §5.1 defaults, V = 10000 (L698): the shortest schedule uses ten machines, only the last
// two in-core.
func TestDLTTable51MinTime(t *testing.T) {
	p := mustLoad(t, "dlt-single-table5.1-mintime.json")
	res := solveDLT(t, p, BackendHiGHS)
	if res.Status != StatusOptimal || res.Check.Exact == nil {
		t.Fatalf("status %s, exact %+v", res.Status, res.Check.Exact)
	}
	sol := res.Solution.(*dlt.SingleSolution)
	var used, inCore []int
	for i, u := range sol.Used {
		if u && sol.Alpha[i] > 1e-6 {
			used = append(used, i)
			if sol.Alpha[i] <= 996+1e-6 {
				inCore = append(inCore, i)
			}
		}
	}
	if len(used) != 10 || !slices.Equal(inCore, used[8:]) {
		t.Errorf("T = %g: loaded machines %v, in-core %v; want ten with only the last two in-core (alpha %v)", sol.T, used, inCore, sol.Alpha)
	}
}

// §5.1 defaults, V = 10000, m = 10 (L698): the minimum-energy schedule gives 996 MB to
// nine machines and 1036 MB to one.
func TestDLTTable51MinEnergy(t *testing.T) {
	p := mustLoad(t, "dlt-single-table5.1-minenergy.json")
	res := solveDLT(t, p, BackendHiGHS)
	if res.Status != StatusOptimal {
		t.Fatalf("status %s", res.Status)
	}
	sol := res.Solution.(*dlt.SingleSolution)
	a := slices.Clone(sol.Alpha)
	slices.Sort(a)
	for i := 0; i < 9; i++ {
		if math.Abs(a[i]-996) > 0.5 {
			t.Errorf("sorted alpha %v: want nine chunks of 996 MB", a)
			break
		}
	}
	if math.Abs(a[9]-1036) > 0.5 {
		t.Errorf("largest chunk %g, want 1036 MB", a[9])
	}
	// The thesis puts this point at T ≈ 840 (the second knee of Fig. 5.4).
	if sol.T < 830 || sol.T > 850 {
		t.Errorf("T = %g, the thesis puts the lowest energy near 840", sol.T)
	}
	t.Logf("min-energy T = %.3f s, E = %.1f J", sol.T, sol.E)
	// m = 10 is beyond the vertex enumeration; lp_solve is the second opinion.
	lp := solveDLT(t, p, BackendLPSolve)
	if lp.Status != StatusOptimal || relDiffB(*lp.Objective, *res.Objective) > 1e-6 {
		t.Errorf("lp_solve: %s %v, HiGHS %v", lp.Status, *lp.Objective, *res.Objective)
	}
}

func randomSingleInstance(rng *rand.Rand, m int) *dlt.SingleInstance {
	in := &dlt.SingleInstance{Kind: "dlt-single", M: m,
		V: 50 + rng.Float64()*400, C: 0.001 + rng.Float64()*0.05, S: rng.Float64() * 20,
		PS: 50 + rng.Float64()*100, PI: rng.Float64() * 60, PN: 50 + rng.Float64()*100,
		A1: 0.02 + rng.Float64()*0.2, K1: 5 + rng.Float64()*10, Rho: 20 + rng.Float64()*150,
		Objective: dlt.MinTime}
	in.A2 = in.A1 * (2 + rng.Float64()*30)
	in.K2 = in.K1 * (1.2 + rng.Float64()*30)
	return in
}

// Random small dlt-single instances in every objective: HiGHS and lp_solve, both at gap 0,
// agree with the exact oracle and with each other, and the thesis's plain model has the
// same optimum as the strengthened one.
func TestDLTSingleRandomAgainstExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 14))
	for it := 0; it < 24; it++ {
		in := randomSingleInstance(rng, 1+rng.IntN(3))
		base := &DLTSingleProblem{name: "random", Inst: in}
		ex, err := base.Exact(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		Tstar := ex.Objective
		switch it % 4 {
		case 1: // min-energy under a deadline
			d := Tstar * (1 + rng.Float64())
			in.Objective, in.Deadline = dlt.MinEnergy, &d
		case 2: // min-energy at a fixed length
			d := Tstar * (1 + rng.Float64())
			in.Objective, in.Deadline, in.FixedLength = dlt.MinEnergy, &d, true
		case 3: // min-time under an energy cap above the min-time schedule's energy
			e := ex.Solution.(*dlt.SingleSolution).E * (0.95 + 0.2*rng.Float64())
			in.EnergyLimit = &e
		}
		var objs []float64
		for _, variant := range []struct {
			backend string
			plain   bool
		}{{BackendHiGHS, false}, {BackendHiGHS, true}, {BackendLPSolve, false}} {
			p := &DLTSingleProblem{name: "random", Inst: in, Opts: dltsingle.Options{Plain: variant.plain}}
			res := solveDLT(t, p, variant.backend)
			if res.Check.Exact == nil {
				t.Fatalf("no exact check for m = %d", in.M)
			}
			if res.Status == StatusInfeasible {
				objs = append(objs, math.Inf(1))
				continue
			}
			if res.Status != StatusOptimal {
				t.Fatalf("%s: status %s", variant.backend, res.Status)
			}
			objs = append(objs, *res.Objective)
		}
		for _, o := range objs[1:] {
			if !(math.IsInf(o, 1) && math.IsInf(objs[0], 1)) && relDiffB(o, objs[0]) > 1e-6 {
				t.Fatalf("instance %d (%s): optima %v differ", it, in.Objective, objs)
			}
		}
	}
}

// Random flat-memory stars (m <= 6): HiGHS and lp_solve agree with each other and with
// the exact oracle (the recursion where it is provably optimal, the vertex enumeration
// otherwise), memory limits included.
func TestDLTFlatRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 92))
	gen := genDLTFlat
	exactChecked, recursion := 0, 0
	for it := 0; it < 30; it++ {
		fs := pflag.NewFlagSet("dlt-flat", pflag.ContinueOnError)
		build := gen(fs)
		args := []string{"--m", string(rune('1' + rng.IntN(6)))}
		if it%2 == 1 {
			args = append(args, "--memory", "1.3")
		}
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		v, err := build(int64(it))
		if err != nil {
			t.Fatal(err)
		}
		in := v.(*dlt.FlatInstance)
		p := &DLTFlatProblem{name: in.Name, Inst: in}
		a := solveDLT(t, p, BackendHiGHS)
		b := solveDLT(t, p, BackendLPSolve)
		if a.Status != StatusOptimal || b.Status != StatusOptimal || relDiffB(*a.Objective, *b.Objective) > 1e-6 {
			t.Fatalf("%s: highs %s %v, lpsolve %s %v", in.Name, a.Status, *a.Objective, b.Status, *b.Objective)
		}
		if a.Check.Exact != nil {
			exactChecked++
			if strings.Contains(a.Check.Exact.Algorithm, "recursion") {
				recursion++
			}
		}
	}
	if exactChecked != 30 || recursion == 0 {
		t.Errorf("exact checks on %d of 30 instances, %d by the recursion; want all, some by the recursion", exactChecked, recursion)
	}
}

func TestDLTBadInput(t *testing.T) {
	multi := func(old, new string) []byte {
		const good = `{"kind":"dlt-multi","V":100,"n":2,"P0N":100,"objective":"min-time",
 "machines":[{"a1":0.1,"a2":1,"k1":10,"k2":100,"rho":50,"C":0.01,"O":0.01,"S":1,"PI":5,"PN":100,"PS":100}]}`
		if !strings.Contains(good, old) {
			t.Fatalf("%q not in the instance", old)
		}
		return []byte(strings.Replace(good, old, new, 1))
	}
	single := func(edit func(map[string]any)) []byte {
		d := map[string]any{"kind": "dlt-single", "V": 10000, "m": 10, "C": 0.006, "S": 70, "PS": 101, "PI": 6, "PN": 91,
			"a1": 0.082, "a2": 2.366, "k1": 13, "k2": 294.43, "rho": 996, "objective": "min-time"}
		edit(d)
		b, _ := json.Marshal(d)
		return b
	}
	cases := []struct {
		name, field, reason string
		data                []byte
	}{
		{"a negative rate", "C", "must be >= 0", single(func(d map[string]any) { d["C"] = -1 })},
		{"rho zero", "rho", "must be > 0", single(func(d map[string]any) { d["rho"] = 0 })},
		{"b2 that disagrees with rho", "b2", "disagrees", single(func(d map[string]any) { d["b2"] = -2300 })},
		{"l2 that disagrees with rho", "l2", "disagrees", single(func(d map[string]any) { d["l2"] = -290000 })},
		{"NaN", "a1", "invalid number", []byte(`{"kind":"dlt-single","V":10000,"m":10,"C":0.006,"S":70,"PS":101,"PI":6,"PN":91,"a1":NaN,"a2":2.366,"k1":13,"k2":294.43,"rho":996,"objective":"min-time"}`)},
		{"min-energy without a deadline", "deadline", "required", single(func(d map[string]any) { d["objective"] = "min-energy" })},
		{"a deadline below the lower bound", "deadline", "infeasible", single(func(d map[string]any) {
			d["objective"] = "min-energy"
			d["deadline"] = 100
		})},
		{"m not an integer", "m", "integer", single(func(d map[string]any) { d["m"] = 2.5 })},
		{"a negative flat rate", "machines[1].a", "must be > 0", []byte(`{"kind":"dlt-flat","V":10,"machines":[{"a":1,"C":0,"S":0},{"a":-1,"C":0,"S":0}]}`)},
		{"a load beyond all memory", "V", "infeasible", []byte(`{"kind":"dlt-flat","V":10,"machines":[{"a":1,"C":0,"S":0,"B":4},{"a":1,"C":0,"S":0,"B":5}]}`)},
		{"NaN in a flat machine", "machines[1].C", "invalid number", []byte(`{"kind":"dlt-flat","V":10,"machines":[{"a":1,"C":0,"S":0},{"a":1,"C":NaN,"S":0}]}`)},
		{"NaN in a dlt-multi machine", "machines[0].rho", "invalid number", multi(`"rho":50`, `"rho":NaN`)},
		{"a dlt-multi rate below zero", "machines[0].PN", "must be >= 0", multi(`"PN":100`, `"PN":-1`)},
		{"a dlt-multi b2 that disagrees with rho", "machines[0].b2", "disagrees", multi(`"rho":50`, `"rho":50,"b2":-1`)},
		{"a dlt-multi n below one", "n", "integer >= 1", multi(`"n":2`, `"n":0`)},
		{"a dlt-multi deadline below the lower bound", "deadline", "infeasible", multi(`"objective":"min-time"`, `"objective":"min-energy","deadline":3`)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(c.data, "x")
			var fe *domain.FieldError
			if !errors.As(err, &fe) || !errors.Is(err, domain.ErrBadInput) {
				t.Fatalf("err = %v, want a FieldError", err)
			}
			if fe.Field != c.field || !strings.Contains(fe.Reason, c.reason) {
				t.Fatalf("field %q reason %q; want %q containing %q", fe.Field, fe.Reason, c.field, c.reason)
			}
		})
	}
	t.Run("the deadline error gives the bound", func(t *testing.T) {
		_, err := Load(single(func(d map[string]any) {
			d["objective"] = "min-energy"
			d["deadline"] = 100
		}), "x")
		// S + max{CV, (C + a1)V/m} = 70 + max{60, 88} = 158.
		if err == nil || !strings.Contains(err.Error(), "158") {
			t.Fatalf("err = %v, want the bound 158 s", err)
		}
	})
}

func TestDLTInstancesLoad(t *testing.T) {
	files, _ := filepath.Glob(instancePath("dlt-[fs]*.json"))
	if len(files) < 8 {
		t.Fatalf("found %d dlt instances", len(files))
	}
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadFile(f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// minEnergyAt solves the Table 5.1 defaults with m machines at the fixed length T.
func minEnergyAt(t *testing.T, m int, T float64) *dlt.SingleSolution {
	t.Helper()
	in := Table51(m, dlt.MinEnergy)
	in.Deadline, in.FixedLength = &T, true
	res := solveDLT(t, &DLTSingleProblem{name: "table5.1", Inst: in}, BackendHiGHS)
	if res.Status != StatusOptimal {
		t.Fatalf("T = %g: status %s", T, res.Status)
	}
	return res.Solution.(*dlt.SingleSolution)
}

// Fig. 5.3-5.4 (L703, L717-724): beyond the lowest-energy point every second costs
// (m+1)·P^I; the first knee of m = 10 is near T = 770 (the penultimate machine's
// chunk reaches the RAM size).
func TestDLTTable51TradeOff(t *testing.T) {
	a, b := minEnergyAt(t, 10, 860), minEnergyAt(t, 10, 880)
	if d := b.E - a.E; math.Abs(d-20*11*6) > 1e-3 {
		t.Errorf("E(880) − E(860) = %g, want 20 s × (m+1)P^I = 1320 J", d)
	}
	// The trade-off line is steepest while the RAM of the last two machines fills, and
	// flattens once only the last machine is still below the RAM size.
	E := func(T float64) float64 { return minEnergyAt(t, 10, T).E }
	steep, flat := (E(764)-E(768))/4, (E(776)-E(780))/4
	if !(steep > 1.5*flat && flat > 0) {
		t.Errorf("energy slope %g J/s on [764, 768] and %g J/s on [776, 780]; the thesis puts a knee near 770", steep, flat)
	}
	t.Logf("slopes: %.0f J/s before the knee, %.0f J/s after", steep, flat)
}

// Fig. 5.6 (L742): with V = 200 only one machine is usable.
func TestDLTTable51SmallLoad(t *testing.T) {
	in := Table51(10, dlt.MinTime)
	in.V = 200
	res := solveDLT(t, &DLTSingleProblem{name: "table5.1-V200", Inst: in}, BackendHiGHS)
	n := 0
	for i, u := range res.Solution.(*dlt.SingleSolution).Used {
		if u && res.Solution.(*dlt.SingleSolution).Alpha[i] > 0 {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d machines loaded, the thesis shows one", n)
	}
}

// A deadline above the validation bound but below the shortest schedule: both backends
// report infeasible, and so does the oracle.
func TestDLTSingleDeadlineBelowOptimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(77, 78))
	tested := 0
	for it := 0; it < 6; it++ {
		in := randomSingleInstance(rng, 2+rng.IntN(2))
		ex, err := (&DLTSingleProblem{Inst: in}).Exact(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		d := ex.Objective * 0.98
		if d < in.TimeLowerBound() {
			continue
		}
		in.Objective, in.Deadline = dlt.MinEnergy, &d
		tested++
		for _, b := range []string{BackendHiGHS, BackendLPSolve} {
			res := solveDLT(t, &DLTSingleProblem{name: "tight", Inst: in}, b)
			if res.Status != StatusInfeasible || res.Check.Exact == nil || !res.Check.Exact.Agree {
				t.Fatalf("%s: status %s, exact %+v", b, res.Status, res.Check.Exact)
			}
		}
	}
	if tested == 0 {
		t.Fatal("no instance had a deadline between the validation bound and the optimum")
	}
}

// The solution objects are exactly the spec's.
func TestDLTSolutionJSON(t *testing.T) {
	cases := []struct {
		file string
		keys []string
	}{
		{"dlt-flat-table3.4-V10000.json", []string{"T", "alpha"}},
		{"dlt-single-table5.1-minenergy.json", []string{"E", "T", "alpha", "used"}},
	}
	for _, c := range cases {
		res := solveDLT(t, mustLoad(t, c.file), BackendHiGHS)
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		var out struct {
			Solution map[string]json.RawMessage `json:"solution"`
		}
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		var keys []string
		for k := range out.Solution {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, c.keys) {
			t.Errorf("%s: solution keys %v, want %v", c.file, keys, c.keys)
		}
	}
}

// The dlt-multi solution object is exactly the spec's: T, E, the five energy terms,
// the non-empty messages as {machine, size, start}, and used.
func TestDLTMultiSolutionJSON(t *testing.T) {
	p := mustLoad(t, "dlt-multi-tiny-m2-n3-energy.json")
	res, err := p.Solve(context.Background(), SolveRequest{Backend: BackendHiGHS, Solver: highs.New(), Options: backends.Options{}})
	if err != nil || res.Status != StatusOptimal {
		t.Fatalf("%v %+v", err, res)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Solution struct {
			Energy   map[string]float64       `json:"energy"`
			Messages []map[string]json.Number `json:"messages"`
			Used     []bool                   `json:"used"`
		} `json:"solution"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	var all struct {
		Solution map[string]json.RawMessage `json:"solution"`
	}
	_ = json.Unmarshal(b, &all)
	keys := slices.Sorted(maps.Keys(all.Solution))
	if want := []string{"E", "T", "energy", "messages", "used"}; !slices.Equal(keys, want) {
		t.Errorf("solution keys %v, want %v", keys, want)
	}
	if keys := slices.Sorted(maps.Keys(out.Solution.Energy)); !slices.Equal(keys, []string{"E0", "EI", "EN", "ER", "ES"}) {
		t.Errorf("energy keys %v", keys)
	}
	if len(out.Solution.Messages) == 0 || len(out.Solution.Used) != 2 {
		t.Fatalf("messages %v, used %v", out.Solution.Messages, out.Solution.Used)
	}
	for _, msg := range out.Solution.Messages {
		if keys := slices.Sorted(maps.Keys(msg)); !slices.Equal(keys, []string{"machine", "size", "start"}) {
			t.Errorf("message keys %v", keys)
		}
		if size, _ := msg["size"].Float64(); !(size > 0) {
			t.Errorf("message of size %v written; the spec omits empty messages", msg["size"])
		}
	}
}

// Fig. 5.4 (L724-728): once T is long enough to start 11 machines, the m = 11 line bends
// (T ≈ 835) and in a small range 11 machines use less energy than 10.
func TestDLTTable51ElevenMachines(t *testing.T) {
	diff := func(T float64) float64 { return minEnergyAt(t, 11, T).E - minEnergyAt(t, 10, T).E }
	for _, c := range []struct {
		T      float64
		better bool
	}{{830, false}, {836, true}, {838, true}, {842, false}} {
		if d := diff(c.T); (d < 0) != c.better {
			t.Errorf("T = %g: E(m=11) − E(m=10) = %g; the thesis has 11 machines better only near T ≈ 835-840", c.T, d)
		}
	}
}

// Fig. 5.3 (reference §1.6): with m = 7 or 8 machines, lengthening the schedule saves
// no energy (the lowest-energy schedule is the shortest one), and with m = 9 at most
// two machines compute in-core along the trade-off line.
func TestDLTTable51FewMachinesCannotSaveEnergy(t *testing.T) {
	for _, m := range []int{7, 8, 9} {
		fast := solveDLT(t, &DLTSingleProblem{name: "table5.1-mintime", Inst: Table51(m, dlt.MinTime)}, BackendHiGHS)
		in := Table51(m, dlt.MinEnergy)
		d := 3000.0
		in.Deadline = &d
		low := solveDLT(t, &DLTSingleProblem{name: "table5.1-minenergy", Inst: in}, BackendHiGHS)
		if fast.Status != StatusOptimal || low.Status != StatusOptimal {
			t.Fatalf("m = %d: status %s, %s", m, fast.Status, low.Status)
		}
		f, l := fast.Solution.(*dlt.SingleSolution), low.Solution.(*dlt.SingleSolution)
		if saves := l.E < f.E*(1-1e-6); saves != (m == 9) {
			t.Errorf("m = %d: shortest schedule T = %.3f E = %.1f, lowest energy T = %.3f E = %.1f; the thesis saves energy only from m = 9",
				m, f.T, f.E, l.T, l.E)
		}
		if m == 9 {
			for _, T := range []float64{l.T, (l.T + f.T) / 2} {
				s := minEnergyAt(t, 9, T)
				inCore := 0
				for _, a := range s.Alpha {
					if a > 1e-6 && a <= 996+1e-6 {
						inCore++
					}
				}
				if inCore > 2 {
					t.Errorf("m = 9, T = %.2f: %d machines in-core, the thesis says at most two", T, inCore)
				}
			}
		}
	}
}

// Fig. 5.5 (S = 7, reference §1.6): the lowest energy is reached with m = 11, every
// machine in-core; a twelfth machine only adds its idle energy P^I·T.
func TestDLTTable51ShortStartupLowestEnergyAtElevenMachines(t *testing.T) {
	low := func(m int) *dlt.SingleSolution {
		in := Table51(m, dlt.MinEnergy)
		in.S = 7
		d := 3000.0
		in.Deadline = &d
		res := solveDLT(t, &DLTSingleProblem{name: "table5.1-S7", Inst: in}, BackendHiGHS)
		if res.Status != StatusOptimal {
			t.Fatalf("m = %d: status %s", m, res.Status)
		}
		return res.Solution.(*dlt.SingleSolution)
	}
	e10, e11, e12 := low(10), low(11), low(12)
	if !(e11.E < e10.E && e11.E < e12.E) {
		t.Errorf("lowest energy: m = 10 %.1f J, m = 11 %.1f J, m = 12 %.1f J; the thesis has m = 11 lowest", e10.E, e11.E, e12.E)
	}
	for i, a := range e11.Alpha {
		if !(a > 1e-6 && a <= 996+1e-6) {
			t.Errorf("m = 11: machine %d gets %g MB, the thesis has every machine in-core", i, a)
		}
	}
	if want := e11.E + 6*e12.T; math.Abs(e12.T-e11.T) > 1e-6 || math.Abs(e12.E-want) > 1e-6*want {
		t.Errorf("m = 12: T = %g, E = %g; want m = 11's schedule plus one idle machine (%g J)", e12.T, e12.E, want)
	}
}

// Fig. 5.8 (S = 1, reference §1.6: "28 machines"): with 40 machines available the
// shortest schedule loads 28 of them, all in-core. (Our lowest-energy schedule at
// S = 1 uses fewer machines; see docs/reproduction/dlt.md.)
func TestDLTTable51FastStartupUsesTwentyEightMachines(t *testing.T) {
	in := Table51(40, dlt.MinTime)
	in.S = 1
	res := solveDLT(t, &DLTSingleProblem{name: "table5.1-S1", Inst: in}, BackendHiGHS)
	if res.Status != StatusOptimal {
		t.Fatalf("status %s", res.Status)
	}
	loaded, inCore := 0, 0
	for _, a := range res.Solution.(*dlt.SingleSolution).Alpha {
		if a > 1e-6 {
			loaded++
			if a <= 996+1e-6 {
				inCore++
			}
		}
	}
	if loaded != 28 || inCore != 28 {
		t.Errorf("%d machines loaded, %d in-core; the thesis has 28", loaded, inCore)
	}
}
