package dltbb

import (
	"errors"
	"math"
	"slices"
)

// tableau is the state of the dense simplex on one program, in the compact
// (condensed) form: one row per constraint, holding the entries of the nonbasic
// variables only, then the right-hand side. A basic variable's column is a unit
// vector, so the full tableau spends most of its width on columns that a pivot only
// rewrites to what they were; here a row is as wide as the program has structural
// columns (plus the rhs), and a pivot swaps the entering and the leaving variable in
// one slot.
//
// Every variable has a label: the structural columns 0..n−1, then the slacks (in row
// order), then, from art on, the artificials. The simplex rules go through the
// labels in increasing order, as the full tableau went through its columns, so the
// two make the same pivots on the same numbers (the elimination multiplies and
// subtracts the same entries in the same order; see pivot).
//
// Why: on the node LPs of the §6.4 generator (m = 10, n = 12: some 70 rows and 31
// columns) the full tableau was 105 columns wide, and the pivots' eliminations
// (axpyGather over the 26 nonzeros of the pivot row, 38 rows each) were 37 % of the
// search's time. A compact row is 32 entries, contiguous, which the eliminations run
// through with vector instructions (axpy).
type tableau struct {
	lp    *LP       // the program it solved
	buf   []float64 // the rows' backing array, from tableauBuffer (nil: not pooled)
	tab   [][]float64
	basis []int // the label of each row's basic variable
	label []int // the label of the nonbasic variable in each slot
	slot  []int // the slot of each label, -1 while it is basic
	// order lists the slots by increasing label: the simplex rules go through it
	// where the full tableau went through its columns.
	order []int
	// d holds the reduced costs of the nonbasic variables, per slot; d[rhs] is minus
	// the objective.
	d    []float64
	cols rowCols
	art  int // first artificial label (structural columns + slacks)
	// scale holds, per row of lp, the factor its tableau row was multiplied by
	// (rowScale; nil: 1 for all), which its multiplier is multiplied by again.
	scale []float64
	// cut, set when the dual simplex stopped at the program's cutoff (dualCut),
	// is the answer without a point: the multipliers and their DualBound.
	cut *LPSolution
}

// reduced returns the reduced cost of the variable with the given label (zero while
// it is basic).
func (t *tableau) reduced(label int) float64 {
	if s := t.slot[label]; s >= 0 {
		return t.d[s]
	}
	return 0
}

// pivot makes the nonbasic variable in slot k basic in row r; the variable that
// leaves takes its slot. It updates the reduced costs d.
//
// In the full tableau the leaving variable's column is the unit vector of row r, so
// after the pivot it holds 1/a_rk in row r and −a_ik/a_rk in every other row i; here
// slot k gets exactly those numbers (0 − a_ik·(1/a_rk), as the full tableau's
// elimination computes them), and the entering variable's column, which becomes a
// unit vector, is dropped.
func (t *tableau) pivot(r, k int) {
	pr := t.tab[r]
	inv := 1 / pr[k]
	for j := range pr {
		pr[j] *= inv
	}
	pr[k] = inv
	// The rows with an entry in column k, listed without a branch per row (about
	// half of them have one, in no pattern a branch predictor learns).
	var buf [256]int32
	touch := buf[:]
	if len(t.tab) > len(buf) {
		touch = make([]int32, len(t.tab))
	}
	n := 0
	for i, row := range t.tab {
		touch[n] = int32(i)
		n += nonzero(row[k])
	}
	touch = touch[:n]
	vector := useAVX && len(pr) >= 4
	for _, i := range touch {
		if int(i) == r {
			continue
		}
		row := t.tab[i]
		f := row[k]
		row[k] = 0
		if vector {
			axpyAVX(row[:len(pr)], pr, f) // axpy without its test per row
		} else {
			axpy(row, pr, f)
		}
	}
	if f := t.d[k]; f != 0 {
		t.d[k] = 0
		axpy(t.d, pr, f)
	}
	enter, leave := t.label[k], t.basis[r]
	t.basis[r], t.slot[enter] = enter, -1
	t.label[k], t.slot[leave] = leave, k
	t.reorder(k)
}

// nonzero is 1 when v is not zero, 0 when it is (a conditional move, not a branch).
func nonzero(v float64) int {
	n := 0
	if v != 0 {
		n = 1
	}
	return n
}

// reorder moves slot k, whose label changed, to its place in t.order.
func (t *tableau) reorder(k int) {
	o, l := t.order, t.label[k]
	at := slices.Index(o, k)
	for at > 0 && t.label[o[at-1]] > l {
		o[at] = o[at-1]
		at--
	}
	for at+1 < len(o) && t.label[o[at+1]] < l {
		o[at] = o[at+1]
		at++
	}
	o[at] = k
}

// axpy sets row[j] −= f·pr[j] for every j < len(pr) (row is at least as long). The
// products and differences are rounded one by one, as the Go loop rounds them, so
// every result is the same with and without vector instructions.
func axpy(row, pr []float64, f float64) {
	if useAVX && len(pr) >= 4 {
		axpyAVX(row[:len(pr)], pr, f)
		return
	}
	axpyGo(row, pr, f)
}

// axpyGo is axpy's Go loop.
func axpyGo(row, pr []float64, f float64) {
	row = row[:len(pr)]
	for j, v := range pr {
		row[j] -= f * v
	}
}

