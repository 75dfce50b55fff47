package dltbb

import (
	"context"
	"math"
	"testing"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
	"github.com/schedopt/schedopt/exact/dltseq"
)

// tinyEnergy returns min-energy versions of tiny instances: the deadline is a factor
// of the min-time optimum (fixed length or an upper bound), and some machines get a
// concave g_i (out-of-core computing power below P^N) or a convex one.
func tinyEnergy(t *testing.T, count int, seed uint64) []*dm.Instance {
	t.Helper()
	var out []*dm.Instance
	for k, in := range tiny(t, count, seed) {
		tstar := completions(t, in, nil)
		if math.IsInf(tstar, 1) {
			t.Fatalf("instance %d: no feasible sequence", k)
		}
		switch k % 3 {
		case 1: // M_0 concave: k2 well below P^N a2
			mc := &in.Machines[0]
			mc.K2 = math.Max(mc.K1+1, 0.5*mc.PN*mc.A2)
		case 2: // M_0 convex
			mc := &in.Machines[0]
			mc.K2 = mc.K1 + 2*mc.PN*(mc.A2-mc.A1)
		}
		if k%4 == 1 {
			in.Machines[1].PI = in.Machines[1].PN + 10 // P^I > P^N: the other sign case
		}
		in.Objective = dm.MinEnergy
		d := tstar * []float64{1.001, 1.1, 1.5, 3}[k%4]
		in.Deadline = &d
		in.FixedLength = k%2 == 0
		if err := in.Validate(); err != nil {
			t.Fatalf("instance %d: %v", k, err)
		}
		out = append(out, in)
	}
	return out
}

// energyCompletions returns the lowest evaluator energy over the exact LPs of every
// full symbol sequence that starts with prefix and whose used machines agree with ms
// (all its "in" machines, none of its "out" ones), and checks on the way that each
// leaf LP's value is the evaluator's energy of its schedule (the leaf LP is exact).
func energyCompletions(t *testing.T, rx *relax, prefix []int, ms *machineSet) float64 {
	t.Helper()
	best, _ := bestEnergyCompletion(t, rx, prefix, ms)
	return best
}

// bestEnergyCompletion is energyCompletions with the schedule of the lowest energy.
func bestEnergyCompletion(t *testing.T, rx *relax, prefix []int, ms *machineSet) (float64, dm.Schedule) {
	t.Helper()
	best, arg := math.Inf(1), dm.Schedule{}
	syms := rx.symbols()
	var rec func(seq []int)
	rec = func(seq []int) {
		if len(seq) == rx.n {
			for i := range rx.m {
				if ms != nil && (ms.in[i] && !rx.served(seq, i) || ms.out[i] && rx.served(seq, i)) {
					return
				}
			}
			nl := rx.build(seq, nil, nil)
			x, obj, err := refLP(nl.lp)
			if err != nil {
				return // infeasible sequence
			}
			r := dm.Evaluate(rx.in, rx.schedule(seq, x), dm.EvalOptions{})
			if !r.OK() {
				t.Fatalf("sequence %v: evaluator rejects the LP schedule: %s", seq, r.Worst())
			}
			if v := obj + nl.konst; math.Abs(v-r.E) > 1e-6*math.Max(1, r.E) {
				t.Fatalf("sequence %v: leaf LP %g, evaluator %g", seq, v, r.E)
			}
			if r.E < best {
				best, arg = r.E, rx.schedule(seq, x)
			}
			return
		}
		for _, i := range syms {
			rec(append(append([]int(nil), seq...), i))
		}
	}
	rec(prefix)
	return best, arg
}

// The min-energy node bound is below the best completion of every node the search
// bounds: every machine set on the way down (undecided machines relaxed), and every
// prefix of a complete set; and the best leaf is the optimum of the enumeration over
// sequences and pieces (dltseq). The LPs are solved here by the package's dense
// simplexes, which are not reliable on every min-energy LP (kinds/dltmulti uses HiGHS
// and repeats this check through the CLI path).
func TestEnergyNodeBoundIsBelowEveryCompletion(t *testing.T) {
	for k, in := range tinyEnergy(t, 24, 5) {
		checkEnergyNodeBounds(t, k, in)
	}
}

