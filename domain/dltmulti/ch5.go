package dltmulti

import (
	"fmt"
	"math"
)

// Ch5Energy holds the energy terms of the §5.2.1 accounting (5.15) [J].
type Ch5Energy struct {
	EAI float64 `json:"EAI"` // workers idle at P^I between the end of their startup and their first message
	ES  float64 `json:"ES"`  // P^S·S for every machine (all are woken at time 0)
	ER  float64 `json:"ER"`  // P^N·C·α (reception) + ε(α) for every chunk
	EBI float64 `json:"EBI"` // workers idle at P^I between and after their computations, until T
	E0  float64 `json:"E0"`  // originator: P^N until its last transfer ends, P^I afterwards
}

// Total returns the sum of the terms, E of (5.15).
func (e Ch5Energy) Total() float64 { return e.EAI + e.ES + e.ER + e.EBI + e.E0 }

// EvaluateCh5 evaluates s with the chapter 5 accounting of §5.2.1 (equations
// (5.12)-(5.15)), used for the homogeneous fixed-chunk heuristics: all m machines are
// woken at time 0 in parallel (so every message must start at or after S), a worker
// draws P^I while waiting, P^N while receiving and ε(α) while computing, and the
// originator draws P^N until its last transfer ends and P^I afterwards. The originator
// powers are those of the machines (chapter 5 is homogeneous; machine 0's are used).
// It returns T = makespan, E and its terms, or an error when a rule is broken
// (overlap, startup, memory). It simulates instead of using (5.13)-(5.15), which are
// wrong when N_f = 0.
func EvaluateCh5(in *Instance, s Schedule) (T float64, parts Ch5Energy, err error) {
	r := Evaluate(in, s, EvalOptions{AnyCount: true})
	for _, v := range r.Violations {
		if v.Amount > EvalTol && v.Rule != "deadline" && v.Rule != "energy_limit" {
			return 0, parts, fmt.Errorf("dltmulti: chapter 5 evaluation: %s: %s", v.Rule, v.Detail)
		}
	}
	T = r.Makespan
	linkEnd := 0.0
	first := make([]float64, in.M())
	for i := range first {
		first[i] = math.NaN()
	}
	busy := make([]float64, in.M()) // time receiving or computing
	for j, msg := range s.Messages {
		mc := in.Machines[msg.Machine]
		if math.IsNaN(first[msg.Machine]) {
			first[msg.Machine] = msg.Start
		}
		busy[msg.Machine] += r.Ends[j] - msg.Start
		parts.ER += mc.PN*mc.Comm(msg.Size) + mc.Eps(msg.Size)
		linkEnd = math.Max(linkEnd, msg.Start+mc.Comm(msg.Size))
	}
	for i, mc := range in.Machines {
		parts.ES += mc.PS * mc.S
		if math.IsNaN(first[i]) {
			parts.EBI += mc.PI * (T - mc.S)
			continue
		}
		parts.EAI += mc.PI * (first[i] - mc.S)
		parts.EBI += mc.PI * (T - first[i] - busy[i])
	}
	o := in.Machines[0]
	parts.E0 = o.PN*linkEnd + o.PI*(T-linkEnd)
	return T, parts, nil
}
