package dltmulti

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/schedopt/schedopt/backends"
	dm "github.com/schedopt/schedopt/domain/dltmulti"
	"github.com/schedopt/schedopt/exact/dltbb"
	"github.com/schedopt/schedopt/model"
	"github.com/schedopt/schedopt/solve"
)

// randomLP is a feasible, bounded LP of the node form: min c·x with c > 0, a few ≥
// rows with positive coefficients, ≤ rows that the point 1 satisfies, and x_j <= 10
// (rows, and the column bounds U that DualBound uses).
func randomLP(r *rand.Rand) *dltbb.LP {
	n, m := 2+r.IntN(5), 1+r.IntN(5)
	p := &dltbb.LP{C: make([]float64, n), U: make([]float64, n)}
	for j := range p.C {
		p.C[j] = 0.5 + r.Float64()
		p.U[j] = 10
	}
	for range m {
		row := make([]float64, n)
		sum := 0.0
		for j := range row {
			row[j] = r.Float64()
			sum += row[j]
		}
		rel := []int{-1, 1}[r.IntN(2)]
		b := sum * (0.3 + 0.6*r.Float64())
		if rel < 0 {
			b = sum * (1 + r.Float64())
		}
		p.Rows, p.Rel, p.B = append(p.Rows, row), append(p.Rel, rel), append(p.B, b)
	}
	for j := range n {
		row := make([]float64, n)
		row[j] = 1
		p.Rows, p.Rel, p.B = append(p.Rows, row), append(p.Rel, -1), append(p.B, 10)
	}
	return p
}

// TestLPModelIsTheNodeLP: HiGHS on lpModel(p) and the search's own simplex agree on
// random node-form LPs, and both solvers' multipliers certify their objectives.
func TestLPModelIsTheNodeLP(t *testing.T) {
	s, err := solve.NewSolver("highs")
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 17))
	for k := 0; k < 40; k++ {
		p := randomLP(r)
		ours, err := dltbb.SimplexDual(p)
		if err != nil {
			t.Fatalf("LP %d: %v", k, err)
		}
		res, err := s.Solve(context.Background(), lpModel(p), backends.Options{Threads: 1})
		if err != nil || res.Status != backends.Optimal {
			t.Fatalf("LP %d: HiGHS %v %v", k, res.Status, err)
		}
		if math.Abs(res.Objective-ours.Obj) > 1e-7*math.Max(1, math.Abs(ours.Obj)) {
			t.Errorf("LP %d: HiGHS %.12g, ours %.12g", k, res.Objective, ours.Obj)
		}
		if lb := dltbb.DualBound(p, ours.Y); !certified(lb, ours.Obj) {
			t.Errorf("LP %d: our multipliers prove %.12g of %.12g", k, lb, ours.Obj)
		}
		if lb := dltbb.DualBound(p, res.RowDuals); !certified(lb, res.Objective) {
			t.Errorf("LP %d: HiGHS's duals prove %.12g of %.12g", k, lb, res.Objective)
		}
	}
}

// fakeSolver answers every LP with a fixed status and objective (a solver that lies),
// or passes it on to a real backend when inner is set; it counts its calls.
type fakeSolver struct {
	status backends.Status
	obj    float64
	inner  backends.Solver
	calls  *atomic.Int64
}

func (f fakeSolver) Name() string { return "fake" }
func (f fakeSolver) Solve(ctx context.Context, m *model.Model, o backends.Options) (backends.Result, error) {
	f.calls.Add(1)
	if f.inner != nil {
		return f.inner.Solve(ctx, m, o)
	}
	return backends.Result{Status: f.status, HasSolution: f.status == backends.Optimal, Objective: f.obj,
		Values: make([]float64, m.NumVars())}, nil
}

