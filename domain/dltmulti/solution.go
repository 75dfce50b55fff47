package dltmulti

import "math"

// ZeroSize is the size [MB] at or below which a message counts as empty in the
// solution JSON (the spec omits messages of size zero). Solvers return such sizes as
// round-off; the evaluator still charges every message its overhead O_i.
const ZeroSize = 1e-9

// SolutionMessage is one message of the solution JSON: machine, size and start, exactly
// as the spec has them. The derived fields are for Go callers (plots, reports) and are
// not written.
type SolutionMessage struct {
	Machine    int     `json:"machine"`
	Size       float64 `json:"size"`
	Start      float64 `json:"start"`
	CommEnd    float64 `json:"-"` // end of the transfer, Start + O_i + C_i·Size
	ComputeEnd float64 `json:"-"` // end of the chunk's computation
	OutOfCore  bool    `json:"-"` // Size > ρ_i: the out-of-core piece of (3.1)-(3.2)
}

// Solution is the spec's solution object of a dlt-multi result.
type Solution struct {
	T        float64           `json:"T"`
	E        float64           `json:"E"`
	Energy   Energy            `json:"energy"`
	Messages []SolutionMessage `json:"messages"`
	Used     []bool            `json:"used"`
	// EmptyMessages lists the messages of size zero that the spec omits from Messages;
	// they still occupy the link for O_i and start their machine (6.12)-(6.15). Not
	// written: the spec's solution object has no such field.
	EmptyMessages []Message `json:"-"`
	// Makespan is the last completion time (below T when the length is fixed). Not
	// written, as above.
	Makespan float64 `json:"-"`
}

// Schedule returns the schedule the solution object was built from (the inverse of
// NewSolution): its messages, the empty ones included, in link order, with its length T.
func (sol Solution) Schedule() Schedule {
	msgs := make([]Message, 0, len(sol.Messages)+len(sol.EmptyMessages))
	for _, m := range sol.Messages {
		msgs = append(msgs, Message{Machine: m.Machine, Size: m.Size, Start: m.Start})
	}
	return Schedule{T: sol.T, Messages: SortByStart(append(msgs, sol.EmptyMessages...))}
}

// NewSolution builds the solution object of s from its evaluation r. Energies and T
// come from the evaluator, never from a model.
func NewSolution(in *Instance, s Schedule, r *Report) Solution {
	sol := Solution{T: r.T, E: r.E, Energy: r.Energy, Used: make([]bool, in.M()), Makespan: r.Makespan,
		Messages: []SolutionMessage{}}
	for j, msg := range s.Messages {
		if msg.Machine < 0 || msg.Machine >= in.M() {
			continue
		}
		if math.Abs(msg.Size) <= ZeroSize {
			sol.EmptyMessages = append(sol.EmptyMessages, msg)
		} else {
			mc := in.Machines[msg.Machine]
			sol.Messages = append(sol.Messages, SolutionMessage{Machine: msg.Machine, Size: msg.Size, Start: msg.Start,
				CommEnd: msg.Start + mc.Comm(msg.Size), ComputeEnd: r.Ends[j], OutOfCore: r.OutOfCore[j]})
		}
		sol.Used[msg.Machine] = true
	}
	return sol
}
