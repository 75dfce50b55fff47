package dltmulti

import (
	"fmt"
	"math"
	"sort"
)

// EvalTol is the largest scaled violation the evaluator accepts: a time violation v is
// scaled by max(1, T), a load violation by max(1, V), an energy one by max(1, E). It is
// looser than the solvers' 1e-7 primal tolerance because big-M rows scale their errors.
const EvalTol = 1e-6

// Message is one communication of a schedule: the machine receiving it (from 0), its
// size α [MB] and the time its transfer starts.
type Message struct {
	Machine int     `json:"machine"`
	Size    float64 `json:"size"`
	Start   float64 `json:"start"`
}

// Schedule is a decoded schedule: the messages in the order they use the originator's
// link, and the schedule length T (all computations end by T; the machines busy-wait
// until T). T = 0 means "the makespan".
type Schedule struct {
	T        float64
	Messages []Message
}

// Energy holds the components of (6.4)/(6.6) [J]: E0 = P_0^N·T (6.7), ER the computing
// energy Σ ε_i(α) (6.8), EI the idle energy before startup at P^I plus the busy-waiting
// energy at P^N (6.10), ES the startup energy (6.11), EN the energy of the transfers,
// Σ (O_i + C_i α)·P_i^N (6.12). ES + EN + EI (busy-wait part) equals (6.5)'s E^N + E^S.
type Energy struct {
	E0 float64 `json:"E0"`
	ER float64 `json:"ER"`
	EI float64 `json:"EI"`
	ES float64 `json:"ES"`
	EN float64 `json:"EN"`
}

// Total returns E0 + ER + EI + ES + EN.
func (e Energy) Total() float64 { return e.E0 + e.ER + e.EI + e.ES + e.EN }

// Violation is one broken rule of the model, with its scaled size.
type Violation struct {
	Rule   string  // "count", "machine", "size", "load", "startup", "overlap", "memory", "length", "deadline", "energy_limit"
	Amount float64 // scaled amount (see EvalTol)
	Detail string
}

// MachineReport is the per-machine timeline of an evaluated schedule.
type MachineReport struct {
	Used      bool
	IdleStart float64 // time before M_i begins waking (T when unused)
	Busy      float64 // busy-waiting time at P^N after startup, outside transfers and computing
	Load      float64
	End       float64 // end of its last computation (0 when unused)
}

// Report is the evaluator's verdict on a schedule.
type Report struct {
	T            float64 // the schedule length used for the energy (the given T, or the makespan)
	Makespan     float64 // end of the last computation
	Energy       Energy
	E            float64 // Energy.Total()
	Objective    float64 // T for min-time, E for min-energy
	Machines     []MachineReport
	Ends         []float64 // end of the computation of each message, in message order
	OutOfCore    []bool    // chunk exceeds ρ of its machine
	Violations   []Violation
	MaxViolation float64
}

// OK reports whether no violation exceeds EvalTol.
func (r *Report) OK() bool { return r.MaxViolation <= EvalTol }

// Worst describes the largest violation, or "" when there is none.
func (r *Report) Worst() string {
	best := -1.0
	s := ""
	for _, v := range r.Violations {
		if v.Amount > best {
			best, s = v.Amount, v.Rule+": "+v.Detail
		}
	}
	return s
}

// EvalOptions select which instance rules the evaluator enforces.
type EvalOptions struct {
	// AnyCount accepts any number of messages (heuristic schedules); otherwise the
	// schedule must have exactly n messages, as (6.13) requires.
	AnyCount bool
}

