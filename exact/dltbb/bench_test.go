package dltbb

import (
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
// with Simplex and with the Bland's-rule simplex of exact/dltseq.
func BenchmarkNodeLP(b *testing.B) {
	in := table61(b)
	rx := newRelax(in)
	rx.setTarget(277.36)
	nl := rx.build([]int{3, 7, 5, 4, 2}, [][]int{{0, 1, 6, 8, 9}, {1, 8, 9}}, nil)
	for _, c := range []struct {
		name   string
		solver LPSolver
	}{{"simplex", Simplex}, {"dltseq", refLP}} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				if _, _, err := c.solver(nl.lp); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
