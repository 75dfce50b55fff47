package dltbb

import (
	"errors"
	"math"
	"testing"
)

func TestDualBoundSmallPrograms(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name string
		p    LP
		y    []float64
		want float64 // the exact bound for these multipliers
	}{
		// min x s.t. x >= 1: y = 1 proves 1.
		// (Its reduced cost is 0 up to rounding: the column needs an upper bound.)
		{"optimal dual", LP{C: []float64{1}, Rows: [][]float64{{1}}, Rel: []int{ge}, B: []float64{1}, U: []float64{10}}, []float64{1}, 1},
		{"optimal dual, no upper bound", LP{C: []float64{1}, Rows: [][]float64{{1}}, Rel: []int{ge}, B: []float64{1}}, []float64{1}, -inf},
		// A smaller multiplier gives a smaller, still valid bound.
		{"weak dual", LP{C: []float64{1}, Rows: [][]float64{{1}}, Rel: []int{ge}, B: []float64{1}}, []float64{0.5}, 0.5},
		// A ≥ row's multiplier is clamped at 0: −1 would "prove" −1 with r = 2.
		{"wrong sign clamped", LP{C: []float64{1}, Rows: [][]float64{{1}}, Rel: []int{ge}, B: []float64{1}}, []float64{-1}, 0},
		// Too large a multiplier leaves r = −1 < 0: charged at U = 3, 2 − 3 = −1.
		{"negative reduced cost, bounded", LP{C: []float64{1}, Rows: [][]float64{{1}}, Rel: []int{ge}, B: []float64{1}, U: []float64{3}}, []float64{2}, -1},
		{"negative reduced cost, unbounded", LP{C: []float64{1}, Rows: [][]float64{{1}}, Rel: []int{ge}, B: []float64{1}}, []float64{2}, -inf},
		// min −x s.t. x <= 4 (y <= 0): y = −1 gives −4.
		{"le row", LP{C: []float64{-1}, Rows: [][]float64{{1}}, Rel: []int{le}, B: []float64{4}, U: []float64{4}}, []float64{-1}, -4},
		// min x + y s.t. x + y = 2: any y_r = 1 gives 2; equalities are free.
		{"equality", LP{C: []float64{1, 1}, Rows: [][]float64{{1, 1}}, Rel: []int{eq}, B: []float64{2}, U: []float64{2, 2}}, []float64{1}, 2},
		{"wrong length", LP{C: []float64{1}, Rows: [][]float64{{1}}, Rel: []int{ge}, B: []float64{1}}, nil, -inf},
	}
	for _, tc := range tests {
		got := DualBound(&tc.p, tc.y)
		if math.IsInf(tc.want, -1) {
			if !math.IsInf(got, -1) {
				t.Errorf("%s: got %g, want -Inf", tc.name, got)
			}
			continue
		}
		if got > tc.want || got < tc.want-1e-12*math.Max(1, math.Abs(tc.want)) {
			t.Errorf("%s: got %.17g, want just below %g", tc.name, got, tc.want)
		}
	}
}

func TestInfeasibilityProof(t *testing.T) {
	// x >= 2 and x <= 1: y = (1, −1) proves it; (1, 0) does not.
	p := &LP{C: []float64{1}, Rows: [][]float64{{1}, {1}}, Rel: []int{ge, le}, B: []float64{2, 1}, U: []float64{10}}
	if !InfeasibilityProof(p, []float64{1, -1}) {
		t.Error("x >= 2, x <= 1: the ray (1, −1) should prove infeasibility")
	}
	if InfeasibilityProof(p, []float64{1, 0}) {
		t.Error("the multipliers (1, 0) prove nothing")
	}
	// Feasible: nothing proves infeasibility.
	q := &LP{C: []float64{1}, Rows: [][]float64{{1}, {1}}, Rel: []int{ge, le}, B: []float64{1, 2}, U: []float64{10}}
	for _, y := range [][]float64{{1, -1}, {1, 0}, {0, -1}, {5, -3}} {
		if InfeasibilityProof(q, y) {
			t.Errorf("feasible program: %v claimed a proof", y)
		}
	}
	// Upper bounds matter: x1 − x2 >= 5 with x2 >= 0 and x1 <= 3 is infeasible.
	r := &LP{C: []float64{0, 0}, Rows: [][]float64{{1, -1}}, Rel: []int{ge}, B: []float64{5}, U: []float64{3, math.Inf(1)}}
	if !InfeasibilityProof(r, []float64{1}) {
		t.Error("x1 − x2 >= 5, x1 <= 3: y = 1 should prove infeasibility with the bounds")
	}
}

// TestSimplexDualCertifiesNodeLPs: on the node LPs of random small instances, the
// multipliers SimplexDual returns certify its objective (DualBound within 1e-7 of
// it), and the reference simplex's optimum is never below the certified bound; every
// infeasibility it reports carries a proof.
func TestSimplexDualCertifiesNodeLPs(t *testing.T) {
	certified, infeasible := 0, 0
	for k, in := range tiny(t, 30, 5) {
		rx := newRelax(in)
		rx.setTarget(1.02 * completions(t, in, nil))
		full := make([]int, in.N)
		for j := range full {
			full[j] = j % in.M()
		}
		for _, seq := range [][]int{nil, {0}, {1, 0}, {1, 1}, full} {
			nl := rx.build(seq, nil, nil)
			s, err := SimplexDual(nl.lp)
			_, ref, refErr := refLP(nl.lp)
			switch {
			case errors.Is(err, ErrInfeasible):
				infeasible++
				if !InfeasibilityProof(nl.lp, s.Y) {
					t.Errorf("instance %d %v: infeasibility without a proof", k, seq)
				}
				if refErr == nil && ref < rx.target {
					t.Errorf("instance %d %v: infeasible, but the reference has %g < target %g", k, seq, ref, rx.target)
				}
			case err != nil:
				t.Fatalf("instance %d %v: %v", k, seq, err)
			default:
				lb := DualBound(nl.lp, s.Y)
				if lb < s.Obj-1e-7*math.Max(1, math.Abs(s.Obj)) {
					t.Errorf("instance %d %v: objective %.10g, dual bound only %.10g", k, seq, s.Obj, lb)
				}
				if refErr == nil && ref < rx.target && ref < lb-1e-9*math.Max(1, math.Abs(ref)) {
					t.Errorf("instance %d %v: certified %.12g above the reference optimum %.12g", k, seq, lb, ref)
				}
				certified++
			}
		}
	}
	if certified == 0 {
		t.Fatal("no node LP was solved")
	}
	t.Logf("%d node LPs certified, %d proven infeasible", certified, infeasible)
}
