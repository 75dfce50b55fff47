package ratcheck

import (
	"math"
	"math/big"
	"sort"
	"strconv"
)

// Default tolerances, those of the MIPLIB 2017 solution checker's defaults as
// schedopt applies them (see the package documentation for how they scale).
const (
	// DefaultFeasibility bounds the relative violation of a row or a column bound:
	// the distance outside it divided by max(1, |bound|, the row's positive and
	// negative parts, or |x_j| for a bound).
	DefaultFeasibility = 1e-6
	// DefaultIntegrality bounds |x_j − round(x_j)| of an integer column.
	DefaultIntegrality = 1e-6
	// MaxWorst is the number of worst violations a Report lists.
	MaxWorst = 5
)

// Tolerances are the feasibility and integrality tolerances of Check. A zero field
// means its default.
type Tolerances struct {
	Feasibility float64
	Integrality float64
}

func (t Tolerances) withDefaults() Tolerances {
	if !(t.Feasibility > 0) {
		t.Feasibility = DefaultFeasibility
	}
	if !(t.Integrality > 0) {
		t.Integrality = DefaultIntegrality
	}
	return t
}

// Violation kinds of a Report.
const (
	KindRow         = "row"         // a row activity outside its interval
	KindLower       = "lower bound" // a column below its lower bound
	KindUpper       = "upper bound" // a column above its upper bound
	KindSemi        = "semi"        // a semi column neither 0 nor within its bounds
	KindIntegrality = "integrality" // an integer column away from an integer
	KindMissing     = "missing"     // a model column without a value
	KindUnknown     = "unknown"     // a value for a name the model does not have
	KindNotFinite   = "not finite"  // a NaN or infinite value
	KindDuplicate   = "duplicate"   // a name given twice in the point
)

// Violation is one violated condition: the row or column, the kind, and the amount,
// absolute and relative (scaled as the package documentation says; for integrality
// both are the distance to the nearest integer). Missing, unknown and non-finite
// values have infinite amounts.
type Violation struct {
	Name string
	Kind string
	Abs  float64
	Rel  float64
}

// Report is the outcome of Check.
type Report struct {
	// Feasible holds when every relative row and bound violation is within the
	// feasibility tolerance, every integrality violation within the integrality
	// tolerance, and every model column has one finite value. It is decided in exact
	// arithmetic.
	Feasible bool
	// MaxAbsViolation and MaxRelViolation are the largest row or bound violations,
	// absolute and relative (+Inf when a value is missing or not finite).
	MaxAbsViolation float64
	MaxRelViolation float64
	// MaxIntegrality is the largest distance of an integer column from an integer.
	MaxIntegrality float64
	// Objective is the exact objective at the point, constant included (missing and
	// non-finite values count as 0); ObjectiveFloat is its nearest float64.
	Objective      *big.Rat
	ObjectiveFloat float64
	// Violated counts the conditions beyond their tolerance.
	Violated int
	// Worst lists up to MaxWorst violations, the largest relative amount first.
	Worst []Violation
}

// Check evaluates the point (names[k] = x[k]) exactly against the model: every value
// is converted exactly (big.Rat.SetFloat64) and every row activity, bound,
// integrality condition and the objective is computed in rational arithmetic.
// Columns are matched by name; len(x) values beyond len(names) are ignored.
func (m *Model) Check(names []string, x []float64, tol Tolerances) Report {
	tol = tol.withDefaults()
	feasTol, intTol := decimal(tol.Feasibility), decimal(tol.Integrality)
	out := newReporter()
	note := out.note
	inf := math.Inf(1)

	// The point, by column.
	val := make([]*big.Rat, len(m.Cols))
	m.readPoint(names, x, out, func(j int, v float64, finite bool) {
		val[j] = new(big.Rat)
		if finite {
			val[j].SetFloat64(v)
		}
	})

	// Columns: bounds, integrality, objective.
	obj := new(big.Rat).Set(m.ObjConst)
	tmp, d, scale := new(big.Rat), new(big.Rat), new(big.Rat)
	for j := range m.Cols {
		c := &m.Cols[j]
		if val[j] == nil {
			note(Violation{Name: c.Name, Kind: KindMissing, Abs: inf, Rel: inf}, true)
			val[j] = new(big.Rat)
		}
		xj := val[j]
		obj.Add(obj, tmp.Mul(c.Obj, xj))
		absX := new(big.Rat).Abs(xj)
		bound := func(kind string, b *big.Rat, below bool) (abs, rel *big.Rat) {
			if b == nil {
				return nil, nil
			}
			if below {
				d.Sub(b, xj)
			} else {
				d.Sub(xj, b)
			}
			if d.Sign() <= 0 {
				return nil, nil
			}
			maxAbs(scale.SetInt64(1), b)
			if absX.Cmp(scale) > 0 {
				scale.Set(absX)
			}
			return new(big.Rat).Set(d), new(big.Rat).Quo(d, scale)
		}
		loAbs, loRel := bound(KindLower, c.Lo, true)
		hiAbs, hiRel := bound(KindUpper, c.Hi, false)
		if c.Kind.IsSemi() && (loAbs != nil || hiAbs != nil) {
			// x = 0 is allowed too: the violation is the smaller of |x| and the
			// distance to [lo, hi] (|x| is at scale 1).
			a, r := loAbs, loRel
			if a == nil {
				a, r = hiAbs, hiRel
			}
			if absX.Cmp(a) < 0 {
				a, r = absX, absX
			}
			if a.Sign() > 0 {
				note(Violation{Name: c.Name, Kind: KindSemi, Abs: f64(a), Rel: f64(r)}, r.Cmp(feasTol) > 0)
			}
		} else {
			if loAbs != nil {
				note(Violation{Name: c.Name, Kind: KindLower, Abs: f64(loAbs), Rel: f64(loRel)}, loRel.Cmp(feasTol) > 0)
			}
			if hiAbs != nil {
				note(Violation{Name: c.Name, Kind: KindUpper, Abs: f64(hiAbs), Rel: f64(hiRel)}, hiRel.Cmp(feasTol) > 0)
			}
		}
		if c.Kind.IsInteger() && !xj.IsInt() {
			dist := fracDistance(xj)
			f := f64(dist)
			note(Violation{Name: c.Name, Kind: KindIntegrality, Abs: f, Rel: f}, dist.Cmp(intTol) > 0)
		}
	}
	out.rep.Objective = obj
	out.rep.ObjectiveFloat = f64(obj)

	// Rows.
	act, pos, neg := new(big.Rat), new(big.Rat), new(big.Rat)
	for i := range m.Rows {
		r := &m.Rows[i]
		pos.SetInt64(0)
		neg.SetInt64(0)
		for k, j := range r.Cols {
			tmp.Mul(r.Coefs[k], val[j])
			if tmp.Sign() > 0 {
				pos.Add(pos, tmp)
			} else {
				neg.Add(neg, tmp)
			}
		}
		act.Add(pos, neg)
		for _, side := range [2]struct {
			b     *big.Rat
			below bool
		}{{r.Lo, true}, {r.Hi, false}} {
			if side.b == nil {
				continue
			}
			if side.below {
				d.Sub(side.b, act)
			} else {
				d.Sub(act, side.b)
			}
			if d.Sign() <= 0 {
				continue
			}
			maxAbs(scale.SetInt64(1), side.b)
			maxAbs(scale, pos)
			maxAbs(scale, neg)
			rel := new(big.Rat).Quo(d, scale)
			note(Violation{Name: r.Name, Kind: KindRow, Abs: f64(d), Rel: f64(rel)}, rel.Cmp(feasTol) > 0)
		}
	}

	return out.report()
}

