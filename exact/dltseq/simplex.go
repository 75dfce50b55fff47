package dltseq

import (
	"errors"
	"math"
)

// Errors of the simplex.
var (
	ErrInfeasible = errors.New("dltseq: linear program is infeasible")
	ErrUnbounded  = errors.New("dltseq: linear program is unbounded")
)

// pivotTol is the smallest pivot magnitude accepted; smaller entries count as zero.
const pivotTol = 1e-9

// feasTol is the phase-one objective above which the program is declared infeasible,
// relative to the size of the right-hand side.
const feasTol = 1e-9

// rowTol is the largest violation of an original row accepted in the final point,
// relative to Σ|a_k·x_k| + |b| of the row; a larger one means phase one accepted a
// point of an (almost) infeasible program, which is then reported infeasible.
const rowTol = 1e-8

// relation of an LP row.
type relation int8

const (
	le relation = iota
	ge
	eq
)

// lp is min c·x subject to rows a_r·x (rel) b_r and x >= 0, dense.
type lp struct {
	c    []float64
	rows [][]float64
	rel  []relation
	b    []float64
}

func (p *lp) add(a []float64, r relation, b float64) {
	p.rows = append(p.rows, a)
	p.rel = append(p.rel, r)
	p.b = append(p.b, b)
}

// solve returns an optimal x and the objective with a two-phase tableau simplex
// using Bland's rule (no cycling).
func (p *lp) solve() ([]float64, float64, error) {
	n := len(p.c)
	mRows := len(p.rows)
	// Columns: n structural, then one slack/surplus per inequality, then artificials.
	nSlack := 0
	for _, r := range p.rel {
		if r != eq {
			nSlack++
		}
	}
	width := n + nSlack + mRows + 1 // + rhs
	tab := make([][]float64, mRows)
	basis := make([]int, mRows)
	art := n + nSlack
	bScale := 1.0
	si := 0
	for r := range mRows {
		row := make([]float64, width)
		copy(row, p.rows[r])
		rhs := p.b[r]
		rel := p.rel[r]
		slackCol := -1
		if rel != eq {
			slackCol = n + si
			si++
			if rel == le {
				row[slackCol] = 1
			} else {
				row[slackCol] = -1
			}
		}
		if rhs < 0 {
			for k := range row {
				row[k] = -row[k]
			}
			rhs = -rhs
		}
		bScale = math.Max(bScale, rhs)
		row[width-1] = rhs
		if slackCol >= 0 && row[slackCol] > 0 {
			basis[r] = slackCol
		} else {
			row[art+r] = 1
			basis[r] = art + r
		}
		tab[r] = row
	}
	orig := make([][]float64, mRows)
	for r := range tab {
		orig[r] = append([]float64(nil), tab[r]...)
	}
	// Phase one: minimise the sum of artificials in the basis.
	cost1 := make([]float64, width-1)
	for r := range mRows {
		if basis[r] >= art {
			cost1[basis[r]] = 1
		}
	}
	if err := iterate(tab, basis, cost1, width-1, width); err != nil {
		return nil, 0, err
	}
	infeas := 0.0
	for r := range mRows {
		if basis[r] >= art {
			infeas += tab[r][width-1]
		}
	}
	if infeas > feasTol*bScale {
		return nil, 0, ErrInfeasible
	}
	// Drive remaining (zero) artificials out of the basis where possible.
	for r := range mRows {
		if basis[r] < art {
			continue
		}
		for k := 0; k < art; k++ {
			if math.Abs(tab[r][k]) > pivotTol {
				pivot(tab, basis, r, k)
				break
			}
		}
	}
	// Phase two on the structural and slack columns only.
	cost2 := make([]float64, width-1)
	copy(cost2, p.c)
	if err := iterate(tab, basis, cost2, art, art); err != nil {
		return nil, 0, err
	}
	// Recompute the basic solution from the original rows (B·x_B = b by Gaussian
	// elimination with partial pivoting): the tableau accumulates round-off over the
	// pivots, which matters for the energy rows with coefficients near 1e5.
	xb := refine(orig, basis)

	x := make([]float64, n)
	for r := range mRows {
		v := tab[r][width-1]
		if xb != nil {
			v = math.Max(xb[r], 0)
		}
		if basis[r] < n {
			x[basis[r]] = v
		}
	}
	for r, row := range p.rows {
		act, scale := 0.0, math.Abs(p.b[r])
		for k, a := range row {
			act += a * x[k]
			scale += math.Abs(a * x[k])
		}
		viol := 0.0
		switch p.rel[r] {
		case le:
			viol = act - p.b[r]
		case ge:
			viol = p.b[r] - act
		case eq:
			viol = math.Abs(act - p.b[r])
		}
		if viol > rowTol*math.Max(1, scale) {
			return nil, 0, ErrInfeasible
		}
	}
	obj := 0.0
	for k := range n {
		obj += p.c[k] * x[k]
	}
	return x, obj, nil
}

