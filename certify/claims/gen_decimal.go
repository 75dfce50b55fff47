package claims

import (
	"math"
	"math/rand/v2"

	"github.com/schedopt/schedopt/model"
)

// maxDecimalVars caps the columns of a FamilyDecimal case: the presolve bugs these
// models find show on a handful of columns.
const maxDecimalVars = 8

// genDecimal returns a FamilyDecimal case, shaped like the small models on which
// random-MILP fuzzers found HiGHS presolve bugs (HiGHS issues 2432 and 2585, the
// latter reproduced by HiGHS 1.10): wide bounds around [-100, 100], about half the
// columns integer, ≤ and ≥ rows (a few equalities with a continuous column) with
// two-decimal coefficients in [-100, 100] and right-hand sides with up to four
// decimals, placed around a random anchor point so that most models are feasible.
// Truth: Unknown, as for FamilyMixed.
func genDecimal(rng *rand.Rand, n int) Case {
	n = min(max(n, 2), maxDecimalVars)
	b := newBuilder(rng, "decimal")
	x0 := make([]float64, n)
	for j := range n {
		kind := model.Continuous
		if rng.IntN(2) == 0 {
			kind = model.Integer
		}
		lo := []float64{-100, -100, -100, -50, 0}[rng.IntN(5)]
		hi := []float64{100, 100, 120, 10, 0}[rng.IntN(5)]
		if hi <= lo {
			hi = 100
		}
		switch rng.IntN(10) {
		case 0:
			lo = math.Inf(-1)
			b.trait("open-bound")
		case 1:
			hi = math.Inf(1)
			b.trait("open-bound")
		}
		b.col(kind, lo, hi)
		l, h := math.Max(lo, -20), math.Min(hi, 20)
		if kind == model.Integer {
			x0[j] = math.Ceil(l) + float64(rng.IntN(int(math.Floor(h)-math.Ceil(l))+1))
		} else {
			x0[j] = l + float64(rng.IntN(int(100*(h-l))+1))/100
		}
	}
	decimal := func() float64 {
		switch rng.IntN(10) {
		case 0, 1:
			return float64(rng.IntN(201) - 100)
		case 2, 3:
			return float64(rng.IntN(2001)-1000) / 10
		}
		return float64(rng.IntN(20001)-10000) / 100
	}
	shifted := rng.IntN(4) == 0
	var rows []row
	for range 2 + rng.IntN(5) {
		a := make([]float64, n)
		cont := false
		for j := range a {
			if rng.IntN(10) < 6 {
				a[j] = decimal()
				cont = cont || b.kind[j] == model.Continuous && a[j] != 0
			}
		}
		if allZero(a) {
			a[rng.IntN(n)] = decimal()
		}
		act := dot(a, x0)
		s := 0.0
		if rng.IntN(7) > 0 {
			s = float64(rng.IntN(10001)) / 100
		}
		if shifted && rng.IntN(3) == 0 {
			b.trait("shifted")
			s = -float64(1+rng.IntN(5000)) / 100
		}
		// Four decimals, rounded away from the anchor so that it stays feasible
		// when s ≥ 0.
		switch r := rng.IntN(10); {
		case r == 0 && cont:
			rhs := math.Round(act*1e4) / 1e4
			rows = append(rows, row{a: a, lo: rhs, hi: rhs})
		case r < 5:
			rows = append(rows, row{a: a, lo: math.Inf(-1), hi: math.Ceil((act+s)*1e4) / 1e4})
		default:
			rows = append(rows, row{a: a, lo: math.Floor((act-s)*1e4) / 1e4, hi: math.Inf(1)})
		}
	}
	b.addRows(rows)
	c := make([]float64, n)
	for j := range c {
		if rng.IntN(10) < 8 {
			c[j] = decimal()
		}
	}
	b.objective(randomSense(rng), c, 0)
	return Case{Model: b.m, Truth: Truth{Status: Unknown}, Family: FamilyDecimal, Variant: b.variant()}
}
