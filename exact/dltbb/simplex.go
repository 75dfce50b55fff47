package dltbb

import (
	"errors"
	"fmt"
	"math"
)

// ErrUnbounded is returned by Simplex for an unbounded LP (never the case for a node
// LP, whose objective T is bounded below).
var ErrUnbounded = errors.New("dltbb: linear program is unbounded")

// Tolerances of Simplex.
const (
	// simplexPivotTol: tableau entries below it do not qualify as pivots.
	simplexPivotTol = 1e-9
	// simplexCostTol: a reduced cost must be below −simplexCostTol to enter.
	simplexCostTol = 1e-9
	// simplexFeasTol: the phase-one sum of artificials, relative to the largest
	// right-hand side, above which the LP is infeasible.
	simplexFeasTol = 1e-9
	// simplexRowTol: the largest violation of an original row, relative to its
	// magnitude, accepted in the returned point.
	simplexRowTol = 1e-7
	// simplexNoiseCost: a negative reduced cost above −simplexNoiseCost on a column
	// without a pivot is taken for round-off.
	simplexNoiseCost = 1e-7
	// blandAfter: consecutive degenerate pivots after which pricing switches from
	// Dantzig's rule to Bland's (no cycling).
	blandAfter = 30
)

// Simplex is an LPSolver: a dense tableau simplex that keeps the reduced costs in the
// tableau and prices by Dantzig's rule (largest decrease per unit), falling back to
// Bland's rule after a run of degenerate pivots. The node LPs have a few dozen rows
// and columns; it is several times faster on them than a simplex that recomputes the
// prices and always uses Bland's rule. A program with no negative cost starts with
// the dual simplex from the slack basis, others with the two-phase primal simplex;
// the cut rounds of a node start from the previous round's tableau (SimplexDual).
// The returned point is re-checked against every original row; when that fails (or
// the pivoting does), the program is solved again after equilibrating its rows and
// columns.
func Simplex(p *LP) ([]float64, float64, error) {
	s, err := SimplexDual(p)
	return s.X, s.Obj, err
}

// LPSolution is what SimplexDual returns: a point, its objective and the row
// multipliers of the final basis, from which DualBound derives a bound that does not
// depend on the simplex having stopped at an optimum.
type LPSolution struct {
	X   []float64 // the point (len(C)); nil when the program is infeasible or the solve stopped at LP.Cutoff
	Obj float64   // C·X
	// Y holds one multiplier per row: the dual of the final basis when X is set, the
	// phase-one dual (a candidate Farkas ray, see InfeasibilityProof) when the
	// program was found infeasible, nil after any other failure.
	Y []float64
	// Certified is set when SimplexDual checked Obj against DualBound(p, Y) (for a
	// boxed program) and it held within 1e-7; Bound is then that DualBound, so that a
	// caller who certifies every answer need not compute it again.
	Certified bool
	Bound     float64
}

// SimplexDual is Simplex that also returns the row multipliers of its final basis
// (or, for an infeasible program, of its phase one), so that the caller can check
// the claim with DualBound or InfeasibilityProof instead of trusting the pivoting.
//
// It tries three starts in turn, and takes the first answer that passes the row
// check and, for a boxed program, whose multipliers certify its objective:
//  1. a later cut round of the same node (p carries the warm start the search set,
//     see warm.go): the previous round's tableau, extended by the new rows;
//  2. with no negative cost (min-time): the dual simplex from the slack basis, which
//     needs no phase one (dualStart);
//  3. the two-phase primal simplex, and after it the equilibrated program.
//
// With a cutoff (LP.HasCutoff) the dual simplex of the first two stops once its
// multipliers' DualBound reaches LP.Cutoff, and the answer has no point.
func SimplexDual(p *LP) (LPSolution, error) {
	if w := p.warm; w != nil {
		last := w.last
		w.last = nil
		if last != nil && last.extend(p) {
			if last.cut != nil {
				return last.stoppedAtCutoff(), nil
			}
			if s := last.solution(); keep(p, last, &s) {
				return s, nil
			}
		}
	}
	if t, ok := dualStart(p); ok {
		if t.cut != nil {
			return t.stoppedAtCutoff(), nil
		}
		if s := t.solution(); keep(p, t, &s) {
			return s, nil
		}
	}
	s, t, err := simplexTableau(p)
	if err == nil {
		if keep(p, t, &s) {
			return s, nil
		}
		if checkRows(p, s.X) == nil {
			// A feasible vertex whose multipliers do not certify it: their
			// round-off exceeds the tolerance (about 3 % of the min-time node LPs
			// of generator seed 2), or the tableau lost accuracy on the way and
			// stopped above the optimum (seen on a tiny min-time node LP with the
			// used-machine rows: 105.23 against 97.16). The equilibrated program
			// certifies most of them (403 of 431 on seed 2's first 300 nodes,
			// which went to HiGHS before) and finds the optimum: a lower feasible
			// point, or one that certifies, is the better answer.
			if u, err := scaledSimplex(p); err == nil && (u.Obj < s.Obj || certifies(p, u)) {
				return u, nil
			}
			return s, nil
		}
	}
	// A second opinion on an infeasibility claim as on any failure: a wrong claim
	// would prune a subtree.
	return scaledSimplex(p)
}

