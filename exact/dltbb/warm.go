package dltbb

import (
	"math"
	"slices"
	"sync"
)

// Warm starts between the LPs of one node.
//
// A node LP is solved several times in a row (search.solveCounted): each round adds
// the sequencing and link-and-tail cuts its point violates and solves again. Its
// load bounds (tightenLoads) are one LP per machine over the same rows with another
// objective. Solved from scratch, each of these took the two-phase simplex some 74
// pivots on 70 rows. But the next round's program is the previous one with rows
// added, so the previous optimal basis stays dual feasible: the new rows are
// expressed in that basis, their slacks enter it (possibly negative), and the dual
// simplex restores primal feasibility. The next load-bound LP has the same rows, so
// the previous basis stays primal feasible and the primal simplex goes on from it.
// On the first 400 nodes of generator seed 24 (m = 10), 21,090 of the 30,948 LPs
// start warm, at 3.2 pivots each.
//
// Nothing here is trusted more than a cold solve: the point is checked against every
// row, and the objective is certified by DualBound as before (SimplexDual, and again
// by the search's caller). Whenever the warm start does not apply or fails (rows
// removed or changed, an artificial left in the basis, a new equality, the dual
// simplex stalling or finding the new rows infeasible, a point that misses a row),
// the program is solved from scratch, so the answers are those of the cold path at
// worst.

// warmStart carries a node's last tableau from one LP to the next. The search sets
// the same warmStart on every round's LP (LP.warm), and another on the node's
// load-bound LPs; SimplexDual reads the previous tableau from it and leaves its own
// there. It belongs to one node's LPs and so to one goroutine.
type warmStart struct {
	last *tableau
}

// rowScale returns the factor that takes row to a largest entry of 1 (1 for a zero
// row). The dual simplex leaves the row whose basic variable is most negative, and
// scaled rows compare their infeasibilities on one scale: a row of b_2 terms (1e1 s
// per message) no longer outweighs the rest. On 2,000 nodes of generator seeds 50
// and 63 (m = 10) the node LPs solved from the slack basis took 6 and 12 % fewer
// pivots.
func rowScale(row []float64) float64 {
	big := 0.0
	for _, a := range row {
		// Not math.Max, which is a call on amd64: this loop runs over every row of
		// every node LP solved from scratch.
		if a = math.Abs(a); a > big {
			big = a
		}
	}
	if big == 0 {
		return 1
	}
	return 1 / big
}

// scaleRow multiplies row, a tableau row built from the program's row a, by
// rowScale(a) and returns that factor (for tableau.scale).
func scaleRow(row, a []float64) float64 {
	rs := rowScale(a)
	for c := range row {
		row[c] *= rs
	}
	return rs
}

// floatArrays recycles the float arrays of the search's LPs: the blocks node-LP rows
// are cut from (buildWith, nodeLP.release) and the rows of the tableaus dualStart
// builds (warmStart.release). Allocating and collecting them was a tenth of the
// search's time for the tableaus, and half its allocated bytes for the rows.
var floatArrays sync.Pool

// minFloatArray is the smallest array floatArray hands out: one holds every row of
// an m = 10 node LP, or its compact tableau, so that arrays serve either use.
const minFloatArray = 4096

// floatArray returns an array of at least n (and minFloatArray) floats, not zeroed,
// recycled when one is at hand.
func floatArray(n int) *[]float64 {
	if b, ok := floatArrays.Get().(*[]float64); ok && cap(*b) >= n {
		*b = (*b)[:cap(*b)]
		return b
	}
	b := make([]float64, max(n, minFloatArray))
	return &b
}

// tableauBuffer returns a zeroed array of n floats, recycled when one is at hand.
func tableauBuffer(n int) []float64 {
	buf := (*floatArray(n))[:n]
	clear(buf)
	return buf
}

// release hands the last tableau's array back for reuse: the node's LPs are done,
// and nothing else refers to it (solution copies what it returns).
func (w *warmStart) release() {
	if w.last != nil {
		w.last.release()
	}
	w.last = nil
}

