package dltbb

import (
	"math"
	"os"
	"testing"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
)

// table61 loads the thesis's Table 6.1 instance (m = 10, n = 12).
func table61(b testing.TB) *dm.Instance {
	data, err := os.ReadFile("../../instances/dlt-multi-table6.1.json")
	if err != nil {
		b.Fatal(err)
	}
	in, err := dm.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	return in
}

// BenchmarkNodeLP solves one depth-5 node LP of Table 6.1 (with two sequencing cuts)
// with Simplex, with the Bland's-rule simplex of exact/dltseq, and with SimplexDual
// followed by the DualBound that certifies it (the search's path through
// kinds/dltmulti).
func BenchmarkNodeLP(b *testing.B) {
	in := table61(b)
	rx := newRelax(in)
	rx.setTarget(277.36)
	nl := rx.build([]int{3, 7, 5, 4, 2}, [][]int{{0, 1, 6, 8, 9}, {1, 8, 9}}, nil)
	for _, c := range []struct {
		name   string
		solver LPSolver
	}{{"simplex", Simplex}, {"dltseq", refLP}, {"simplex+dualbound", certifiedSimplex}} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				if _, _, err := c.solver(nl.lp); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// certifiedSimplex is SimplexDual with its value replaced by the DualBound of its
// multipliers, as kinds/dltmulti's certifying solver does.
func certifiedSimplex(p *LP) ([]float64, float64, error) {
	s, err := SimplexDual(p)
	if err != nil {
		return nil, 0, err
	}
	return s.X, math.Min(s.Obj, DualBound(p, s.Y)), nil
}