// reducedCosts sets d to the reduced costs of the objective cost (indexed by label;
// labels beyond it cost nothing) in the current basis: cost minus the basic rows
// weighted by their variables' costs (only the rows of basic variables with a cost:
// one for min T).
func (t *tableau) reducedCosts(cost []float64) {
	d := t.d
	clear(d)
	for s, l := range t.label {
		if l < len(cost) {
			d[s] = cost[l]
		}
	}
	for r, row := range t.tab {
		if b := t.basis[r]; b < len(cost) && cost[b] != 0 {
			cb := cost[b]
			for k, v := range row {
				if v != 0 {
					d[k] -= cb * v
				}
			}
		}
	}
}

// primal pivots until no variable with a label below limit has a negative reduced
// cost. Basic variables labelled block or more (the artificials, in phase two) must
// stay at zero. d holds the reduced costs of cost, updated by every pivot; before it
// declares optimality (or follows a ray) it recomputes them from the tableau, so that
// round-off carried in d can neither stop it early nor send it after a false ray.
func (t *tableau) primal(cost []float64, limit, block int) error {
	d, tab, basis := t.d, t.tab, t.basis
	rhs := len(d) - 1
	refresh := func() { t.reducedCosts(cost) }
	skip := make([]bool, limit)
	fresh := false
	degenerate := 0
	for iter := 0; iter < 50000; iter++ {
		enter := -1 // a label
		if degenerate < blandAfter {
			best := -simplexCostTol
			for _, s := range t.order {
				if l := t.label[s]; l >= limit {
					break
				} else if !skip[l] && d[s] < best {
					best, enter = d[s], l
				}
			}
		} else {
			for _, s := range t.order {
				if l := t.label[s]; l >= limit {
					break
				} else if !skip[l] && d[s] < -simplexCostTol {
					enter = l
					break
				}
			}
		}
		if enter < 0 {
			if fresh {
				return nil
			}
			refresh()
			fresh = true
			continue
		}
		k := t.slot[enter]
		leave := -1
		ratio := math.Inf(1)
		for r, row := range tab {
			a := row[k]
			q := 0.0
			switch {
			case basis[r] >= block && math.Abs(a) > simplexPivotTol:
				// An artificial left in the basis at zero after phase one: any
				// nonzero entry blocks the step, so that it never leaves zero.
			case a <= simplexPivotTol:
				continue
			default:
				q = row[rhs] / a
			}
			if q < ratio-1e-12 || q <= ratio+1e-12 && leave >= 0 && basis[r] < basis[leave] {
				ratio, leave = q, r
			}
		}
		if leave < 0 {
			if !fresh {
				refresh()
				fresh = true
				continue
			}
			if d[k] > -simplexNoiseCost {
				// Round-off on a column with no pivot: not a ray worth following.
				skip[enter] = true
				continue
			}
			return ErrUnbounded
		}
		if ratio <= 1e-12 {
			degenerate++
		} else {
			degenerate = 0
		}
		t.pivot(leave, k)
		fresh = false
		clear(skip)
	}
	return errors.New("dltbb: simplex iteration limit")
}

// rowCols records, per row of a tableau, the labels of its slack and artificial
// variables (-1 when it has none) and whether the row was negated to make its
// right-hand side nonnegative.
type rowCols struct {
	slack, art []int
	flip       []bool
}

// duals reads the row multipliers y of the original program off the reduced costs of
// the slack and artificial variables (artCost: the artificials' cost, 1 in phase
// one, 0 in phase two). A slack column of row r is e·s·unit_r in the tableau's
// constraint matrix (e = +1 for a ≤ row, −1 for a ≥ row; s = −1 when the row was
// negated), so its reduced cost is −e·s·π_r, and y_r = s·π_r; an artificial column is
// unit_r with reduced cost artCost − π_r. The signs of y are not forced here:
// DualBound clamps them.
func (t *tableau) duals(artCost float64) []float64 {
	c, rel := t.cols, t.lp.Rel
	y := make([]float64, len(rel))
	for r := range y {
		s := 1.0
		if c.flip[r] {
			s = -1
		}
		switch {
		case c.slack[r] >= 0:
			e := 1.0
			if rel[r] > 0 {
				e = -1
			}
			y[r] = -e * t.reduced(c.slack[r])
		case c.art[r] >= 0:
			y[r] = s * (artCost - t.reduced(c.art[r]))
		}
	}
	return y
}

// newTableau returns a tableau of mr rows for p whose nonbasic slots hold the labels
// of nonbasic (the rows' entries are left to the caller) among labels variables in
// all; every other label is basic. With pooled, the rows come from tableauBuffer.
func newTableau(p *LP, mr int, nonbasic []int, labels int, pooled bool) *tableau {
	width := len(nonbasic) + 1
	var buf []float64
	if pooled {
		buf = tableauBuffer(mr * width)
	} else {
		buf = make([]float64, mr*width)
	}
	t := &tableau{lp: p, tab: make([][]float64, mr), basis: make([]int, mr), label: nonbasic, slot: make([]int, labels),
		d: make([]float64, width), cols: rowCols{slack: make([]int, mr), art: make([]int, mr), flip: make([]bool, mr)}}
	if pooled {
		t.buf = buf
	}
	for r := range mr {
		t.tab[r] = buf[r*width : (r+1)*width : (r+1)*width]
	}
	for l := range t.slot {
		t.slot[l] = -1
	}
	for s, l := range nonbasic {
		t.slot[l] = s
	}
	t.order = make([]int, len(nonbasic))
	for s := range t.order {
		t.order[s] = s
	}
	slices.SortFunc(t.order, func(a, b int) int { return nonbasic[a] - nonbasic[b] })
	return t
}
