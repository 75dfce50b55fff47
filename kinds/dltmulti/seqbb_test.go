package dltmulti

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/schedopt/schedopt/backends"
	dm "github.com/schedopt/schedopt/domain/dltmulti"
	"github.com/schedopt/schedopt/exact/dltseq"
	"github.com/schedopt/schedopt/kinds/kindtest"
	"github.com/schedopt/schedopt/solve"
)

// The backend "exact" on a min-time instance beyond the enumeration's limit runs the
// sequence branch-and-bound; its optimum (gap 0) and its gap-bounded answers agree
// with a full enumeration, and the schedule passes the evaluator.
func TestExactBackendRunsTheSequenceBranchAndBound(t *testing.T) {
	for k := range 4 {
		in, err := dm.Generate(dm.GenConfig{M: 3, N: 5, V: 2000 + 1500*float64(k), P0N: 100, Seed: uint64(300 + k)})
		if err != nil {
			t.Fatal(err)
		}
		if enumerable(in) {
			t.Fatalf("instance %d: m = 3, n = 5 should exceed the Exact enumeration limit", k)
		}
		want, err := dltseq.Solve(context.Background(), in, dltseq.Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkSequenceBB(t, k, in, want.Objective, "T")
	}
}

// A time limit that ends the search early gives a "feasible" result with a valid
// bound and an evaluated schedule, not an error.
func TestSequenceBranchAndBoundStopsAtTheTimeLimit(t *testing.T) {
	in, err := dm.Generate(dm.GenConfig{M: 10, N: 12, V: 24000, P0N: 100, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	p := &Problem{Inst: in}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	res, err := p.Solve(ctx, solve.Request{Backend: solve.Exact, Options: backends.Options{RelGap: 0}})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(t0); d > 5*time.Second {
		t.Errorf("returned %v after a 300 ms limit", d)
	}
	if res.Status == solve.StatusFeasible {
		if !res.Check.Evaluator.OK || *res.Bound > *res.Objective || *res.Bound < dm.ValidLowerBoundTime(in)*(1-1e-9) || math.IsInf(*res.Bound, 0) {
			t.Fatalf("feasible result: objective %g, bound %g, evaluator %+v", *res.Objective, *res.Bound, res.Check.Evaluator)
		}
	} else if res.Status != solve.StatusTimeLimit && res.Status != solve.StatusOptimal {
		t.Fatalf("status %s (%s)", res.Status, res.Message)
	}
}

// The backend "exact" on a min-energy instance beyond the enumeration's limit runs the
// sequence branch-and-bound with HiGHS as its node LP solver; its optimum (gap 0) and
// its gap-bounded answers agree with a full enumeration over sequences and pieces,
// at a fixed length and under a deadline, with convex and concave g_i.
func TestExactBackendMinEnergyMatchesTheEnumeration(t *testing.T) {
	for k := range 4 {
		in, err := dm.Generate(dm.GenConfig{M: 3, N: 5, V: 1500 + 1000*float64(k), P0N: 100, Seed: uint64(500 + k)})
		if err != nil {
			t.Fatal(err)
		}
		tmin, err := dltseq.Solve(context.Background(), in, dltseq.Options{})
		if err != nil || !tmin.Feasible {
			t.Fatalf("instance %d: min-time enumeration: %v", k, err)
		}
		if k%2 == 1 { // M_0 concave: out-of-core computing below P^N
			mc := &in.Machines[0]
			mc.K2 = math.Max(mc.K1+1, 0.5*mc.PN*mc.A2)
		}
		in.Objective = dm.MinEnergy
		d := tmin.Objective * []float64{1.05, 1.5, 2.5}[k%3]
		in.Deadline, in.FixedLength = &d, k%3 != 2
		want, err := dltseq.Solve(context.Background(), in, dltseq.Options{})
		if err != nil || !want.Feasible {
			t.Fatalf("instance %d: enumeration: %v", k, err)
		}
		checkSequenceBB(t, k, in, want.Objective, "E")
	}
}

// BenchmarkSequenceBBMinEnergy times the min-energy sequence branch-and-bound on
// Table 6.1 at fixed lengths (gap 0.2 %, 2 threads, node LPs on HiGHS), the issue 14
// target; T = 432 s, the hardest of the four, is in the build-tagged headline test.
func BenchmarkSequenceBBMinEnergy(b *testing.B) {
	for _, T := range []float64{300, 700, 1000} {
		in := kindtest.MustLoad(b, "dlt-multi-table6.1.json", Kind()).(*Problem).Inst
		c := *in
		c.Objective, c.Deadline, c.FixedLength = dm.MinEnergy, &T, true
		b.Run(fmt.Sprintf("T=%g", T), func(b *testing.B) {
			p := &Problem{Inst: &c}
			p.KindName, p.InstName = dm.Kind, c.Name
			for b.Loop() {
				res, err := p.Solve(context.Background(), solve.Request{Backend: solve.Exact, Options: backends.Options{RelGap: 0.002, Threads: 2}})
				if err != nil || res.Status != solve.StatusOptimal {
					b.Fatalf("%v %+v", err, res)
				}
				b.ReportMetric(*res.Objective, "J")
				b.ReportMetric(float64(res.Nodes), "nodes")
			}
		})
	}
}

// checkSequenceBB solves in by the backend exact at gaps 0 and 1 % and checks the
// result against the enumeration's optimum want: optimal status, the evaluator's
// approval, an objective within the gap, a bound not above want. what names the
// objective in messages.
func checkSequenceBB(t *testing.T, k int, in *dm.Instance, want float64, what string) {
	t.Helper()
	p := &Problem{Inst: in}
	p.KindName, p.InstName = dm.Kind, in.Name
	for _, gap := range []float64{0, 0.01} {
		res, err := p.Solve(context.Background(), solve.Request{Backend: solve.Exact, Options: backends.Options{RelGap: gap, Threads: 2}})
		if err != nil {
			t.Fatalf("instance %d: %v", k, err)
		}
		if res.Status != solve.StatusOptimal || res.Check.Evaluator == nil || !res.Check.Evaluator.OK {
			t.Fatalf("instance %d gap %g: status %s (%s), evaluator %+v", k, gap, res.Status, res.Message, res.Check.Evaluator)
		}
		obj, bound := *res.Objective, *res.Bound
		tol := 1e-6 * want
		if obj < want-tol || obj > want/(1-gap)+tol || bound > want+tol || *res.Gap > gap+1e-9 {
			t.Fatalf("instance %d gap %g: %s %g, bound %g, gap %g; enumeration %g", k, gap, what, obj, bound, *res.Gap, want)
		}
	}
}
