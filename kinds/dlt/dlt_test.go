package dlt

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/registry"
	"github.com/schedopt/schedopt/domain/dlt"
	"github.com/schedopt/schedopt/formulations/dltsingle"
	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/kinds/kindtest"
	"github.com/schedopt/schedopt/solve"
)

// solveDLT solves p exactly (gap 0) with the named backend and fails the test unless the
// result is optimal, the evaluator accepts it and the exact oracle (when it has one)
// agrees.
func solveDLT(t *testing.T, p kinds.Problem, backend string) *solve.Result {
	t.Helper()
	s := kindtest.Solver(t, backend)
	res, err := p.Solve(context.Background(), solve.Request{Backend: backend, Solver: s, Options: backends.Options{}})
	if err != nil {
		t.Fatalf("%s with %s: %v", p.Name(), backend, err)
	}
	if res.Status == solve.StatusInfeasible {
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
	if kindtest.RelDiff(res.Check.Evaluator.Objective, *res.Objective) > 1e-6 {
		t.Fatalf("%s: model objective %g, evaluator %g", p.Name(), *res.Objective, res.Check.Evaluator.Objective)
	}
	return res
}

func instanceJSON(p kinds.Problem) string {
	var v any
	switch q := p.(type) {
	case *FlatProblem:
		v = q.Inst
	case *SingleProblem:
		v = q.Inst
	}
	b, _ := json.Marshal(v)
	return string(b)
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
			res := solveDLT(t, p, registry.HiGHS)
			if res.Status != solve.StatusOptimal || res.Check.Exact == nil {
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
	res := solveDLT(t, p, registry.HiGHS)
	if res.Status != solve.StatusOptimal || res.Check.Exact == nil {
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
	res := solveDLT(t, p, registry.HiGHS)
	if res.Status != solve.StatusOptimal || res.Check.Exact == nil {
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
	res := solveDLT(t, p, registry.HiGHS)
	if res.Status != solve.StatusOptimal {
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
	lp := solveDLT(t, p, registry.LPSolve)
	if lp.Status != solve.StatusOptimal || kindtest.RelDiff(*lp.Objective, *res.Objective) > 1e-6 {
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
		base := &SingleProblem{Base: kinds.Base{KindName: KindSingle, InstName: "random"}, Inst: in}
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
		}{{registry.HiGHS, false}, {registry.HiGHS, true}, {registry.LPSolve, false}} {
			p := &SingleProblem{Base: kinds.Base{KindName: KindSingle, InstName: "random"}, Inst: in, Opts: dltsingle.Options{Plain: variant.plain}}
			res := solveDLT(t, p, variant.backend)
			if res.Check.Exact == nil {
				t.Fatalf("no exact check for m = %d", in.M)
			}
			if res.Status == solve.StatusInfeasible {
				objs = append(objs, math.Inf(1))
				continue
			}
			if res.Status != solve.StatusOptimal {
				t.Fatalf("%s: status %s", variant.backend, res.Status)
			}
			objs = append(objs, *res.Objective)
		}
		for _, o := range objs[1:] {
			if !(math.IsInf(o, 1) && math.IsInf(objs[0], 1)) && kindtest.RelDiff(o, objs[0]) > 1e-6 {
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
		p := &FlatProblem{Base: kinds.Base{KindName: KindFlat, InstName: in.Name}, Inst: in}
		a := solveDLT(t, p, registry.HiGHS)
		b := solveDLT(t, p, registry.LPSolve)
		if a.Status != solve.StatusOptimal || b.Status != solve.StatusOptimal || kindtest.RelDiff(*a.Objective, *b.Objective) > 1e-6 {
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

func TestDLTInstancesLoad(t *testing.T) {
	files, _ := filepath.Glob(kindtest.InstancePath("dlt-[fs]*.json"))
	if len(files) < 8 {
		t.Fatalf("found %d dlt instances", len(files))
	}
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			t.Fatal(err)
		}
		if _, err := testKinds().LoadFile(f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// minEnergyAt solves the Table 5.1 defaults with m machines at the fixed length T.
func minEnergyAt(t *testing.T, m int, T float64) *dlt.SingleSolution {
	t.Helper()
	in := Table51(m, dlt.MinEnergy)
	in.Deadline, in.FixedLength = &T, true
	res := solveDLT(t, &SingleProblem{Base: kinds.Base{KindName: KindSingle, InstName: "table5.1"}, Inst: in}, registry.HiGHS)
	if res.Status != solve.StatusOptimal {
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
	res := solveDLT(t, &SingleProblem{Base: kinds.Base{KindName: KindSingle, InstName: "table5.1-V200"}, Inst: in}, registry.HiGHS)
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
		ex, err := (&SingleProblem{Inst: in}).Exact(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		d := ex.Objective * 0.98
		if d < in.TimeLowerBound() {
			continue
		}
		in.Objective, in.Deadline = dlt.MinEnergy, &d
		tested++
		for _, b := range []string{registry.HiGHS, registry.LPSolve} {
			res := solveDLT(t, &SingleProblem{Base: kinds.Base{KindName: KindSingle, InstName: "tight"}, Inst: in}, b)
			if res.Status != solve.StatusInfeasible || res.Check.Exact == nil || !res.Check.Exact.Agree {
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
		res := solveDLT(t, mustLoad(t, c.file), registry.HiGHS)
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
		fast := solveDLT(t, &SingleProblem{Base: kinds.Base{KindName: KindSingle, InstName: "table5.1-mintime"}, Inst: Table51(m, dlt.MinTime)}, registry.HiGHS)
		in := Table51(m, dlt.MinEnergy)
		d := 3000.0
		in.Deadline = &d
		low := solveDLT(t, &SingleProblem{Base: kinds.Base{KindName: KindSingle, InstName: "table5.1-minenergy"}, Inst: in}, registry.HiGHS)
		if fast.Status != solve.StatusOptimal || low.Status != solve.StatusOptimal {
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
		res := solveDLT(t, &SingleProblem{Base: kinds.Base{KindName: KindSingle, InstName: "table5.1-S7"}, Inst: in}, registry.HiGHS)
		if res.Status != solve.StatusOptimal {
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
	res := solveDLT(t, &SingleProblem{Base: kinds.Base{KindName: KindSingle, InstName: "table5.1-S1"}, Inst: in}, registry.HiGHS)
	if res.Status != solve.StatusOptimal {
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

// testKinds is a registry of this package's kinds, for the tests that load JSON.
func testKinds() *kinds.Registry { return kinds.NewRegistry(FlatKind(), SingleKind()) }

// mustLoad loads a sample instance of this package's kinds.
func mustLoad(t *testing.T, name string) kinds.Problem {
	t.Helper()
	return kindtest.MustLoad(t, name, FlatKind(), SingleKind())
}
