package backendtest

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/schedopt/schedopt/model"
)

// maxEnumeration caps the number of points BruteForce visits.
const maxEnumeration = 1 << 22

// objTol is the tolerance, relative to max(1, |objective|), within which two
// objective values of the suite are considered equal.
const objTol = 1e-6

// BruteForce solves a pure-integer model with finite bounds by enumerating every
// integer point within the bounds (0 and the integers of [lo, hi] for a semi-integer
// column) and checking it with model.Verify. It returns
// feasible = false when no point satisfies the model. It is the independent oracle
// of the suite; it refuses models with continuous columns, infinite bounds or more
// than 2^22 points.
func BruteForce(m *model.Model) (best []float64, obj float64, feasible bool, err error) {
	n := m.NumVars()
	lo, hi := make([]float64, n), make([]float64, n)
	total := 1.0
	for j := range n {
		v := model.Var(j)
		if !m.VarKind(v).IsInteger() {
			return nil, 0, false, fmt.Errorf("backendtest: brute force: column %s is continuous", m.VarName(v))
		}
		l, h := m.Bounds(v)
		if math.IsInf(l, 0) || math.IsInf(h, 0) {
			return nil, 0, false, fmt.Errorf("backendtest: brute force: column %s is unbounded", m.VarName(v))
		}
		lo[j], hi[j] = math.Ceil(l), math.Floor(h)
		if m.VarKind(v).IsSemi() {
			// Enumerate from 0 over [0, hi]; Verify rejects the gap (0, lo).
			lo[j] = 0
		}
		if lo[j] > hi[j] {
			return nil, 0, false, nil
		}
		total *= hi[j] - lo[j] + 1
	}
	if total > maxEnumeration {
		return nil, 0, false, fmt.Errorf("backendtest: brute force: %g points", total)
	}
	x := append([]float64(nil), lo...)
	sign := float64(m.Sense())
	for {
		rep, err := m.Verify(x)
		if err != nil {
			return nil, 0, false, err
		}
		if rep.MaxBound == 0 && rep.MaxRow <= 1e-9 && (!feasible || sign*rep.Objective < sign*obj) {
			feasible, obj = true, rep.Objective
			best = append(best[:0], x...)
		}
		j := 0
		for ; j < n; j++ {
			if x[j] < hi[j] {
				x[j]++
				break
			}
			x[j] = lo[j]
		}
		if j == n {
			return best, obj, feasible, nil
		}
	}
}

// RandomMILP returns a random pure-integer model with n columns (bounds within
// [-2, 3], some binary), up to n rows of every kind (≤, ≥, =, ranges) with small
// integer coefficients, a random sense and an objective constant. Its optimum is
// checkable with BruteForce for n up to about 12.
func RandomMILP(rng *rand.Rand, n int) *model.Model {
	m := model.New(fmt.Sprintf("random-%d", n))
	vars := make([]model.Var, n)
	for j := range vars {
		if rng.IntN(3) == 0 {
			vars[j] = m.AddBinary("")
			continue
		}
		lo := float64(rng.IntN(4) - 2)
		hi := lo + float64(rng.IntN(4))
		vars[j] = m.AddInteger(lo, hi, "")
	}
	nrows := 1 + rng.IntN(n)
	var e model.Expr
	for r := range nrows {
		e.Reset()
		mid := 0.0 // activity at the middle of the box, to keep rows relevant
		for j, v := range vars {
			if rng.IntN(3) == 0 {
				continue
			}
			c := float64(rng.IntN(9) - 4)
			e.Add(vars[j], c)
			lo, hi := m.Bounds(v)
			mid += c * (lo + hi) / 2
		}
		rhs := math.Round(mid) + float64(rng.IntN(5)-2)
		name := fmt.Sprintf("r%d", r)
		switch rng.IntN(4) {
		case 0:
			m.AddConstr(e, model.LE, rhs, name)
		case 1:
			m.AddConstr(e, model.GE, rhs, name)
		case 2:
			m.AddConstr(e, model.EQ, rhs, name)
		default:
			m.AddRange(e, rhs-float64(rng.IntN(3)), rhs+float64(rng.IntN(3)), name)
		}
	}
	e.Reset()
	for _, v := range vars {
		e.Add(v, float64(rng.IntN(21)-10))
	}
	e.AddConst(float64(rng.IntN(11) - 5))
	sense := model.Minimize
	if rng.IntN(2) == 0 {
		sense = model.Maximize
	}
	m.SetObjective(sense, e)
	return m
}

// MarketSplit returns a Cornuéjols–Dawande market split instance in its
// optimisation form, with rows rows and 10·(rows−1) binaries: minimise the total
// slack Σ_i (s⁺_i + s⁻_i) subject to Σ_j a_ij x_j + s⁺_i − s⁻_i = ⌊Σ_j a_ij / 2⌋, a_ij
// uniform in [0, 99]. Feasible points are trivial (any x), but the LP bound is 0 and
// a zero-slack point rarely exists, so branch and bound can neither close the gap nor
// stop early: the suite's model for time limits and interrupts with an incumbent.
func MarketSplit(rng *rand.Rand, rows int) *model.Model {
	n := 10 * (rows - 1)
	m := model.New(fmt.Sprintf("market-split-%d", rows))
	x := make([]model.Var, n)
	for j := range x {
		x[j] = m.AddBinary("")
	}
	var e, obj model.Expr
	for i := range rows {
		e.Reset()
		sum := 0.0
		for j := range x {
			a := float64(rng.IntN(100))
			e.Add(x[j], a)
			sum += a
		}
		plus := m.AddContinuous(0, sum, fmt.Sprintf("s+%d", i))
		minus := m.AddContinuous(0, sum, fmt.Sprintf("s-%d", i))
		e.Add(plus, 1).Add(minus, -1)
		obj.Add(plus, 1).Add(minus, 1)
		m.AddConstr(e, model.EQ, math.Floor(sum/2), fmt.Sprintf("split%d", i))
	}
	m.SetObjective(model.Minimize, obj)
	return m
}

