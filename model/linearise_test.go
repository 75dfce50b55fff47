package model

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// propTol is the tolerance of the property tests below: the helpers' rows are evaluated
// in float64 with coefficients of order 10, so exact answers agree to about 1e-12.
const propTol = 1e-9

// feasibleInterval returns the values of column v that satisfy v's bounds and every row
// containing v, with all other columns fixed at x. lo > hi means none. It also reports
// whether every row not containing v holds at x.
func feasibleInterval(m *Model, x []float64, v Var) (lo, hi float64, othersOK bool) {
	lo, hi = m.Bounds(v)
	othersOK = true
	rows := m.Rows()
	for r := range m.NumRows() {
		coef, rest := 0.0, 0.0
		for k := rows.Start[r]; k < rows.Start[r+1]; k++ {
			j := Var(rows.Index[k])
			if j == v {
				coef = rows.Value[k]
			} else {
				rest += rows.Value[k] * x[j]
			}
		}
		rlo, rhi := rows.Lower[r]-rest, rows.Upper[r]-rest
		if coef == 0 {
			if rlo > propTol || rhi < -propTol {
				othersOK = false
			}
			continue
		}
		if coef < 0 {
			rlo, rhi = rhi, rlo
		}
		lo = math.Max(lo, rlo/coef)
		hi = math.Min(hi, rhi/coef)
	}
	return lo, hi, othersOK
}

func near(a, b float64) bool { return math.Abs(a-b) <= propTol*math.Max(1, math.Abs(b)) }

// randomBox adds n continuous columns with random bounds (sometimes degenerate,
// sometimes negative) and returns them.
func randomBox(m *Model, rng *rand.Rand, n int) []Var {
	vars := make([]Var, n)
	for i := range vars {
		lo := math.Round(rng.Float64()*20-10) / 2
		hi := lo + math.Round(rng.Float64()*12)/2
		vars[i] = m.AddContinuous(lo, hi, "")
	}
	return vars
}

// randomAffine returns a random affine expression over vars (with a duplicate term now
// and then, which the helpers must merge).
func randomAffine(rng *rand.Rand, vars []Var) Expr {
	var e Expr
	for _, v := range vars {
		if rng.IntN(3) > 0 {
			e.Add(v, float64(rng.IntN(9)-4))
		}
	}
	if len(vars) > 0 && rng.IntN(4) == 0 {
		e.Add(vars[0], 0.5)
	}
	e.AddConst(float64(rng.IntN(11) - 5))
	return e
}

// samplePoint fills x for vars with endpoints or uniform values within their bounds.
func samplePoint(m *Model, rng *rand.Rand, vars []Var, x []float64) {
	for _, v := range vars {
		lo, hi := m.Bounds(v)
		switch rng.IntN(4) {
		case 0:
			x[v] = lo
		case 1:
			x[v] = hi
		default:
			x[v] = lo + rng.Float64()*(hi-lo)
		}
	}
}

func TestProductBinaryAdmitsExactlyTheProduct(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		m := New("t")
		xs := randomBox(m, rng, 1+rng.IntN(2))
		b := m.AddBinary("b")
		f := randomAffine(rng, xs)
		z, err := m.ProductBinary(b, f, "z")
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		x := make([]float64, m.NumVars())
		for range 20 {
			samplePoint(m, rng, xs, x)
			for _, bv := range []float64{0, 1} {
				x[b] = bv
				want := bv * f.Value(x)
				lo, hi, ok := feasibleInterval(m, x, z)
				if !ok || !near(lo, want) || !near(hi, want) {
					t.Fatalf("trial %d: b=%g, x=%v: z feasible in [%g, %g], want exactly %g", trial, bv, x, lo, hi, want)
				}
				x[z] = want
				if rep, _ := m.Verify(x); !rep.Feasible() {
					t.Fatalf("trial %d: Verify rejects z = b·x: %s", trial, rep.Worst)
				}
			}
		}
	}
}

func TestProductBinaryRejectsUnboundedFactorsAndNonBinaries(t *testing.T) {
	m := New("t")
	x := m.AddContinuous(0, inf, "x")
	b := m.AddBinary("b")
	if _, err := m.ProductBinary(b, Term(x, 1), "z"); !errors.Is(err, ErrUnbounded) {
		t.Errorf("unbounded factor: err = %v, want ErrUnbounded", err)
	}
	y := m.AddInteger(0, 1, "y")
	if _, err := m.ProductBinary(y, Term(b, 1), "z"); err == nil {
		t.Error("an integer column was accepted as the binary factor")
	}
}

