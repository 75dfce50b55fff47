package dltflat

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedopt/schedopt/domain/dlt"
	exactdlt "github.com/schedopt/schedopt/exact/dlt"
)

// The recursion's all-finish-together split satisfies the LP with C_max = T and the
// same objective, and every column is bounded.
func TestLPAdmitsTheRecursion(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for it := 0; it < 100; it++ {
		m := 1 + rng.IntN(10)
		in := &dlt.FlatInstance{Kind: "dlt-flat", V: 10 + rng.Float64()*1000, Objective: "min-time"}
		s := exactdlt.Star{}
		for i := 0; i < m; i++ {
			mc := dlt.FlatMachine{A: 0.05 + rng.Float64(), C: rng.Float64() * 0.05, S: rng.Float64()}
			in.Machines = append(in.Machines, mc)
			s.A, s.C, s.S = append(s.A, mc.A), append(s.C, mc.C), append(s.S, mc.S)
		}
		sp, err := exactdlt.Recursion(s, in.V)
		if err != nil {
			continue
		}
		f, err := Build(in)
		if err != nil {
			t.Fatal(err)
		}
		if f.Model.NumVars() != m+1 || f.Model.NumRows() != m+1 {
			t.Fatalf("%d columns, %d rows; want m+1 each (memory as bounds)", f.Model.NumVars(), f.Model.NumRows())
		}
		x := make([]float64, m+1)
		copy(x, sp.Alpha)
		x[f.T] = sp.T
		rep, err := f.Model.Verify(x)
		if err != nil || !rep.Feasible() {
			t.Fatalf("recursion split rejected: %v %s", err, rep.Worst)
		}
		if math.Abs(rep.Objective-sp.T) > 1e-9*sp.T {
			t.Fatalf("objective %g, T %g", rep.Objective, sp.T)
		}
		c := f.Model.Columns()
		for j := range c.Upper {
			if math.IsInf(c.Upper[j], 0) {
				t.Fatalf("column %d unbounded", j)
			}
		}
	}
}
