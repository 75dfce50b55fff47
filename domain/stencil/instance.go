package stencil

import (
	"fmt"
	"math"
	"sort"

	"github.com/schedopt/schedopt/domain"
)

// Tolerances of the domain model.
const (
	// WholeTol is how far cells × link_time may be from a whole number of round quanta
	// (relative to max(1, value)) and still count as that whole number.
	WholeTol = 1e-9
	// TimeTol is the relative slack with which a makespan meets a deadline: float
	// products such as 115·262144·(28e-6/262144) may exceed 3.22e-3 by an ulp.
	TimeTol = 1e-9
)

// MaxCells bounds task and arc cell counts and bundle multiplicities (2⁵³): up to it
// whole numbers are exact in float64, and the formulations and the evaluator convert
// them to int64 (a larger value such as 1e20 converts to a negative number).
const MaxCells = 1 << 53

// Task is one block of the decomposed grid.
type Task struct {
	Cells float64 `json:"cells"` // grid cells of the block (d_{T_u})
}

// Arc is a directed halo exchange: task From sends Cells cells to task To.
type Arc struct {
	From  int     `json:"from"`
	To    int     `json:"to"`
	Cells float64 `json:"cells"` // C_{(T_u,T_v)}
}

// Processor is one CPU or GPU of the node(s).
type Processor struct {
	Name          string  `json:"name"`
	TimePerCell   float64 `json:"time_per_cell"`   // s per cell (t^e)
	EnergyPerCell float64 `json:"energy_per_cell"` // J per cell, constant power included (e^e of eq. 5.9)
	IdlePower     float64 `json:"idle_power"`      // W, paid for ts − busy_p
	MemoryCells   float64 `json:"memory_cells"`    // capacity r_{P_i} in cells
}

// Grid records, optionally, that the tasks are the blocks of an NX×NY×NZ block grid with
// block id i + j·NX + k·NX·NY. The load-balancing heuristic's task orders (IJK, JIK,
// KIJ) need it. It is an extension of the spec's instance format.
type Grid struct {
	NX       int     `json:"nx"`
	NY       int     `json:"ny"`
	NZ       int     `json:"nz"`
	Periodic [3]bool `json:"periodic"` // per axis I, J, K
	Stencil  string  `json:"stencil,omitempty"`
}

// Instance is a stencil mapping instance (kind "stencil" of the spec).
type Instance struct {
	Kind       string      `json:"kind"`
	Name       string      `json:"name,omitempty"`
	Tasks      []Task      `json:"tasks"`
	Arcs       []Arc       `json:"arcs"`
	Processors []Processor `json:"processors"`
	LinkTime   [][]float64 `json:"link_time"`   // round quanta per communicated cell, p to k
	LinkEnergy [][]float64 `json:"link_energy"` // J per communicated cell, p to k
	RoundTime  float64     `json:"round_time"`  // s per round quantum
	Deadline   float64     `json:"deadline"`    // s
	Objective  string      `json:"objective"`   // "min-energy"
	Grid       *Grid       `json:"grid,omitempty"`
}

