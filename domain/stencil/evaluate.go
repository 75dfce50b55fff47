package stencil

import (
	"fmt"
	"math"
)

// Pair is an unordered processor pair {P[0], P[1]} exchanging in one round.
type Pair [2]int

// Solution is the spec's solution object of a stencil instance.
type Solution struct {
	Assignment []int    `json:"assignment"` // processor of each task
	Rounds     int      `json:"rounds"`     // number of communication rounds (colours)
	TS         float64  `json:"ts"`         // makespan, s
	E          float64  `json:"E"`          // energy, J
	Schedule   [][]Pair `json:"schedule"`   // the pairs exchanging in each round

	// Fields beyond the contract.
	Busy        []float64 `json:"busy,omitempty"`         // busy time per processor, s
	Cells       []float64 `json:"cells,omitempty"`        // cells per processor
	CutArcs     int       `json:"cut_arcs"`               // arcs between different processors
	Edges       int64     `json:"edges"`                  // Σ bundle multiplicities of M
	MaxDegree   int64     `json:"max_degree"`             // Δ(M), a lower bound on the rounds
	CompShare   float64   `json:"computation_share"`      // computation + idle energy / E
	CommShare   float64   `json:"communication_share"`    // communication energy / E
	ModelRounds *int      `json:"model_rounds,omitempty"` // colours the MILP used, when it came from one
}

// Evaluation is what the evaluator recomputes from a mapping and a round schedule.
type Evaluation struct {
	Cells        []float64 // cells per processor
	Busy         []float64 // busy_p = cells_p × time_per_cell_p, s
	Mult         [][]int64 // symmetric bundle multiplicities of M, round quanta
	CutArcs      int       // arcs whose ends are on different processors
	Rounds       int       // len(schedule)
	TS           float64   // max(max_p busy_p, rounds × round_time)
	CompEnergy   float64   // Σ_p cells_p × energy_per_cell_p
	IdleEnergy   float64   // Σ_p idle_power_p × (ts − busy_p)
	CommEnergy   float64   // Σ_cut cells × link_energy
	E            float64   // total energy
	MaxViolation float64   // worst relative violation (deadline, memory, coverage)
	Problems     []string  // every violation found, worst first is not guaranteed
}

// OK reports whether the evaluation found no violation.
func (ev *Evaluation) OK() bool { return len(ev.Problems) == 0 }

// Degree returns the weighted degree of processor p in M.
func (ev *Evaluation) Degree(p int) int64 {
	var d int64
	for _, x := range ev.Mult[p] {
		d += x
	}
	return d
}

// MaxDegree returns Δ(M), the largest weighted degree.
func (ev *Evaluation) MaxDegree() int64 {
	var best int64
	for p := range ev.Mult {
		best = max(best, ev.Degree(p))
	}
	return best
}

// Edges returns Σ over pairs of multiplicities (the number of unit edges of M).
func (ev *Evaluation) Edges() int64 {
	var s int64
	for p := range ev.Mult {
		for k := p + 1; k < len(ev.Mult); k++ {
			s += ev.Mult[p][k]
		}
	}
	return s
}

// Bundles returns the symmetric multiplicity matrix of M for a mapping. It returns an
// error if the mapping names a processor that does not exist.
func (in *Instance) Bundles(assign []int) ([][]int64, error) {
	m := len(in.Processors)
	if len(assign) != len(in.Tasks) {
		return nil, fmt.Errorf("stencil: assignment has %d entries for %d tasks", len(assign), len(in.Tasks))
	}
	for u, p := range assign {
		if p < 0 || p >= m {
			return nil, fmt.Errorf("stencil: task %d assigned to processor %d of %d", u, p, m)
		}
	}
	mu := make([][]int64, m)
	for p := range mu {
		mu[p] = make([]int64, m)
	}
	for _, a := range in.Arcs {
		p, k := assign[a.From], assign[a.To]
		if p == k {
			continue
		}
		x := in.Multiplicity(a, p, k)
		mu[p][k] += x
		mu[k][p] += x
	}
	return mu, nil
}

