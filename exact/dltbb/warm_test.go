package dltbb

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// randomLP returns a feasible, bounded program with n columns and m rows of all three
// relations, built around a random point x0 >= 0, and a nonnegative objective (as a
// min-time node LP has). Row sum(x) <= 10 n bounds it.
func randomLP(rng *rand.Rand, n, m int) *LP {
	x0 := make([]float64, n)
	for j := range x0 {
		x0[j] = rng.Float64() * 5
	}
	p := &LP{C: make([]float64, n)}
	for j := range p.C {
		if rng.IntN(3) == 0 {
			p.C[j] = rng.Float64() * 3
		}
	}
	all := make([]float64, n)
	for j := range all {
		all[j] = 1
	}
	p.Rows, p.Rel, p.B = append(p.Rows, all), append(p.Rel, le), append(p.B, 10*float64(n))
	for range m {
		row, b := randomRow(rng, x0)
		rel := []int{le, ge, ge, eq}[rng.IntN(4)]
		switch rel {
		case le:
			b += rng.Float64()
		case ge:
			b -= rng.Float64()
		}
		p.Rows, p.Rel, p.B = append(p.Rows, row), append(p.Rel, rel), append(p.B, b)
	}
	return p
}

// randomRow returns a sparse row and its value at x.
func randomRow(rng *rand.Rand, x []float64) ([]float64, float64) {
	row := make([]float64, len(x))
	b := 0.0
	for j := range row {
		if rng.IntN(3) == 0 {
			row[j] = rng.Float64()*4 - 1
			b += row[j] * x[j]
		}
	}
	return row, b
}

// withRows returns p with rows inserted at random positions: inequalities that cut
// through the box (some of them make the program infeasible).
func withRows(rng *rand.Rand, p *LP, count int) *LP {
	q := &LP{C: p.C, Rows: append([][]float64(nil), p.Rows...), Rel: append([]int(nil), p.Rel...), B: append([]float64(nil), p.B...)}
	for range count {
		x := make([]float64, len(p.C))
		for j := range x {
			x[j] = rng.Float64() * 5
		}
		row, b := randomRow(rng, x)
		rel := []int{le, ge}[rng.IntN(2)]
		at := rng.IntN(len(q.Rows) + 1)
		q.Rows = append(q.Rows[:at], append([][]float64{row}, q.Rows[at:]...)...)
		q.Rel = append(q.Rel[:at], append([]int{rel}, q.Rel[at:]...)...)
		q.B = append(q.B[:at], append([]float64{b}, q.B[at:]...)...)
	}
	return q
}

// sameAnswer fails the test unless s (err) and the reference agree: both infeasible,
// or both optimal with objectives within 1e-7 relative and s's point within the rows.
func sameAnswer(t *testing.T, what string, p *LP, s LPSolution, err error) {
	t.Helper()
	_, ref, refErr := refLP(p)
	switch {
	case errors.Is(refErr, ErrInfeasible) || errors.Is(err, ErrInfeasible):
		if !errors.Is(refErr, ErrInfeasible) || !errors.Is(err, ErrInfeasible) {
			t.Fatalf("%s: reference %v, warm %v", what, refErr, err)
		}
	case refErr != nil || err != nil:
		t.Fatalf("%s: reference %v, warm %v", what, refErr, err)
	default:
		if math.Abs(s.Obj-ref) > 1e-7*math.Max(1, math.Abs(ref)) {
			t.Fatalf("%s: objective %.12g, reference %.12g", what, s.Obj, ref)
		}
		if e := checkRows(p, s.X); e != nil {
			t.Fatalf("%s: %v", what, e)
		}
	}
}

// TestWarmStartMatchesTheReference: tableaus extended by inserted rows (the dual
// simplex) or given a new objective (the primal simplex from the old basis), and
// programs solved by the dual simplex from the slack basis (with negative costs
// shifted up to zero, then the primal simplex), give the optimum of the
// reference simplex. The warm paths must apply in most cases, or the test fails.
func TestWarmStartMatchesTheReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var cold, dualStarts, shifted, added, newObj, tries int
	for k := range 300 {
		p := randomLP(rng, 4+rng.IntN(10), 3+rng.IntN(12))
		tab, ok := dualStart(p)
		if ok {
			dualStarts++
			sameAnswer(t, "dual start", p, tab.solution(), nil)
		}
		s, tab, err := simplexTableau(p)
		cold++
		sameAnswer(t, "cold", p, s, err)
		if err != nil {
			continue
		}
		if k%2 == 0 {
			// Rows added, in rounds.
			for range 3 {
				q := withRows(rng, tab.lp, 1+rng.IntN(3))
				tries++
				if !tab.extend(q) {
					break
				}
				added++
				sameAnswer(t, "rows added", q, tab.solution(), nil)
			}
			continue
		}
		// New objectives, some with negative costs.
		for range 3 {
			q := *tab.lp
			q.C = make([]float64, len(p.C))
			for j := range q.C {
				q.C[j] = rng.Float64()*4 - 2
			}
			// From the slack basis too, with the negative costs shifted.
			if st, ok := dualStart(&q); ok {
				shifted++
				sameAnswer(t, "dual start, costs shifted", &q, st.solution(), nil)
			}
			tries++
			if !tab.extend(&q) {
				break
			}
			newObj++
			sameAnswer(t, "new objective", &q, tab.solution(), nil)
		}
	}
	t.Logf("%d programs: %d solved from the slack basis (and %d with negative costs); %d of %d warm starts applied (%d with rows added, %d with a new objective)",
		cold, dualStarts, shifted, added+newObj, tries, added, newObj)
	if dualStarts < cold/2 || shifted == 0 || added == 0 || newObj == 0 || added+newObj < tries/2 {
		t.Fatal("the warm paths were not exercised")
	}
}

