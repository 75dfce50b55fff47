// Package makespan is the domain of the tutorial's toy kind "toy-makespan": jobs
// with processing times on identical machines (P||Cmax). It parses and validates
// instances and evaluates schedules without any model.
package makespan

import (
	"fmt"
	"math"

	"github.com/schedopt/schedopt/domain"
)

// Instance is a toy-makespan instance:
//
//	{"kind": "toy-makespan", "machines": 2, "jobs": [3, 2, 2]}
type Instance struct {
	Kind     string    `json:"kind"`
	Name     string    `json:"name,omitempty"`
	Machines int       `json:"machines"` // identical machines, >= 1
	Jobs     []float64 `json:"jobs"`     // processing times, > 0
}

// Parse decodes and validates an instance; bad input is a *domain.FieldError.
func Parse(data []byte) (*Instance, error) {
	var in Instance
	if err := domain.Decode(data, &in); err != nil {
		return nil, err
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	return &in, nil
}

// Validate checks the kind, the machine count and every processing time.
func (in *Instance) Validate() error {
	if in.Kind != "toy-makespan" {
		return domain.Errorf("kind", "is %q, want \"toy-makespan\"", in.Kind)
	}
	if in.Machines < 1 {
		return domain.Errorf("machines", "must be >= 1, got %d", in.Machines)
	}
	if len(in.Jobs) == 0 {
		return domain.Errorf("jobs", "must list at least one job")
	}
	for j, p := range in.Jobs {
		if !(p > 0) || math.IsInf(p, 0) {
			return domain.Errorf(fmt.Sprintf("jobs[%d]", j), "must be finite and > 0, got %v", p)
		}
	}
	return nil
}

// Solution is a schedule: the machine of each job and the makespan.
type Solution struct {
	T          float64 `json:"T"`
	Assignment []int   `json:"assignment"`
}

// Evaluate computes the makespan of an assignment (machine per job) from the
// instance alone: the largest sum of processing times on one machine.
func (in *Instance) Evaluate(assignment []int) (Solution, error) {
	if len(assignment) != len(in.Jobs) {
		return Solution{}, fmt.Errorf("makespan: %d machines for %d jobs", len(assignment), len(in.Jobs))
	}
	load := make([]float64, in.Machines)
	for j, k := range assignment {
		if k < 0 || k >= in.Machines {
			return Solution{}, fmt.Errorf("makespan: job %d on machine %d of %d", j, k, in.Machines)
		}
		load[k] += in.Jobs[j]
	}
	t := 0.0
	for _, l := range load {
		t = math.Max(t, l)
	}
	return Solution{T: t, Assignment: assignment}, nil
}
