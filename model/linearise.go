package model

import (
	"errors"
	"fmt"
	"math"
)

// MaxSafeBigM is the largest big-M constant a helper emits without a warning. lp_solve
// mis-solves big-M rows with M >= 1e8 (an integrality tolerance of 1e-7 times M exceeds
// one unit), so helpers note every M above this value in their Reformulation.
const MaxSafeBigM = 1e7

// ErrUnbounded is returned by a helper that needs a finite bound the model does not give.
var ErrUnbounded = errors.New("model: big-M needs finite bounds")

// ErrNotExact is returned by Validate when an epigraph is used where it does not equal
// the maximum it stands for.
var ErrNotExact = errors.New("model: epigraph is not exact")

// Reformulation records what a linearisation helper added to a model and why, so a
// reader can list every bridge applied between the domain model and the MILP.
type Reformulation struct {
	Helper string    // "ProductBinary", "MaxOfAffine", "Epigraph" or "Implies"
	Name   string    // the name passed to the helper
	Vars   []Var     // columns added
	Rows   []Row     // rows added
	BigM   []float64 // big-M constants used, in row order
	Source string    // where the big-M constants come from
	Warn   string    // set when a constant exceeds MaxSafeBigM
}

// Reformulations returns the helpers' records in the order they were applied.
func (m *Model) Reformulations() []Reformulation { return m.reforms }

func (m *Model) record(r Reformulation) {
	for _, M := range r.BigM {
		if M > MaxSafeBigM {
			r.Warn = fmt.Sprintf("big-M %g exceeds %g: weak solvers may accept violated rows", M, MaxSafeBigM)
			break
		}
	}
	m.reforms = append(m.reforms, r)
}

// ExprBounds returns the interval [lo, hi] that e can take within the column bounds,
// after summing duplicate terms. Either end may be infinite.
func (m *Model) ExprBounds(e Expr) (lo, hi float64) {
	lo, hi = e.Constant, e.Constant
	merged := mergeTerms(e)
	for i, v := range merged.Vars {
		c := merged.Coefs[i]
		if !m.validVar(v) || c == 0 {
			continue
		}
		l, u := m.colLo[v], m.colHi[v]
		if c > 0 {
			lo += c * l
			hi += c * u
		} else {
			lo += c * u
			hi += c * l
		}
	}
	return lo, hi
}

// mergeTerms returns e with duplicate variables summed, in first-appearance order.
func mergeTerms(e Expr) Expr {
	out := Expr{Constant: e.Constant}
	idx := make(map[Var]int, len(e.Vars))
	for i, v := range e.Vars {
		if k, ok := idx[v]; ok {
			out.Coefs[k] += e.Coefs[i]
			continue
		}
		idx[v] = len(out.Vars)
		out.Vars = append(out.Vars, v)
		out.Coefs = append(out.Coefs, e.Coefs[i])
	}
	return out
}

// ProductBinary adds a column z with z = b·x, for a binary b and an expression x whose
// bounds [L, U] follow from its columns' bounds (both must be finite). It emits the four
// rows of the standard exact linearisation, with the bounds of x as the big-M constants:
//
//	z <= U·b,  z >= L·b,  z <= x − L·(1 − b),  z >= x − U·(1 − b)
func (m *Model) ProductBinary(b Var, x Expr, name string) (Var, error) {
	if !m.validVar(b) || m.colKind[b] != Binary {
		return -1, fmt.Errorf("model: ProductBinary %q: %d is not a binary column", name, b)
	}
	L, U := m.ExprBounds(x)
	if math.IsInf(L, 0) || math.IsInf(U, 0) {
		return -1, fmt.Errorf("%w: ProductBinary %q: factor has bounds [%g, %g]", ErrUnbounded, name, L, U)
	}
	z := m.AddContinuous(math.Min(0, L), math.Max(0, U), name)
	var e Expr
	rows := make([]Row, 0, 4)
	// z − U·b <= 0
	e.Add(z, 1).Add(b, -U)
	rows = append(rows, m.AddConstr(e, LE, 0, name+"_ub"))
	// z − L·b >= 0
	e.Reset()
	e.Add(z, 1).Add(b, -L)
	rows = append(rows, m.AddConstr(e, GE, 0, name+"_lb"))
	// z − x − L·b <= −L
	e.Reset()
	e.Add(z, 1).AddExpr(x, -1).Add(b, -L)
	rows = append(rows, m.AddConstr(e, LE, -L, name+"_xub"))
	// z − x − U·b >= −U
	e.Reset()
	e.Add(z, 1).AddExpr(x, -1).Add(b, -U)
	rows = append(rows, m.AddConstr(e, GE, -U, name+"_xlb"))
	m.record(Reformulation{Helper: "ProductBinary", Name: name, Vars: []Var{z}, Rows: rows,
		BigM:   []float64{math.Abs(U), math.Abs(L), math.Abs(L), math.Abs(U)},
		Source: "bounds of the continuous factor"})
	return z, nil
}