// Parse decodes and validates an instance strictly (domain.Decode): unknown or
// duplicate keys, trailing data and wrong types are bad input. Errors are
// *domain.FieldError values.
func Parse(data []byte) (*Instance, error) {
	var in Instance
	if err := domain.Decode(data, &in); err != nil {
		return nil, err
	}
	if in.Objective == "" {
		in.Objective = "min-energy"
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	return &in, nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func isWhole(x float64) bool {
	return math.Abs(x-math.Round(x)) <= WholeTol*math.Max(1, math.Abs(x))
}

// Validate checks the instance and returns the first problem as a *domain.FieldError
// naming the JSON path. Besides shapes and signs it rejects a deadline below the best
// possible computation time (the problem is then infeasible; the error gives that
// bound) and bundle multiplicities that are not whole numbers of round quanta.
func (in *Instance) Validate() error {
	if in.Kind != "stencil" {
		return domain.Errorf("kind", "must be \"stencil\", got %q", in.Kind)
	}
	if in.Objective != "min-energy" {
		return domain.Errorf("objective", "must be \"min-energy\", got %q", in.Objective)
	}
	if len(in.Tasks) == 0 {
		return domain.Errorf("tasks", "must not be empty")
	}
	for i, t := range in.Tasks {
		if !finite(t.Cells) || t.Cells < 0 || !isWhole(t.Cells) {
			return domain.Errorf(fmt.Sprintf("tasks[%d].cells", i), "must be a whole number >= 0, got %g", t.Cells)
		}
		if t.Cells > MaxCells {
			return domain.Errorf(fmt.Sprintf("tasks[%d].cells", i), "must be at most 2^53, got %g", t.Cells)
		}
	}
	n := len(in.Tasks)
	for i, a := range in.Arcs {
		f := fmt.Sprintf("arcs[%d]", i)
		if a.From < 0 || a.From >= n {
			return domain.Errorf(f+".from", "names task %d, but there are %d tasks", a.From, n)
		}
		if a.To < 0 || a.To >= n {
			return domain.Errorf(f+".to", "names task %d, but there are %d tasks", a.To, n)
		}
		if a.From == a.To {
			return domain.Errorf(f, "is a self-loop on task %d", a.From)
		}
		if !finite(a.Cells) || a.Cells < 0 || !isWhole(a.Cells) {
			return domain.Errorf(f+".cells", "must be a whole number >= 0, got %g", a.Cells)
		}
		if a.Cells > MaxCells {
			return domain.Errorf(f+".cells", "must be at most 2^53, got %g", a.Cells)
		}
	}
	m := len(in.Processors)
	if m == 0 {
		return domain.Errorf("processors", "must not be empty")
	}
	for i, p := range in.Processors {
		f := fmt.Sprintf("processors[%d]", i)
		switch {
		case !finite(p.TimePerCell) || p.TimePerCell <= 0:
			return domain.Errorf(f+".time_per_cell", "must be > 0, got %g", p.TimePerCell)
		case !finite(p.EnergyPerCell) || p.EnergyPerCell < 0:
			return domain.Errorf(f+".energy_per_cell", "must be >= 0, got %g", p.EnergyPerCell)
		case !finite(p.IdlePower) || p.IdlePower < 0:
			return domain.Errorf(f+".idle_power", "must be >= 0, got %g", p.IdlePower)
		case math.IsNaN(p.MemoryCells) || p.MemoryCells < 0:
			return domain.Errorf(f+".memory_cells", "must be >= 0, got %g", p.MemoryCells)
		}
	}
	for _, mat := range []struct {
		name string
		v    [][]float64
	}{{"link_time", in.LinkTime}, {"link_energy", in.LinkEnergy}} {
		if len(mat.v) != m {
			return domain.Errorf(mat.name, "must be a %d×%d matrix (one row per processor), got %d rows", m, m, len(mat.v))
		}
		for p, row := range mat.v {
			if len(row) != m {
				return domain.Errorf(fmt.Sprintf("%s[%d]", mat.name, p), "must have %d entries (the matrix must be square), got %d", m, len(row))
			}
			for k, x := range row {
				if !finite(x) || x < 0 {
					return domain.Errorf(fmt.Sprintf("%s[%d][%d]", mat.name, p, k), "must be finite and >= 0, got %g", x)
				}
			}
		}
	}
	if !finite(in.RoundTime) || in.RoundTime <= 0 {
		return domain.Errorf("round_time", "must be > 0, got %g", in.RoundTime)
	}
	if err := in.checkWholeMultiplicities(); err != nil {
		return err
	}
	if !finite(in.Deadline) || in.Deadline <= 0 {
		return domain.Errorf("deadline", "must be > 0, got %g", in.Deadline)
	}
	if total, mem := in.TotalCells(), in.totalMemory(); mem < total {
		return domain.Errorf("processors", "infeasible: the memories hold %g cells in all, the tasks have %g", mem, total)
	}
	if lb := in.ComputationLowerBound(); in.Deadline < lb*(1-TimeTol) {
		return domain.Errorf("deadline", "infeasible: %g s is below the best possible computation time %g s", in.Deadline, lb)
	}
	if in.Grid != nil {
		g := in.Grid
		// Each side is at most n before the product is taken, so that it cannot
		// overflow into a match (and the task orders loop over n blocks, no more).
		if g.NX <= 0 || g.NY <= 0 || g.NZ <= 0 || g.NX > n || g.NY > n || g.NZ > n || g.NX*g.NY*g.NZ != n {
			return domain.Errorf("grid", "%d×%d×%d blocks do not match %d tasks", g.NX, g.NY, g.NZ, n)
		}
	}
	return nil
}

// checkWholeMultiplicities checks that every arc's cells × link_time[p][k] is a whole
// number of round quanta for every ordered pair p ≠ k, over the distinct arc sizes.
func (in *Instance) checkWholeMultiplicities() error {
	seen := map[float64]int{}
	for i, a := range in.Arcs {
		if _, ok := seen[a.Cells]; !ok {
			seen[a.Cells] = i
		}
	}
	sizes := make([]float64, 0, len(seen))
	for c := range seen {
		sizes = append(sizes, c)
	}
	sort.Float64s(sizes)
	for _, c := range sizes {
		for p, row := range in.LinkTime {
			for k, t := range row {
				if p != k && c*t > MaxCells {
					return domain.Errorf(fmt.Sprintf("link_time[%d][%d]", p, k),
						"arcs[%d] has %g cells, which need %g round quanta on this link, more than 2^53", seen[c], c, c*t)
				}
				if p != k && !isWhole(c*t) {
					return domain.Errorf(fmt.Sprintf("link_time[%d][%d]", p, k),
						"arcs[%d] has %g cells, which need %g round quanta on this link; the bundle multiplicity must be a whole number", seen[c], c, c*t)
				}
			}
		}
	}
	return nil
}

// TotalCells returns Σ_u cells_u.
func (in *Instance) TotalCells() float64 {
	s := 0.0
	for _, t := range in.Tasks {
		s += t.Cells
	}
	return s
}

func (in *Instance) totalMemory() float64 {
	s := 0.0
	for _, p := range in.Processors {
		s += p.MemoryCells
	}
	return s
}

// ComputationLowerBound returns a lower bound on the computation time of any mapping:
// the larger of (i) the fluid bound, the least T with Σ_p min(memory_p, T/time_per_cell_p)
// ≥ Σ cells, and (ii) the largest task on the processor that runs it fastest. A
// deadline below it makes the instance infeasible.
func (in *Instance) ComputationLowerBound() float64 {
	total := in.TotalCells()
	if total == 0 {
		return 0
	}
	// Fluid bound: capacity(T) = Σ_p min(mem_p, T/t_p) is piecewise linear and
	// increasing; walk its breakpoints T_p = mem_p·t_p in order.
	type bp struct{ t, rate, cap float64 }
	ps := make([]bp, len(in.Processors))
	for i, p := range in.Processors {
		ps[i] = bp{t: p.MemoryCells * p.TimePerCell, rate: 1 / p.TimePerCell, cap: p.MemoryCells}
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].t < ps[j].t })
	fluid := math.Inf(1)
	saturated := 0.0 // cells of processors already at their memory
	rate := 0.0
	for _, p := range ps {
		rate += p.rate
	}
	for _, p := range ps {
		// Between the previous breakpoint and p.t, capacity = saturated + rate·T.
		if T := (total - saturated) / rate; T <= p.t {
			fluid = T
			break
		}
		saturated += p.cap
		rate -= p.rate
		if rate <= 0 {
			break
		}
	}
	lb := fluid
	if math.IsInf(lb, 1) {
		lb = 0 // memory-infeasible; reported separately
	}
	for _, t := range in.Tasks {
		best := math.Inf(1)
		for _, p := range in.Processors {
			if p.MemoryCells >= t.Cells {
				best = math.Min(best, t.Cells*p.TimePerCell)
			}
		}
		if !math.IsInf(best, 1) && best > lb {
			lb = best
		}
	}
	return lb
}

// Multiplicity returns the bundle multiplicity, in round quanta, that arc a adds between
// processors p and k when its sender is on p and its receiver on k (p ≠ k).
func (in *Instance) Multiplicity(a Arc, p, k int) int64 {
	return int64(math.Round(a.Cells * in.LinkTime[p][k]))
}

// Interchangeable reports whether processors p and q can swap their tasks in every
// mapping without changing its energy or time: same data, and the same links to every
// other processor and to each other. Symmetry breaking in the model and the load-vector
// search count one mapping per class of such processors.
func (in *Instance) Interchangeable(p, q int) bool {
	a, b := in.Processors[p], in.Processors[q]
	if a.TimePerCell != b.TimePerCell || a.EnergyPerCell != b.EnergyPerCell || a.IdlePower != b.IdlePower || a.MemoryCells != b.MemoryCells {
		return false
	}
	for _, mat := range [][][]float64{in.LinkTime, in.LinkEnergy} {
		if mat[p][q] != mat[q][p] {
			return false
		}
		for r := range mat {
			if r != p && r != q && (mat[p][r] != mat[q][r] || mat[r][p] != mat[r][q]) {
				return false
			}
		}
	}
	return true
}