// checkEnergyNodeBounds is TestEnergyNodeBoundIsBelowEveryCompletion on one instance.
func checkEnergyNodeBounds(t *testing.T, k int, in *dm.Instance) {
	t.Helper()
	{
		want, err := dltseq.Solve(context.Background(), in, dltseq.Options{})
		if err != nil {
			t.Fatal(err)
		}
		rx := newRelax(in)
		rx.setTarget(rx.deadline)
		s := &search{in: in, solver: chainLP, rx: rx, res: &Result{Objective: math.Inf(1)}}
		opt := energyCompletions(t, rx, nil, nil)
		if want.Feasible != !math.IsInf(opt, 1) || want.Feasible && math.Abs(opt-want.Objective) > 1e-6*want.Objective {
			t.Fatalf("instance %d: best leaf %g, enumeration %v %g", k, opt, want.Feasible, want.Objective)
		}
		check := func(prefix []int, cuts [][]int, ms *machineSet) ([][]int, bool) {
			best := energyCompletions(t, rx, prefix, ms)
			_, b, c, ok, err := s.solve(prefix, cuts, ms)
			if err != nil {
				t.Fatalf("instance %d prefix %v: %v", k, prefix, err)
			}
			if !math.IsInf(best, 1) {
				if !ok {
					t.Fatalf("instance %d prefix %v set %+v: LP infeasible, a completion has E = %g", k, prefix, ms, best)
				}
				if b > best*(1+1e-7)+1e-7 {
					t.Fatalf("instance %d prefix %v set %+v: bound %g above the best completion %g", k, prefix, ms, b, best)
				}
			}
			return c, ok
		}
		var walk func(prefix []int, cuts [][]int, ms *machineSet)
		walk = func(prefix []int, cuts [][]int, ms *machineSet) {
			c, ok := check(prefix, cuts, ms)
			if len(prefix) < in.N && ok {
				for _, i := range s.symbolsOf(ms) {
					walk(append(append([]int(nil), prefix...), i), c, ms)
				}
			}
		}
		var sets func(ms *machineSet)
		sets = func(ms *machineSet) {
			if ms.complete(rx.m) {
				walk(nil, nil, ms)
				return
			}
			check(nil, nil, ms)
			for _, c := range rx.children(ms) {
				sets(c)
			}
		}
		sets(rx.rootSet())
	}
}

