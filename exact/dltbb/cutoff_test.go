package dltbb

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// TestCutoffStopsWithAProof: SimplexDual with a cutoff (LP.Cutoff) on random boxed
// programs, from the slack basis and warm with rows added. An answer without a point
// carries multipliers whose DualBound reaches the cutoff, and the reference optimum
// does too; an answer with a point is the reference optimum. A cutoff above the
// optimum always gets the point. Some answers must stop before the optimum (their
// bound below it), or the test fails.
func TestCutoffStopsWithAProof(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 19))
	var cut, early, full, warmCut int
	check := func(what string, p *LP) {
		t.Helper()
		_, ref, refErr := refLP(p)
		if refErr != nil && !errors.Is(refErr, ErrInfeasible) {
			t.Fatalf("%s: reference: %v", what, refErr)
		}
		infeasible := errors.Is(refErr, ErrInfeasible)
		for _, f := range []float64{0.5, 0.9, 0.99, 1, 1.01, 1.5} {
			q := *p
			q.Cutoff, q.HasCutoff = ref*f, true
			if infeasible {
				q.Cutoff = float64(rng.IntN(20))
			}
			s, err := SimplexDual(&q)
			switch {
			case errors.Is(err, ErrInfeasible):
				if !infeasible {
					t.Fatalf("%s: infeasible, the reference has %g", what, ref)
				}
			case err != nil:
				t.Fatalf("%s: %v", what, err)
			case s.X == nil:
				cut++
				if lb := DualBound(p, s.Y); lb < q.Cutoff || s.Obj < q.Cutoff || !s.Certified {
					t.Fatalf("%s, cutoff %g: no point, objective %g, DualBound %g", what, q.Cutoff, s.Obj, lb)
				}
				if !infeasible && ref < q.Cutoff-1e-7*math.Max(1, math.Abs(ref)) {
					t.Fatalf("%s: stopped at cutoff %g, but the optimum is %g", what, q.Cutoff, ref)
				}
				if !infeasible && s.Obj < ref-1e-7*math.Max(1, math.Abs(ref)) {
					early++
				}
			default:
				full++
				if infeasible {
					t.Fatalf("%s: point %v, the reference is infeasible", what, s.X)
				}
				sameAnswer(t, what, p, s, nil)
			}
		}
	}
	for k := range 200 {
		n := 4 + rng.IntN(10)
		p := randomLP(rng, n, 3+rng.IntN(12))
		p.U = make([]float64, n)
		for j := range p.U {
			p.U[j] = 10 * float64(n) // Σ x <= 10 n
		}
		check("cold", p)
		if k%2 == 0 {
			q := withRows(rng, p, 1+rng.IntN(3))
			q.U = p.U
			_, ref, err := refLP(q)
			if err != nil {
				continue
			}
			for _, f := range []float64{0.9, 1.01} {
				// Warm: the optimal tableau of p, extended by q's rows.
				w := &warmStart{}
				pw := *p
				pw.warm = w
				if _, err := SimplexDual(&pw); err != nil || w.last == nil {
					break
				}
				r := *q
				r.warm, r.Cutoff, r.HasCutoff = w, ref*f, true
				s, err := SimplexDual(&r)
				switch {
				case err != nil:
					t.Fatalf("warm %d: %v", k, err)
				case s.X == nil:
					cut++
					warmCut++
					if DualBound(q, s.Y) < r.Cutoff || ref < r.Cutoff {
						t.Fatalf("warm %d: stopped at %g, optimum %g", k, r.Cutoff, ref)
					}
				default:
					full++
					sameAnswer(t, "warm", q, s, nil)
				}
			}
		}
	}
	t.Logf("%d answers stopped at the cutoff (%d before the optimum, %d warm), %d with a point", cut, early, warmCut, full)
	if early == 0 || full == 0 || warmCut == 0 {
		t.Fatal("the cutoff was not exercised")
	}
}
