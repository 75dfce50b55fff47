package isoeff

import (
	"math"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
)

// EquivRate is a' of (5.27): the rate with T(1, 1, V) = S + O + C·V + a'·V, i.e.
// max{a_1·V, a_2·V + b_2}/V (a_1 <= a' < a_2).
func EquivRate(mc dm.Machine, V float64) float64 { return mc.Tau(V) / V }

// Bound527 returns the lower and upper bounds of (5.27) on E(m, n, V) below V_max:
//
//	(S + O + CV + a'V)/(mS + nmO + mCV + a_1V) <= E <= (S + O + CV + a'V)/(mS + mO + a_1V).
func Bound527(mc dm.Machine, m, n int, V float64) (lo, hi float64) {
	num := SingleTime(mc, V) // = S + O + CV + a'V
	fm, fn := float64(m), float64(n)
	lo = num / (fm*mc.S + fn*fm*mc.O + fm*mc.C*V + mc.A1*V)
	hi = num / (fm*mc.S + fm*mc.O + mc.A1*V)
	return lo, hi
}

// Approx528 is the approximation (5.28) of E(m, n, V) above V_max (n − m chunks of
// size ρ in core, m out-of-core chunks of (V − (n − m)ρ)/m, latency hidden):
//
//	E ≈ (S + O + V(C + a_2) + b_2) / (mS + nO + CV + (n − m)ρa_1 + m[(V − (n − m)ρ)a_2/m + b_2]).
func Approx528(mc dm.Machine, m, n int, V float64) float64 {
	fm, fn, b2 := float64(m), float64(n), mc.B2()
	den := fm*mc.S + fn*mc.O + mc.C*V + (fn-fm)*mc.Rho*mc.A1 + fm*((V-(fn-fm)*mc.Rho)*mc.A2/fm+b2)
	return (mc.S + mc.O + V*(mc.C+mc.A2) + b2) / den
}

// Iso529 is the isoefficiency estimate (5.29) above V_max, derived from (5.28) with
// ρ = b_2/(a_1 − a_2):
//
//	I(e, m, n) ≈ (b_2(en − 1) + S(em − 1) + O(en − 1)) / ((C + a_2)(1 − e)).
//
// The seed states it for e > 1 and n > m; ok is false outside that range or when the
// value is not positive.
func Iso529(mc dm.Machine, e float64, m, n int) (V float64, ok bool) {
	if !(e > 1) || n <= m {
		return 0, false
	}
	fm, fn := float64(m), float64(n)
	V = (mc.B2()*(e*fn-1) + mc.S*(e*fm-1) + mc.O*(e*fn-1)) / ((mc.C + mc.A2) * (1 - e))
	return V, V > 0
}

// Iso527 returns the loads the bounds (5.27) allow for level e below V_max: E <= the
// upper bound, so the isoline lies at V >= VUpper (where the upper bound equals e), and
// E >= the lower bound, so it lies at V <= VLower (where the lower bound equals e). Both
// bounds increase with V; each root is searched in [lo, hi] and reported only when it
// lies there.
func Iso527(mc dm.Machine, e float64, m, n int, lo, hi float64) (VUpper float64, okU bool, VLower float64, okL bool) {
	root := func(f func(V float64) float64) (float64, bool) {
		a, b := lo, hi
		if f(a) >= e || f(b) < e {
			return 0, false
		}
		for range 200 {
			mid := (a + b) / 2
			if f(mid) < e {
				a = mid
			} else {
				b = mid
			}
			if b-a <= 1e-9*b {
				break
			}
		}
		return (a + b) / 2, true
	}
	VUpper, okU = root(func(V float64) float64 { _, u := Bound527(mc, m, n, V); return u })
	VLower, okL = root(func(V float64) float64 { l, _ := Bound527(mc, m, n, V); return l })
	return VUpper, okU, VLower, okL
}

// Table52 returns E_max(m, 20) and V_max(m, 20) [MB] of Table 5.2 (seed 004, L914-921,
// n = 20) as printed (V_max(8) = V_max(9) = 115514 is printed twice); ok is false for m
// outside 2..20.
func Table52(m int) (eMax, vMax float64, ok bool) {
	e := [...]float64{34.2, 34.0, 33.7, 33.4, 33.2, 32.8, 32.4, 31.5, 30.9, 30.4, 29.6, 28.7, 27.7, 26.7, 25.7, 24.8, 23.8, 22.9, 22.1}
	v := [...]float64{134485, 120827, 123329, 105097, 119663, 95748, 115514, 115514, 75048, 81394, 86545, 90457, 94532, 98591, 99460, 100506, 100354, 99708, 102240}
	if m < 2 || m > 20 {
		return 0, 0, false
	}
	return e[m-2], v[m-2], true
}

// finite reports whether x is a finite number.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