// stoppedAtCutoff returns the answer of a dual simplex that stopped at the cutoff
// (t.cut) and hands t's rows back for reuse: nothing goes on from a pruned LP.
func (t *tableau) stoppedAtCutoff() LPSolution {
	s := *t.cut
	t.release()
	return s
}

// keep reports whether s, read off the tableau t of p, passes the row check (unless
// p is BoundOnly) and, when p is boxed, is certified by its multipliers (then s.Bound and s.Certified
// record DualBound's value, which the caller need not compute again). Then t is left
// in p's warm start (if any) for the next round of the node.
func keep(p *LP, t *tableau, s *LPSolution) bool {
	if !p.BoundOnly && checkRows(p, s.X) != nil {
		return false
	}
	if boxed(p) {
		b := DualBound(p, s.Y)
		if !within(b, s.Obj) {
			return false
		}
		s.Bound, s.Certified = b, true
	}
	if p.warm != nil {
		p.warm.last = t
	}
	return true
}

// boxed reports whether every column of p has a finite upper bound (LP.U), without
// which DualBound cannot bound a solution whose multipliers are slightly off.
func boxed(p *LP) bool {
	if p.U == nil {
		return false
	}
	for _, u := range p.U {
		if math.IsInf(u, 1) || math.IsNaN(u) {
			return false
		}
	}
	return true
}

// certifies reports whether the multipliers of s prove its objective optimal within
// a relative 1e-7 (DualBound).
func certifies(p *LP, s LPSolution) bool {
	return within(DualBound(p, s.Y), s.Obj)
}

// within reports whether the bound certifies the objective obj within a relative 1e-7.
func within(bound, obj float64) bool {
	return bound >= obj-1e-7*math.Max(1, math.Abs(obj))
}

// scaledSimplex is Simplex on the equilibrated program, its second try. The
// multipliers it returns are those of the original rows (the row scales undone).
func scaledSimplex(p *LP) (LPSolution, error) {
	// Equilibrate: rows to a largest entry of 1, then columns likewise. The node LPs
	// mix times (1e2), rates (1e-3) and b_2 (1e4) in one column.
	n, mr := len(p.C), len(p.Rows)
	q := &LP{C: make([]float64, n), Rows: make([][]float64, mr), Rel: p.Rel, B: make([]float64, mr)}
	colScale := make([]float64, n)
	rowScale := make([]float64, mr)
	for r, row := range p.Rows {
		big := 0.0
		for _, a := range row {
			big = math.Max(big, math.Abs(a))
		}
		rs := 1.0
		if big > 0 {
			rs = 1 / big
		}
		q.Rows[r] = make([]float64, n)
		for k, a := range row {
			q.Rows[r][k] = a * rs
			colScale[k] = math.Max(colScale[k], math.Abs(a*rs))
		}
		q.B[r] = p.B[r] * rs
		rowScale[r] = rs
	}
	for k := range colScale {
		if colScale[k] == 0 {
			colScale[k] = 1
		}
		colScale[k] = 1 / colScale[k]
		for r := range q.Rows {
			q.Rows[r][k] *= colScale[k]
		}
		q.C[k] = p.C[k] * colScale[k]
	}
	qs, err := simplex(q)
	// Row r of q is row r of p times rowScale[r]: its multiplier counts rowScale[r]
	// times for p. (Column scales leave the multipliers alone.)
	var y []float64
	if qs.Y != nil {
		y = make([]float64, mr)
		for r := range y {
			y[r] = qs.Y[r] * rowScale[r]
		}
	}
	if err != nil {
		return LPSolution{Y: y}, err
	}
	x := make([]float64, n)
	for k := range x {
		x[k] = qs.X[k] * colScale[k]
	}
	if err := checkRows(p, x); err != nil {
		return LPSolution{}, err
	}
	obj := 0.0
	for k := range n {
		obj += p.C[k] * x[k]
	}
	return LPSolution{X: x, Obj: obj, Y: y}, nil
}

// checkRows returns an error when x violates a row of p beyond simplexRowTol.
func checkRows(p *LP, x []float64) error {
	for r, row := range p.Rows {
		act, scale := 0.0, math.Abs(p.B[r])
		for k, a := range row {
			act += a * x[k]
			scale += math.Abs(a * x[k])
		}
		viol := 0.0
		switch {
		case p.Rel[r] < 0:
			viol = act - p.B[r]
		case p.Rel[r] > 0:
			viol = p.B[r] - act
		default:
			viol = math.Abs(act - p.B[r])
		}
		if viol > simplexRowTol*math.Max(1, scale) {
			return fmt.Errorf("dltbb: simplex lost accuracy (row %d violated by %g, scale %g)", r, viol, scale)
		}
	}
	return nil
}

// simplex solves p without scaling.
func simplex(p *LP) (LPSolution, error) {
	s, _, err := simplexTableau(p)
	return s, err
}