// TestLPCertNeverReturnsAnUnprovenValue: whatever the two solvers claim, a value
// lpCert returns is a valid lower bound (at most the true optimum), an infeasibility
// it returns is proven or reported by both, and the counts say which case it was.
func TestLPCertNeverReturnsAnUnprovenValue(t *testing.T) {
	highs, err := solve.NewSolver("highs")
	if err != nil {
		t.Fatal(err)
	}
	p := randomLP(rand.New(rand.NewPCG(1, 2)))
	truth, err := dltbb.SimplexDual(p)
	if err != nil {
		t.Fatal(err)
	}
	opt := truth.Obj
	infeasible := &dltbb.LP{C: []float64{1}, Rows: [][]float64{{1}, {1}}, Rel: []int{1, -1}, B: []float64{2, 1}, U: []float64{10}}
	honest := dltbb.SimplexDual
	// liar claims a point with objective opt + 1 and multipliers that prove nothing.
	liar := func(q *dltbb.LP) (dltbb.LPSolution, error) {
		return dltbb.LPSolution{X: truth.X, Obj: opt + 1, Y: make([]float64, len(q.Rows))}, nil
	}
	// falseInfeasible claims infeasibility with a ray that proves nothing.
	falseInfeasible := func(q *dltbb.LP) (dltbb.LPSolution, error) {
		return dltbb.LPSolution{Y: make([]float64, len(q.Rows))}, dltbb.ErrInfeasible
	}
	// asHighs makes a backends.Solver a certSolver, as newLPCert does.
	asSecond := func(b backends.Solver) certSolver {
		return certSolver{"second", func(q *dltbb.LP) (dltbb.LPSolution, error) { return backendLP(b, q) }}
	}
	for _, tc := range []struct {
		name    string
		lp      *dltbb.LP
		primary func(*dltbb.LP) (dltbb.LPSolution, error)
		second  *fakeSolver // nil: none
		// want: "optimal" (value within 1e-7 of opt), "weak" (a valid value below
		// opt), "infeasible" or "error".
		want    string
		counter func(a *lpCert) int64
		calls   int64 // calls of the second solver
	}{
		{"primary certified, second not asked", p, honest, &fakeSolver{inner: highs}, "optimal", func(a *lpCert) int64 { return a.byFirst.Load() }, 0},
		{"lying primary, HiGHS certifies", p, liar, &fakeSolver{inner: highs}, "optimal", func(a *lpCert) int64 { return a.byLater.Load() }, 1},
		{"lying primary, lying second: a weak valid bound", p, liar, &fakeSolver{status: backends.Optimal, obj: opt + 2}, "weak", func(a *lpCert) int64 { return a.weak.Load() }, 1},
		{"lying primary, second too low without duals: weak", p, liar, &fakeSolver{status: backends.Optimal, obj: opt / 2}, "weak", func(a *lpCert) int64 { return a.weak.Load() }, 1},
		{"false infeasibility, HiGHS finds the optimum", p, falseInfeasible, &fakeSolver{inner: highs}, "optimal", func(a *lpCert) int64 { return a.byLater.Load() }, 1},
		{"false infeasibility, second agrees: stands unproven", p, falseInfeasible, &fakeSolver{status: backends.Infeasible, obj: math.NaN()}, "infeasible", func(a *lpCert) int64 { return a.agreed.Load() }, 1},
		{"false infeasibility, second has no answer", p, falseInfeasible, &fakeSolver{status: backends.Other, obj: math.NaN()}, "error", func(a *lpCert) int64 { return a.failed.Load() }, 2},
		{"proven infeasibility, second not asked", infeasible, honest, &fakeSolver{inner: highs}, "infeasible", func(a *lpCert) int64 { return a.proved.Load() }, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := &lpCert{solvers: []certSolver{{"primary", tc.primary}}}
			var calls atomic.Int64
			if tc.second != nil {
				tc.second.calls = &calls
				a.solvers = append(a.solvers, asSecond(*tc.second))
			}
			_, obj, err := a.solve(tc.lp)
			switch tc.want {
			case "infeasible":
				if !errors.Is(err, dltbb.ErrInfeasible) {
					t.Fatalf("got %g, %v; want the infeasibility", obj, err)
				}
			case "error":
				if err == nil || errors.Is(err, dltbb.ErrInfeasible) {
					t.Fatalf("got %g, %v; want an error", obj, err)
				}
			case "optimal":
				if err != nil || math.Abs(obj-opt) > 1e-7*math.Max(1, opt) {
					t.Fatalf("got %g, %v; want %g", obj, err, opt)
				}
			case "weak":
				if err != nil || obj > opt || obj < -1e300 {
					t.Fatalf("got %g, %v; want a finite value <= %g", obj, err, opt)
				}
			}
			if tc.counter(a) != 1 || calls.Load() != tc.calls {
				t.Errorf("counter %d (want 1), second solver called %d times (want %d); %s", tc.counter(a), calls.Load(), tc.calls, a.summary())
			}
		})
	}
}

