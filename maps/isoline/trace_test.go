package isoline

import (
	"bytes"
	"context"
	"encoding/csv"
	"math"
	"strconv"
	"testing"

	"github.com/schedopt/schedopt/maps/energy"
)

// relTol is what the issue asks of every traced point against an independent
// evaluation of (4.16).
const relTol = 1e-9

func dltSpec(t *testing.T, x, y string, xr, yr [2]float64, set map[string]float64, levels ...float64) Spec {
	t.Helper()
	d := energy.DLT{}
	xi, err := energy.Index(d, x)
	if err != nil {
		t.Fatal(err)
	}
	yi, err := energy.Index(d, y)
	if err != nil {
		t.Fatal(err)
	}
	base := d.Reference()
	for k, v := range set {
		i, err := energy.Index(d, k)
		if err != nil {
			t.Fatal(err)
		}
		base[i] = v
	}
	ps := d.Params()
	return Spec{Model: d, Base: base, Levels: levels, Samples: 120,
		X: Axis{Param: xi, Lo: xr[0], Hi: xr[1], Log: ps[xi].Log},
		Y: Axis{Param: yi, Lo: yr[0], Hi: yr[1], Log: ps[yi].Log}}
}

// Every traced point of maps over several planes (closed-form inversions, root
// searches in a and C, step-wise lines in m on either axis) has, by the big-float
// evaluation of the thesis's formulas, the energy of its level within 1e-9 relative,
// is feasible, and lies in the ranges; every level is traced somewhere.
func TestTracedPointsLieOnTheirLevels(t *testing.T) {
	cases := []struct {
		name string
		spec Spec
	}{
		{"V-C (Fig. 4.4), root search in C", dltSpec(t, "V", "C", [2]float64{1e9, 1e14}, [2]float64{1e-10, 1e-2}, nil, 3e10, 1e11, 1e12, 1e13)},
		{"PC-PN (Fig. 4.5), closed form (4.19)", dltSpec(t, "PC", "PN", [2]float64{1e-1, 1e4}, [2]float64{1e-1, 1e9}, nil, 1e9, 1e10, 1e11, 1e12)},
		{"m-PN (Fig. 4.6), steps in m", dltSpec(t, "m", "PN", [2]float64{1, 1500}, [2]float64{1e-1, 1e9}, nil, 2.2e10, 2.4e10, 3e10, 1e11)},
		{"m-S (Fig. 4.7), closed form (4.21)", dltSpec(t, "m", "S", [2]float64{1, 1500}, [2]float64{1e-2, 1e6}, nil, 2.3e10, 2.5e10, 3e10)},
		{"m-k (Fig. 4.8), closed form (4.17)", dltSpec(t, "m", "k", [2]float64{1, 1500}, [2]float64{1, 1e3}, nil, 2.1e10, 2.3e10, 2.8e10)},
		{"m-C a=1E-2 (Fig. 4.9)", dltSpec(t, "m", "C", [2]float64{1, 1500}, [2]float64{1e-12, 1e-1}, map[string]float64{"a": 1e-2}, 2.1e11, 2.5e11, 4e11)},
		{"PN-a (Fig. 4.13), root search in a", dltSpec(t, "PN", "a", [2]float64{1, 1e12}, [2]float64{1e-6, 1e-1}, nil, 1e11, 1e12, 1e14)},
		{"C-S a=10 (Fig. 4.14)", dltSpec(t, "C", "S", [2]float64{1e-8, 1e2}, [2]float64{1e-2, 1e8}, map[string]float64{"a": 10}, 2.1e14, 3e14, 2.5e14)},
		{"S-m, m on the y axis", dltSpec(t, "S", "m", [2]float64{1e-2, 1e5}, [2]float64{1, 1500}, nil, 2.3e10, 2.5e10)},
		{"a-C, two root searches", dltSpec(t, "a", "C", [2]float64{1e-5, 1e-1}, [2]float64{1e-12, 1e-2}, nil, 3e10, 1e11, 1e12)},
	}
	worst := 0.0
	total := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mp, err := Trace(context.Background(), c.spec)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[float64]int{}
			for _, pt := range mp.Points {
				p := append([]float64(nil), c.spec.Base...)
				p[c.spec.X.Param], p[c.spec.Y.Param] = pt.X, pt.Y
				e, _, ok := energy.BigDLT(p)
				if !ok {
					t.Errorf("traced point %+v is infeasible", pt)
					continue
				}
				re := energy.RelErr(e, pt.Level)
				worst = math.Max(worst, re)
				if re > relTol {
					t.Errorf("point %+v: big-float E = %.17g, %.3g relative off its level", pt, e, re)
				}
				if pt.X < c.spec.X.Lo || pt.X > c.spec.X.Hi || pt.Y < c.spec.Y.Lo || pt.Y > c.spec.Y.Hi {
					t.Errorf("point %+v outside the ranges", pt)
				}
				seen[pt.Level]++
			}
			total += len(mp.Points)
			for _, l := range c.spec.Levels {
				if seen[l] == 0 {
					t.Errorf("level %g traced nowhere", l)
				}
			}
		})
	}
	t.Logf("%d points, worst relative error against math/big %.3g", total, worst)
}

