package dltbb

import (
	"context"
	"errors"
	"math"
	"sync/atomic"
	"testing"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
	"github.com/schedopt/schedopt/exact/dltseq"
)

// refLP solves with exact/dltseq's simplex (Bland's rule), the reference for Simplex.
func refLP(p *LP) ([]float64, float64, error) {
	x, o, err := (&dltseq.LP{C: p.C, Rows: p.Rows, Rel: p.Rel, B: p.B}).Solve()
	if errors.Is(err, dltseq.ErrInfeasible) {
		return nil, 0, ErrInfeasible
	}
	return x, o, err
}

// tiny returns random §6.4 instances small enough to enumerate.
func tiny(t *testing.T, count int, seed uint64) []*dm.Instance {
	return generated(t, count, seed, 14, 5000, 4, func(k int) (m, n int) {
		m = 2 + k%3
		return m, min(m, 3)
	})
}

// atTargets calls do for each instance at two targets: just above its optimum (by
// the enumeration), where the forced machines and load bounds are as tight as they
// get, and 5 % above it.
func atTargets(t *testing.T, instances []*dm.Instance, do func(k int, in *dm.Instance, target float64)) {
	t.Helper()
	for k, in := range instances {
		opt := completions(t, in, nil)
		if math.IsInf(opt, 1) {
			t.Fatalf("instance %d: no feasible sequence", k)
		}
		for _, target := range []float64{opt * 1.001, opt * 1.05} {
			do(k, in, target)
		}
	}
}

// searchAt returns a search over in for solving node LPs alone (certified simplex,
// no incumbent) with the relaxation of opt tightened to target.
func searchAt(in *dm.Instance, target float64, opt Options) *search {
	s := &search{in: in, solver: certifiedSimplex, rx: opt.relax(in), res: &Result{T: math.Inf(1)}, opt: opt, tails: &tailStore{}}
	s.rx.setTarget(target)
	return s
}

// checkNodeBound fails the test when the node LP of prefix (instance k) is infeasible
// (ok false) or bounds it above best, the length of its shortest completion, which is
// below the target.
func checkNodeBound(t *testing.T, k int, prefix []int, target, best, b float64, ok bool) {
	t.Helper()
	if !ok {
		t.Fatalf("instance %d prefix %v (target %g): LP infeasible, a completion has T = %g", k, prefix, target, best)
	}
	if b > best*(1+1e-7)+1e-7 {
		t.Fatalf("instance %d prefix %v (target %g): bound %g above the best completion %g", k, prefix, target, b, best)
	}
}

// eachCompletion calls do with every full sequence that starts with prefix and has a
// schedule (the fixed-sequence LP of exact/dltseq, accepted by the evaluator), and
// that schedule's length.
func eachCompletion(t *testing.T, in *dm.Instance, prefix []int, do func(seq []int, s dm.Schedule, makespan float64)) {
	t.Helper()
	var rec func(seq []int)
	rec = func(seq []int) {
		if len(seq) == in.N {
			s, ok, err := dltseq.MinTimeForSequence(in, seq)
			if err != nil {
				t.Fatal(err)
			}
			if ok {
				if r := dm.Evaluate(in, s, dm.EvalOptions{}); r.OK() {
					do(seq, s, r.Makespan)
				}
			}
			return
		}
		for i := range in.M() {
			rec(append(append([]int(nil), seq...), i))
		}
	}
	rec(prefix)
}

// completions returns the shortest schedule length over every full sequence that
// starts with prefix, by the fixed-sequence LP of exact/dltseq and the evaluator.
func completions(t *testing.T, in *dm.Instance, prefix []int) float64 {
	t.Helper()
	best := math.Inf(1)
	eachCompletion(t, in, prefix, func(_ []int, _ dm.Schedule, makespan float64) { best = math.Min(best, makespan) })
	return best
}

func TestNodeBoundIsBelowEveryCompletion(t *testing.T) {
	for k, in := range tiny(t, 40, 1) {
		opt := completions(t, in, nil)
		if math.IsInf(opt, 1) {
			t.Fatalf("instance %d: no feasible sequence", k)
		}
		if lb := CapacityLowerBoundTime(in); lb > opt*(1+1e-9) {
			t.Errorf("instance %d: capacity bound %g above the optimum %g", k, lb, opt)
		}
		// A target just above the optimum makes the forced machines and the load
		// bounds of the sequencing cuts as tight as they get.
		for _, target := range []float64{opt * 1.001, opt * 1.05} {
			s := &search{in: in, solver: Simplex, rx: newRelax(in), res: &Result{T: math.Inf(1)}}
			s.rx.setTarget(target)
			var walk func(prefix []int, cuts [][]int)
			walk = func(prefix []int, cuts [][]int) {
				best := completions(t, in, prefix)
				_, b, c, ok, err := s.solve(prefix, cuts, nil)
				if err != nil {
					t.Fatalf("instance %d prefix %v: %v", k, prefix, err)
				}
				if best < target {
					checkNodeBound(t, k, prefix, target, best, b, ok)
				}
				if len(prefix) < in.N && ok {
					for i := range in.M() {
						walk(append(append([]int(nil), prefix...), i), c)
					}
				}
			}
			walk(nil, nil)
		}
	}
}

