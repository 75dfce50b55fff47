package dltbb

import "math"

// DualBound returns a lower bound on min C·x over {x : Rows·x (Rel) B, 0 <= x <= U}
// that is valid for any multipliers y, however they were computed: the bound of
// Neumaier and Shcherbina ("Safe bounds in linear and mixed-integer linear
// programming", Math. Program. 99, 2004). For every such x,
//
//	C·x = yᵀ(Rows·x) + rᵀx >= yᵀB + Σ_j min(0, r_j)·U_j,   r = C − Rowsᵀy,
//
// once y's signs agree with the rows (y_r >= 0 on a ≥ row, <= 0 on a ≤ row; they
// are clamped so here). A simplex that stopped early, lost accuracy or returned a
// wrong vertex yields a weaker bound, never a wrong one. The floating-point error of
// the sums is bounded a priori (Higham's γ_k) and subtracted. A column with no upper
// bound (U nil or U_j = +Inf) whose reduced cost may be negative makes the bound
// −Inf.
func DualBound(p *LP, y []float64) float64 {
	if len(y) != len(p.Rows) {
		return math.Inf(-1)
	}
	g := gamma(len(p.Rows) + len(p.C) + 2)
	bound, mag := 0.0, 0.0
	for r, v := range y {
		t := clampDual(p.Rel[r], v) * p.B[r]
		bound += t
		mag += math.Abs(t)
	}
	// r_j = c_j − Σ_r a_rj y_r, and a bound on its rounding error, accumulated row
	// by row (the rows are stored that way, and a row with y_r = 0 adds nothing).
	// The node LPs have a few dozen columns: their sums stay on the stack (this
	// runs for every node LP).
	var buf [128]float64
	rs := buf[:0]
	if 2*len(p.C) > len(buf) {
		rs = make([]float64, 2*len(p.C))
	}
	rs = rs[:2*len(p.C)]
	rj, rmag := rs[:len(p.C)], rs[len(p.C):]
	for j, c := range p.C {
		rj[j], rmag[j] = c, math.Abs(c)
	}
	for r, row := range p.Rows {
		v := clampDual(p.Rel[r], y[r])
		if v == 0 {
			continue
		}
		row = row[:len(rj)]
		rmag := rmag[:len(row)]
		for j, a := range row {
			// No test for a zero entry (half of them are): an unpredictable
			// branch per entry cost more than the arithmetic, and a zero
			// leaves both sums as they are (up to the sign of a zero sum,
			// which no test below sees).
			rj[j] -= a * v
			rmag[j] += math.Abs(a * v)
		}
	}
	for j := range rj {
		lo := rj[j] - g*rmag[j] // the exact r_j is at least lo
		if lo >= 0 {
			continue // x_j >= 0 contributes at least 0
		}
		u := math.Inf(1)
		if p.U != nil {
			u = p.U[j]
		}
		if math.IsInf(u, 1) || math.IsNaN(u) {
			return math.Inf(-1)
		}
		bound += lo * u
		mag += math.Abs(lo * u)
	}
	return bound - g*mag
}

// InfeasibilityProof reports whether y proves that no x with 0 <= x <= U satisfies
// the rows of p: it does when yᵀB exceeds the largest value yᵀ(Rows·x) can take over
// the box (after clamping y's signs as DualBound does; a Farkas certificate with
// bounds). SimplexDual returns such a y, the dual of its phase one, with ErrInfeasible.
func InfeasibilityProof(p *LP, y []float64) bool {
	zero := &LP{C: make([]float64, len(p.C)), Rows: p.Rows, Rel: p.Rel, B: p.B, U: p.U}
	return DualBound(zero, y) > 0
}

// clampDual returns the multiplier v of a row with relation rel with the sign a
// minimisation's multipliers must have: >= 0 on a ≥ row, <= 0 on a ≤ row, free on an
// equality; 0 for NaN or ±Inf.
func clampDual(rel int, v float64) float64 {
	// The builtins min and max, which treat NaN and signed zeros as math.Min and
	// math.Max do, but inline (this runs for every row of every node LP twice).
	switch {
	case rel > 0:
		v = max(v, 0)
	case rel < 0:
		v = min(v, 0)
	}
	if v-v != 0 { // NaN or ±Inf
		return 0
	}
	return v
}

// gamma is Higham's γ_k = k·u/(1 − k·u) for double precision (u = 2⁻⁵³), doubled: a
// bound on the relative error of a k-term floating-point sum of products.
func gamma(k int) float64 {
	ku := float64(k) * 0x1p-53
	return 2 * ku / (1 - ku)
}