// Evaluate simulates s on in and recomputes its length and the energy terms of
// (6.4)-(6.5) from the domain formulas. Messages are taken in slice order (the link
// order); each pays O_i even when its size is zero. Machine M_i starts just in time:
// it wakes at idleStart_i = t_first − S_i, draws P^I before, P^S while starting, P^N
// while receiving and busy-waiting, and ε_i(α) per chunk. Unused machines draw P^I
// for the whole T.
func Evaluate(in *Instance, s Schedule, opt EvalOptions) *Report {
	r := &Report{Machines: make([]MachineReport, in.M())}
	add := func(rule string, amount float64, format string, args ...any) {
		if amount <= 0 {
			return
		}
		r.Violations = append(r.Violations, Violation{rule, amount, fmt.Sprintf(format, args...)})
		r.MaxViolation = math.Max(r.MaxViolation, amount)
	}
	if !opt.AnyCount && len(s.Messages) != in.N {
		add("count", 1, "%d messages, the instance requires exactly n = %d", len(s.Messages), in.N)
	}
	// First pass: ends and makespan, to scale time violations.
	r.Ends = make([]float64, len(s.Messages))
	r.OutOfCore = make([]bool, len(s.Messages))
	load := 0.0
	for j, msg := range s.Messages {
		if msg.Machine < 0 || msg.Machine >= in.M() || math.IsNaN(msg.Size) || math.IsNaN(msg.Start) {
			add("machine", 1, "message %d: machine %d, size %g, start %g", j, msg.Machine, msg.Size, msg.Start)
			continue
		}
		mc := in.Machines[msg.Machine]
		r.Ends[j] = msg.Start + mc.Comm(msg.Size) + mc.Tau(math.Max(msg.Size, 0))
		r.OutOfCore[j] = msg.Size > mc.Rho
		r.Makespan = math.Max(r.Makespan, r.Ends[j])
		load += msg.Size
	}
	if r.MaxViolation > 0 {
		return r // unusable messages: nothing more to simulate
	}
	r.T = s.T
	if r.T == 0 {
		r.T = r.Makespan
	}
	tScale := math.Max(1, r.T)
	add("load", math.Abs(load-in.V)/math.Max(1, in.V), "sizes sum to %g, V = %g", load, in.V)
	linkFree := 0.0
	last := make([]int, in.M()) // last message index per machine, -1 if none
	for i := range last {
		last[i] = -1
	}
	for j, msg := range s.Messages {
		mc := in.Machines[msg.Machine]
		add("size", -msg.Size/math.Max(1, in.V), "message %d has negative size %g", j, msg.Size)
		add("startup", (mc.S-msg.Start)/tScale, "message %d starts at %g, before machine %d can have started (S = %g)", j, msg.Start, msg.Machine, mc.S)
		add("overlap", (linkFree-msg.Start)/tScale, "message %d starts at %g while the link is busy until %g", j, msg.Start, linkFree)
		linkFree = msg.Start + mc.Comm(msg.Size)
		if p := last[msg.Machine]; p >= 0 {
			add("memory", (r.Ends[p]-msg.Start)/tScale, "machine %d receives message %d at %g while still computing message %d until %g", msg.Machine, j, msg.Start, p, r.Ends[p])
		}
		last[msg.Machine] = j
		add("length", (r.Ends[j]-r.T)/tScale, "message %d's computation ends at %g > T = %g", j, r.Ends[j], r.T)
		mr := &r.Machines[msg.Machine]
		if !mr.Used {
			mr.Used = true
			mr.IdleStart = msg.Start - mc.S
		}
		mr.Load += msg.Size
		mr.End = math.Max(mr.End, r.Ends[j])
		r.Energy.ER += mc.Eps(math.Max(msg.Size, 0))
		r.Energy.EN += mc.Comm(msg.Size) * mc.PN
	}
	r.Energy.E0 = in.P0N * r.T
	for i, mc := range in.Machines {
		mr := &r.Machines[i]
		if !mr.Used {
			mr.IdleStart = r.T
			r.Energy.EI += mc.PI * r.T
			continue
		}
		r.Energy.ES += mc.S * mc.PS
		busy := r.T - mr.IdleStart - mc.S
		for _, msg := range s.Messages {
			if msg.Machine == i {
				busy -= mc.Comm(msg.Size) + mc.Tau(math.Max(msg.Size, 0))
			}
		}
		mr.Busy = busy
		r.Energy.EI += mc.PI*math.Max(mr.IdleStart, 0) + mc.PN*busy
	}
	r.E = r.Energy.Total()
	r.Objective = r.T
	if in.Objective == MinEnergy {
		r.Objective = r.E
	}
	if in.Deadline != nil {
		if in.FixedLength {
			add("deadline", math.Abs(r.T-*in.Deadline)/tScale, "T = %g, fixed_length requires T = deadline = %g", r.T, *in.Deadline)
		} else {
			add("deadline", (r.T-*in.Deadline)/tScale, "T = %g exceeds the deadline %g", r.T, *in.Deadline)
		}
	}
	if in.EnergyLimit != nil {
		add("energy_limit", (r.E-*in.EnergyLimit)/math.Max(1, r.E), "E = %g exceeds the energy limit %g", r.E, *in.EnergyLimit)
	}
	return r
}

// SortByStart returns the messages sorted by start time (stable), the link order of a
// schedule whose messages were listed in another order.
func SortByStart(msgs []Message) []Message {
	out := append([]Message(nil), msgs...)
	sort.SliceStable(out, func(a, b int) bool { return out[a].Start < out[b].Start })
	return out
}
