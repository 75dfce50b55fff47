package energy

import (
	"math"
	"testing"
)

// axisValues returns n values spread over the parameter's default range (geometric on
// log axes, integers for m), widened by a decade on log axes so the test covers more
// than the maps draw.
func axisValues(p Param, n int) []float64 {
	lo, hi := p.Range[0], p.Range[1]
	if p.Log {
		lo, hi = lo/10, hi*10
		if p.Min > 0 && lo < p.Min {
			lo = p.Min
		}
		if lo == 0 {
			lo = 1e-300
		}
	}
	out := make([]float64, n)
	for i := range out {
		u := float64(i) / float64(n-1)
		if p.Log {
			out[i] = math.Exp(math.Log(lo) + u*(math.Log(hi)-math.Log(lo)))
		} else {
			out[i] = lo + u*(hi-lo)
		}
		if p.Discrete {
			out[i] = math.Round(out[i])
		}
	}
	if !p.Log && p.Min == 0 && !p.Discrete {
		out[0] = 0
	}
	return out
}

// The stable evaluation agrees with the literal big-float formulas over every plane of
// two parameters (28 planes), the others at the reference values: energy, length and
// feasibility.
func TestEvalMatchesBigFloatOverEveryPlane(t *testing.T) {
	const n = 17
	const tol = 1e-12
	d := DLT{}
	ps := d.Params()
	worst, count, feas := 0.0, 0, 0
	for i := range ps {
		for j := i + 1; j < len(ps); j++ {
			t.Run(ps[i].Name+"-"+ps[j].Name, func(t *testing.T) {
				for _, x := range axisValues(ps[i], n) {
					for _, y := range axisValues(ps[j], n) {
						p := d.Reference()
						p[i], p[j] = x, y
						if j == C || i == C { // include C = 0, the limit case
							if y == axisValues(ps[j], n)[0] && j == C {
								p[C] = 0
							}
						}
						got := d.Eval(p)
						e, tt, ok := BigDLT(p)
						count++
						sc := Chain(int(p[M]), p[A], p[C], p[S], p[V])
						near := math.Abs(sc.AlphaM) <= 1e-9*p[V]/p[M]
						if ok != got.Feasible && !near {
							t.Errorf("%v: feasible = %v, big-float %v (alpha_m = %g)", p, got.Feasible, ok, sc.AlphaM)
						}
						if !ok {
							continue
						}
						feas++
						re, rt := RelErr(got.E, e), RelErr(got.T, tt)
						worst = math.Max(worst, math.Max(re, rt))
						if re > tol || rt > tol {
							t.Errorf("%v: E = %.17g (big %.17g, rel %.2g), T = %.17g (big %.17g, rel %.2g)", p, got.E, e, re, got.T, tt, rt)
						}
					}
				}
			})
		}
	}
	t.Logf("%d points, %d feasible, worst relative error %.3g", count, feas, worst)
	if feas < count/4 {
		t.Errorf("only %d of %d points feasible: the test covers too little of the planes", feas, count)
	}
}

// Around the switch between the binomial series and expm1 (mq = seriesMax), and for
// κ^m that overflows a float64, the evaluation still matches the big floats.
func TestChainAcrossRegimes(t *testing.T) {
	cases := []struct {
		name string
		m    int
		q    float64
		S    float64
	}{
		{"m=1", 1, 0.3, 100},
		{"series side", 1000, seriesMax / 1000 * (1 - 1e-12), 1e-3},
		{"expm1 side", 1000, seriesMax / 1000 * (1 + 1e-12), 1e-3},
		{"tiny q", 50, 1e-17, 1},
		{"huge kappa^m, no startup", 2000, 10, 0},
		{"m=2 q large", 2, 100, 1e-6},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := DLT{}.Reference()
			p[M], p[C], p[S] = float64(c.m), c.q*p[A], c.S
			got := DLT{}.Eval(p)
			e, tt, ok := BigDLT(p)
			if ok != got.Feasible {
				t.Fatalf("feasible = %v, big %v", got.Feasible, ok)
			}
			if !ok {
				t.Fatalf("case is infeasible; pick a feasible one")
			}
			if RelErr(got.E, e) > 1e-13 || RelErr(got.T, tt) > 1e-13 {
				t.Errorf("E = %.17g (big %.17g), T = %.17g (big %.17g)", got.E, e, got.T, tt)
			}
		})
	}
}