// withDeadline gives every third instance (k%3 == 2) a deadline of 1.2 times the
// capacity bound on T, possibly infeasible, when it is above the valid lower bound.
func withDeadline(in *dm.Instance, k int) {
	if k%3 != 2 {
		return
	}
	if d := 1.2 * CapacityLowerBoundTime(in); d >= dm.ValidLowerBoundTime(in) {
		in.Deadline = &d
	}
}

func TestSolveMatchesTheEnumeration(t *testing.T) {
	for k, in := range tiny(t, 24, 2) {
		withDeadline(in, k)
		want, err := dltseq.Solve(context.Background(), in, dltseq.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, gap := range []float64{0, 0.01} {
			res, err := Solve(context.Background(), in, Simplex, Options{Gap: gap, Threads: 1 + k%2})
			if err != nil {
				t.Fatalf("instance %d: %v", k, err)
			}
			if !res.Optimal {
				t.Fatalf("instance %d: search did not finish", k)
			}
			if res.Feasible != want.Feasible {
				t.Fatalf("instance %d: feasible %v, enumeration %v", k, res.Feasible, want.Feasible)
			}
			if !res.Feasible {
				continue
			}
			r := dm.Evaluate(in, res.Schedule, dm.EvalOptions{})
			if !r.OK() || math.Abs(r.Makespan-res.T) > 1e-9*res.T {
				t.Fatalf("instance %d: evaluator %v %g vs %g (%s)", k, r.OK(), r.Makespan, res.T, r.Worst())
			}
			tol := 1e-6 * want.Objective
			if res.T < want.Objective-tol || res.T > want.Objective/(1-gap)+tol || res.Bound > want.Objective+tol || res.Bound < res.T*(1-gap)-tol {
				t.Fatalf("instance %d gap %g: T %g, bound %g; enumeration %g", k, gap, res.T, res.Bound, want.Objective)
			}
		}
	}
}

func TestSimplexAgreesWithTheReference(t *testing.T) {
	for k, in := range tiny(t, 30, 3) {
		rx := newRelax(in)
		rx.setTarget(1.02 * completions(t, in, nil))
		seqs := [][]int{nil, {0}, {1, 0}}
		full := make([]int, in.N)
		for j := range full {
			full[j] = j % in.M()
		}
		seqs = append(seqs, full)
		for _, seq := range seqs {
			nl := rx.build(seq, nil, nil)
			_, o1, e1 := refLP(nl.lp)
			_, o2, e2 := Simplex(nl.lp)
			if (e1 == nil) != (e2 == nil) || errors.Is(e1, ErrInfeasible) != errors.Is(e2, ErrInfeasible) {
				t.Fatalf("instance %d %v: reference %v, simplex %v", k, seq, e1, e2)
			}
			// Within lpBoundSlack, which the search takes off every bound.
			if e1 == nil && math.Abs(o1-o2) > lpBoundSlack*math.Max(1, math.Abs(o1)) {
				t.Fatalf("instance %d %v: reference %g, simplex %g", k, seq, o1, o2)
			}
		}
	}
}

func TestUnsupportedObjectives(t *testing.T) {
	in := tiny(t, 1, 4)[0]
	in.Objective = dm.MinEnergy
	d := 10 * CapacityLowerBoundTime(in)
	in.Deadline = &d
	e := 1e12
	in.EnergyLimit = &e
	if _, err := Solve(context.Background(), in, Simplex, Options{}); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("min-energy with an energy limit: got %v, want ErrUnsupported", err)
	}
}

// TestRootLPFailureIsNotFatal: a solver that fails on the root LP (neither a point
// nor a proof, as both of the command line's solvers did on an infeasible min-energy
// instance of Fig. 6.3) leaves the root with the trivial bound; the search goes on
// below it and ends as the enumeration does, feasible or not.
func TestRootLPFailureIsNotFatal(t *testing.T) {
	infeasible := 0
	instances := tiny(t, 12, 45)
	for k, in := range instances {
		if k%3 == 0 {
			// A deadline below the optimum: infeasible, proven below the root.
			d := 0.98 * completions(t, in, nil)
			if d >= dm.ValidLowerBoundTime(in) {
				in.Deadline = &d
			}
		}
		want, err := dltseq.Solve(context.Background(), in, dltseq.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !want.Feasible {
			infeasible++
		}
		var calls atomic.Int64
		failRoot := func(p *LP) ([]float64, float64, error) {
			if calls.Add(1) == 1 {
				return nil, 0, errors.New("no point, no proof")
			}
			return certifiedSimplex(p)
		}
		res, err := Solve(context.Background(), in, failRoot, Options{NoLocalSearch: true})
		if err != nil {
			t.Fatalf("instance %d: %v", k, err)
		}
		if res.Failed == 0 {
			t.Fatalf("instance %d: the root's failure was not counted", k)
		}
		if !res.Optimal || res.Feasible != want.Feasible {
			t.Fatalf("instance %d: optimal %v feasible %v, enumeration feasible %v", k, res.Optimal, res.Feasible, want.Feasible)
		}
		if res.Feasible && math.Abs(res.T-want.Objective) > 2*lpBoundSlack*want.Objective {
			t.Fatalf("instance %d: T %g, enumeration %g", k, res.T, want.Objective)
		}
	}
	if infeasible == 0 {
		t.Fatal("no infeasible instance: the test checks half of what it says")
	}
}
