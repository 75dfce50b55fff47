package certify

import (
	"fmt"
	"math"
	"math/big"

	"github.com/schedopt/schedopt/model"
)

// Limits of the lattice argument: it works on dense rational matrices, so it is
// tried only on models of moderate size, and only on data whose decimal values are
// exact dyadic fractions (so that the rational model is the model the solvers see).
const (
	latticeMaxRows  = 400
	latticeMaxCols  = 400
	latticeMaxCoef  = 1e6     // larger magnitudes are left to the solvers
	latticeMaxDenom = 1 << 10 // coefficients must be multiples of 1/1024
)

// integerInfeasible looks for an exact proof that m has no point: the equality rows,
// with fixed columns substituted and continuous columns eliminated by exact rational
// Gaussian elimination, form a linear Diophantine system over the integer columns
// that has no integer solution (bounds and inequality rows are relaxed, so a proof
// for the relaxation holds for m). Solvability is decided with a Hermite normal form
// computed by unimodular column operations. It proves congruence infeasibility such
// as 6x + 10y + 14z = 7, which branch and bound without presolve can never finish
// over free integers.
//
// The argument is exact over the rationals, while solvers and model.Verify accept
// rows within a tolerance; the policy therefore uses it only to confirm a solver's
// infeasibility claim, never to make one, and only on data of small dyadic values
// (latticeMaxCoef, latticeMaxDenom), where an integer residual cannot hide within the
// tolerance. ok is false when no proof was found or the model is out of its scope.
func integerInfeasible(m *model.Model) (proof string, ok bool) {
	cols, rows := m.Columns(), m.Rows()
	n := m.NumVars()
	if m.NumIntegers() == 0 || n > latticeMaxCols || m.NumSemi() > 0 {
		// A semi column with lo = hi is 0 or lo, not fixed, and one with lo < hi has
		// a gap the lattice argument does not model: out of scope.
		return "", false
	}
	exact := func(v float64) bool {
		return math.Abs(v) <= latticeMaxCoef && v*latticeMaxDenom == math.Trunc(v*latticeMaxDenom)
	}
	// The equality rows as dense rational rows, fixed columns moved to the right.
	var a [][]*big.Rat
	var b []*big.Rat
	var names []string
	for i := range m.NumRows() {
		lo, hi := rows.Lower[i], rows.Upper[i]
		if lo != hi {
			continue
		}
		if len(a) == latticeMaxRows || !exact(lo) {
			return "", false
		}
		row := make([]*big.Rat, n)
		rhs := new(big.Rat).SetFloat64(lo)
		for k := rows.Start[i]; k < rows.Start[i+1]; k++ {
			j, v := rows.Index[k], rows.Value[k]
			if !exact(v) {
				return "", false
			}
			if cols.Lower[j] == cols.Upper[j] {
				if !exact(cols.Lower[j]) {
					return "", false
				}
				rhs.Sub(rhs, new(big.Rat).Mul(new(big.Rat).SetFloat64(v), new(big.Rat).SetFloat64(cols.Lower[j])))
				continue
			}
			row[j] = new(big.Rat).SetFloat64(v)
		}
		a, b = append(a, row), append(b, rhs)
		names = append(names, m.RowName(model.Row(i)))
	}
	if len(a) == 0 {
		return "", false
	}
	// Eliminate every continuous column with one row that holds it; that row then
	// only defines the column's value and is dropped.
	alive := make([]bool, len(a))
	for i := range alive {
		alive[i] = true
	}
	for j := range n {
		if cols.Kind[j].IsInteger() {
			continue
		}
		p := -1
		for i := range a {
			if alive[i] && a[i][j] != nil && a[i][j].Sign() != 0 {
				p = i
				break
			}
		}
		if p < 0 {
			continue
		}
		alive[p] = false
		for i := range a {
			if !alive[i] || a[i][j] == nil || a[i][j].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Quo(a[i][j], a[p][j])
			for k := range n {
				if a[p][k] == nil || a[p][k].Sign() == 0 {
					continue
				}
				if a[i][k] == nil {
					a[i][k] = new(big.Rat)
				}
				a[i][k].Sub(a[i][k], new(big.Rat).Mul(f, a[p][k]))
			}
			b[i].Sub(b[i], new(big.Rat).Mul(f, b[p]))
		}
	}
	// The rows left hold integer columns only: scale each to integers. A right-hand
	// side that does not become an integer already has no integer solution.
	var ints []int
	for j := range n {
		if cols.Kind[j].IsInteger() && cols.Lower[j] != cols.Upper[j] {
			ints = append(ints, j)
		}
	}
	var mat [][]*big.Int
	var rhs []*big.Int
	var rowNames []string
	for i := range a {
		if !alive[i] {
			continue
		}
		l := big.NewInt(1)
		for _, j := range ints {
			if a[i][j] != nil && a[i][j].Sign() != 0 {
				l = lcm(l, a[i][j].Denom())
			}
		}
		scaled := new(big.Rat).Mul(b[i], new(big.Rat).SetInt(l))
		if !scaled.IsInt() {
			return fmt.Sprintf("row %s (combined with the rows that fix the continuous columns) has integer coefficients times 1/%s but a right-hand side that is not a multiple of it", names[i], l), true
		}
		r := make([]*big.Int, len(ints))
		for k, j := range ints {
			r[k] = new(big.Int)
			if a[i][j] != nil {
				v := new(big.Rat).Mul(a[i][j], new(big.Rat).SetInt(l))
				r[k].Set(v.Num())
			}
		}
		mat, rhs = append(mat, r), append(rhs, new(big.Int).Set(scaled.Num()))
		rowNames = append(rowNames, names[i])
	}
	if row, ok := diophantineInfeasible(mat, rhs); ok {
		return fmt.Sprintf("the equality rows have no integer solution (Hermite normal form, first contradiction at row %s)", rowNames[row]), true
	}
	return "", false
}

