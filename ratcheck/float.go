package ratcheck

import (
	"math"
	"math/big"

	"github.com/schedopt/schedopt/model"
)

// CheckFloat is Check in float64 arithmetic on the float reading (m.Float), with the
// same scaled tolerances and the same report. Comparing the two counts the points a
// float check passes and the exact one fails (or the other way round), at the same
// tolerances. Its Objective is the float objective, exactly converted.
func (m *Model) CheckFloat(names []string, x []float64, tol Tolerances) Report {
	tol = tol.withDefaults()
	fm := m.Float
	out := newReporter()
	note := out.note
	inf := math.Inf(1)
	val := make([]float64, len(m.Cols))
	set := make([]bool, len(m.Cols))
	m.readPoint(names, x, out, func(j int, v float64, finite bool) {
		set[j] = true
		if finite {
			val[j] = v
		}
	})
	obj := fm.ObjectiveConstant()
	for j := range m.Cols {
		v := model.Var(j)
		name := m.Cols[j].Name
		if !set[j] {
			note(Violation{Name: name, Kind: KindMissing, Abs: inf, Rel: inf}, true)
		}
		xj := val[j]
		obj += fm.ObjectiveCoef(v) * xj
		lo, hi := fm.Bounds(v)
		below := func(a, b float64) (float64, float64) { // how far a is below b, scaled
			if math.IsInf(b, 0) || a >= b {
				return 0, 0
			}
			return b - a, (b - a) / math.Max(1, math.Max(math.Abs(b), math.Abs(xj)))
		}
		la, lr := below(xj, lo)
		ua, ur := below(hi, xj)
		kind := fm.VarKind(v)
		switch {
		case kind.IsSemi() && (la > 0 || ua > 0):
			a, r := math.Max(la, ua), math.Max(lr, ur)
			if math.Abs(xj) < a {
				a, r = math.Abs(xj), math.Abs(xj)
			}
			note(Violation{Name: name, Kind: KindSemi, Abs: a, Rel: r}, r > tol.Feasibility)
		default:
			if la > 0 {
				note(Violation{Name: name, Kind: KindLower, Abs: la, Rel: lr}, lr > tol.Feasibility)
			}
			if ua > 0 {
				note(Violation{Name: name, Kind: KindUpper, Abs: ua, Rel: ur}, ur > tol.Feasibility)
			}
		}
		if d := math.Abs(xj - math.Round(xj)); kind.IsInteger() && d > 0 {
			note(Violation{Name: name, Kind: KindIntegrality, Abs: d, Rel: d}, d > tol.Integrality)
		}
	}
	out.rep.ObjectiveFloat = obj
	out.rep.Objective = new(big.Rat)
	if !math.IsInf(obj, 0) && !math.IsNaN(obj) {
		out.rep.Objective.SetFloat64(obj)
	}
	for i := range m.Rows {
		idx, coef := fm.RowTerms(model.Row(i))
		pos, neg := 0.0, 0.0
		for k, j := range idx {
			if p := coef[k] * val[j]; p > 0 {
				pos += p
			} else {
				neg += p
			}
		}
		act := pos + neg
		lo, hi := fm.RowBounds(model.Row(i))
		scale := func(b float64) float64 { return math.Max(math.Max(1, math.Abs(b)), math.Max(pos, -neg)) }
		if !math.IsInf(lo, 0) && act < lo {
			d := lo - act
			r := d / scale(lo)
			note(Violation{Name: m.Rows[i].Name, Kind: KindRow, Abs: d, Rel: r}, r > tol.Feasibility)
		}
		if !math.IsInf(hi, 0) && act > hi {
			d := act - hi
			r := d / scale(hi)
			note(Violation{Name: m.Rows[i].Name, Kind: KindRow, Abs: d, Rel: r}, r > tol.Feasibility)
		}
	}
	return out.report()
}
