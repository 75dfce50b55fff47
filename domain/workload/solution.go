package workload

import (
	"fmt"
	"math"
)

// Solution is one distribution with its objectives, the spec's solution object for
// single objectives and the element of a front. E is the dynamic energy, except for the
// total-energy objectives, where it is static_power·T + dynamic energy and Dynamic holds
// the dynamic part.
type Solution struct {
	T       float64  `json:"T"`
	E       float64  `json:"E"`
	Sizes   []int    `json:"sizes"`
	Dynamic *float64 `json:"E_dynamic,omitempty"`
}

// Front is the spec's solution object for the objectives "pareto" and "pareto-total":
// points sorted by increasing T (and so strictly decreasing E).
type Front struct {
	Front []Solution `json:"front"`
}

// Eval is the independent evaluation of a distribution from the tables.
type Eval struct {
	T       float64 // makespan: the largest time of the chosen points
	Dynamic float64 // Σ energies of the chosen points
	Total   float64 // static_power·T + Dynamic
	Active  int     // processors with a non-zero size
}

// Evaluate recomputes the makespan and energies of sizes (original units, one per
// processor) from the instance's tables. It returns an error naming the first
// violation: wrong length, a size that is neither 0 nor a point of its processor, or
// sizes that do not sum to n.
func (in *Instance) Evaluate(sizes []int) (Eval, error) {
	var ev Eval
	if len(sizes) != len(in.Processors) {
		return ev, fmt.Errorf("%d sizes for %d processors", len(sizes), len(in.Processors))
	}
	sum := 0
	for i, x := range sizes {
		sum += x
		if x == 0 {
			continue
		}
		found := false
		for _, q := range in.Processors[i].Points {
			if q.Size == x {
				ev.T = math.Max(ev.T, q.Time)
				ev.Dynamic += q.Energy
				found = true
				break
			}
		}
		if !found {
			return ev, fmt.Errorf("sizes[%d] = %d is not a point of processor %d (nor 0)", i, x, i)
		}
		ev.Active++
	}
	if sum != in.N {
		return ev, fmt.Errorf("sizes sum to %d, want n = %d", sum, in.N)
	}
	ev.Total = in.StaticPower*ev.T + ev.Dynamic
	return ev, nil
}

// EnergyOf returns the energy the objective reports: total for the total-energy
// objectives, dynamic otherwise.
func (in *Instance) EnergyOf(ev Eval) float64 {
	if in.Objective == ObjMinTotal || in.Objective == ObjParetoTotal {
		return ev.Total
	}
	return ev.Dynamic
}

// ObjectiveOf returns the single objective's value of ev (for fronts, the makespan).
func (in *Instance) ObjectiveOf(ev Eval) float64 {
	switch in.Objective {
	case ObjMinEnergy:
		return ev.Dynamic
	case ObjMinTotal:
		return ev.Total
	}
	return ev.T
}

// SolutionOf builds the reported solution for sizes after evaluating them.
func (in *Instance) SolutionOf(sizes []int) (Solution, Eval, error) {
	ev, err := in.Evaluate(sizes)
	if err != nil {
		return Solution{}, ev, err
	}
	s := Solution{T: ev.T, E: in.EnergyOf(ev), Sizes: append([]int(nil), sizes...)}
	if in.Objective == ObjMinTotal || in.Objective == ObjParetoTotal {
		d := ev.Dynamic
		s.Dynamic = &d
	}
	return s, ev, nil
}

// EnergyTol is the relative tolerance under which two energies count as equal: sums
// of the same table values in another order differ by rounding only.
const EnergyTol = 1e-9

// EnergyLess reports whether a < b by more than EnergyTol relative to max(1, |b|).
func EnergyLess(a, b float64) bool { return a < b-EnergyTol*math.Max(1, math.Abs(b)) }

// CheckFront verifies a front against the tables: every point's distribution is
// feasible and re-evaluates to its reported (T, E); T increases and E strictly
// decreases along the front. It returns the largest absolute mismatch of a reported
// value and the first problem found.
func (in *Instance) CheckFront(f Front) (maxViolation float64, err error) {
	for k, s := range f.Front {
		ev, e := in.Evaluate(s.Sizes)
		if e != nil {
			return math.Inf(1), fmt.Errorf("front[%d]: %w", k, e)
		}
		dT, dE := math.Abs(ev.T-s.T), math.Abs(in.EnergyOf(ev)-s.E)
		maxViolation = math.Max(maxViolation, math.Max(dT, dE))
		if dT > 0 || dE > EnergyTol*math.Max(1, math.Abs(s.E)) {
			return maxViolation, fmt.Errorf("front[%d]: reported (T=%g, E=%g), tables give (%g, %g)", k, s.T, s.E, ev.T, in.EnergyOf(ev))
		}
		if k > 0 {
			prev := f.Front[k-1]
			if !(s.T > prev.T) || !EnergyLess(s.E, prev.E) {
				return maxViolation, fmt.Errorf("front[%d] (T=%g, E=%g) does not improve on front[%d] (T=%g, E=%g) in both directions", k, s.T, s.E, k-1, prev.T, prev.E)
			}
		}
	}
	return maxViolation, nil
}