// diophantineInfeasible decides whether the integer system mat·x = rhs has no
// integer solution x. Unimodular column operations (extended Euclid) bring mat to a
// lower echelon form L = mat·U; x = U·y is integral exactly when y is, so the system
// is solvable iff L·y = rhs is, which forward substitution decides. It returns the
// first row at which the substitution fails.
func diophantineInfeasible(mat [][]*big.Int, rhs []*big.Int) (row int, infeasible bool) {
	if len(mat) == 0 {
		return 0, false
	}
	n := len(mat[0])
	pivotOf := make([]int, len(mat)) // pivot column of each row, -1 for none
	p := 0
	for i := range mat {
		pivotOf[i] = -1
		if p == n {
			continue
		}
		for k := p + 1; k < n; k++ {
			if mat[i][k].Sign() == 0 {
				continue
			}
			if mat[i][p].Sign() == 0 {
				swapCols(mat, i, p, k)
				continue
			}
			// [col_p col_k] ← [col_p col_k]·[[s, −b/g], [t, a/g]] (determinant 1).
			a, b := new(big.Int).Set(mat[i][p]), new(big.Int).Set(mat[i][k])
			s, t := new(big.Int), new(big.Int)
			g := new(big.Int).GCD(s, t, a, b)
			ag, bg := new(big.Int).Quo(a, g), new(big.Int).Quo(b, g)
			for r := i; r < len(mat); r++ {
				x, y := mat[r][p], mat[r][k]
				np := new(big.Int).Add(new(big.Int).Mul(s, x), new(big.Int).Mul(t, y))
				nk := new(big.Int).Sub(new(big.Int).Mul(ag, y), new(big.Int).Mul(bg, x))
				mat[r][p], mat[r][k] = np, nk
			}
		}
		if mat[i][p].Sign() != 0 {
			pivotOf[i] = p
			p++
		}
	}
	y := make([]*big.Int, n)
	for i := range mat {
		v := new(big.Int).Set(rhs[i])
		for q := range n {
			if y[q] != nil && mat[i][q].Sign() != 0 {
				v.Sub(v, new(big.Int).Mul(mat[i][q], y[q]))
			}
		}
		pc := pivotOf[i]
		if pc < 0 {
			if v.Sign() != 0 {
				return i, true
			}
			continue
		}
		q, r := new(big.Int).QuoRem(v, mat[i][pc], new(big.Int))
		if r.Sign() != 0 {
			return i, true
		}
		y[pc] = q
	}
	return 0, false
}

// swapCols swaps columns p and k in the rows from i on (the rows above are zero in
// both).
func swapCols(mat [][]*big.Int, i, p, k int) {
	for r := i; r < len(mat); r++ {
		mat[r][p], mat[r][k] = mat[r][k], mat[r][p]
	}
}

func lcm(a, b *big.Int) *big.Int {
	g := new(big.Int).GCD(nil, nil, a, b)
	return new(big.Int).Mul(new(big.Int).Quo(a, g), b)
}
