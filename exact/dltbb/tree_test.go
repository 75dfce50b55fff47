package dltbb

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"
	"testing"
	"time"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
	"github.com/schedopt/schedopt/exact/dltseq"
)

// TestThreadsGiveTheSameOptimum solves random instances on 1, 2 and 4 threads, at
// gap 0 and 1 %: the parallel tree search explores another tree (which depends on the
// timing), but its schedule must be within the gap of the optimum and its bound
// below the optimum. The optimum is the enumeration's (exact/dltseq) where the
// instance is small enough (m <= 4, n <= 4, and m = 3, n = 5); on the larger ones
// (m = 4, n = 6 and m = 5, n = 7: 30-90 nodes without the local search, which the
// test leaves out to make the trees larger) it is the one-thread search's at gap 0,
// checked against the enumeration by TestSolveMatchesTheEnumeration.
func TestThreadsGiveTheSameOptimum(t *testing.T) {
	type instance struct {
		name string
		in   *dm.Instance
		enum bool // the enumeration is the reference
	}
	var cases []instance
	for k, in := range tiny(t, 12, 9) {
		cases = append(cases, instance{fmt.Sprintf("tiny %d (m=%d, n=%d)", k, in.M(), in.N), in, true})
	}
	for _, c := range []struct {
		m, n int
		seed uint64
		enum bool
	}{{3, 5, 1, true}, {4, 6, 2, false}, {5, 7, 1, false}, {5, 7, 2, false}} {
		in, err := dm.Generate(dm.GenConfig{M: c.m, N: c.n, V: 3000 * float64(c.m), P0N: 100, Seed: c.seed})
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, instance{fmt.Sprintf("generator m=%d n=%d seed %d", c.m, c.n, c.seed), in, c.enum})
	}
	parallelNodes := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opt := Options{NoLocalSearch: true}
			var want float64
			if c.enum {
				ref, err := dltseq.Solve(context.Background(), c.in, dltseq.Options{})
				if err != nil {
					t.Fatal(err)
				}
				want = ref.Objective
			} else {
				opt.Threads = 1
				ref, err := Solve(context.Background(), c.in, certifiedSimplex, opt)
				if err != nil {
					t.Fatal(err)
				}
				if !ref.Optimal {
					t.Fatal("one thread: the search did not finish")
				}
				want = ref.T
			}
			tol := 2 * lpBoundSlack * want
			for _, gap := range []float64{0, 0.01} {
				for _, threads := range []int{1, 2, 4} {
					opt.Gap, opt.Threads = gap, threads
					res, err := Solve(context.Background(), c.in, certifiedSimplex, opt)
					if err != nil {
						t.Fatalf("gap %g, %d threads: %v", gap, threads, err)
					}
					if !res.Optimal || !res.Feasible {
						t.Fatalf("gap %g, %d threads: optimal %v, feasible %v", gap, threads, res.Optimal, res.Feasible)
					}
					r := dm.Evaluate(c.in, res.Schedule, dm.EvalOptions{})
					if !r.OK() || r.Makespan != res.T {
						t.Fatalf("gap %g, %d threads: evaluator %v, T %g, result %g", gap, threads, r.OK(), r.Makespan, res.T)
					}
					if res.T < want-tol || res.T > want/(1-gap)+tol || res.Bound > want+tol || res.Bound < res.T*(1-gap)-tol {
						t.Fatalf("gap %g, %d threads: T %g, bound %g; optimum %g", gap, threads, res.T, res.Bound, want)
					}
					if threads > 1 {
						parallelNodes += res.Nodes
					}
				}
			}
		})
	}
	t.Logf("%d nodes on more than one thread", parallelNodes)
	if parallelNodes < 200 {
		t.Fatalf("%d nodes on more than one thread in all: the trees are too small to test the parallel search", parallelNodes)
	}
}

// TestOneThreadKeepsItsTree: Threads 0 and 1 are the same serial search (same nodes,
// LPs, schedule and bound), in a fixed order.
func TestOneThreadKeepsItsTree(t *testing.T) {
	for k, in := range tiny(t, 8, 10) {
		var got []*Result
		for _, threads := range []int{0, 1, 1} {
			res, err := Solve(context.Background(), in, certifiedSimplex, Options{Gap: 0.001, Threads: threads})
			if err != nil {
				t.Fatalf("instance %d: %v", k, err)
			}
			got = append(got, res)
		}
		for _, b := range got[1:] {
			a := got[0]
			if a.Nodes != b.Nodes || a.LPs != b.LPs || a.T != b.T || a.Bound != b.Bound || a.Optimal != b.Optimal {
				t.Fatalf("instance %d: %d nodes, %d LPs, T %g, bound %g; then %d nodes, %d LPs, T %g, bound %g",
					k, a.Nodes, a.LPs, a.T, a.Bound, b.Nodes, b.LPs, b.T, b.Bound)
			}
		}
	}
}

// TestParallelSearchStopsPromptly cancels the search of a hard generator instance
// (m = 10, n = 12, seed 2: minutes to prove) on two threads, at once and once the
// tree search is under way (after 1,500 LPs; without the local search, so that it
// begins soon), and stops another at a node limit: it returns within a second of the
// cancellation (stopLatency under the race detector), with the best schedule and a
// bound below it.
func TestParallelSearchStopsPromptly(t *testing.T) {
	in, starts := genInstance(t, 10, 2)
	for _, c := range []struct {
		name     string
		afterLPs int64 // cancel once the solver has been called this often (-1: never)
		maxNodes int
	}{{"cancelled at once", 0, 0}, {"cancelled during the search", 1500, 0}, {"node limit", -1, 40}} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var calls atomic.Int64
			var cancelled atomic.Int64 // UnixNano of the cancellation
			solver := func(p *LP) ([]float64, float64, error) {
				if n := calls.Add(1); n-1 == c.afterLPs {
					cancelled.Store(time.Now().UnixNano())
					cancel()
				}
				return certifiedSimplex(p)
			}
			if c.afterLPs == 0 {
				cancelled.Store(time.Now().UnixNano())
				cancel()
			}
			res, err := Solve(ctx, in, solver, Options{Gap: 0.002, Starts: starts, Threads: 2, MaxNodes: c.maxNodes, NoLocalSearch: true})
			if err != nil {
				t.Fatal(err)
			}
			if c.afterLPs >= 0 {
				d := time.Since(time.Unix(0, cancelled.Load()))
				if d > stopLatency {
					t.Errorf("returned %v after the cancellation", d)
				}
				t.Logf("returned %v after the cancellation", d)
			} else if res.Nodes != c.maxNodes {
				t.Errorf("%d nodes, limit %d", res.Nodes, c.maxNodes)
			}
			if c.afterLPs > 0 && res.Nodes == 0 {
				t.Error("cancelled before the tree search began: the test checks nothing")
			}
			if !res.Feasible || res.Optimal || !(res.Bound <= res.T) || res.Bound < CapacityLowerBoundTime(in) || math.IsInf(res.Bound, 0) {
				t.Fatalf("feasible %v, optimal %v, T %g, bound %g", res.Feasible, res.Optimal, res.T, res.Bound)
			}
			t.Logf("%d nodes, %d LPs, T %.4f, bound %.4f", res.Nodes, res.LPs, res.T, res.Bound)
		})
	}
}
