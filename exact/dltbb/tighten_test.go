package dltbb

import (
	"context"
	"math"
	"testing"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
	"github.com/schedopt/schedopt/exact/dltseq"
)

// bestCompletion returns the shortest schedule over every full sequence that starts
// with prefix (the fixed-sequence LP of exact/dltseq, checked by the evaluator), and
// that schedule.
func bestCompletion(t *testing.T, in *dm.Instance, prefix []int) (float64, dm.Schedule) {
	t.Helper()
	best, arg := math.Inf(1), dm.Schedule{}
	eachCompletion(t, in, prefix, func(_ []int, s dm.Schedule, makespan float64) {
		if makespan < best {
			best, arg = makespan, s
		}
	})
	return best, arg
}

// TestTightenedLoadsHoldInEveryCompletion walks every prefix of random tiny instances
// with the load bounds of tightenLoads inherited from parent to child, at a target just
// above the optimum and at a looser one, and checks what the search relies on: the
// best completion's suffix load on every machine is within the bounds, the node bound
// with them is below that completion, and a node declared infeasible has no
// completion shorter than the target.
func TestTightenedLoadsHoldInEveryCompletion(t *testing.T) {
	tightened := 0
	for k, in := range tiny(t, 40, 7) {
		opt, _ := bestCompletion(t, in, nil)
		if math.IsInf(opt, 1) {
			t.Fatalf("instance %d: no feasible sequence", k)
		}
		for _, target := range []float64{opt * 1.001, opt * 1.05} {
			s := &search{in: in, solver: certifiedSimplex, rx: newRelax(in), res: &Result{Feasible: true, Objective: target, T: target}}
			s.rx.setTarget(target)
			var walk func(prefix []int, cuts [][]int, parent *loads)
			walk = func(prefix []int, cuts [][]int, parent *loads) {
				best, sch := bestCompletion(t, in, prefix)
				lb, _, ok := s.tightenLoads(prefix, cuts, nil, parent)
				if !ok {
					if best < target*(1-1e-9) {
						t.Fatalf("instance %d prefix %v (target %g): declared infeasible, a completion has T = %g", k, prefix, target, best)
					}
					return
				}
				if best < target {
					load := make([]float64, in.M())
					for _, msg := range sch.Messages[len(prefix):] {
						load[msg.Machine] += msg.Size
					}
					for i, l := range load {
						if l > lb.max[i]+1e-7*in.V {
							t.Fatalf("instance %d prefix %v (target %g): M%d takes %g in the best completion, bound %g", k, prefix, target, i+1, l, lb.max[i])
						}
						if lb.max[i] < s.rx.betaMax[i]*(1-1e-3) {
							tightened++
						}
					}
				}
				_, b, c, feasible, _, err := s.solveCounted(prefix, cuts, nil, lb)
				if err != nil {
					t.Fatalf("instance %d prefix %v: %v", k, prefix, err)
				}
				if best < target {
					checkNodeBound(t, k, prefix, target, best, b, feasible)
				}
				if len(prefix)+1 < in.N && feasible {
					for i := range in.M() {
						walk(append(append([]int(nil), prefix...), i), c, lb)
					}
				}
			}
			walk(nil, nil, nil)
		}
	}
	if tightened == 0 {
		t.Fatal("no load bound was tightened: the test checks nothing")
	}
}

// TestSolveWithAndWithoutTighteningAgree solves random tiny instances with and
// without the node load bounds: the same optimum, within the gap, as the enumeration.
func TestSolveWithAndWithoutTighteningAgree(t *testing.T) {
	for k, in := range tiny(t, 24, 8) {
		want, err := dltseq.Solve(context.Background(), in, dltseq.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, no := range []bool{false, true} {
			res, err := Solve(context.Background(), in, certifiedSimplex, Options{NoTighten: no, Threads: 1 + k%2})
			if err != nil {
				t.Fatalf("instance %d: %v", k, err)
			}
			if !res.Optimal || !res.Feasible {
				t.Fatalf("instance %d (no tightening %v): optimal %v feasible %v", k, no, res.Optimal, res.Feasible)
			}
			tol := 2 * lpBoundSlack * want.Objective
			if math.Abs(res.T-want.Objective) > tol || res.Bound > want.Objective+tol {
				t.Fatalf("instance %d (no tightening %v): T %g, bound %g; enumeration %g", k, no, res.T, res.Bound, want.Objective)
			}
		}
	}
}
