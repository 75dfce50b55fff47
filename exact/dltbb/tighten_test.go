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
// above the optimum and at a looser one, and, at every prefix, those tightenOpen
// derives from the prefix's own LP, and checks what the search relies on: the
// best completion's suffix load on every machine is within the bounds, the node bound
// with them is below that completion, and a node declared infeasible has no
// completion shorter than the target.
func TestTightenedLoadsHoldInEveryCompletion(t *testing.T) {
	tightened, points, open := 0, 0, 0
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
				if len(prefix) > 0 && len(prefix) < in.N {
					// As an expanded node's child gets them: from its own LP.
					final := &nodeFinal{}
					_, _, _, _, _, err := s.solveNode(prefix, cuts, nil, parent, s.target(), final)
					if err != nil {
						t.Fatalf("instance %d prefix %v: %v", k, prefix, err)
					}
					if final.nl != nil {
						lb, at, _, ok := s.tightenOpen(final)
						final.release()
						tightened += checkTightened(t, k, s, prefix, target, best, sch, lb, ok)
						if ok && at != nil {
							open++
							checkNodePoint(t, k, s, prefix, cuts, target, best, at)
						}
					}
				}
				lb, at, _, ok := s.tightenLoads(prefix, cuts, nil, parent)
				tightened += checkTightened(t, k, s, prefix, target, best, sch, lb, ok)
				if !ok {
					return
				}
				if at == nil {
					t.Fatalf("instance %d prefix %v: no min-T point", k, prefix)
				}
				points++
				checkNodePoint(t, k, s, prefix, cuts, target, best, at)
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
	if tightened == 0 || points == 0 || open == 0 {
		t.Fatal("no load bound was tightened or no min-T point returned: the test checks nothing")
	}
	t.Logf("%d load bounds tightened; %d min-T points, %d of them of open children (tightenOpen)", tightened, points+open, open)
}

// checkNodePoint checks the min-T point at that tightenLoads returned for the node
// with prefix (instance k): its bound, which the search gives the node, is below the
// node's best completion best when that is below the target, and its load bounds lay
// out the columns of its point (pickSplit reads it with them): the node LP built with
// them has as many columns, and the point satisfies its rows.
func checkNodePoint(t *testing.T, k int, s *search, prefix []int, cuts [][]int, target, best float64, at *nodePoint) {
	t.Helper()
	if best < target && at.bound > best*(1+1e-7)+1e-7 {
		t.Fatalf("instance %d prefix %v: min-T bound %g above the best completion %g", k, prefix, at.bound, best)
	}
	nl := s.rx.buildWith(prefix, cuts, nil, at.lb)
	if len(nl.lp.C) != len(at.x) {
		t.Fatalf("instance %d prefix %v: the point has %d columns, its loads lay out %d", k, prefix, len(at.x), len(nl.lp.C))
	}
	if err := checkRows(nl.lp, at.x); err != nil {
		t.Fatalf("instance %d prefix %v: the point misses a row of its LP: %v", k, prefix, err)
	}
}

