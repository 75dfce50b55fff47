package workload

import (
	"fmt"
	"math"
	"sort"

	dw "github.com/schedopt/schedopt/domain/workload"
	"github.com/schedopt/schedopt/model"
)

// Objective is the quantity a stage minimises.
type Objective int

// Stage objectives.
const (
	MinTime   Objective = iota // T
	MinEnergy                  // E_D = Σ e_ij·y_ij
	MinTotal                   // P_S·T + E_D
	MinActive                  // A = Σ y_ij, the tie-break of seed 000 [L853, L1218]
)

// String names the objective.
func (o Objective) String() string {
	return [...]string{"min-time", "min-energy", "min-total-energy", "min-active"}[o]
}

// Formulation is one built model with handles on its variables and stage rows.
type Formulation struct {
	M          *model.Model
	Aggregated bool
	ts         *dw.Tables
	static     float64

	// Per-processor model.
	y [][]model.Var
	// Aggregated model: one column pair per point of the shared table.
	z, u []model.Var

	T          model.Var
	energy     model.Expr // E_D
	active     model.Expr // A
	energyRow  model.Row  // lo ≤ E_D ≤ hi, free until a stage bounds it
	totalRow   model.Row  // lo ≤ P_S·T + E_D ≤ hi
	energyMax  float64    // an upper bound on E_D
	tMax       float64    // an upper bound on T
	fixedAbove float64    // the current time threshold
}

// Options choose the model variant.
type Options struct {
	// Aggregate builds the integer-count model; it requires identical tables.
	Aggregate bool
}

// New builds the ILP of ref §1.9 for ts with static power static. The objective is
// MinTime until SetObjective changes it.
func New(ts *dw.Tables, static float64, opts Options) (*Formulation, error) {
	if ts.P() == 0 {
		return nil, fmt.Errorf("workload: no processors")
	}
	if opts.Aggregate && !ts.Identical() {
		return nil, fmt.Errorf("workload: the aggregated model needs identical processors")
	}
	f := &Formulation{M: model.New("workload"), Aggregated: opts.Aggregate, ts: ts, static: static, fixedAbove: math.Inf(1)}
	for _, t := range ts.Procs {
		for _, v := range t.Time {
			f.tMax = math.Max(f.tMax, v)
		}
	}
	f.T = f.M.AddContinuous(0, f.tMax, "T")
	if opts.Aggregate {
		f.buildAggregated()
	} else {
		f.buildPerProcessor()
	}
	f.energyRow, f.totalRow = -1, -1 // added by the first stage that bounds them
	f.SetObjective(MinTime)
	if err := f.M.Validate(); err != nil {
		return nil, fmt.Errorf("workload: build: %w", err)
	}
	return f, nil
}

func (f *Formulation) buildPerProcessor() {
	ts, m := f.ts, f.M
	f.y = make([][]model.Var, ts.P())
	var sum model.Expr
	for i, t := range ts.Procs {
		var one, mk model.Expr
		emax := 0.0
		for j, x := range t.Size {
			v := m.AddBinary(fmt.Sprintf("y_%d_%d", i, x))
			if x > ts.N {
				m.Fix(v, 0) // cannot fit: keep the column so indices stay simple
			}
			f.y[i] = append(f.y[i], v)
			one.Add(v, 1)
			sum.Add(v, float64(x))
			mk.Add(v, -t.Time[j])
			f.energy.Add(v, t.Energy[j])
			f.active.Add(v, 1)
			emax = math.Max(emax, t.Energy[j])
		}
		f.energyMax += emax
		if t.Len() == 0 {
			continue
		}
		m.AddConstr(one, model.LE, 1, fmt.Sprintf("C1_one_point_%d", i))
		mk.Add(f.T, 1)
		m.AddConstr(mk, model.GE, 0, fmt.Sprintf("C3_makespan_%d", i))
	}
	m.AddConstr(sum, model.EQ, float64(ts.N), "C2_exact_sum")
}

