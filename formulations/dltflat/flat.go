package dltflat

import (
	"fmt"
	"math"

	"github.com/schedopt/schedopt/domain/dlt"
	"github.com/schedopt/schedopt/model"
)

// Formulation is the LP of an instance with the columns the decoder reads.
type Formulation struct {
	Model *model.Model
	Alpha []model.Var // α_i, chunk of machine i in communication order
	T     model.Var   // C_max
}

// Build returns the LP (2.5)-(2.9) of in (m + 1 columns, 2m + 1 rows; the memory rows
// (2.7) are column bounds here):
//
//	(2.5) minimise C_max
//	(2.6) α_i a_i + Σ_{j<=i} (S_j + α_j C_j) <= C_max      i = 1..m
//	(2.7) α_i <= B_i                                        i = 1..m
//	(2.8) Σ α_i = V
//	(2.9) α_i, C_max >= 0
//
// Every column has finite bounds: α_i <= min(V, B_i), and C_max <= ΣS_j + V(max C +
// max a), which every row (2.6) meets for any α summing to V, so it never cuts the
// optimum.
func Build(in *dlt.FlatInstance) (*Formulation, error) {
	m := model.New("dlt-flat " + in.Name)
	f := &Formulation{Model: m, Alpha: make([]model.Var, len(in.Machines))}
	sumS, maxC, maxA := 0.0, 0.0, 0.0
	for _, mc := range in.Machines {
		sumS += mc.S
		maxC = math.Max(maxC, mc.C)
		maxA = math.Max(maxA, mc.A)
	}
	for i := range in.Machines {
		f.Alpha[i] = m.AddContinuous(0, math.Min(in.V, in.Memory(i)), fmt.Sprintf("alpha_%d", i+1))
	}
	f.T = m.AddContinuous(0, sumS+in.V*(maxC+maxA), "Cmax")
	m.SetObjective(model.Minimize, model.Term(f.T, 1)) // (2.5)
	prefixS := 0.0
	for i, mc := range in.Machines {
		prefixS += mc.S
		var e model.Expr
		for j := 0; j <= i; j++ {
			e.Add(f.Alpha[j], in.Machines[j].C)
		}
		e.Add(f.Alpha[i], mc.A).Add(f.T, -1)
		m.AddConstr(e, model.LE, -prefixS, fmt.Sprintf("finish_%d", i+1)) // (2.6)
	}
	m.AddConstr(model.Sum(f.Alpha...), model.EQ, in.V, "load") // (2.8)
	if err := m.Err(); err != nil {
		return nil, fmt.Errorf("dltflat: %w", err)
	}
	return f, nil
}

// Decode reads the schedule from solver values: T = C_max and the chunks, with
// round-off below zero clipped.
func (f *Formulation) Decode(x []float64) *dlt.FlatSolution {
	sol := &dlt.FlatSolution{T: x[f.T], Alpha: make([]float64, len(f.Alpha))}
	for i, v := range f.Alpha {
		sol.Alpha[i] = math.Max(0, x[v])
	}
	return sol
}