// TestLPCertOnNodeLPs: on the min-time and min-energy node LPs of small random
// instances, both configurations of newLPCert certify every LP whose columns all have
// upper bounds (min-time LPs solved before the first incumbent have none on T) with
// the first solver or the second, and their values are never above HiGHS's optimum.
// A point whose bound is weaker than its value (not certified) must still be within
// 1e-6 of HiGHS's optimum: a load-bound LP of min-energy (max β_i below an energy
// target; objective −35.078 MB) was certified only to 2e-7, as the program's round-off
// allows.
func TestLPCertOnNodeLPs(t *testing.T) {
	highs, err := solve.NewSolver("highs")
	if err != nil {
		t.Fatal(err)
	}
	for _, energy := range []bool{false, true} {
		a := newLPCert(highs, energy)
		var lps []*dltbb.LP
		for _, p := range nodeLPsForTest(t, energy) {
			if !slices.ContainsFunc(p.U, func(u float64) bool { return math.IsInf(u, 1) }) {
				lps = append(lps, p)
			}
		}
		for k, p := range lps {
			weak := a.weak.Load()
			_, obj, err := a.solve(p)
			ref, refErr := backendLP(highs, p)
			if a.weak.Load() != weak && (refErr != nil || obj < ref.Obj-1e-6*math.Max(1, math.Abs(ref.Obj))) {
				t.Errorf("energy %v, LP %d: not certified, bound %.10g, HiGHS %.10g (%v)", energy, k, obj, ref.Obj, refErr)
			}
			switch {
			case errors.Is(err, dltbb.ErrInfeasible):
				if refErr == nil {
					t.Errorf("energy %v, LP %d: infeasible, HiGHS %g", energy, k, ref.Obj)
				}
			case err != nil:
				t.Errorf("energy %v, LP %d: %v", energy, k, err)
			case refErr == nil && obj > ref.Obj+1e-7*math.Max(1, math.Abs(ref.Obj)):
				t.Errorf("energy %v, LP %d: value %.10g above HiGHS's %.10g", energy, k, obj, ref.Obj)
			}
		}
		if a.agreed.Load()+a.failed.Load() != 0 || a.byFirst.Load() < int64(len(lps)/2) {
			t.Errorf("energy %v, %d LPs: %s", energy, len(lps), a.summary())
		}
		t.Logf("energy %v, %d LPs: %s", energy, len(lps), a.summary())
	}
}

// nodeLPsForTest returns node LPs of the sequence branch-and-bound on small §6.4
// instances (min-time, or min-energy at a deadline 1.3 times the capacity bound),
// recorded while dltbb.Solve runs with HiGHS as its LP solver.
func nodeLPsForTest(t *testing.T, energy bool) []*dltbb.LP {
	t.Helper()
	highs, err := solve.NewSolver("highs")
	if err != nil {
		t.Fatal(err)
	}
	var lps []*dltbb.LP
	record := func(p *dltbb.LP) ([]float64, float64, error) {
		if len(lps) < 400 {
			// A copy: the search recycles a program's rows after the call.
			q := *p
			q.Rows = make([][]float64, len(p.Rows))
			for r, row := range p.Rows {
				q.Rows[r] = slices.Clone(row)
			}
			q.C, q.Rel, q.B, q.U = slices.Clone(p.C), slices.Clone(p.Rel), slices.Clone(p.B), slices.Clone(p.U)
			lps = append(lps, &q)
		}
		s, err := backendLP(highs, p)
		return s.X, s.Obj, err
	}
	for seed := uint64(1); seed <= 4; seed++ {
		in, err := dm.Generate(dm.GenConfig{M: 3, N: 4, V: 3000, P0N: 100, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if energy {
			in.Objective = dm.MinEnergy
			d := 1.3 * dltbb.CapacityLowerBoundTime(in)
			in.Deadline = &d
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err = dltbb.Solve(ctx, in, record, dltbb.Options{})
		cancel()
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
	if len(lps) == 0 {
		t.Fatal("no node LP recorded")
	}
	return lps
}
