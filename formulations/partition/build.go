package partition

import (
	"fmt"
	"math"

	"github.com/schedopt/schedopt/domain/partition"
	"github.com/schedopt/schedopt/model"
)

// boundSlack widens the data-derived bounds of T relatively, so that rounding in
// their computation never cuts off a solution whose makespan equals a bound.
const boundSlack = 1e-9

// Formulation is the PeaPaw model of one instance with the columns needed to decode
// its solutions.
type Formulation struct {
	Model *model.Model
	// T is the makespan T_sys, in the instance's time unit.
	T model.Var
	// X[j][k] is the share of portion j on processor k: the fraction x_jk for divisible
	// (continuous in [0, 1]) and whole (binary) portions, the chunk count n_jk in
	// [0, g_j] for chunked ones, where x_jk = n_jk/g_j.
	X [][]model.Var
	// TimeScale is the unit (in instance time units) in which the makespan rows are
	// written: the free-split lower bound on T, so that a solver's absolute row
	// tolerance is a relative error of at most that tolerance on T, whatever the
	// instance's units. It does not change the objective, which is in the instance's
	// units.
	TimeScale float64

	in *partition.Instance
}

// Build returns the model of reference 002 §2.3 for in:
//
//	(7)       Σ_k x_jk = 1  for every portion j (Σ_k n_jk = g_j for chunked ones): work is
//	          neither created nor destroyed by partitioning
//	(C1)      T ≥ t_fk · Σ_j f_j x_jk  for every processor k   (compute roofline, Eqs. 15–17)
//	(C2)      T ≥ t_bk · Σ_j b_j x_jk  for every processor k   (memory roofline, Eqs. 15–17)
//	(W)       T ≥ Σ_k max{t_fk f_j, t_bk b_j} · x_jk  for every whole portion j, with two
//	          or more processors: a valid cut, since a whole portion runs entirely on the
//	          processor it is placed on; it tightens the LP relaxation and, being valid
//	          for every feasible placement, removes no optimum
//	objective min T (Eq. 18: max P_sys = N_f/T), or
//	          min (Σ_k p_sk)·T + Σ_k Σ_j (e_fk f_j + e_bk b_j)·x_jk   (Eqs. 22–24: max EE)
//
// T is bounded by data: below by the free-split bound max{N_f/Σ_k 1/t_fk,
// N_b/Σ_k 1/t_bk} (reference 002 §2.1), above by the whole workload on the slowest
// processor and by the deadline, if any (the deadline-constrained energy problem).
// There is no big-M: the maxima are epigraphs, exact because T is minimised (min-time)
// or has cost Σ p_sk >= 0 (min-energy); with zero static power T may exceed the
// makespan, and decoders recompute it from the fractions.
func Build(in *partition.Instance) (*Formulation, error) {
	if err := in.Validate(); err != nil {
		return nil, fmt.Errorf("partition model: %w", err)
	}
	K := len(in.Processors)
	m := model.New(in.Name)
	f := &Formulation{Model: m, X: make([][]model.Var, len(in.Portions)), in: in}

	lo := in.FreeSplitTime()
	f.TimeScale = lo
	if !(f.TimeScale > 0) {
		f.TimeScale = 1
	}
	f.T = m.AddContinuous(0, 0, "T")
	f.SetDeadline(in.DeadlineValue())

	for j, q := range in.Portions {
		f.X[j] = make([]model.Var, K)
		var share model.Expr
		rhs := 1.0
		for k := range in.Processors {
			name := fmt.Sprintf("x_%d_%d", j, k)
			switch q.Split {
			case partition.Whole:
				f.X[j][k] = m.AddBinary(name)
			case partition.Chunks:
				f.X[j][k] = m.AddInteger(0, float64(q.Chunks), fmt.Sprintf("n_%d_%d", j, k))
				rhs = float64(q.Chunks)
			default:
				f.X[j][k] = m.AddContinuous(0, 1, name)
			}
			share.Add(f.X[j][k], 1)
		}
		m.AddConstr(share, model.EQ, rhs, fmt.Sprintf("share_%d", j))
	}

	// (C1) and (C2), divided by TimeScale.
	var e model.Expr
	for k, p := range in.Processors {
		for _, res := range []struct {
			name string
			rate float64
			of   func(partition.Portion) float64
		}{
			{"flops", p.TimePerFlop, func(q partition.Portion) float64 { return q.Flops }},
			{"bytes", p.TimePerByte, func(q partition.Portion) float64 { return q.Bytes }},
		} {
			e.Reset()
			e.Add(f.T, 1/f.TimeScale)
			any := false
			for j, q := range in.Portions {
				c := res.rate * res.of(q) / f.unit(j) / f.TimeScale
				if c != 0 {
					e.Add(f.X[j][k], -c)
					any = true
				}
			}
			if any {
				m.AddConstr(e, model.GE, 0, fmt.Sprintf("%s_%d", res.name, k))
			}
		}
	}
	// (W) for whole portions.
	if K > 1 {
		for j, q := range in.Portions {
			if q.Split != partition.Whole {
				continue
			}
			e.Reset()
			e.Add(f.T, 1/f.TimeScale)
			for k, p := range in.Processors {
				e.Add(f.X[j][k], -p.Work(q.Flops, q.Bytes)/f.TimeScale)
			}
			m.AddConstr(e, model.GE, 0, fmt.Sprintf("whole_%d", j))
		}
	}

	var obj model.Expr
	if in.Objective == partition.ObjMinTime {
		obj.Add(f.T, 1)
	} else {
		obj.Add(f.T, in.StaticPower())
		for j, q := range in.Portions {
			for k, p := range in.Processors {
				obj.Add(f.X[j][k], p.Dynamic(q.Flops, q.Bytes)/f.unit(j))
			}
		}
	}
	m.SetObjective(model.Minimize, obj)
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("partition model: %w", err)
	}
	return f, nil
}

// unit returns how many units of X[j][k] make the whole portion j: g_j for chunked
// portions, 1 otherwise.
func (f *Formulation) unit(j int) float64 {
	if q := f.in.Portions[j]; q.Split == partition.Chunks {
		return float64(q.Chunks)
	}
	return 1
}

// SetDeadline sets the largest makespan allowed (math.Inf(1) for none) by moving the
// bounds of T, so that a deadline sweep (the ε-constraint method for the time/energy
// front, reference 002 §2.3) re-solves the same model. A deadline below the
// free-split bound leaves the model infeasible, which the solver reports.
func (f *Formulation) SetDeadline(d float64) {
	lo := f.in.FreeSplitTime() * (1 - boundSlack)
	hi := math.Min(f.in.MaxTime()*(1+boundSlack), d)
	f.Model.SetBounds(f.T, math.Min(lo, hi), hi)
}

// Fractions decodes solver values into the fractions x_jk of the spec's solution:
// divisible fractions clipped to [0, 1], whole placements and chunk counts rounded
// to the nearest integer (the model's Verify has already bounded their distance).
func (f *Formulation) Fractions(values []float64) [][]float64 {
	out := make([][]float64, len(f.X))
	for j, row := range f.X {
		out[j] = make([]float64, len(row))
		q := f.in.Portions[j]
		for k, v := range row {
			x := values[v]
			switch q.Split {
			case partition.Whole:
				x = math.Round(x)
			case partition.Chunks:
				x = math.Round(x) / float64(q.Chunks)
			}
			out[j][k] = math.Min(1, math.Max(0, x))
		}
	}
	return out
}
