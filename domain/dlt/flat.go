package dlt

import (
	"fmt"
	"math"
)

// FlatMachine is one worker of the flat-memory star (§2.2): computing rate A [s/MB],
// communication rate C [s/MB], startup S [s] before it can receive, and an optional
// memory size B [MB] (absent: unlimited).
type FlatMachine struct {
	A float64  `json:"a"`
	C float64  `json:"C"`
	S float64  `json:"S"`
	B *float64 `json:"B,omitempty"`
}

// FlatInstance is a "dlt-flat" instance: load V distributed once, in the order of
// Machines, over a star with limited flat memory, minimising the schedule length (LP
// (2.5)-(2.9)).
type FlatInstance struct {
	Kind      string        `json:"kind"`
	Name      string        `json:"name,omitempty"`
	V         float64       `json:"V"`
	Machines  []FlatMachine `json:"machines"`
	Objective string        `json:"objective"`
}

// FlatSolution is the spec's solution object of "dlt-flat": the schedule length and
// the chunk sizes in communication order.
type FlatSolution struct {
	T     float64   `json:"T"`
	Alpha []float64 `json:"alpha"`
}

// ParseFlat decodes and validates a "dlt-flat" instance.
func ParseFlat(data []byte) (*FlatInstance, error) {
	var in FlatInstance
	if err := decode(data, &in); err != nil {
		return nil, err
	}
	if err := RequireFields(data, []string{"V", "machines"}, "machines", []string{"a", "C", "S"}); err != nil {
		return nil, err
	}
	if in.Objective == "" {
		in.Objective = "min-time"
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	return &in, nil
}

// Validate checks the instance: V > 0, at least one machine, a > 0, C >= 0, S >= 0,
// B > 0 when given, objective "min-time", and enough memory for the load (V <= ΣB
// when every machine has a memory size; otherwise the LP is infeasible).
func (in *FlatInstance) Validate() error {
	var c checker
	if in.Kind != "" && in.Kind != "dlt-flat" {
		c.fail("kind", "must be \"dlt-flat\", got %q", in.Kind)
	}
	c.positive("V", in.V)
	if len(in.Machines) == 0 {
		c.fail("machines", "must list at least one machine")
	}
	limited, total := true, 0.0
	for i, m := range in.Machines {
		p := fmt.Sprintf("machines[%d]", i)
		c.positive(p+".a", m.A)
		c.nonNegative(p+".C", m.C)
		c.nonNegative(p+".S", m.S)
		if m.B == nil {
			limited = false
			continue
		}
		c.positive(p+".B", *m.B)
		total += *m.B
	}
	if in.Objective != "min-time" {
		c.fail("objective", "must be \"min-time\" (the only objective of LP (2.5)-(2.9)), got %q", in.Objective)
	}
	if c.err == nil && limited && in.V > total*(1+RelTol) {
		c.fail("V", "infeasible: the load %g MB exceeds the total memory ΣB = %g MB of all machines", in.V, total)
	}
	return c.err
}

// Memory returns machine i's memory limit, +Inf when it has none.
func (in *FlatInstance) Memory(i int) float64 {
	if in.Machines[i].B == nil {
		return math.Inf(1)
	}
	return *in.Machines[i].B
}

// RelTol is the relative tolerance of the evaluators: solvers meet rows to about 1e-7
// after scaling, so a schedule is accepted when every quantity is within 1e-6 of its
// bound, relative to max(1, |bound|).
const RelTol = 1e-6

// Report is an evaluator's verdict on a schedule.
type Report struct {
	Makespan     float64 // simulated completion of the last computation [s]
	Objective    float64 // the instance's objective recomputed from the schedule
	MaxViolation float64 // worst scaled violation (0 when none)
	Worst        string  // description of the worst violation, "" when none
}

// OK reports whether every violation is within RelTol.
func (r Report) OK() bool { return r.MaxViolation <= RelTol }

// note records a violation amount (already scaled) with its description. A NaN amount
// (a NaN T, E or chunk in the solution) counts as an infinite violation: comparisons
// with NaN are false, and would otherwise accept the solution.
func (r *Report) note(v float64, format string, args ...any) {
	if math.IsNaN(v) {
		v = math.Inf(1)
	}
	if v > r.MaxViolation {
		r.MaxViolation = v
		r.Worst = fmt.Sprintf(format, args...)
	}
}

// above returns how far x exceeds bound, relative to max(1, |bound|); 0 if it does not.
func above(x, bound float64) float64 {
	if x <= bound {
		return 0
	}
	return (x - bound) / math.Max(1, math.Abs(bound))
}

// EvaluateFlat simulates a flat-memory schedule (§2.2.2) independently of the LP: the
// originator starts M_1 at time 0; machine i needs S_i, then receives α_i in C_i·α_i,
// then computes for a_i·α_i; the originator starts M_{i+1} when the transfer to M_i
// ends. Every machine of the order is started, even with α_i = 0, as in (2.6). It
// checks α_i >= 0, α_i <= B_i, Σα_i = V and that every machine finishes by T; the
// objective is T.
func EvaluateFlat(in *FlatInstance, sol *FlatSolution) Report {
	var r Report
	r.Objective = sol.T
	if len(sol.Alpha) != len(in.Machines) {
		r.note(math.Inf(1), "%d chunk sizes for %d machines", len(sol.Alpha), len(in.Machines))
		return r
	}
	t, sum := 0.0, 0.0
	for i, m := range in.Machines {
		a := sol.Alpha[i]
		r.note(above(0, a), "alpha[%d] = %g < 0", i, a)
		r.note(above(a, in.Memory(i)), "alpha[%d] = %g exceeds memory B = %g", i, a, in.Memory(i))
		t += m.S + m.C*a
		finish := t + m.A*a
		r.Makespan = math.Max(r.Makespan, finish)
		r.note(above(finish, sol.T), "machine %d finishes at %g after T = %g", i, finish, sol.T)
		sum += a
	}
	r.note(math.Abs(sum-in.V)/math.Max(1, in.V), "chunks sum to %g, not V = %g", sum, in.V)
	return r
}