// The reference instance of §4.3 (L489-491, L515).
func TestReferenceInstance(t *testing.T) {
	d := DLT{}
	p := d.Reference()
	pt := d.Eval(p)
	if RelErr(pt.T, 150635) > 1e-5 || math.Abs(pt.T-1.51e5)/1.51e5 > 0.005 {
		t.Errorf("T = %g, the thesis prints 1.51E5 (reference derives 150635)", pt.T)
	}
	if RelErr(pt.E, 2.34185e10) > 1e-5 {
		t.Errorf("E = %g, the thesis prints 2.34E10 (reference derives 2.34185E10)", pt.E)
	}
	sc := Chain(1000, 1e-3, 1e-8, 100, 1e11)
	if RelErr(sc.Z1, 501.3333) > 1e-6 || RelErr(sc.Z2, 1.0050133e-6) > 1e-7 || RelErr(sc.AlphaM, 4.96347e7) > 1e-5 {
		t.Errorf("z1 = %.7g, z2 = %.8g, alpha_m = %.6g; the reference derives 501.3333, 1.0050133E-6, 4.96347E7", sc.Z1, sc.Z2, sc.AlphaM)
	}
	for m, want := range map[int]bool{1411: true, 1412: false} {
		if got := Chain(m, 1e-3, 1e-8, 100, 1e11).Feasible; got != want {
			t.Errorf("m = %d: feasible = %v; the thesis says m > 1411 is infeasible", m, got)
		}
	}
	// Lower bound E ≥ P^C·a·V (§4.3).
	if pt.E < p[PC]*p[A]*p[V] {
		t.Errorf("E = %g below P^C·a·V = %g", pt.E, p[PC]*p[A]*p[V])
	}
}

// Every closed-form inversion returns the parameter it solves for, at the reference
// point and at points elsewhere in the plane.
func TestSolveInvertsEval(t *testing.T) {
	models := []struct {
		m      Model
		points [][]float64
	}{
		{DLT{}, [][]float64{DLT{}.Reference(), {10, 1e-2, 1e-3, 5, 1e9, 100, 30, 1e5}, {1, 1, 0, 0, 1e3, 1, 1, 1}}},
		{Amdahl{}, [][]float64{{16, 3, 0.8}, {1000, 50, 0.3}}},
		{Gustafson{}, [][]float64{{16, 3, 0.8}, {1000, 50, 0.3}}},
	}
	for _, mc := range models {
		for _, p := range mc.points {
			level := mc.m.Eval(p).E
			for i, par := range mc.m.Params() {
				v, ok := mc.m.Solve(i, level, p)
				if !ok {
					continue
				}
				if RelErr(v, p[i]) > 1e-9 && math.Abs(v-p[i]) > 1e-12 {
					t.Errorf("%s at %v: solving for %s gives %.15g, want %g", mc.m.Name(), p, par.Name, v, p[i])
				}
			}
		}
	}
}

// The laws' formulas, at values that can be checked by hand (§4.1).
func TestLaws(t *testing.T) {
	cases := []struct {
		name string
		m    Model
		p    []float64
		e    float64
	}{
		{"amdahl, one core", Amdahl{}, []float64{1, 3, 0.8}, 1},
		{"amdahl", Amdahl{}, []float64{11, 2, 0.8}, 1 + 10*0.2/2},
		{"gustafson, all parallel", Gustafson{}, []float64{8, 3, 1}, 8},
		{"gustafson", Gustafson{}, []float64{11, 2, 0.5}, 0.5*(1+10.0/2) + 5.5},
	}
	for _, c := range cases {
		if got := c.m.Eval(c.p); RelErr(got.E, c.e) > 1e-15 || !got.Feasible {
			t.Errorf("%s: E = %g (feasible %v), want %g", c.name, got.E, got.Feasible, c.e)
		}
	}
	if got := (Amdahl{}).Eval([]float64{4, 3, 1.5}); got.Feasible {
		t.Errorf("f = 1.5 accepted: %+v", got)
	}
}

func TestIndex(t *testing.T) {
	for name, want := range map[string]int{"m": M, "PN": PN, "k": K} {
		if got, err := Index(DLT{}, name); err != nil || got != want {
			t.Errorf("Index(%q) = %d, %v; want %d", name, got, err, want)
		}
	}
	if _, err := Index(DLT{}, "pc"); err == nil {
		t.Error(`Index("pc") accepted a wrong-case name`)
	}
}
