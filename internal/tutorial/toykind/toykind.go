// Package toykind is the adapter of the tutorial's toy kind "toy-makespan": it loads
// instances with makespan.Parse, formulates them with formulation.Build and decodes
// the solver's values with the domain evaluator.
package toykind

import (
	"context"

	"github.com/schedopt/schedopt/internal/tutorial/formulation"
	"github.com/schedopt/schedopt/internal/tutorial/makespan"
	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/solve"
)

// Problem is a loaded toy-makespan instance.
type Problem struct {
	kinds.Base
	Inst *makespan.Instance
}

// Kind returns the kind "toy-makespan" (no generators). Registering it is one line
// in kinds/builtin: toykind.Kind(), in the list given to kinds.NewRegistry.
func Kind() kinds.Kind {
	return kinds.New("toy-makespan", makespan.Parse, func(in *makespan.Instance, name string) kinds.Problem {
		return &Problem{Base: kinds.Base{KindName: "toy-makespan", InstName: name}, Inst: in}
	}, nil)
}

// Formulate builds the model; the decoder re-evaluates the assignment with the
// domain's Evaluate and rejects it if its makespan exceeds the model's T.
func (p *Problem) Formulate() (*solve.Formulated, error) {
	f, err := formulation.Build(p.Inst)
	if err != nil {
		return nil, err
	}
	decode := func(values []float64) (any, solve.EvaluatorCheck, error) {
		sol, err := p.Inst.Evaluate(f.Assignment(values))
		if err != nil {
			return nil, solve.EvaluatorCheck{}, err
		}
		claim := values[0] // T is the model's first column
		ok := sol.T <= claim*(1+1e-9)+1e-9
		return sol, kinds.Verdict(ok, sol.T, max(0, sol.T-claim), "the assignment's makespan exceeds the model's T"), nil
	}
	return &solve.Formulated{Model: f.Model, Decode: decode}, nil
}

// Solve solves with req's backend; there is no exact algorithm to cross-check with.
func (p *Problem) Solve(ctx context.Context, req solve.Request) (*solve.Result, error) {
	return kinds.SolveOne(ctx, p, req, nil)
}