// MaxOfAffine adds a column y equal to max_k pieces[k] exactly, whatever the objective,
// with binary selectors. With two pieces one binary s is used (s = 1 selects piece 1);
// with more, one binary per piece and Σ s_k = 1. Rows:
//
//	y >= p_k                      for every k
//	y <= p_k + M_k·(1 − s_k)      for every k (with two pieces: 1 − s for k = 0, s for k = 1)
//
// where M_k = max_j sup(p_j − p_k) over the column bounds, the tightest constant the
// bounds allow (for a1·α versus a2·α + b2 with α in [0, V] it is the (6.19) constant
// (a2 − a1)·V + b2 when positive). The bounds of y are [max_k inf p_k, max_k sup p_k].
func (m *Model) MaxOfAffine(pieces []Expr, name string) (y Var, selectors []Var, err error) {
	if len(pieces) == 0 {
		return -1, nil, fmt.Errorf("model: MaxOfAffine %q: no pieces", name)
	}
	ylo, yhi := math.Inf(-1), math.Inf(-1)
	for _, p := range pieces {
		l, u := m.ExprBounds(p)
		ylo, yhi = math.Max(ylo, l), math.Max(yhi, u)
	}
	M := make([]float64, len(pieces))
	for k, pk := range pieces {
		for j, pj := range pieces {
			if j == k {
				continue
			}
			var d Expr
			d.AddExpr(pj, 1).AddExpr(pk, -1)
			_, u := m.ExprBounds(d)
			M[k] = math.Max(M[k], u)
		}
		if math.IsInf(M[k], 1) {
			return -1, nil, fmt.Errorf("%w: MaxOfAffine %q: piece %d has no finite big-M", ErrUnbounded, name, k)
		}
	}
	y = m.AddContinuous(ylo, yhi, name)
	rec := Reformulation{Helper: "MaxOfAffine", Name: name, Vars: []Var{y},
		Source: "sup of (p_j − p_k) over the column bounds"}
	if len(pieces) == 1 {
		var e Expr
		e.Add(y, 1).AddExpr(pieces[0], -1)
		rec.Rows = append(rec.Rows, m.AddConstr(e, EQ, 0, name+"_eq"))
		m.record(rec)
		return y, nil, nil
	}
	if len(pieces) == 2 {
		selectors = []Var{m.AddBinary(name + "_s")}
	} else {
		for k := range pieces {
			selectors = append(selectors, m.AddBinary(fmt.Sprintf("%s_s%d", name, k)))
		}
	}
	rec.Vars = append(rec.Vars, selectors...)
	var e Expr
	for k, p := range pieces {
		e.Reset()
		e.Add(y, 1).AddExpr(p, -1)
		rec.Rows = append(rec.Rows, m.AddConstr(e, GE, 0, fmt.Sprintf("%s_ge%d", name, k)))
	}
	for k, p := range pieces {
		// y − p_k <= M_k·(1 − s_k)
		e.Reset()
		e.Add(y, 1).AddExpr(p, -1)
		rhs := M[k]
		switch {
		case len(pieces) > 2:
			e.Add(selectors[k], M[k])
		case k == 0: // s_0 = 1 − s
			e.Add(selectors[0], -M[k])
			rhs = 0
		default: // s_1 = s
			e.Add(selectors[0], M[k])
		}
		rec.Rows = append(rec.Rows, m.AddConstr(e, LE, rhs, fmt.Sprintf("%s_le%d", name, k)))
		rec.BigM = append(rec.BigM, M[k])
	}
	if len(pieces) > 2 {
		rec.Rows = append(rec.Rows, m.AddConstr(Sum(selectors...), EQ, 1, name+"_one"))
	}
	m.record(rec)
	return y, selectors, nil
}