// selectorAssignments returns every 0/1 assignment of n selectors (n <= 4).
func selectorAssignments(n int) [][]float64 {
	var out [][]float64
	for mask := range 1 << n {
		a := make([]float64, n)
		for k := range a {
			a[k] = float64(mask >> k & 1)
		}
		out = append(out, a)
	}
	return out
}

func TestMaxOfAffineAdmitsExactlyTheMaximum(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 300 {
		m := New("t")
		xs := randomBox(m, rng, 1+rng.IntN(2))
		pieces := make([]Expr, 1+rng.IntN(4))
		for k := range pieces {
			pieces[k] = randomAffine(rng, xs)
		}
		y, sel, err := m.MaxOfAffine(pieces, "y")
		if err != nil {
			t.Fatal(err)
		}
		x := make([]float64, m.NumVars())
		for range 10 {
			samplePoint(m, rng, xs, x)
			want := math.Inf(-1)
			for _, p := range pieces {
				want = math.Max(want, p.Value(x))
			}
			found := false
			for _, a := range selectorAssignments(len(sel)) {
				for k, s := range sel {
					x[s] = a[k]
				}
				lo, hi, ok := feasibleInterval(m, x, y)
				if !ok || lo > hi+propTol {
					continue // this selector assignment admits no y
				}
				if !near(lo, want) || !near(hi, want) {
					t.Fatalf("trial %d (%d pieces): selectors %v admit y in [%g, %g], max is %g",
						trial, len(pieces), a, lo, hi, want)
				}
				found = true
			}
			if !found {
				t.Fatalf("trial %d (%d pieces): no selector admits the maximum %g at %v", trial, len(pieces), want, x)
			}
		}
	}
}

func TestMaxOfAffineUsesThePaperBigM(t *testing.T) {
	// max(a1·α, a2·α + b2) with α in [0, V]: the row for piece 0 needs
	// M = (a2 − a1)·V + b2, the (6.19) constant of seed 004.
	const a1, a2, b2, V = 2.0, 5.0, 3.0, 10.0
	m := New("t")
	alpha := m.AddContinuous(0, V, "alpha")
	p0 := Term(alpha, a1)
	p1 := Term(alpha, a2)
	p1.AddConst(b2)
	y, sel, err := m.MaxOfAffine([]Expr{p0, p1}, "y")
	if err != nil {
		t.Fatal(err)
	}
	if len(sel) != 1 {
		t.Fatalf("two pieces use %d selectors, want 1", len(sel))
	}
	rec := m.Reformulations()[0]
	if want := (a2-a1)*V + b2; rec.BigM[0] != want {
		t.Errorf("big-M of piece 0 = %g, want %g", rec.BigM[0], want)
	}
	if lo, hi := m.Bounds(y); lo != b2 || hi != a2*V+b2 {
		t.Errorf("y bounds [%g, %g], want [%g, %g]", lo, hi, b2, a2*V+b2)
	}
}

func TestImpliesHoldsExactlyWhenActive(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 300 {
		m := New("t")
		xs := randomBox(m, rng, 1+rng.IntN(3))
		b := m.AddBinary("b")
		e := randomAffine(rng, xs)
		elo, ehi := m.ExprBounds(e)
		op := Op(rng.IntN(3))
		active := rng.IntN(2) == 0
		x := make([]float64, m.NumVars())
		samplePoint(m, rng, xs, x)
		rhs := e.Value(x) // on the boundary for some points, and always for EQ tests
		if op != EQ && rng.IntN(2) == 0 {
			rhs = elo + rng.Float64()*(ehi-elo)
		}
		if _, err := m.Implies(b, active, e, op, rhs, "imp"); err != nil {
			t.Fatal(err)
		}
		holds := func(v float64) bool {
			switch op {
			case LE:
				return v <= rhs+propTol
			case GE:
				return v >= rhs-propTol
			}
			return math.Abs(v-rhs) <= propTol
		}
		for s := range 20 {
			if s > 0 {
				samplePoint(m, rng, xs, x)
			}
			for _, bv := range []float64{0, 1} {
				x[b] = bv
				rep, err := m.Verify(x)
				if err != nil {
					t.Fatal(err)
				}
				want := (bv == 1) != active || holds(e.Value(x))
				// Points within the tolerance of the boundary may go either way.
				v := e.Value(x)
				if math.Abs(v-rhs) < 1e-6*math.Max(1, math.Abs(rhs)) && op != EQ {
					continue
				}
				if rep.Feasible() != want {
					t.Fatalf("trial %d: b=%g active=%v e=%g %v %g: rows feasible=%v, want %v (%s)",
						trial, bv, active, v, op, rhs, rep.Feasible(), want, rep.Worst)
				}
			}
		}
	}
}

