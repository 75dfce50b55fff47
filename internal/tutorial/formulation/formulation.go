// Package formulation builds the MILP of the tutorial's toy kind: binaries x[j][k]
// put job j on machine k, and T bounds every machine's load.
//
//	min T
//	Σ_k x[j][k] = 1             for every job j         (1)
//	Σ_j p_j·x[j][k] <= T         for every machine k     (2)
//	x[0][0] = 1                  (machines are identical: job 0 goes first)
package formulation

import (
	"fmt"
	"math"
	"slices"

	"github.com/schedopt/schedopt/internal/tutorial/makespan"
	"github.com/schedopt/schedopt/model"
)

// Formulation is the model and the columns its decoder reads.
type Formulation struct {
	Model *model.Model
	x     [][]model.Var
}

// Build formulates an instance. T gets finite bounds from the data, as every
// variable does: at least the longest job, at most the sum of all jobs.
func Build(in *makespan.Instance) (*Formulation, error) {
	m := model.New("toy-makespan")
	sum := 0.0
	for _, p := range in.Jobs {
		sum += p
	}
	T := m.AddContinuous(slices.Max(in.Jobs), sum, "T")
	f := &Formulation{Model: m, x: make([][]model.Var, len(in.Jobs))}
	for j := range in.Jobs {
		var one model.Expr
		for k := 0; k < in.Machines; k++ {
			v := m.AddBinary(fmt.Sprintf("x[%d][%d]", j, k))
			f.x[j] = append(f.x[j], v)
			one.Add(v, 1)
		}
		m.AddConstr(one, model.EQ, 1, fmt.Sprintf("assign[%d]", j)) // (1)
	}
	for k := 0; k < in.Machines; k++ {
		var load model.Expr
		for j, p := range in.Jobs {
			load.Add(f.x[j][k], p)
		}
		load.Add(T, -1)
		m.AddConstr(load, model.LE, 0, fmt.Sprintf("load[%d]", k)) // (2)
	}
	m.Fix(f.x[0][0], 1)
	m.SetObjective(model.Minimize, model.Term(T, 1))
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("toy-makespan: %w", err)
	}
	return f, nil
}

// Assignment reads the machine of each job from solver values (the largest x).
func (f *Formulation) Assignment(values []float64) []int {
	a := make([]int, len(f.x))
	for j, row := range f.x {
		best := math.Inf(-1)
		for k, v := range row {
			if values[v] > best {
				best, a[j] = values[v], k
			}
		}
	}
	return a
}