// iterate runs the primal simplex on the tableau with costs cost, allowing entering
// columns < limit, until optimal. Basic columns >= art are artificials left at zero
// after phase one: any nonzero entry in their row blocks the step (ratio 0), so they
// never leave zero and the rows they stand for stay satisfied.
func iterate(tab [][]float64, basis []int, cost []float64, limit, art int) error {
	w := len(tab[0])
	for iter := 0; iter < 100000; iter++ {
		// Reduced costs d_k = c_k − c_B·column_k; Bland: the first k with d_k < 0.
		enter := -1
		for k := range limit {
			d := cost[k]
			for r := range tab {
				d -= cost[basis[r]] * tab[r][k]
			}
			if d < -pivotTol*math.Max(1, math.Abs(cost[k])) {
				enter = k
				break
			}
		}
		if enter < 0 {
			return nil
		}
		leave := -1
		best := math.Inf(1)
		for r := range tab {
			a := tab[r][enter]
			if basis[r] >= art && math.Abs(a) > pivotTol {
				if best > 0 || leave < 0 {
					best, leave = 0, r
				}
				continue
			}
			if a > pivotTol {
				ratio := tab[r][w-1] / a
				if ratio < best-1e-12 || (math.Abs(ratio-best) <= 1e-12 && basis[r] < basis[leave]) {
					best, leave = ratio, r
				}
			}
		}
		if leave < 0 {
			return ErrUnbounded
		}
		pivot(tab, basis, leave, enter)
	}
	return errors.New("dltseq: simplex iteration limit")
}

func pivot(tab [][]float64, basis []int, r, k int) {
	pr := tab[r]
	inv := 1 / pr[k]
	for c := range pr {
		pr[c] *= inv
	}
	pr[k] = 1
	for rr := range tab {
		if rr == r {
			continue
		}
		f := tab[rr][k]
		if f == 0 {
			continue
		}
		row := tab[rr]
		for c := range row {
			row[c] -= f * pr[c]
		}
		row[k] = 0
	}
	basis[r] = k
}

// refine solves B·x_B = b for the basis columns of the original standard-form rows,
// or returns nil when B is numerically singular.
func refine(orig [][]float64, basis []int) []float64 {
	m := len(orig)
	if m == 0 {
		return nil
	}
	w := len(orig[0])
	a := make([][]float64, m)
	for r := range m {
		a[r] = make([]float64, m+1)
		for k, col := range basis {
			a[r][k] = orig[r][col]
		}
		a[r][m] = orig[r][w-1]
	}
	for c := range m {
		p := c
		for r := c + 1; r < m; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if math.Abs(a[p][c]) < 1e-12 {
			return nil
		}
		a[c], a[p] = a[p], a[c]
		for r := c + 1; r < m; r++ {
			f := a[r][c] / a[c][c]
			if f == 0 {
				continue
			}
			for k := c; k <= m; k++ {
				a[r][k] -= f * a[c][k]
			}
		}
	}
	x := make([]float64, m)
	for c := m - 1; c >= 0; c-- {
		s := a[c][m]
		for k := c + 1; k < m; k++ {
			s -= a[c][k] * x[k]
		}
		x[c] = s / a[c][c]
	}
	return x
}
