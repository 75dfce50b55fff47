package dlt

import (
	"math"
)

// Objectives of "dlt-single".
const (
	MinTime   = "min-time"   // (5.5): minimise T, optionally subject to E <= energy_limit
	MinEnergy = "min-energy" // (5.6): minimise E subject to T <= deadline (T == deadline with fixed_length)
)

// AgreeTol is the relative disagreement allowed between a given b2 or l2 and the value
// derived from rho (the spec's 0.1%).
const AgreeTol = 1e-3

// SingleInstance is a "dlt-single" instance (§5.1): load V on the originator M_0, m
// identical workers with hierarchical memory (a1, a2, k1, k2, rho; b2 and l2 derived
// from rho), communication rate C, startup S, and the powers of the starting (PS),
// idle (PI) and networking (PN) states.
type SingleInstance struct {
	Kind        string   `json:"kind"`
	Name        string   `json:"name,omitempty"`
	V           float64  `json:"V"`
	M           int      `json:"m"`
	C           float64  `json:"C"`
	S           float64  `json:"S"`
	PS          float64  `json:"PS"`
	PI          float64  `json:"PI"`
	PN          float64  `json:"PN"`
	A1          float64  `json:"a1"`
	A2          float64  `json:"a2"`
	K1          float64  `json:"k1"`
	K2          float64  `json:"k2"`
	Rho         float64  `json:"rho"`
	B2          *float64 `json:"b2,omitempty"`
	L2          *float64 `json:"l2,omitempty"`
	Objective   string   `json:"objective"`
	Deadline    *float64 `json:"deadline,omitempty"`
	FixedLength bool     `json:"fixed_length,omitempty"`
	EnergyLimit *float64 `json:"energy_limit,omitempty"`
}

// SingleSolution is the spec's solution object of "dlt-single": the schedule length,
// its energy (5.4), the chunk sizes and which machines are started.
type SingleSolution struct {
	T     float64   `json:"T"`
	E     float64   `json:"E"`
	Alpha []float64 `json:"alpha"`
	Used  []bool    `json:"used"`
}

// Memory returns the machines' hierarchical-memory model.
func (in *SingleInstance) Memory() Memory {
	return Memory{A1: in.A1, A2: in.A2, K1: in.K1, K2: in.K2, Rho: in.Rho}
}

// singleRequired are the fields every dlt-single instance gives (the spec's example);
// b2, l2, deadline, fixed_length and energy_limit are optional.
var singleRequired = []string{"V", "m", "C", "S", "PS", "PI", "PN", "a1", "a2", "k1", "k2", "rho"}