// reporter assembles the Report of Check and CheckFloat from the violations they note.
type reporter struct {
	rep Report
	all []Violation
}

func newReporter() *reporter { return &reporter{rep: Report{Feasible: true}} }

// note records the violation v; beyond says whether it exceeds its tolerance.
func (r *reporter) note(v Violation, beyond bool) {
	if beyond {
		r.rep.Feasible = false
		r.rep.Violated++
	}
	if v.Kind == KindIntegrality {
		r.rep.MaxIntegrality = math.Max(r.rep.MaxIntegrality, v.Abs)
	} else {
		r.rep.MaxAbsViolation = math.Max(r.rep.MaxAbsViolation, v.Abs)
		r.rep.MaxRelViolation = math.Max(r.rep.MaxRelViolation, v.Rel)
	}
	r.all = append(r.all, v)
}

// report returns the report with its Worst violations: up to MaxWorst, the largest
// relative amount first (in the order noted among equals).
func (r *reporter) report() Report {
	all := r.all
	sort.SliceStable(all, func(a, b int) bool { return all[a].Rel > all[b].Rel })
	if len(all) > MaxWorst {
		all = all[:MaxWorst]
	}
	r.rep.Worst = all
	return r.rep
}

// readPoint matches the point (names[k] = x[k], values beyond len(names) ignored) to
// the model's columns: it calls set for each value of a model column, in order (finite
// is false for NaN and ±Inf), and notes unknown names, values that are not finite and
// names given twice.
func (m *Model) readPoint(names []string, x []float64, r *reporter, set func(j int, v float64, finite bool)) {
	inf := math.Inf(1)
	seen := make([]bool, len(m.Cols))
	for k, name := range names {
		if k >= len(x) {
			break
		}
		j := m.ColumnIndex(name)
		finite := !math.IsNaN(x[k]) && !math.IsInf(x[k], 0)
		switch {
		case j < 0:
			r.note(Violation{Name: name, Kind: KindUnknown, Abs: inf, Rel: inf}, true)
			continue
		case !finite:
			r.note(Violation{Name: name, Kind: KindNotFinite, Abs: inf, Rel: inf}, true)
		case seen[j]:
			r.note(Violation{Name: name, Kind: KindDuplicate, Abs: inf, Rel: inf}, true)
		}
		seen[j] = true
		set(j, x[k], finite)
	}
}

// decimal returns the rational of f's shortest decimal text: a tolerance of 1e-6 is
// exactly 1/10^6, not the float64 next to it.
func decimal(f float64) *big.Rat {
	r, _ := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
	return r
}

// maxAbs sets s to max(s, |b|).
func maxAbs(s, b *big.Rat) {
	if b.Sign() < 0 {
		if t := new(big.Rat).Neg(b); t.Cmp(s) > 0 {
			s.Set(t)
		}
		return
	}
	if b.Cmp(s) > 0 {
		s.Set(b)
	}
}

// fracDistance returns |x − round(x)|.
func fracDistance(x *big.Rat) *big.Rat {
	fl := new(big.Int).Div(x.Num(), x.Denom()) // floor for a positive denominator
	f := new(big.Rat).Sub(x, new(big.Rat).SetInt(fl))
	if c := new(big.Rat).Sub(big.NewRat(1, 1), f); c.Cmp(f) < 0 {
		return c
	}
	return f
}

func f64(r *big.Rat) float64 {
	f, _ := r.Float64()
	return f
}

// Names returns the model's column names in order, for building a point.
func (m *Model) Names() []string {
	names := make([]string, len(m.Cols))
	for j, c := range m.Cols {
		names[j] = c.Name
	}
	return names
}
