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

// Simplex is an LPSolver: a dense two-phase primal simplex that keeps the reduced
// costs in the tableau and prices by Dantzig's rule (largest decrease per unit),
// falling back to Bland's rule after a run of degenerate pivots. The node LPs have a
// few dozen rows and columns; it is several times faster on them than a simplex that
// recomputes the prices and always uses Bland's rule. The returned point is re-checked
// against every original row; when that fails (or the pivoting does), the program is
// solved again after equilibrating its rows and columns.
func Simplex(p *LP) ([]float64, float64, error) {
	x, obj, err := simplex(p)
	if err == nil {
		if err = checkRows(p, x); err == nil {
			return x, obj, nil
		}
	}
	// A second opinion on an infeasibility claim as on any failure: a wrong claim
	// would prune a subtree.
	return scaledSimplex(p)
}

// scaledSimplex is Simplex on the equilibrated program, its second try.
func scaledSimplex(p *LP) ([]float64, float64, error) {
	// Equilibrate: rows to a largest entry of 1, then columns likewise. The node LPs
	// mix times (1e2), rates (1e-3) and b_2 (1e4) in one column.
	n, mr := len(p.C), len(p.Rows)
	q := &LP{C: make([]float64, n), Rows: make([][]float64, mr), Rel: p.Rel, B: make([]float64, mr)}
	colScale := make([]float64, n)
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
	y, _, err := simplex(q)
	if err != nil {
		return nil, 0, err
	}
	x := make([]float64, n)
	for k := range x {
		x[k] = y[k] * colScale[k]
	}
	if err := checkRows(p, x); err != nil {
		return nil, 0, err
	}
	obj := 0.0
	for k := range n {
		obj += p.C[k] * x[k]
	}
	return x, obj, nil
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
func simplex(p *LP) ([]float64, float64, error) {
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
	width := art + nArt + 1
	rhs := width - 1
	tab := make([][]float64, mr)
	basis := make([]int, mr)
	bScale := 1.0
	si, ai := 0, 0
	for r := range mr {
		row := make([]float64, width)
		copy(row, p.Rows[r])
		b := p.B[r]
		slack := -1
		if p.Rel[r] != eq {
			slack = n + si
			si++
			if p.Rel[r] < 0 {
				row[slack] = 1
			} else {
				row[slack] = -1
			}
		}
		// Rows a·x >= b with b <= 0 (and a·x <= b with b >= 0) hold at x = 0: negated
		// where needed, their slack starts basic and they need no artificial.
		if b < 0 || b == 0 && p.Rel[r] > 0 {
			for k := range art {
				row[k] = -row[k]
			}
			b = -b
		}
		row[rhs] = b
		bScale = math.Max(bScale, b)
		if needs[r] {
			row[art+ai] = 1
			basis[r] = art + ai
			ai++
		} else {
			basis[r] = slack
		}
		tab[r] = row
	}
	// Phase one: minimise the sum of the artificials; d holds the reduced costs and,
	// in d[rhs], minus the objective.
	d := make([]float64, width)
	for r := range mr {
		if basis[r] >= art {
			for k := range art {
				d[k] -= tab[r][k]
			}
			d[rhs] -= tab[r][rhs]
		}
	}
	cost1 := make([]float64, width-1)
	for k := art; k < width-1; k++ {
		cost1[k] = 1
	}
	if err := primal(tab, basis, d, cost1, art, width); err != nil {
		return nil, 0, err
	}
	// The phase-one objective, summed from the artificials still basic (the running
	// value in d[rhs] carries the round-off of every pivot).
	infeas := 0.0
	for r := range mr {
		if basis[r] >= art {
			infeas += tab[r][rhs]
		}
	}
	if infeas > simplexFeasTol*bScale {
		return nil, 0, ErrInfeasible
	}
	// Drive zero artificials out of the basis where a structural pivot exists.
	for r := range mr {
		if basis[r] < art {
			continue
		}
		for k := range art {
			if math.Abs(tab[r][k]) > simplexPivotTol {
				pivotRow(tab, d, basis, r, k)
				break
			}
		}
	}
	// Phase two: the reduced costs of c in the current basis.
	for k := range d {
		d[k] = 0
	}
	copy(d, p.C)
	for r := range mr {
		if cb := cost(p.C, basis[r]); cb != 0 {
			for k := range width {
				d[k] -= cb * tab[r][k]
			}
		}
	}
	if err := primal(tab, basis, d, p.C, art, art); err != nil {
		return nil, 0, err
	}
	x := make([]float64, n)
	for r := range mr {
		if basis[r] < n {
			x[basis[r]] = math.Max(tab[r][rhs], 0)
		}
	}
	obj := 0.0
	for k := range n {
		obj += p.C[k] * x[k]
	}
	return x, obj, nil
}

func cost(c []float64, k int) float64 {
	if k < len(c) {
		return c[k]
	}
	return 0
}

// primal pivots until no column below limit has a negative reduced cost. Basic
// columns >= block (the artificials, in phase two) must stay at zero. d holds the
// reduced costs of cost, updated by every pivot; before it declares optimality (or
// follows a ray) it recomputes them from the tableau, so that round-off carried in d
// can neither stop it early nor send it after a false ray.
func primal(tab [][]float64, basis []int, d, cost []float64, limit, block int) error {
	rhs := len(d) - 1
	refresh := func() {
		for k := range d {
			v := 0.0
			if k < len(cost) {
				v = cost[k]
			}
			for r, row := range tab {
				if b := basis[r]; b < len(cost) && cost[b] != 0 {
					v -= cost[b] * row[k]
				}
			}
			d[k] = v
		}
		for r := range tab {
			d[basis[r]] = 0
		}
	}
	skip := make([]bool, limit)
	fresh := false
	degenerate := 0
	for iter := 0; iter < 50000; iter++ {
		enter := -1
		if degenerate < blandAfter {
			best := -simplexCostTol
			for k := range limit {
				if !skip[k] && d[k] < best {
					best, enter = d[k], k
				}
			}
		} else {
			for k := range limit {
				if !skip[k] && d[k] < -simplexCostTol {
					enter = k
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
		leave := -1
		ratio := math.Inf(1)
		for r, row := range tab {
			a := row[enter]
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
			if d[enter] > -simplexNoiseCost {
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
		pivotRow(tab, d, basis, leave, enter)
		fresh = false
		clear(skip)
	}
	return errors.New("dltbb: simplex iteration limit")
}

// pivotRow makes column k basic in row r, updating the reduced costs d.
func pivotRow(tab [][]float64, d []float64, basis []int, r, k int) {
	pr := tab[r]
	inv := 1 / pr[k]
	for j := range pr {
		pr[j] *= inv
	}
	pr[k] = 1
	for i, row := range tab {
		if i == r {
			continue
		}
		if f := row[k]; f != 0 {
			for j, v := range pr {
				if v != 0 {
					row[j] -= f * v
				}
			}
			row[k] = 0
		}
	}
	if f := d[k]; f != 0 {
		for j, v := range pr {
			if v != 0 {
				d[j] -= f * v
			}
		}
		d[k] = 0
	}
	basis[r] = k
}

// SimplexBoth is an LPSolver that runs Simplex's two tries, on the program as given
// and equilibrated, and returns the lower of the objectives that pass the row check.
// On min-energy node LPs (objective coefficients in the hundreds next to the rows'
// 1e-3 rates) the unscaled tableau was seen to stop 4 % above the optimum with
// reduced costs that looked optimal; the equilibrated one found it. A value too high
// would prune wrongly, so the search for min-energy takes the lower of both.
func SimplexBoth(p *LP) ([]float64, float64, error) {
	x1, o1, e1 := simplex(p)
	if e1 == nil {
		e1 = checkRows(p, x1)
	}
	x2, o2, e2 := scaledSimplex(p)
	switch {
	case e1 == nil && (e2 != nil || o1 <= o2):
		return x1, o1, nil
	case e2 == nil:
		return x2, o2, nil
	}
	return nil, 0, e2
}