// ParseSingle decodes and validates a "dlt-single" instance.
func ParseSingle(data []byte) (*SingleInstance, error) {
	var in SingleInstance
	if err := decode(data, &in); err != nil {
		return nil, err
	}
	if err := RequireFields(data, singleRequired, "", nil); err != nil {
		return nil, err
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	return &in, nil
}

// Validate checks the instance. Rates, powers, S and C must be finite and >= 0, V,
// a1, rho and m positive; out-of-core processing may not be cheaper than in-core
// (a2 >= a1, k2 >= k1, the sign conditions of §3.3); b2 and l2, when given, must agree
// with rho within 0.1%; min-energy needs a deadline; a deadline below the lower bound
// of TimeLowerBound is rejected as infeasible, with the bound.
func (in *SingleInstance) Validate() error {
	var c checker
	if in.Kind != "" && in.Kind != "dlt-single" {
		c.fail("kind", "must be \"dlt-single\", got %q", in.Kind)
	}
	c.positive("V", in.V)
	if in.M < 1 {
		c.fail("m", "must be >= 1, got %d", in.M)
	}
	c.nonNegative("C", in.C)
	c.nonNegative("S", in.S)
	c.nonNegative("PS", in.PS)
	c.nonNegative("PI", in.PI)
	c.nonNegative("PN", in.PN)
	c.positive("a1", in.A1)
	c.nonNegative("a2", in.A2)
	c.nonNegative("k1", in.K1)
	c.nonNegative("k2", in.K2)
	c.positive("rho", in.Rho)
	if c.err == nil && in.A2 < in.A1 {
		c.fail("a2", "must be >= a1 = %g (out-of-core cannot be faster than in-core), got %g", in.A1, in.A2)
	}
	if c.err == nil && in.K2 < in.K1 {
		c.fail("k2", "must be >= k1 = %g (out-of-core cannot use less energy per MB), got %g", in.K1, in.K2)
	}
	mem := in.Memory()
	if in.B2 != nil && c.finite("b2", *in.B2) && c.err == nil {
		if !agrees(*in.B2, mem.B2()) {
			c.fail("b2", "%g disagrees with rho·(a1 − a2) = %g by more than 0.1%%", *in.B2, mem.B2())
		}
	}
	if in.L2 != nil && c.finite("l2", *in.L2) && c.err == nil {
		if !agrees(*in.L2, mem.L2()) {
			c.fail("l2", "%g disagrees with rho·(k1 − k2) = %g by more than 0.1%%", *in.L2, mem.L2())
		}
	}
	switch in.Objective {
	case MinTime, MinEnergy:
	default:
		c.fail("objective", "must be %q or %q, got %q", MinTime, MinEnergy, in.Objective)
	}
	if in.Objective == MinEnergy && in.Deadline == nil {
		c.fail("deadline", "required for objective min-energy (T <= deadline)")
	}
	if in.FixedLength && in.Deadline == nil {
		c.fail("fixed_length", "needs a deadline (T == deadline)")
	}
	if in.EnergyLimit != nil {
		c.positive("energy_limit", *in.EnergyLimit)
	}
	if in.Deadline != nil {
		c.positive("deadline", *in.Deadline)
		if c.err == nil {
			if lb := in.TimeLowerBound(); *in.Deadline < lb*(1-RelTol) {
				c.fail("deadline", "infeasible: %g s is below the lower bound %.6g s on any schedule: "+
					"S + max{C·V, (C + a1)·V/m} (a machine must start, every chunk must be sent, and the largest chunk, "+
					"at least V/m, must be received and computed at least at the in-core rate)", *in.Deadline, lb)
			}
		}
	}
	return c.err
}

func agrees(given, derived float64) bool {
	return math.Abs(given-derived) <= AgreeTol*math.Max(math.Abs(derived), 1e-12)
}

// TimeLowerBound is a simple lower bound on the length of every schedule:
// S + max{C·V, (C + a1)·V/m}. Some machine is started (S) before the originator sends
// all V MB (C·V); and the machine with the largest chunk (at least V/m) starts, receives
// it and computes it no faster than in-core.
func (in *SingleInstance) TimeLowerBound() float64 {
	return in.S + math.Max(in.C*in.V, (in.C+in.A1)*in.V/float64(in.M))
}

// TimeUpperBound bounds the makespan of every schedule: all m machines started one
// after the other (m·S), all the load sent (C·V), and the longest computation τ(V).
// Schedules longer than their makespan only add idle energy, so no optimum needs more.
func (in *SingleInstance) TimeUpperBound() float64 {
	return float64(in.M)*in.S + in.C*in.V + in.Memory().Tau(in.V)
}

// SingleEnergy is the energy of a single-installment schedule and its parts
// (5.1)-(5.4).
type SingleEnergy struct {
	E0 float64   // originator (5.3)
	Ei []float64 // per worker (5.1)
	ES float64   // Σ startup energy x_i·S·P^S
	EI float64   // Σ idle energy t_i^I·P^I of the workers
	EN float64   // Σ networking energy C·α_i·P^N of the workers
	ER float64   // Σ running energy ε(α_i)
	E  float64   // total (5.4)
}

// EvaluateSingle simulates a single-installment schedule (§5.1, Fig. 5.1) from the
// domain formulas alone. The originator wakes the used machines one after the other in
// index order: machine i starts up for S, receives α_i in C·α_i, and computes for
// τ(α_i) (3.1); the originator wakes the next used machine when the transfer ends
// (5.8). Energy: each worker pays S·P^S when used, P^N while receiving, ε(α_i) (3.2)
// while computing and P^I for the rest of T (5.1); the originator pays P^N while it
// wakes machines and sends, and P^I afterwards (5.2) with the actual Σα_i for V.
//
// It reports violations of α_i >= 0, Σα_i = V, α_i > 0 only on a used machine,
// completion by T, T <= deadline (T == deadline with fixed_length), E <= energy_limit,
// and of the solution's own E against the recomputed one. The objective is T for
// min-time and the recomputed E for min-energy.
func EvaluateSingle(in *SingleInstance, sol *SingleSolution) (Report, SingleEnergy) {
	var r Report
	var en SingleEnergy
	if len(sol.Alpha) != in.M || len(sol.Used) != in.M {
		r.note(math.Inf(1), "%d chunk sizes and %d used flags for m = %d machines", len(sol.Alpha), len(sol.Used), in.M)
		return r, en
	}
	mem := in.Memory()
	T := sol.T
	en.Ei = make([]float64, in.M)
	t, sum := 0.0, 0.0 // t: the originator's clock
	for i, a := range sol.Alpha {
		r.note(above(0, a), "alpha[%d] = %g < 0", i, a)
		a = math.Max(a, 0)
		sum += a
		if !sol.Used[i] {
			r.note(a/math.Max(1, in.V), "machine %d is not used but gets alpha = %g", i, a)
			en.Ei[i] = T * in.PI
			en.EI += T * in.PI
			continue
		}
		t += in.S + in.C*a
		tau := mem.Tau(a)
		finish := t + tau
		r.Makespan = math.Max(r.Makespan, finish)
		r.note(above(finish, T), "machine %d finishes at %g after T = %g", i, finish, T)
		idle := T - in.S - in.C*a - tau
		es, ei, eN, er := in.S*in.PS, idle*in.PI, in.C*a*in.PN, mem.Eps(a)
		en.Ei[i] = es + ei + eN + er
		en.ES += es
		en.EI += ei
		en.EN += eN
		en.ER += er
	}
	r.note(math.Abs(sum-in.V)/math.Max(1, in.V), "chunks sum to %g, not V = %g", sum, in.V)
	// t is now Σ x_i S + C Σ α_i: the originator's busy time (5.2).
	en.E0 = in.PN*t + in.PI*(T-t)
	en.E = en.E0 + en.ES + en.EI + en.EN + en.ER
	if in.Deadline != nil {
		r.note(above(T, *in.Deadline), "T = %g exceeds the deadline %g", T, *in.Deadline)
		if in.FixedLength {
			r.note(above(*in.Deadline, T), "T = %g is shorter than the fixed length %g", T, *in.Deadline)
		}
	}
	if in.EnergyLimit != nil {
		r.note(above(en.E, *in.EnergyLimit), "E = %g exceeds the energy limit %g", en.E, *in.EnergyLimit)
	}
	r.note(math.Abs(sol.E-en.E)/math.Max(1, math.Abs(en.E)), "the solution's E = %g differs from the recomputed %g", sol.E, en.E)
	if in.Objective == MinEnergy {
		r.Objective = en.E
	} else {
		r.Objective = T
	}
	return r, en
}