// closeTo reports whether a and b agree within objTol relative to max(1, |b|).
func closeTo(a, b float64) bool { return math.Abs(a-b) <= objTol*math.Max(1, math.Abs(b)) }

// RandomMixed returns a random bounded mixed-integer model: like RandomMILP, but about
// a third of the columns are continuous with fractional bounds, and coefficients are
// halves. It has no brute-force oracle; cross-backend tests compare solvers on it.
func RandomMixed(rng *rand.Rand, n int) *model.Model {
	m := model.New(fmt.Sprintf("mixed-%d", n))
	vars := make([]model.Var, n)
	for j := range vars {
		lo := float64(rng.IntN(7)-3) / 2
		hi := lo + float64(rng.IntN(8))/2
		switch rng.IntN(3) {
		case 0:
			vars[j] = m.AddContinuous(lo, hi, "")
		case 1:
			vars[j] = m.AddBinary("")
		default:
			vars[j] = m.AddInteger(math.Floor(lo), math.Ceil(hi), "")
		}
	}
	var e model.Expr
	for r := range 1 + rng.IntN(n+1) {
		e.Reset()
		mid := 0.0
		for _, v := range vars {
			if rng.IntN(2) == 0 {
				continue
			}
			c := float64(rng.IntN(13)-6) / 2
			e.Add(v, c)
			lo, hi := m.Bounds(v)
			mid += c * (lo + hi) / 2
		}
		rhs := math.Round(mid*2)/2 + float64(rng.IntN(5)-2)/2
		switch rng.IntN(4) {
		case 0:
			m.AddConstr(e, model.LE, rhs, fmt.Sprintf("r%d", r))
		case 1:
			m.AddConstr(e, model.GE, rhs, fmt.Sprintf("r%d", r))
		case 2:
			m.AddConstr(e, model.EQ, rhs, fmt.Sprintf("r%d", r))
		default:
			m.AddRange(e, rhs-float64(rng.IntN(3)), rhs+float64(rng.IntN(3)), fmt.Sprintf("r%d", r))
		}
	}
	e.Reset()
	for _, v := range vars {
		e.Add(v, float64(rng.IntN(21)-10)/2)
	}
	e.AddConst(float64(rng.IntN(11) - 5))
	sense := model.Minimize
	if rng.IntN(2) == 0 {
		sense = model.Maximize
	}
	m.SetObjective(sense, e)
	return m
}

// BenchModel returns a model with rows rows of perRow nonzeros each over cols binary
// columns (column indices spread with a fixed stride), ≤ rows with unit right-hand
// sides and a cost on every column: rows·perRow nonzeros in total. It measures model
// build and hand-off speed; it is not meant to be solved.
func BenchModel(rows, cols, perRow int) *model.Model {
	m := model.New("bench")
	m.Grow(cols, rows, rows*perRow)
	x := make([]model.Var, cols)
	var e model.Expr
	for j := range x {
		x[j] = m.AddBinary("")
		e.Add(x[j], float64(1+j%7))
	}
	m.SetObjective(model.Maximize, e)
	stride := cols / perRow
	if stride == 0 {
		stride = 1
	}
	for r := range rows {
		e.Reset()
		for k := range perRow {
			e.Add(x[(r+k*stride)%cols], float64(1+(r+k)%5))
		}
		m.AddConstr(e, model.LE, 1, "")
	}
	return m
}

// RandomSemi returns a random pure-integer model with n columns, about half of them
// semi-integer (0 or an integer in [l, u], 1 <= l <= u <= 5) and the rest integer in
// [-2, 3], with up to n rows of small integer coefficients. BruteForce checks it.
func RandomSemi(rng *rand.Rand, n int) *model.Model {
	m := model.New(fmt.Sprintf("random-semi-%d", n))
	for j := range n {
		if j%2 == 0 || rng.IntN(3) == 0 {
			l := float64(1 + rng.IntN(3))
			m.AddSemiInteger(l, l+float64(rng.IntN(3)), fmt.Sprintf("s%d", j))
			continue
		}
		m.AddInteger(float64(-rng.IntN(3)), float64(rng.IntN(4)), fmt.Sprintf("x%d", j))
	}
	var e model.Expr
	for i := range 1 + rng.IntN(n) {
		e.Reset()
		for j := range n {
			if rng.IntN(2) == 0 {
				e.Add(model.Var(j), float64(rng.IntN(7)-3))
			}
		}
		b := float64(rng.IntN(9) - 2)
		switch rng.IntN(3) {
		case 0:
			m.AddConstr(e, model.LE, b, fmt.Sprintf("r%d", i))
		case 1:
			m.AddConstr(e, model.GE, b, fmt.Sprintf("r%d", i))
		default:
			m.AddRange(e, b-2, b+1, fmt.Sprintf("r%d", i))
		}
	}
	e.Reset()
	for j := range n {
		e.Add(model.Var(j), float64(rng.IntN(9)-4))
	}
	sense := model.Minimize
	if rng.IntN(2) == 0 {
		sense = model.Maximize
	}
	m.SetObjective(sense, e)
	return m
}
