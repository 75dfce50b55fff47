package dltseq

// LP is min C·x subject to Rows[r]·x (≤ when Rel[r] < 0, = when Rel[r] == 0, ≥ when
// Rel[r] > 0) B[r] and x >= 0, dense. It exposes this package's two-phase simplex to
// algorithms that take an LP solver as a parameter (exact/dltbb).
type LP struct {
	C    []float64
	Rows [][]float64
	Rel  []int
	B    []float64
}

// Solve returns an optimal x and the objective, ErrInfeasible or ErrUnbounded.
func (p *LP) Solve() ([]float64, float64, error) {
	q := &lp{c: p.C}
	for r, row := range p.Rows {
		rel := eq
		switch {
		case p.Rel[r] < 0:
			rel = le
		case p.Rel[r] > 0:
			rel = ge
		}
		q.add(row, rel, p.B[r])
	}
	return q.solve()
}