// release hands t's pooled rows (if any) back for reuse; t is not used afterwards.
func (t *tableau) release() {
	if t.buf != nil {
		buf := t.buf
		floatArrays.Put(&buf)
		t.buf = nil
	}
}

// solution reads the point, its objective and the row multipliers off t.
func (t *tableau) solution() LPSolution {
	p := t.lp
	n, rhs := len(p.C), len(t.d)-1
	x := make([]float64, n)
	for r, b := range t.basis {
		if b < n {
			x[b] = max(t.tab[r][rhs], 0)
		}
	}
	obj := 0.0
	for k := range n {
		obj += p.C[k] * x[k]
	}
	return LPSolution{X: x, Obj: obj, Y: t.multipliers()}
}

// multipliers returns the row multipliers of t's basis for the rows of its program
// (the rows' scales undone).
func (t *tableau) multipliers() []float64 {
	y := t.duals(0)
	if t.scale != nil {
		for r := range y {
			y[r] *= t.scale[r]
		}
	}
	return y
}

// maxDualPivots bounds one run of the dual simplex (a warm start's or dualStart's);
// beyond it the program is solved by the two-phase primal simplex.
const maxDualPivots = 500

// extend turns t, in place, into the optimal tableau of p and reports whether that
// worked (t is spoiled either way: it belongs to the previous round). p must have t's
// columns and either t's objective and every row of t's program (in any order,
// matched by coefficients, relation and right-hand side) and more inequalities, or
// exactly t's rows and another objective. New rows are expressed in the basis and
// repaired by the dual simplex; a new objective gets its reduced costs recomputed
// and the primal simplex goes on from the (still feasible) basis. New rows leave the
// width of the compact tableau as it is: their slacks are basic.
func (t *tableau) extend(p *LP) bool {
	old := t.lp
	if len(p.C) != len(old.C) || len(p.Rows) < len(old.Rows) {
		return false
	}
	for _, b := range t.basis {
		if b >= t.art {
			return false // an artificial at zero would have to stay there
		}
	}
	sameC := slices.Equal(p.C, old.C)
	match, ok := matchRows(old, p)
	k := len(p.Rows) - len(old.Rows) // new rows, each with a new slack, basic
	if !ok || !sameC && k > 0 {
		return false
	}
	for r, o := range match {
		if o < 0 && p.Rel[r] == eq {
			return false
		}
	}
	if k == 0 && identity(match) {
		// The same rows in the same order (the load-bound LPs of a node, one
		// objective after another): the tableau stays as it is.
		t.lp = p
		return t.reoptimize(p, sameC)
	}
	// The new slacks are labelled after the old ones; the artificials move up by k.
	oldArt := t.art
	art := oldArt + k
	if k > 0 {
		for s, l := range t.label {
			if l >= oldArt {
				t.label[s] = l + k
			}
		}
		slot := make([]int, len(t.slot)+k)
		copy(slot, t.slot[:oldArt])
		for l := oldArt; l < art; l++ {
			slot[l] = -1
		}
		copy(slot[art:], t.slot[oldArt:])
		t.slot = slot
	}
	tab, basis := t.tab, t.basis
	cols, scale := t.cols, t.scale
	if scale != nil {
		t.scale = make([]float64, len(p.Rows))
	}
	t.tab, t.basis, t.art, t.lp = make([][]float64, len(p.Rows)), make([]int, len(p.Rows)), art, p
	t.cols = rowCols{slack: make([]int, len(p.Rows)), art: make([]int, len(p.Rows)), flip: make([]bool, len(p.Rows))}
	var fresh []int // rows of p that are new
	for r, o := range match {
		if o < 0 {
			fresh = append(fresh, r)
			continue
		}
		t.tab[r], t.basis[r] = tab[o], basis[o]
		if scale != nil {
			t.scale[r] = scale[o]
		}
		t.cols.slack[r], t.cols.flip[r], t.cols.art[r] = cols.slack[o], cols.flip[o], cols.art[o]
		if a := cols.art[o]; a >= 0 {
			t.cols.art[r] = a + k
		}
	}
	n := len(p.C)
	width := len(t.d)
	rhs := width - 1
	a := make([]float64, n+1) // the new row, scaled and signed, then its rhs
	for j, r := range fresh {
		slack := oldArt + j
		copy(a, p.Rows[r])
		a[n] = p.B[r]
		if scale != nil {
			t.scale[r] = scaleRow(a, p.Rows[r])
		}
		if p.Rel[r] > 0 {
			// a·x − s = b, negated so that s enters the basis with coefficient 1.
			for c := range a {
				a[c] = -a[c]
			}
			t.cols.flip[r] = true
		}
		row := make([]float64, width)
		for c := range n {
			if s := t.slot[c]; s >= 0 {
				row[s] = a[c]
			}
		}
		row[rhs] = a[n]
		// Express the row in the basis: subtract the basic rows of its structural
		// entries (one pass: a basic column is zero in every other basic row).
		for o, b := range t.basis {
			if match[o] < 0 || b >= n {
				continue
			}
			if f := a[b]; f != 0 {
				for c, v := range t.tab[o] {
					if v != 0 {
						row[c] -= f * v
					}
				}
			}
		}
		t.tab[r], t.basis[r] = row, slack
		t.cols.slack[r], t.cols.art[r] = slack, -1
	}
	return t.reoptimize(p, sameC)
}