// Where m is an axis the isoline is traced at every integer m.
func TestStepwiseInM(t *testing.T) {
	s := dltSpec(t, "m", "PN", [2]float64{1, 1500}, [2]float64{1e-1, 1e9}, nil, 1e11)
	mp, err := Trace(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	maxM := 0.0
	for _, pt := range mp.Points {
		if pt.X != math.Round(pt.X) {
			t.Fatalf("m = %g is not an integer", pt.X)
		}
		maxM = math.Max(maxM, pt.X)
	}
	// L515: configurations with m > 1411 are infeasible.
	if maxM != 1411 {
		t.Errorf("the E = 1E11 isoline ends at m = %g, want 1411 (m > 1411 infeasible)", maxM)
	}
}

// A scan stops at the feasibility boundary: the isolines of (V, C) reach into the
// infeasible corner no further than α_m = 0.
func TestLinesEndAtTheFeasibilityBoundary(t *testing.T) {
	s := dltSpec(t, "V", "C", [2]float64{1e9, 1e14}, [2]float64{1e-10, 1e-2}, nil, 1e11)
	mp, err := Trace(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if len(mp.Points) == 0 {
		t.Fatal("nothing traced")
	}
	for _, pt := range mp.Points {
		if sc := energy.Chain(1000, 1e-3, pt.Y, 100, pt.X); !sc.Feasible {
			t.Errorf("point %+v is infeasible", pt)
		}
	}
}

func TestCSVRoundTripsExactly(t *testing.T) {
	pts := []Point{{Level: 2e10, X: 1000, Y: 0.1 + 0.2}, {Level: 1e10, X: 3, Y: 1.0 / 3}}
	var b bytes.Buffer
	if err := WriteCSV(&b, pts); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := rows[0]; len(got) != 3 || got[0] != "level" || got[1] != "x" || got[2] != "y" {
		t.Fatalf("header %v", got)
	}
	// sorted by level
	if rows[1][0] != "1e+10" || rows[2][1] != "1000" {
		t.Errorf("rows %v", rows)
	}
	if y, _ := strconv.ParseFloat(rows[2][2], 64); y != 0.1+0.2 {
		t.Errorf("y = %s does not round-trip", rows[2][2])
	}
}

func TestCheckRejects(t *testing.T) {
	good := dltSpec(t, "V", "C", [2]float64{1e9, 1e14}, [2]float64{1e-10, 1e-2}, nil, 1e11)
	cases := map[string]func(s *Spec){
		"x == y":           func(s *Spec) { s.Y = s.X },
		"empty range":      func(s *Spec) { s.X.Lo, s.X.Hi = 5, 5 },
		"log through zero": func(s *Spec) { s.Y.Lo = 0 },
		"negative level":   func(s *Spec) { s.Levels = []float64{-1} },
		"m range no int":   func(s *Spec) { s.X = Axis{Param: energy.M, Lo: 1.2, Hi: 1.8} },
	}
	if err := good.Check(); err != nil {
		t.Fatalf("good spec rejected: %v", err)
	}
	for name, edit := range cases {
		s := good
		edit(&s)
		if err := s.Check(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestGridAndDefaultLevels(t *testing.T) {
	s := dltSpec(t, "V", "C", [2]float64{1e9, 1e14}, [2]float64{1e-10, 1e-2}, nil)
	g, err := EvalGrid(context.Background(), s, ModelEvaluator(s.Model), 30, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.X) != 30 || len(g.Y) != 30 {
		t.Fatalf("grid %d×%d", len(g.X), len(g.Y))
	}
	nan := 0
	for j := range g.Y {
		for i := range g.X {
			if math.IsNaN(g.E[j][i]) {
				nan++
				continue
			}
			p := s.Model.Reference()
			p[energy.V], p[energy.C] = g.X[i], g.Y[j]
			if e, _, _ := energy.BigDLT(p); energy.RelErr(g.E[j][i], e) > 1e-12 {
				t.Errorf("grid E(%g, %g) = %g, big %g", g.X[i], g.Y[j], g.E[j][i], e)
			}
		}
	}
	if nan == 0 || nan == 900 {
		t.Errorf("%d infeasible nodes: the upper-left corner of (V, C) should be infeasible, the rest not", nan)
	}
	lv := DefaultLevels(g, 8)
	if len(lv) < 5 {
		t.Errorf("default levels %v", lv)
	}
	for i := 1; i < len(lv); i++ {
		if lv[i] <= lv[i-1] {
			t.Errorf("levels not increasing: %v", lv)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := EvalGrid(ctx, s, ModelEvaluator(s.Model), 30, 2, nil); err == nil {
		t.Error("a cancelled grid returned no error")
	}
}

// Contour's interpolated points lie near their levels on a fine grid, and every level
// inside the grid's energy range is found.
func TestContourOfAGrid(t *testing.T) {
	s := dltSpec(t, "PC", "PN", [2]float64{1e-1, 1e4}, [2]float64{1, 1e9}, nil)
	g, err := EvalGrid(context.Background(), s, ModelEvaluator(s.Model), 80, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	levels := []float64{1e10, 1e11, 1e12}
	mp := Contour(g, levels, true, true)
	seen := map[float64]bool{}
	for _, pt := range mp.Points {
		p := s.Model.Reference()
		p[energy.PC], p[energy.PN] = pt.X, pt.Y
		if re := energy.RelErr(s.Model.Eval(p).E, pt.Level); re > 0.02 {
			t.Errorf("contour point %+v is %.3g off its level", pt, re)
		}
		seen[pt.Level] = true
	}
	for _, l := range levels {
		if !seen[l] {
			t.Errorf("level %g not contoured", l)
		}
	}
}