func (f *Formulation) buildAggregated() {
	ts, m := f.ts, f.M
	t := ts.Procs[0]
	p := ts.P()
	var count, sum model.Expr
	emax := 0.0
	for j, x := range t.Size {
		ub := min(p, ts.N/x)
		z := m.AddInteger(0, float64(ub), fmt.Sprintf("z_%d", x))
		u := m.AddBinary(fmt.Sprintf("u_%d", x))
		if ub == 0 {
			m.Fix(u, 0)
		}
		f.z = append(f.z, z)
		f.u = append(f.u, u)
		count.Add(z, 1)
		sum.Add(z, float64(x))
		f.energy.Add(z, t.Energy[j])
		f.active.Add(z, 1)
		emax = math.Max(emax, float64(ub)*t.Energy[j])
		var link model.Expr
		link.Add(z, 1).Add(u, -float64(ub))
		m.AddConstr(link, model.LE, 0, fmt.Sprintf("link_%d", x))
		var mk model.Expr
		mk.Add(f.T, 1).Add(u, -t.Time[j])
		m.AddConstr(mk, model.GE, 0, fmt.Sprintf("makespan_%d", x))
	}
	// E_D ≤ p·max_j e_j is implied by Σ z_j ≤ p.
	f.energyMax = float64(p) * emax
	m.AddConstr(count, model.LE, float64(p), "processors")
	m.AddConstr(sum, model.EQ, float64(ts.N), "exact_sum")
}

// SetObjective makes obj the minimised objective.
func (f *Formulation) SetObjective(obj Objective) {
	var e model.Expr
	switch obj {
	case MinTime:
		e.Add(f.T, 1)
	case MinEnergy:
		e.AddExpr(f.energy, 1)
	case MinTotal:
		e.AddExpr(f.energy, 1).Add(f.T, f.static)
	case MinActive:
		e.AddExpr(f.active, 1)
	}
	f.M.SetObjective(model.Minimize, e)
}

// SetThreshold fixes to zero every point whose time exceeds tau and frees the others
// (the time-threshold ε-constraint of ref §1.9); +Inf frees all. T's upper bound
// follows.
func (f *Formulation) SetThreshold(tau float64) {
	f.fixedAbove = tau
	if f.Aggregated {
		t := f.ts.Procs[0]
		for j := range f.z {
			zhi := float64(min(f.ts.P(), f.ts.N/t.Size[j]))
			uhi := 1.0
			if zhi == 0 {
				uhi = 0
			}
			if t.Time[j] > tau {
				zhi, uhi = 0, 0
			}
			f.M.SetBounds(f.z[j], 0, zhi)
			f.M.SetBounds(f.u[j], 0, uhi)
		}
	} else {
		for i, t := range f.ts.Procs {
			for j, v := range f.y[i] {
				hi := 1.0
				if t.Time[j] > tau || t.Size[j] > f.ts.N {
					hi = 0
				}
				f.M.SetBounds(v, 0, hi)
			}
		}
	}
	f.M.SetBounds(f.T, 0, math.Min(f.tMax, math.Max(tau, 0)))
}

// BoundEnergy sets E_D ≤ hi (+Inf relaxes the bound to the trivial E_D ≤ Σ_i max_j e_ij).
// The row is added on first use, so a single-stage model has none.
func (f *Formulation) BoundEnergy(hi float64) {
	if f.energyRow < 0 {
		if math.IsInf(hi, 1) {
			return
		}
		f.energyRow = f.M.AddRange(f.energy, 0, f.energyMax, "energy_bound")
	}
	f.M.SetRowBounds(f.energyRow, 0, math.Min(hi, f.energyMax))
}

// BoundTotal sets P_S·T + E_D ≤ hi (+Inf relaxes it to its trivial bound). The row is
// added on first use.
func (f *Formulation) BoundTotal(hi float64) {
	if f.totalRow < 0 {
		if math.IsInf(hi, 1) {
			return
		}
		var tot model.Expr
		tot.AddExpr(f.energy, 1).Add(f.T, f.static)
		f.totalRow = f.M.AddRange(tot, 0, f.static*f.tMax+f.energyMax, "total_bound")
	}
	f.M.SetRowBounds(f.totalRow, 0, math.Min(hi, f.static*f.tMax+f.energyMax))
}

// Reset removes the threshold and the stage bounds.
func (f *Formulation) Reset() {
	f.SetThreshold(math.Inf(1))
	f.BoundEnergy(math.Inf(1))
	f.BoundTotal(math.Inf(1))
}