// Evaluate recomputes time and energy of a mapping with a round schedule, independently
// of how they were found, and lists every violation: a schedule round that is not a
// matching, a bundle covered by fewer rounds than its multiplicity, a memory or the
// deadline exceeded. An error means the input does not even describe a mapping.
func (in *Instance) Evaluate(assign []int, schedule [][]Pair) (*Evaluation, error) {
	mu, err := in.Bundles(assign)
	if err != nil {
		return nil, err
	}
	m := len(in.Processors)
	ev := &Evaluation{Cells: make([]float64, m), Busy: make([]float64, m), Mult: mu, Rounds: len(schedule)}
	for u, p := range assign {
		ev.Cells[p] += in.Tasks[u].Cells
	}
	maxBusy := 0.0
	for p, pr := range in.Processors {
		ev.Busy[p] = ev.Cells[p] * pr.TimePerCell
		maxBusy = math.Max(maxBusy, ev.Busy[p])
		ev.CompEnergy += ev.Cells[p] * pr.EnergyPerCell
		if ev.Cells[p] > pr.MemoryCells {
			ev.violate((ev.Cells[p]-pr.MemoryCells)/math.Max(1, pr.MemoryCells),
				"processor %d (%s) holds %g cells, memory is %g", p, pr.Name, ev.Cells[p], pr.MemoryCells)
		}
	}
	for _, a := range in.Arcs {
		p, k := assign[a.From], assign[a.To]
		if p != k {
			ev.CutArcs++
			ev.CommEnergy += a.Cells * in.LinkEnergy[p][k]
		}
	}
	// The schedule: every round a matching, every bundle covered.
	covered := make([][]int64, m)
	for p := range covered {
		covered[p] = make([]int64, m)
	}
	for r, round := range schedule {
		seen := make([]bool, m)
		for _, pr := range round {
			p, k := pr[0], pr[1]
			if p < 0 || p >= m || k < 0 || k >= m || p == k {
				ev.violate(1, "round %d: pair {%d,%d} is not a pair of distinct processors", r, p, k)
				continue
			}
			if seen[p] || seen[k] {
				twice := k
				if seen[p] {
					twice = p
				}
				ev.violate(1, "round %d: processor %d exchanges with two partners", r, twice)
			}
			seen[p], seen[k] = true, true
			covered[p][k]++
			covered[k][p]++
		}
	}
	for p := 0; p < m; p++ {
		for k := p + 1; k < m; k++ {
			if covered[p][k] < mu[p][k] {
				ev.violate(float64(mu[p][k]-covered[p][k])/float64(mu[p][k]),
					"bundle {%d,%d} has multiplicity %d but only %d rounds", p, k, mu[p][k], covered[p][k])
			}
		}
	}
	ev.TS = math.Max(maxBusy, float64(ev.Rounds)*in.RoundTime)
	for p, pr := range in.Processors {
		ev.IdleEnergy += pr.IdlePower * (ev.TS - ev.Busy[p])
	}
	ev.E = ev.CompEnergy + ev.IdleEnergy + ev.CommEnergy
	if ev.TS > in.Deadline*(1+TimeTol) {
		ev.violate((ev.TS-in.Deadline)/in.Deadline, "makespan %g s exceeds the deadline %g s", ev.TS, in.Deadline)
	}
	return ev, nil
}

func (ev *Evaluation) violate(amount float64, format string, args ...any) {
	ev.Problems = append(ev.Problems, fmt.Sprintf(format, args...))
	ev.MaxViolation = math.Max(ev.MaxViolation, amount)
}

// Solution turns an evaluation into the spec's solution object.
func (ev *Evaluation) Solution(assign []int, schedule [][]Pair) *Solution {
	s := &Solution{
		Assignment: append([]int(nil), assign...),
		Rounds:     ev.Rounds,
		TS:         ev.TS,
		E:          ev.E,
		Schedule:   schedule,
		Busy:       ev.Busy,
		Cells:      ev.Cells,
		CutArcs:    ev.CutArcs,
		Edges:      ev.Edges(),
		MaxDegree:  ev.MaxDegree(),
	}
	if s.Schedule == nil {
		s.Schedule = [][]Pair{}
	}
	if ev.E > 0 {
		s.CompShare = (ev.CompEnergy + ev.IdleEnergy) / ev.E
		s.CommShare = ev.CommEnergy / ev.E
	}
	return s
}