// TestWarmSearchMatchesColdLPs solves tiny instances with a solver that answers every
// warm-started node LP (a later cut round, a load-bound LP after the first) by
// SimplexDual and again from scratch: the objectives agree within 1e-6 (relative,
// absolute near 0: the load-bound LPs' optimum is often 0, reached with round-off of
// loads in the thousands), far inside the 1e-4 the search takes off every bound, and
// infeasibility claims agree.
func TestWarmSearchMatchesColdLPs(t *testing.T) {
	warmed := 0
	for k, in := range tiny(t, 20, 13) {
		solver := func(p *LP) ([]float64, float64, error) {
			if p.warm != nil && p.warm.last != nil {
				warmed++
			}
			s, err := SimplexDual(p)
			cold := *p
			cold.warm = nil
			c, cerr := SimplexDual(&cold)
			if errors.Is(err, ErrInfeasible) != errors.Is(cerr, ErrInfeasible) || (err == nil) != (cerr == nil) {
				t.Fatalf("instance %d: warm %v, cold %v", k, err, cerr)
			}
			if err == nil && math.Abs(s.Obj-c.Obj) > 1e-6*math.Max(1, math.Abs(c.Obj)) {
				t.Fatalf("instance %d: warm %.12g, cold %.12g", k, s.Obj, c.Obj)
			}
			return s.X, s.Obj, err
		}
		if _, err := Solve(context.Background(), in, solver, Options{Gap: 0, Threads: 1}); err != nil {
			t.Fatalf("instance %d: %v", k, err)
		}
	}
	if warmed == 0 {
		t.Fatal("no node LP was warm-started")
	}
	t.Logf("%d warm-started node LPs agree with their cold solves", warmed)
}

// TestAxpyMatchesTheGoLoop: axpy, its Go loop and (where the processor has AVX) its
// vector loop each give exactly the plain loop's numbers, at every length (the vector loop and its tail), on
// rows longer than the pivot row, and with zeros, signed zeros and large and tiny
// entries in it.
func TestAxpyMatchesTheGoLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	pick := func() float64 {
		switch rng.IntN(6) {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		case 2:
			return (rng.Float64()*2 - 1) * 1e12
		case 3:
			return (rng.Float64()*2 - 1) * 1e-12
		}
		return rng.Float64()*2 - 1
	}
	for k := range 400 {
		width := k % 41
		pr := make([]float64, width)
		for j := range pr {
			pr[j] = pick()
		}
		row := make([]float64, width+k%3)
		for j := range row {
			row[j] = pick()
		}
		f := pick()
		want := append([]float64(nil), row...)
		for j, v := range pr {
			want[j] -= f * v
		}
		for _, c := range []struct {
			name string
			axpy func(row, pr []float64, f float64)
			run  bool
		}{
			{"axpy", axpy, true},
			{"Go loop", axpyGo, true},
			{"AVX loop", func(row, pr []float64, f float64) { axpyAVX(row[:len(pr)], pr, f) }, useAVX},
		} {
			if !c.run {
				continue
			}
			got := append([]float64(nil), row...)
			c.axpy(got, pr, f)
			for j := range got {
				if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
					t.Fatalf("%s, case %d (width %d): entry %d is %v, want %v", c.name, k, width, j, got[j], want[j])
				}
			}
		}
	}
	if !useAVX {
		t.Log("no AVX on this processor: the Go loop alone was checked")
	}
}

// TestDualStartMultipliersCertifyScaledRows: dualStart works on rows scaled to a
// largest entry of 1 (rowScale) and scales the multipliers back, so that they
// certify the optimum of the program as given. Rows here are multiplied by 1e-3 to
// 1e3 first; a multiplier left unscaled would miss the objective by that factor.
func TestDualStartMultipliersCertifyScaledRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	solved := 0
	for range 200 {
		n := 4 + rng.IntN(10)
		p := randomLP(rng, n, 3+rng.IntN(12))
		for r := range p.Rows {
			f := math.Pow(10, rng.Float64()*6-3)
			row := make([]float64, n)
			for j, a := range p.Rows[r] {
				row[j] = a * f
			}
			p.Rows[r], p.B[r] = row, p.B[r]*f
		}
		p.U = make([]float64, n) // every point has sum(x) <= 10 n
		for j := range p.U {
			p.U[j] = 10 * float64(n)
		}
		tab, ok := dualStart(p)
		if !ok {
			continue
		}
		solved++
		s := tab.solution()
		sameAnswer(t, "dual start, scaled rows", p, s, nil)
		if b := DualBound(p, s.Y); b < s.Obj-1e-6*math.Max(1, math.Abs(s.Obj)) {
			t.Fatalf("multipliers bound %.12g, objective %.12g", b, s.Obj)
		}
	}
	if solved < 100 {
		t.Fatalf("only %d of 200 programs solved from the slack basis", solved)
	}
}

func TestRowScale(t *testing.T) {
	for _, c := range []struct {
		row  []float64
		want float64
	}{
		{[]float64{0, 0}, 1},
		{[]float64{0.5, -2, 1}, 0.5},
		{[]float64{-4e3, 1e-3}, 1 / 4e3},
		{nil, 1},
	} {
		if got := rowScale(c.row); got != c.want {
			t.Errorf("rowScale(%v) = %g, want %g", c.row, got, c.want)
		}
	}
}
