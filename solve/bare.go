package solve

import (
	"context"
	"fmt"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/model"
)

// Bare solves a model that belongs to no instance kind (for example one read from an
// MPS file) with req's backend under the certification policy, and returns the result
// object labelled kind and name: the status mapped as for every kind and the solution,
// a map of column names to values, verified against the model. When the backend fails
// outright, Bare returns an error result carrying the backend's message together with
// the error.
func Bare(ctx context.Context, kind, name string, m *model.Model, req Request) (*Result, error) {
	cert, err := Certified(ctx, m, req, req.Options)
	if err != nil {
		res := &Result{Kind: kind, Name: name, Backend: req.Backend, Status: StatusError, Message: err.Error()}
		return res, fmt.Errorf("solve with %s: %w", req.Backend, err)
	}
	res := BareResult(kind, name, m, req.Backend, cert.Result, req.Options)
	res.Certificate = &cert.Certificate
	return res, nil
}

// BareResult turns a backend result on the bare model m into the result object:
// statuses mapped as for every kind (MapStatus, ProvenWithin), the point verified
// against the model (the verification stands in for the evaluator), and the solution a
// map {"values": {column name: value}}.
func BareResult(kind, name string, m *model.Model, backend string, raw backends.Result, opts backends.Options) *Result {
	res := &Result{
		Kind: kind, Name: name, Backend: backend,
		Status: MapStatus(raw, m), Model: Stats(m),
		Nodes: raw.Nodes, Solver: raw.Solver, Message: raw.Message,
		PrimalDualIntegral: raw.PrimalDualIntegral,
	}
	res.Seconds.Solve = raw.Time.Seconds()
	if finite(raw.Bound) {
		res.Bound = Ptr(raw.Bound)
	}
	if !raw.HasSolution {
		return res
	}
	rep, err := m.Verify(raw.Values)
	if err != nil {
		res.Status = StatusError
		res.Message = "verify solution: " + err.Error()
		return res
	}
	obj := rep.Objective
	res.Objective = Ptr(obj)
	if finite(raw.Bound) {
		res.Gap = Ptr(backends.RelativeGap(obj, raw.Bound))
	}
	ev := EvaluatorCheck{OK: rep.Feasible(), Objective: obj, MaxViolation: rep.MaxViolation(), Message: rep.Worst}
	res.Check.Evaluator = &ev
	if !ev.OK {
		res.Status = StatusError
		res.Message = "solver returned a point that violates the model: " + rep.Worst
	} else if res.Status == StatusOptimal && !ProvenWithin(obj, raw.Bound, opts) {
		res.Status = StatusFeasible
		res.Message += fmt.Sprintf(" (not optimal: the verified objective %g is not within the requested gaps of the bound %g)", obj, raw.Bound)
	}
	values := make(map[string]float64, m.NumVars())
	for j, v := range raw.Values {
		values[m.VarName(model.Var(j))] = v
	}
	res.Solution = map[string]any{"values": values}
	return res
}