// simplexTableau is simplex that also returns its final tableau (nil after an error),
// from which a later round of the same node can start (warm.go).
func simplexTableau(p *LP) (LPSolution, *tableau, error) {
	n, mr := len(p.C), len(p.Rows)
	nSlack := 0
	for _, r := range p.Rel {
		if r != eq {
			nSlack++
		}
	}
	art := n + nSlack
	// Which rows need an artificial: those whose slack cannot start basic.
	needs := make([]bool, mr)
	nArt := 0
	for r := range mr {
		b, rel := p.B[r], p.Rel[r]
		if b < 0 || b == 0 && rel > 0 {
			rel = -rel
		}
		needs[r] = rel >= 0 // an equality, or a >= row with b > 0
		if needs[r] {
			nArt++
		}
	}
	// Nonbasic at the start: the structural columns, and the slacks of the rows that
	// start with their artificial basic.
	nonbasic := make([]int, n, n+nArt)
	for j := range nonbasic {
		nonbasic[j] = j
	}
	si := n
	for r := range mr {
		if p.Rel[r] != eq {
			if needs[r] {
				nonbasic = append(nonbasic, si)
			}
			si++
		}
	}
	t := newTableau(p, mr, nonbasic, art+nArt, false)
	t.art = art
	rhs := len(nonbasic)
	cols := t.cols
	bScale := 1.0
	si, ai := n, art
	for r := range mr {
		row := t.tab[r]
		copy(row, p.Rows[r])
		b := p.B[r]
		slack, sign := -1, 1.0
		if p.Rel[r] != eq {
			slack = si
			si++
			if p.Rel[r] > 0 {
				sign = -1
			}
		}
		// Rows a·x >= b with b <= 0 (and a·x <= b with b >= 0) hold at x = 0: negated
		// where needed, their slack starts basic and they need no artificial.
		if b < 0 || b == 0 && p.Rel[r] > 0 {
			for k := range n {
				row[k] = -row[k]
			}
			b, sign = -b, -sign
			cols.flip[r] = true
		}
		row[rhs] = b
		bScale = math.Max(bScale, b)
		cols.slack[r], cols.art[r] = slack, -1
		if needs[r] {
			if slack >= 0 {
				row[t.slot[slack]] = sign // the slack's column, nonbasic
			}
			t.basis[r] = ai
			cols.art[r] = ai
			ai++
		} else {
			t.basis[r] = slack // its coefficient is 1
		}
	}
	// Phase one: minimise the sum of the artificials; d holds the reduced costs and,
	// in d[rhs], minus the objective.
	cost1 := make([]float64, art+nArt)
	for k := art; k < len(cost1); k++ {
		cost1[k] = 1
	}
	for r, row := range t.tab {
		if t.basis[r] >= art {
			for k, v := range row {
				t.d[k] -= v
			}
		}
	}
	if err := t.primal(cost1, art, art+nArt); err != nil {
		return LPSolution{}, nil, err
	}
	// The phase-one objective, summed from the artificials still basic (the running
	// value in d[rhs] carries the round-off of every pivot).
	infeas := 0.0
	for r := range mr {
		if t.basis[r] >= art {
			infeas += t.tab[r][rhs]
		}
	}
	if infeas > simplexFeasTol*bScale {
		return LPSolution{Y: t.duals(1)}, nil, ErrInfeasible
	}
	// Drive zero artificials out of the basis where a structural pivot exists.
	for r := range mr {
		if t.basis[r] < art {
			continue
		}
		for _, k := range t.order {
			if t.label[k] >= art {
				break
			}
			if math.Abs(t.tab[r][k]) > simplexPivotTol {
				t.pivot(r, k)
				break
			}
		}
	}
	// Phase two: the reduced costs of c in the current basis.
	t.reducedCosts(p.C)
	if err := t.primal(p.C, art, art); err != nil {
		return LPSolution{}, nil, err
	}
	return t.solution(), t, nil
}

// SimplexBoth is an LPSolver that runs Simplex's two tries, on the program as given
// and equilibrated, and returns the lower of the objectives that pass the row check.
// On min-energy node LPs (objective coefficients in the hundreds next to the rows'
// 1e-3 rates) the unscaled tableau was seen to stop 4 % above the optimum with
// reduced costs that looked optimal; the equilibrated one found it. A value too high
// would prune wrongly, so the search for min-energy takes the lower of both.
func SimplexBoth(p *LP) ([]float64, float64, error) {
	s1, e1 := simplex(p)
	if e1 == nil {
		e1 = checkRows(p, s1.X)
	}
	s2, e2 := scaledSimplex(p)
	switch {
	case e1 == nil && (e2 != nil || s1.Obj <= s2.Obj):
		return s1.X, s1.Obj, nil
	case e2 == nil:
		return s2.X, s2.Obj, nil
	}
	return nil, 0, e2
}

// SimplexDualScaled is SimplexDual on the equilibrated program only (rows, then
// columns, to a largest entry of 1): the try that suits badly scaled programs such as
// the min-energy node LPs.
func SimplexDualScaled(p *LP) (LPSolution, error) { return scaledSimplex(p) }