// Epigraph adds a column y with y >= p_k for every piece: the convex maximum as an
// epigraph, without binaries. It equals max_k p_k only when nothing rewards a larger y:
// Validate returns ErrNotExact unless y's objective coefficient pushes it down (>= 0
// when minimising, <= 0 when maximising) and y appears in every other row only where a
// larger y makes the row harder (positive coefficient in a <= row, negative in a >=
// row, never in an equality or a two-sided range). When y has no objective coefficient
// it may exceed the maximum, but every <= row it appears in still holds for the true max.
func (m *Model) Epigraph(pieces []Expr, name string) (Var, error) {
	if len(pieces) == 0 {
		return -1, fmt.Errorf("model: Epigraph %q: no pieces", name)
	}
	ylo, yhi := math.Inf(-1), math.Inf(-1)
	for _, p := range pieces {
		l, u := m.ExprBounds(p)
		ylo, yhi = math.Max(ylo, l), math.Max(yhi, u)
	}
	y := m.AddContinuous(ylo, math.Inf(1), name)
	rec := Reformulation{Helper: "Epigraph", Name: name, Vars: []Var{y}, Source: "no big-M"}
	var e Expr
	for k, p := range pieces {
		e.Reset()
		e.Add(y, 1).AddExpr(p, -1)
		rec.Rows = append(rec.Rows, m.AddConstr(e, GE, 0, fmt.Sprintf("%s_ge%d", name, k)))
	}
	m.record(rec)
	return y, nil
}

// checkEpigraphs verifies the exactness conditions documented on Epigraph.
func (m *Model) checkEpigraphs() error {
	type epi struct {
		name string
		own  map[Row]bool
	}
	epis := map[Var]epi{}
	for _, r := range m.reforms {
		if r.Helper != "Epigraph" {
			continue
		}
		own := make(map[Row]bool, len(r.Rows))
		for _, row := range r.Rows {
			own[row] = true
		}
		epis[r.Vars[0]] = epi{r.Name, own}
	}
	if len(epis) == 0 {
		return nil
	}
	for y, ep := range epis {
		c := m.colObj[y] * float64(m.Sense())
		if c < 0 {
			return fmt.Errorf("%w: %s: the objective rewards a larger value", ErrNotExact, ep.name)
		}
	}
	for r := range m.rowLo {
		for k := m.rowStart[r]; k < m.rowStart[r+1]; k++ {
			y := Var(m.rowIndex[k])
			ep, ok := epis[y]
			if !ok || ep.own[Row(r)] {
				continue
			}
			c := m.rowValue[k]
			lo, hi := m.rowLo[r], m.rowHi[r]
			upperOnly := math.IsInf(lo, -1) && !math.IsInf(hi, 1)
			lowerOnly := math.IsInf(hi, 1) && !math.IsInf(lo, -1)
			if !(c > 0 && upperOnly) && !(c < 0 && lowerOnly) {
				return fmt.Errorf("%w: %s: row %s lets a larger value help", ErrNotExact, ep.name, m.RowName(Row(r)))
			}
		}
	}
	return nil
}

// Implies adds rows enforcing  b = active ⇒ e op rhs  for a binary b, with big-M
// constants from the bounds of e: for <=, M = sup(e) − rhs; for >=, M = rhs − inf(e);
// == emits both. A side whose M is <= 0 is implied by the bounds and emits no row. Rows
// for active = true:
//
//	e + M·b <= rhs + M      (op <=)
//	e − M·b >= rhs − M      (op >=)
//
// and for active = false the same with b replaced by 1 − b.
func (m *Model) Implies(b Var, active bool, e Expr, op Op, rhs float64, name string) ([]Row, error) {
	if !m.validVar(b) || m.colKind[b] != Binary {
		return nil, fmt.Errorf("model: Implies %q: %d is not a binary column", name, b)
	}
	if op != LE && op != GE && op != EQ {
		return nil, fmt.Errorf("model: Implies %q: unknown relation %d", name, op)
	}
	lo, hi := m.ExprBounds(e)
	rec := Reformulation{Helper: "Implies", Name: name, Source: "bounds of the implied expression"}
	emit := func(sign float64, M float64, suffix string) error {
		if M <= 0 {
			return nil
		}
		if math.IsInf(M, 1) {
			return fmt.Errorf("%w: Implies %q: expression has bounds [%g, %g]", ErrUnbounded, name, lo, hi)
		}
		// sign = +1 for <=, −1 for >=. Written as sign·(e − rhs) <= M·(1 − b) when active,
		// sign·(e − rhs) <= M·b when inactive.
		var row Expr
		row.AddExpr(e, sign)
		r := sign * rhs
		if active {
			row.Add(b, M)
			r += M
		} else {
			row.Add(b, -M)
		}
		rec.Rows = append(rec.Rows, m.AddConstr(row, LE, r, name+suffix))
		rec.BigM = append(rec.BigM, M)
		return nil
	}
	if op == LE || op == EQ {
		if err := emit(1, hi-rhs, "_le"); err != nil {
			return nil, err
		}
	}
	if op == GE || op == EQ {
		if err := emit(-1, rhs-lo, "_ge"); err != nil {
			return nil, err
		}
	}
	m.record(rec)
	return rec.Rows, nil
}
