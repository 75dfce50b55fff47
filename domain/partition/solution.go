package partition

import (
	"fmt"
	"math"
)

// Tolerances of the evaluator.
const (
	// FractionTol is how far a fraction may lie outside [0, 1], and a portion's
	// fractions may sum away from 1, before the evaluator reports a violation.
	FractionTol = 1e-6
	// IntegralTol is how far x_jk·g_j may lie from an integer for a chunked portion, and
	// a whole portion's fraction from 0 or 1.
	IntegralTol = 1e-6
	// ValueTol is the relative difference allowed between a solution's stated T or E
	// and the values recomputed from its fractions, and the relative slack on a
	// deadline.
	ValueTol = 1e-6
)

// Solution is the spec's solution object: the makespan T, the total energy E and the
// fraction of portion j on processor k in Fractions[j][k].
type Solution struct {
	T         float64     `json:"T"`
	E         float64     `json:"E"`
	Fractions [][]float64 `json:"fractions"`
}

// Measurement is what the roofline model says about some fractions (Eqs. 14–24).
type Measurement struct {
	T       float64   // makespan, Eq. 17
	E       float64   // total energy, Eq. 24
	Static  float64   // (Σ p_s)·T, Eq. 22
	Dynamic float64   // Σ_k e_fk F_k + e_bk B_k, Eq. 23
	Flops   []float64 // F_k per processor
	Bytes   []float64 // B_k per processor
	Time    []float64 // max{t_fk F_k, t_bk B_k} per processor, Eqs. 15–16
}

// Objective returns the measurement's value of the objective: T for min-time, E
// otherwise.
func (m Measurement) Objective(objective string) float64 {
	if objective == ObjMinTime {
		return m.T
	}
	return m.E
}

// Measure computes T and E of fractions (one row per portion, one column per
// processor) from the domain formulas alone. It does not check feasibility; it needs
// only the shape to match, and reports a mismatch as an error.
func (in *Instance) Measure(fractions [][]float64) (Measurement, error) {
	K := len(in.Processors)
	ms := Measurement{Flops: make([]float64, K), Bytes: make([]float64, K), Time: make([]float64, K)}
	if len(fractions) != len(in.Portions) {
		return ms, fmt.Errorf("fractions: %d rows for %d portions", len(fractions), len(in.Portions))
	}
	for j, row := range fractions {
		if len(row) != K {
			return ms, fmt.Errorf("fractions[%d]: %d entries for %d processors", j, len(row), K)
		}
		q := in.Portions[j]
		for k, x := range row {
			ms.Flops[k] += q.Flops * x
			ms.Bytes[k] += q.Bytes * x
		}
	}
	for k, p := range in.Processors {
		ms.Time[k] = p.Work(ms.Flops[k], ms.Bytes[k])
		ms.T = math.Max(ms.T, ms.Time[k])
		ms.Dynamic += p.Dynamic(ms.Flops[k], ms.Bytes[k])
	}
	ms.Static = in.StaticPower() * ms.T
	ms.E = ms.Static + ms.Dynamic
	return ms, nil
}

// NewSolution returns the solution with the given fractions and the T and E that
// Measure computes for them.
func (in *Instance) NewSolution(fractions [][]float64) (Solution, error) {
	ms, err := in.Measure(fractions)
	if err != nil {
		return Solution{}, err
	}
	return Solution{T: ms.T, E: ms.E, Fractions: fractions}, nil
}

// Report is the evaluator's verdict on a solution.
type Report struct {
	Measurement
	Objective    float64 // the instance objective recomputed from the fractions
	MaxViolation float64 // the worst violation found, in the units of its tolerance's check
	Worst        string  // description of the worst violation, "" when none
	OK           bool    // no violation beyond the tolerances
}

// Evaluate checks a solution against the instance, independently of any model: every
// fraction lies in [0, 1] and each portion's fractions sum to 1; a whole portion is
// entirely on one processor; a chunked portion has a whole number of chunks on each
// processor; T meets the deadline; and the stated T and E equal the values recomputed
// from the fractions. It returns an error only when the shape does not fit.
func (in *Instance) Evaluate(sol Solution) (Report, error) {
	ms, err := in.Measure(sol.Fractions)
	if err != nil {
		return Report{}, err
	}
	rep := Report{Measurement: ms, Objective: ms.Objective(in.Objective)}
	// note records a violation v of a check with tolerance tol; the worst one
	// beyond its tolerance is described. NaN (a NaN stated T or E) counts as infinite:
	// every comparison with it is false and would let it pass.
	note := func(v, tol float64, format string, args ...any) {
		if math.IsNaN(v) {
			v = math.Inf(1)
		}
		if v > rep.MaxViolation {
			rep.MaxViolation = v
			if v > tol {
				rep.Worst = fmt.Sprintf(format, args...)
			}
		}
	}
	for j, row := range sol.Fractions {
		q := in.Portions[j]
		sum := 0.0
		for k, x := range row {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				note(math.Inf(1), FractionTol, "fractions[%d][%d] is %v", j, k, x)
				continue
			}
			sum += x
			note(-x, FractionTol, "fractions[%d][%d] = %g < 0", j, k, x)
			note(x-1, FractionTol, "fractions[%d][%d] = %g > 1", j, k, x)
			switch q.Split {
			case Whole:
				d := math.Min(math.Abs(x), math.Abs(x-1))
				note(d, IntegralTol, "fractions[%d][%d] = %g: portion %d is whole", j, k, x, j)
			case Chunks:
				n := x * float64(q.Chunks)
				note(math.Abs(n-math.Round(n)), IntegralTol, "fractions[%d][%d] = %g is not a multiple of 1/%d", j, k, x, q.Chunks)
			}
		}
		note(math.Abs(sum-1), FractionTol, "fractions[%d] sum to %g, not 1", j, sum)
	}
	if in.Deadline != nil {
		note((ms.T-*in.Deadline) / *in.Deadline, ValueTol, "T = %g exceeds the deadline %g", ms.T, *in.Deadline)
	}
	note(relDiff(sol.T, ms.T), ValueTol, "stated T = %g, but the fractions give %g", sol.T, ms.T)
	note(relDiff(sol.E, ms.E), ValueTol, "stated E = %g, but the fractions give %g", sol.E, ms.E)
	rep.OK = rep.Worst == ""
	return rep, nil
}

// relDiff returns |a − b| / max(|a|, |b|), and 0 when both are 0.
func relDiff(a, b float64) float64 {
	d := math.Abs(a - b)
	if d == 0 {
		return 0
	}
	return d / math.Max(math.Abs(a), math.Abs(b))
}

// RelDiff returns |a − b| / max(|a|, |b|) (0 when both are 0): the relative difference
// the evaluator uses to compare stated and recomputed values.
func RelDiff(a, b float64) float64 { return relDiff(a, b) }
