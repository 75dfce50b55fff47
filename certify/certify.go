package certify

import (
	"context"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/model"
)

// Policy says how much confirmation a solve's claims get. The zero value is the
// default policy: verification and confirmation solves, a second backend only when
// one is given.
type Policy struct {
	// Second is an independent backend that decides when two solves disagree and,
	// with Certify, confirms optima. nil: no second opinion is available.
	Second backends.Solver
	// Certify confirms every optimum with Second: a re-solve with an objective cutoff
	// just better than the claimed value must come back infeasible.
	Certify bool
	// Off disables the policy and passes the solver's raw claims through. Only the
	// wrong-claims suite uses it, to count what the solvers claim on their own.
	Off bool
}

// Certificate records how a result's status was established: the checks made and
// every solve behind it.
type Certificate struct {
	// Method names how the status was confirmed, for people and reports (one of the
	// Method* constants, joined by "+" when several apply).
	Method string `json:"method"`
	// Solves lists every solve made for the claim, the first one first.
	Solves []Attempt `json:"solves"`
	// MaxViolation is the largest violation of the reported point found by the
	// verification against the original model (0 without a point).
	MaxViolation float64 `json:"max_violation"`
	// Note explains a downgrade or a disagreement, when there was one.
	Note string `json:"note,omitempty"`
}

// Attempt is one solve made by the policy.
type Attempt struct {
	Backend   string   `json:"backend"`
	Purpose   string   `json:"purpose"` // "solve", "presolve off", "feasibility", "ray", "cutoff", "second backend"
	Status    string   `json:"status"`  // the backend's raw status
	Objective *float64 `json:"objective,omitempty"`
	Seconds   float64  `json:"seconds"`
}

// Result is a certified backend result: Status, Values, Objective, Bound and Gap
// have passed the policy, and Certificate says how.
type Result struct {
	backends.Result
	Certificate Certificate
}

// Solve solves m with s under policy p and returns a result whose every claim has
// been checked. An error means no solve could be attempted or the backend failed
// outright.
func Solve(ctx context.Context, s backends.Solver, m *model.Model, opts backends.Options, p Policy) (Result, error) {
	raw, err := s.Solve(ctx, m, opts)
	if err != nil {
		return Result{}, err
	}
	return Result{Result: raw, Certificate: Certificate{Method: "unchecked",
		Solves: []Attempt{{Backend: s.Name(), Purpose: "solve", Status: string(raw.Status), Seconds: raw.Time.Seconds()}}}}, nil
}