// checkTightened checks the load bounds lb that tightenLoads gave the node with
// prefix (ok false: declared infeasible) against the best completion below the
// target (objective best, schedule sch): a node declared infeasible has none, and
// that completion's suffix loads are within the bounds. It returns how many bounds
// are tighter than the search's capacities.
func checkTightened(t *testing.T, k int, s *search, prefix []int, target, best float64, sch dm.Schedule, lb *loads, ok bool) int {
	t.Helper()
	if !ok {
		if best < target*(1-1e-9) {
			t.Fatalf("instance %d prefix %v (target %g): declared infeasible, a completion has %g", k, prefix, target, best)
		}
		return 0
	}
	if best >= target {
		return 0
	}
	in, tightened := s.in, 0
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
	return tightened
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

// TestEnergyTightenedLoadsHoldInEveryCompletion is TestTightenedLoadsHoldInEveryCompletion
// for min-energy: on every prefix of every complete machine set of random tiny
// min-energy instances, with the load bounds inherited from parent to child and the
// energy target just above the optimum and looser, the best completion below the
// target keeps every suffix load within the bounds, the node bound with them is below
// it, and a node declared infeasible has no completion below the target.
func TestEnergyTightenedLoadsHoldInEveryCompletion(t *testing.T) {
	tightened, walked := 0, 0
	for k, in := range tinyEnergy(t, 12, 11) {
		rx := newRelax(in)
		rx.setTarget(rx.deadline)
		opt := energyCompletions(t, rx, nil, nil)
		if math.IsInf(opt, 1) {
			continue // an infeasible deadline: nothing to bound
		}
		for _, target := range []float64{opt * 1.001, opt * 1.05} {
			s := &search{in: in, solver: chainLP, rx: rx, res: &Result{Feasible: true, Objective: target}}
			var walk func(prefix []int, cuts [][]int, ms *machineSet, parent *loads)
			walk = func(prefix []int, cuts [][]int, ms *machineSet, parent *loads) {
				walked++
				best, sch := bestEnergyCompletion(t, rx, prefix, ms)
				lb, _, _, ok := s.tightenLoads(prefix, cuts, ms, parent)
				tightened += checkTightened(t, k, s, prefix, target, best, sch, lb, ok)
				if !ok {
					return
				}
				_, b, c, feasible, _, err := s.solveCounted(prefix, cuts, ms, lb)
				if err != nil {
					t.Fatalf("instance %d prefix %v: %v", k, prefix, err)
				}
				if best < target {
					if !feasible {
						t.Fatalf("instance %d prefix %v (target %g): LP infeasible with the bounds, a completion has E = %g", k, prefix, target, best)
					}
					if b > best*(1+1e-7)+1e-7 {
						t.Fatalf("instance %d prefix %v (target %g): bound %g above the best completion %g", k, prefix, target, b, best)
					}
				}
				if len(prefix)+1 < in.N && feasible {
					for _, i := range s.symbolsOf(ms) {
						walk(append(append([]int(nil), prefix...), i), c, ms, lb)
					}
				}
			}
			var sets func(ms *machineSet)
			sets = func(ms *machineSet) {
				if ms.complete(rx.m) {
					walk(nil, nil, ms, nil)
					return
				}
				for _, c := range rx.children(ms) {
					sets(c)
				}
			}
			sets(rx.rootSet())
		}
	}
	if tightened == 0 {
		t.Fatalf("no load bound was tightened in %d nodes: the test checks nothing", walked)
	}
}

// TestTightenPaysWhereItPrunes checks the rule of tightenPays: a min-time search always
// tightens; a min-energy one tightens the first tightenProbe nodes of a depth, then
// only every tightenProbe-th node of a depth where fewer than one in tightenHit was
// pruned by its load bounds, and every node of a depth where more were.
func TestTightenPaysWhereItPrunes(t *testing.T) {
	in := tinyEnergy(t, 1, 3)[0]
	for _, c := range []struct {
		name          string
		energy        bool
		runs, pruned  int
		offers, wants int // of offers more nodes at the depth, how many get their bounds
	}{
		{"min-time, never pruned", false, 1000, 0, 64, 64},
		{"min-energy, first nodes", true, 0, 0, tightenProbe, tightenProbe},
		{"min-energy, never pruned", true, tightenProbe, 0, 4 * tightenProbe, 4},
		{"min-energy, rarely pruned", true, 10 * tightenHit, 9, 4 * tightenProbe, 4},
		{"min-energy, pruned often enough", true, 10 * tightenHit, 10, 64, 64},
	} {
		t.Run(c.name, func(t *testing.T) {
			rx := newRelax(in)
			if !c.energy {
				rx.energy = nil
			}
			s := &search{in: in, rx: rx}
			*s.tightenCount(5) = tightenCount{runs: c.runs, pruned: c.pruned}
			got := 0
			for range c.offers {
				if s.tightenPays(5) {
					got++
				}
			}
			if got != c.wants {
				t.Fatalf("%d of %d nodes get their load bounds, want %d", got, c.offers, c.wants)
			}
			if s.tightenCount(4).offered != 0 && c.energy {
				t.Fatalf("depth 4 counted offers of depth 5")
			}
		})
	}
}