func TestImpliesNeedsFiniteBounds(t *testing.T) {
	m := New("t")
	x := m.AddContinuous(0, inf, "x")
	b := m.AddBinary("b")
	if _, err := m.Implies(b, true, Term(x, 1), LE, 5, "imp"); !errors.Is(err, ErrUnbounded) {
		t.Errorf("err = %v, want ErrUnbounded", err)
	}
	// The >= side only needs the lower bound.
	if _, err := m.Implies(b, true, Term(x, 1), GE, 5, "imp"); err != nil {
		t.Errorf(">= with a finite lower bound: %v", err)
	}
}

func TestEpigraphExactness(t *testing.T) {
	tests := []struct {
		name  string
		use   func(m *Model, y, x Var)
		exact bool
	}{
		{"minimised", func(m *Model, y, x Var) { m.SetObjective(Minimize, Term(y, 1)) }, true},
		{"maximised", func(m *Model, y, x Var) { m.SetObjective(Maximize, Term(y, 1)) }, false},
		{"minimising its negative", func(m *Model, y, x Var) { m.SetObjective(Minimize, Term(y, -2)) }, false},
		{"maximising its negative", func(m *Model, y, x Var) { m.SetObjective(Maximize, Term(y, -1)) }, true},
		{"absent from the objective", func(m *Model, y, x Var) {}, true},
		{"in a <= row with a positive coefficient", func(m *Model, y, x Var) {
			m.SetObjective(Minimize, Term(y, 1))
			var e Expr
			e.Add(y, 1).Add(x, 1)
			m.AddConstr(e, LE, 20, "budget")
		}, true},
		{"in a >= row with a negative coefficient", func(m *Model, y, x Var) {
			m.SetObjective(Minimize, Term(y, 1))
			var e Expr
			e.Add(x, 1).Add(y, -1)
			m.AddConstr(e, GE, -20, "slack")
		}, true},
		{"in an equality row", func(m *Model, y, x Var) {
			m.SetObjective(Minimize, Term(y, 1))
			var e Expr
			e.Add(y, 1).Add(x, -1)
			m.AddConstr(e, EQ, 0, "tie")
		}, false},
		{"in a >= row with a positive coefficient", func(m *Model, y, x Var) {
			m.SetObjective(Minimize, Term(y, 1))
			m.AddConstr(Term(y, 1), GE, 3, "floor")
		}, false},
		{"in a two-sided range", func(m *Model, y, x Var) {
			m.SetObjective(Minimize, Term(y, 1))
			m.AddRange(Term(y, 1), 0, 30, "window")
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := New("t")
			x := m.AddContinuous(0, 10, "x")
			var p0, p1 Expr
			p0.Add(x, 1)
			p1.Add(x, -1).AddConst(4)
			y, err := m.Epigraph([]Expr{p0, p1}, "y")
			if err != nil {
				t.Fatal(err)
			}
			tc.use(m, y, x)
			err = m.Validate()
			if tc.exact && err != nil {
				t.Errorf("Validate: %v, want nil", err)
			}
			if !tc.exact && !errors.Is(err, ErrNotExact) {
				t.Errorf("Validate: %v, want ErrNotExact", err)
			}
		})
	}
}

func TestReformulationsAreRecordedWithBigMWarnings(t *testing.T) {
	m := New("t")
	x := m.AddContinuous(0, 1e9, "x")
	b := m.AddBinary("b")
	if _, err := m.ProductBinary(b, Term(x, 1), "z"); err != nil {
		t.Fatal(err)
	}
	small := m.AddContinuous(0, 5, "s")
	if _, err := m.Implies(b, true, Term(small, 1), LE, 2, "imp"); err != nil {
		t.Fatal(err)
	}
	recs := m.Reformulations()
	if len(recs) != 2 || recs[0].Helper != "ProductBinary" || recs[1].Helper != "Implies" {
		t.Fatalf("records = %+v", recs)
	}
	if recs[0].Warn == "" {
		t.Error("no warning for big-M 1e9")
	}
	if recs[1].Warn != "" || len(recs[1].BigM) != 1 || recs[1].BigM[0] != 3 {
		t.Errorf("Implies record = %+v, want one big-M of 3 and no warning", recs[1])
	}
}
