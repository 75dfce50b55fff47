package dltmulti

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/exact/dltbb"
	"github.com/schedopt/schedopt/model"
	"github.com/schedopt/schedopt/solve"
)

// randomLP is a feasible, bounded LP of the node form: min c·x with c > 0, a few ≥
// rows with positive coefficients, and ≤ rows that the point 1 satisfies.
func randomLP(r *rand.Rand) *dltbb.LP {
	n, m := 2+r.IntN(5), 1+r.IntN(5)
	p := &dltbb.LP{C: make([]float64, n)}
	for j := range p.C {
		p.C[j] = 0.5 + r.Float64()
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
	return p
}

// TestLPModelIsTheNodeLP: HiGHS on lpModel(p) and the search's own simplex agree on
// random node-form LPs, so the audit compares like with like.
func TestLPModelIsTheNodeLP(t *testing.T) {
	s, err := solve.NewSolver("highs")
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 17))
	for k := 0; k < 40; k++ {
		p := randomLP(r)
		_, ours, err := nodeLP(p)
		if err != nil {
			t.Fatalf("LP %d: %v", k, err)
		}
		res, err := s.Solve(context.Background(), lpModel(p), backends.Options{Threads: 1})
		if err != nil || res.Status != backends.Optimal {
			t.Fatalf("LP %d: HiGHS %v %v", k, res.Status, err)
		}
		if math.Abs(res.Objective-ours) > 1e-7*math.Max(1, math.Abs(ours)) {
			t.Errorf("LP %d: HiGHS %.12g, ours %.12g", k, res.Objective, ours)
		}
	}
}

// lyingSolver answers every LP with a fixed status and objective.
type lyingSolver struct {
	status backends.Status
	obj    float64
}

func (l lyingSolver) Name() string { return "liar" }
func (l lyingSolver) Solve(ctx context.Context, m *model.Model, o backends.Options) (backends.Result, error) {
	return backends.Result{Status: l.status, HasSolution: l.status == backends.Optimal, Objective: l.obj,
		Values: make([]float64, m.NumVars())}, nil
}

// TestAuditKeepsTheLowerValue: where the second solver finds a lower optimum, or a
// solution where ours said infeasible, the audit returns the second solver's answer
// (the one that cannot prune wrongly) and counts it; a higher value changes nothing.
func TestAuditKeepsTheLowerValue(t *testing.T) {
	p := randomLP(rand.New(rand.NewPCG(1, 2)))
	_, ours, err := nodeLP(p)
	if err != nil {
		t.Fatal(err)
	}
	infeasible := &dltbb.LP{C: []float64{1}, Rows: [][]float64{{1}, {1}}, Rel: []int{1, -1}, B: []float64{2, 1}}
	for _, tc := range []struct {
		name     string
		lp       *dltbb.LP
		second   lyingSolver
		want     float64 // objective returned; NaN: an infeasibility error
		differed int64
	}{
		{"a lower optimum is used", p, lyingSolver{backends.Optimal, ours - 1}, ours - 1, 1},
		{"a higher optimum is ignored", p, lyingSolver{backends.Optimal, ours + 1}, ours, 0},
		{"a solution where ours said infeasible is used", infeasible, lyingSolver{backends.Optimal, 5}, 5, 1},
		{"agreeing infeasibility stands", infeasible, lyingSolver{backends.Infeasible, math.NaN()}, math.NaN(), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := &lpAudit{solver: tc.second, every: 1}
			_, obj, err := a.solve(tc.lp)
			if math.IsNaN(tc.want) {
				if err == nil {
					t.Fatalf("got %g, want the infeasibility", obj)
				}
			} else if err != nil || obj != tc.want {
				t.Fatalf("got %g, %v; want %g", obj, err, tc.want)
			}
			if a.checked.Load() != 1 || a.differed.Load() != tc.differed {
				t.Errorf("checked %d, differed %d; want 1 and %d", a.checked.Load(), a.differed.Load(), tc.differed)
			}
		})
	}
}