func TestEnergySolveMatchesTheEnumeration(t *testing.T) {
	concave := 0
	for k, in := range append(tinyEnergy(t, 36, 6), outOfCore(t, 16, 9)...) {
		for _, e := range newEnergyModel(in).concave {
			if e {
				concave++
			}
		}
		want, err := dltseq.Solve(context.Background(), in, dltseq.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []struct {
			gap     float64
			noChord bool
		}{{0, false}, {0.01, false}, {0, true}, {0.01, true}} {
			gap := v.gap
			res, err := Solve(context.Background(), in, chainLP, Options{Gap: gap, Threads: 1 + k%2, NoExcessCut: v.noChord})
			if err != nil {
				t.Fatalf("instance %d: %v", k, err)
			}
			if !res.Optimal || res.Feasible != want.Feasible {
				t.Fatalf("instance %d: optimal %v, feasible %v, enumeration %v", k, res.Optimal, res.Feasible, want.Feasible)
			}
			if !res.Feasible {
				continue
			}
			r := dm.Evaluate(in, res.Schedule, dm.EvalOptions{})
			if !r.OK() || math.Abs(r.E-res.Objective) > 1e-9*res.Objective || res.E != res.Objective {
				t.Fatalf("instance %d: evaluator %v %g vs %g (%s)", k, r.OK(), r.E, res.Objective, r.Worst())
			}
			tol := 1e-6 * want.Objective
			if res.Objective < want.Objective-tol || res.Objective > want.Objective/(1-gap)+tol ||
				res.Bound > want.Objective+tol || res.Bound < res.Objective*(1-gap)-tol {
				t.Fatalf("instance %d gap %g (no excess chord %v): E %g, bound %g; enumeration %g", k, gap, v.noChord, res.Objective, res.Bound, want.Objective)
			}
		}
	}
	if concave == 0 {
		t.Fatal("no instance has a concave g_i: the piece branching is untested")
	}
}

// chainLP is SimplexBoth with the Bland's-rule reference as the fallback when it
// fails, as kinds/dltmulti runs the min-energy node LPs.
func chainLP(p *LP) ([]float64, float64, error) {
	if x, o, err := SimplexBoth(p); err == nil {
		return x, o, nil
	}
	return refLP(p)
}

// chordInstances counts the instances with a machine whose concave g_i gets the excess
// chord (an X_i column: its load bound above ρ_i) and one where x̄_i > 0.
func chordInstances(ins []*dm.Instance) (withX, withExcess int) {
	for _, in := range ins {
		rx := newRelax(in)
		rx.setTarget(rx.deadline)
		x, e := false, false
		for i, c := range rx.energy.concave {
			if c && rx.betaMax[i] > in.Machines[i].Rho {
				x = true
				e = e || rx.excessMax(i) > 0
			}
		}
		if x {
			withX++
		}
		if e {
			withExcess++
		}
	}
	return withX, withExcess
}

// The excess chord X_i <= β_i x̄_i/(ρ_i + x̄_i) keeps the node bound below every
// completion (TestEnergyNodeBoundIsBelowEveryCompletion runs with it); this checks
// that the tiny instances exercise it, and that no bound with it lies above the best
// completion where one without it does not (both against the enumeration).
func TestEnergyExcessChordIsExercised(t *testing.T) {
	ins := append(tinyEnergy(t, 24, 5), tinyEnergy(t, 36, 6)...)
	withX, withExcess := chordInstances(ins)
	t.Logf("%d of %d instances have an X_i column, %d with x̄_i > 0", withX, len(ins), withExcess)
	if withX == 0 || withExcess == 0 {
		t.Fatalf("the excess chord is not exercised: %d instances with an X_i column, %d with x̄_i > 0", withX, withExcess)
	}
}

// outOfCore returns tiny min-energy instances whose even machines favour out-of-core
// computing: a concave g_i (k_2 well below P^N a_2) and ρ_i at most 0.3 V.
func outOfCore(t *testing.T, count int, seed uint64) []*dm.Instance {
	t.Helper()
	ins := tinyEnergy(t, count, seed)
	for k, in := range ins {
		for i := range in.Machines {
			mc := &in.Machines[i]
			if i%2 == 0 {
				mc.K2 = math.Max(mc.K1+1, 0.3*mc.PN*mc.A2) // concave
				mc.Rho = math.Min(mc.Rho, 0.3*in.V)
			}
		}
		if err := in.Validate(); err != nil {
			t.Fatalf("instance %d: %v", k, err)
		}
	}
	return ins
}

// On those instances every node bound (with the excess chord) is below the best
// completion, as in TestEnergyNodeBoundIsBelowEveryCompletion.
func TestEnergyNodeBoundWithOutOfCore(t *testing.T) {
	for k, in := range outOfCore(t, 16, 8) {
		checkEnergyNodeBounds(t, k, in)
	}
}

// On random tiny min-energy instances whose machines favour out-of-core computing
// (outOfCore), the root bound with the excess chord is at least the one without and
// at most the enumeration's optimum.
func TestEnergyExcessChordRootBound(t *testing.T) {
	tighter := 0
	for k, in := range outOfCore(t, 36, 7) {
		want, err := dltseq.Solve(context.Background(), in, dltseq.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !want.Feasible {
			continue
		}
		var b [2]float64
		for v, no := range []bool{true, false} {
			rx := newRelax(in)
			rx.noExcessCut = no
			rx.setTarget(rx.deadline)
			s := &search{in: in, solver: chainLP, rx: rx, res: &Result{Objective: math.Inf(1)}, tails: &tailStore{}}
			_, bound, _, ok, err := s.solve(nil, nil, rx.rootSet())
			if err != nil || !ok {
				t.Fatalf("instance %d: root LP ok %v err %v", k, ok, err)
			}
			b[v] = bound
		}
		tol := 1e-6 * math.Max(1, want.Objective)
		if b[1] > want.Objective+tol {
			t.Fatalf("instance %d: root bound with the chord %g above the optimum %g", k, b[1], want.Objective)
		}
		if b[1] < b[0]-tol {
			t.Fatalf("instance %d: root bound with the chord %g below the one without %g", k, b[1], b[0])
		}
		if b[1] > b[0]+tol {
			tighter++
		}
	}
	t.Logf("the chord raised the root bound on %d instances", tighter)
}
