package model

import (
	"fmt"
	"math"
)

// Tolerances used by Verify and by callers that judge its report.
const (
	// FeasibilityTol is the largest scaled violation of a bound or row accepted as
	// feasible: a violation v of a bound b counts as v / max(1, |b|). It is looser than
	// the solvers' own 1e-7 primal tolerance because solvers measure after scaling.
	FeasibilityTol = 1e-6
	// IntegralityTol is the largest distance from an integer accepted for an integer
	// column. It matches HiGHS's mip_feasibility_tolerance and lp_solve's epsint order.
	IntegralityTol = 1e-5
)

// Report is the outcome of Verify: the objective recomputed from the model and the
// worst violation of each kind.
type Report struct {
	Objective      float64 // recomputed objective, constant included
	MaxBound       float64 // worst scaled bound violation
	MaxRow         float64 // worst scaled row violation beyond what integrality slack explains
	MaxIntegrality float64 // worst distance of an integer column from an integer
	Worst          string  // description of the worst violation, "" when none
}

// MaxViolation returns the largest of the report's violations.
func (r Report) MaxViolation() float64 {
	return math.Max(r.MaxBound, math.Max(r.MaxRow, r.MaxIntegrality))
}

// Feasible reports whether every violation is within FeasibilityTol and
// IntegralityTol.
func (r Report) Feasible() bool {
	return r.MaxBound <= FeasibilityTol && r.MaxRow <= FeasibilityTol && r.MaxIntegrality <= IntegralityTol
}

// Verify recomputes every bound, row, integrality condition and the objective at x,
// independently of any solver. A semi-continuous or semi-integer column satisfies its
// bounds when it is 0 or within [lo, hi] (and integral for semi-integer); its bound
// violation is the distance to the nearer of the two. It returns an error only when x does not fit the model
// (wrong length, NaN).
func (m *Model) Verify(x []float64) (Report, error) {
	var rep Report
	if len(x) != m.NumVars() {
		return rep, fmt.Errorf("model: verify: %d values for %d columns", len(x), m.NumVars())
	}
	worst := 0.0
	note := func(v float64, what func() string) {
		if v > worst {
			worst = v
			rep.Worst = what()
		}
	}
	obj := m.objConst
	for j, xj := range x {
		if math.IsNaN(xj) || math.IsInf(xj, 0) {
			return rep, fmt.Errorf("model: verify: column %s has value %g", m.VarName(Var(j)), xj)
		}
		obj += m.colObj[j] * xj
		lo, hi := m.colLo[j], m.colHi[j]
		below, above := scaledBelow(xj, lo), scaledBelow(hi, xj)
		if m.colKind[j].IsSemi() && math.Abs(xj) < max(below, above) {
			// A semi column may also be 0: its violation is the distance to the
			// nearer of {0} and [lo, hi] (0 is at scale 1).
			if v := math.Abs(xj); v > rep.MaxBound {
				rep.MaxBound = v
				note(v, func() string {
					return fmt.Sprintf("%s column %s = %g is neither 0 nor in [%g, %g]", m.colKind[j], m.VarName(Var(j)), xj, lo, hi)
				})
			}
			below, above = 0, 0
		}
		if v := below; v > rep.MaxBound {
			rep.MaxBound = v
			note(v, func() string { return fmt.Sprintf("column %s = %g < lower bound %g", m.VarName(Var(j)), xj, lo) })
		}
		if v := above; v > rep.MaxBound {
			rep.MaxBound = v
			note(v, func() string { return fmt.Sprintf("column %s = %g > upper bound %g", m.VarName(Var(j)), xj, hi) })
		}
		if m.colKind[j].IsInteger() {
			if d := math.Abs(xj - math.Round(xj)); d > rep.MaxIntegrality {
				rep.MaxIntegrality = d
				note(d, func() string { return fmt.Sprintf("integer column %s = %g", m.VarName(Var(j)), xj) })
			}
		}
	}
	rep.Objective = obj
	for r := range m.rowLo {
		// slack is the part of a violation that the integrality tolerance explains: a
		// solver accepts x_j within IntegralityTol of an integer, and a coefficient a
		// turns that into a·(x_j − round(x_j)) of row activity (for example T ≥ 48·x
		// with x = 1 + 1e-7 and T = 48).
		act, slack := 0.0, 0.0
		for k := m.rowStart[r]; k < m.rowStart[r+1]; k++ {
			j := m.rowIndex[k]
			act += m.rowValue[k] * x[j]
			if m.colKind[j].IsInteger() {
				slack += math.Abs(m.rowValue[k] * (x[j] - math.Round(x[j])))
			}
		}
		lo, hi := m.rowLo[r], m.rowHi[r]
		if v := scaledBelow(act+slack, lo); v > rep.MaxRow {
			rep.MaxRow = v
			note(v, func() string { return fmt.Sprintf("row %s: activity %g < %g", m.RowName(Row(r)), act, lo) })
		}
		if v := scaledBelow(hi, act-slack); v > rep.MaxRow {
			rep.MaxRow = v
			note(v, func() string { return fmt.Sprintf("row %s: activity %g > %g", m.RowName(Row(r)), act, hi) })
		}
	}
	return rep, nil
}

// scaledBelow returns how far a lies below b, scaled by max(1, |b|); 0 if a >= b.
func scaledBelow(a, b float64) float64 {
	if math.IsInf(b, 0) || a >= b {
		return 0
	}
	return (b - a) / math.Max(1, math.Abs(b))
}