// reoptimize is the end of extend, once t holds p's rows: with p's objective
// (sameC), the dual simplex repairs the new rows; with a new one, its reduced costs
// are computed; the primal simplex then goes on to the optimum.
func (t *tableau) reoptimize(p *LP, sameC bool) bool {
	if !sameC {
		t.reducedCosts(p.C) // the new objective's, in the current basis
	} else {
		switch t.dual(p, p.cutoff()) { // d holds the reduced costs of p's own objective
		case dualFailed:
			return false
		case dualCut:
			return true
		}
	}
	return t.primal(p.C, t.art, t.art) == nil
}

// identity reports whether match maps every row to itself.
func identity(match []int) bool {
	for r, o := range match {
		if r != o {
			return false
		}
	}
	return true
}

// matchRows maps each row of p to the row of old it repeats exactly (-1 for a new
// row), and reports whether every row of old was matched. The rounds of a node keep
// their rows in order and insert the new ones among them, so a walk through both in
// order matches them; when it does not, they are matched by content.
func matchRows(old, p *LP) ([]int, bool) {
	same := func(r, o int) bool {
		if p.Rel[r] != old.Rel[o] || p.B[r] != old.B[o] {
			return false
		}
		a, b := p.Rows[r], old.Rows[o]
		// The rounds and load-bound LPs of a node share their rows' arrays: the same
		// array is the same row, without comparing its entries.
		return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0]) || slices.Equal(a, b)
	}
	match := make([]int, len(p.Rows))
	o := 0
	for r := range p.Rows {
		match[r] = -1
		if o < len(old.Rows) && same(r, o) {
			match[r] = o
			o++
		}
	}
	if o == len(old.Rows) {
		return match, true
	}
	// By content: a hash of each row, checked by comparison.
	key := func(q *LP, r int) uint64 {
		h := uint64(q.Rel[r]+2)*0x9e3779b97f4a7c15 ^ math.Float64bits(q.B[r])
		for _, a := range q.Rows[r] {
			h = (h ^ math.Float64bits(a)) * 0x100000001b3
		}
		return h
	}
	byKey := make(map[uint64][]int, len(old.Rows))
	for o := range old.Rows {
		kk := key(old, o)
		byKey[kk] = append(byKey[kk], o)
	}
	matched := 0
	for r := range p.Rows {
		match[r] = -1
		kk := key(p, r)
		for i, o := range byKey[kk] {
			if same(r, o) {
				match[r] = o
				byKey[kk] = slices.Delete(byKey[kk], i, i+1)
				matched++
				break
			}
		}
	}
	return match, matched == len(old.Rows)
}