// StageTol is the slack given to an earlier stage's optimum when a later stage bounds
// it: relative to max(1, |value|), below the spread of distinct table sums in practice
// and above the solvers' feasibility tolerance in relative terms.
const StageTol = 1e-7

// Slack returns value plus the stage tolerance.
func Slack(value float64) float64 { return value + StageTol*math.Max(1, math.Abs(value)) }

// Sizes decodes solver values into one size per processor in the instance's original
// units. With the aggregated model the processors are filled largest size first.
func (f *Formulation) Sizes(values []float64) ([]int, error) {
	p := f.ts.P()
	out := make([]int, p)
	g := f.ts.Granule
	if f.Aggregated {
		var xs []int
		t := f.ts.Procs[0]
		for j, v := range f.z {
			k := int(math.Round(values[v]))
			for ; k > 0; k-- {
				xs = append(xs, t.Size[j])
			}
		}
		if len(xs) > p {
			return nil, fmt.Errorf("workload: decode: %d processors used, %d available", len(xs), p)
		}
		sort.Sort(sort.Reverse(sort.IntSlice(xs)))
		for i, x := range xs {
			out[i] = x * g
		}
		return out, nil
	}
	for i, ys := range f.y {
		chosen := -1
		for j, v := range ys {
			if values[v] > 0.5 {
				if chosen >= 0 {
					return nil, fmt.Errorf("workload: decode: processor %d runs two points", i)
				}
				chosen = j
			}
		}
		if chosen >= 0 {
			out[i] = f.ts.Procs[i].Size[chosen] * g
		}
	}
	return out, nil
}

// Encode returns the column values of a distribution (original units, one size per
// processor), for MIP starts and tests. T is set to the distribution's makespan.
func (f *Formulation) Encode(sizes []int) ([]float64, error) {
	if len(sizes) != f.ts.P() {
		return nil, fmt.Errorf("workload: encode: %d sizes for %d processors", len(sizes), f.ts.P())
	}
	x := make([]float64, f.M.NumVars())
	g := f.ts.Granule
	T := 0.0
	for i, s := range sizes {
		if s == 0 {
			continue
		}
		if s%g != 0 {
			return nil, fmt.Errorf("workload: encode: size %d is not a multiple of the granule %d", s, g)
		}
		k := f.ts.Index(i, s/g)
		if k < 0 {
			return nil, fmt.Errorf("workload: encode: size %d is not a point of processor %d", s, i)
		}
		T = math.Max(T, f.ts.Procs[i].Time[k])
		if f.Aggregated {
			x[f.z[k]]++
			x[f.u[k]] = 1
		} else {
			x[f.y[i][k]] = 1
		}
	}
	x[f.T] = T
	return x, nil
}

// SetStart gives the solver the distribution sizes (original units) as a MIP start.
func (f *Formulation) SetStart(sizes []int) error {
	x, err := f.Encode(sizes)
	if err != nil {
		return err
	}
	for v, val := range x {
		f.M.SetStart(model.Var(v), val)
	}
	return nil
}

// Polish raises the makespan column of solver values to the makespan implied by the
// rounded point selection, max_i Σ_j t_ij·round(y_ij) (max_j t_j·round(u_j) in the
// aggregated model), when the solver left it below. T is determined by the other
// columns; a solver that meets the makespan rows only within its relative feasibility
// tolerance can return T = 48 − 4.8e-6 for a selected 48 s point when T is not in the
// objective (the energy and active-count stages). It never lowers T, so a point that
// violates a row for another reason still fails model.Verify.
func (f *Formulation) Polish(values []float64) {
	if len(values) != f.M.NumVars() {
		return
	}
	need := 0.0
	if f.Aggregated {
		t := f.ts.Procs[0]
		for j, u := range f.u {
			if math.Round(values[u]) >= 1 {
				need = math.Max(need, t.Time[j])
			}
		}
	} else {
		for i, t := range f.ts.Procs {
			s := 0.0
			for j, v := range f.y[i] {
				s += t.Time[j] * math.Round(values[v])
			}
			need = math.Max(need, s)
		}
	}
	if values[f.T] < need {
		values[f.T] = need
	}
}
