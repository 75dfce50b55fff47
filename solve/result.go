package solve

import "github.com/schedopt/schedopt/certify"

// Result is the object `schedopt solve --json` prints, field for field as
// ../shared/spec/README.md defines it. Pointer fields are null when unknown.
type Result struct {
	Kind      string     `json:"kind"`
	Name      string     `json:"name"`
	Backend   string     `json:"backend"`
	Status    string     `json:"status"`
	Objective *float64   `json:"objective"`
	Bound     *float64   `json:"bound"`
	Gap       *float64   `json:"gap"`
	Seconds   Seconds    `json:"seconds"`
	Model     ModelStats `json:"model"`
	Solution  any        `json:"solution"`
	Check     Check      `json:"check"`

	// Fields beyond the contract.
	Nodes   int64  `json:"nodes,omitempty"`
	Solver  string `json:"solver,omitempty"`  // solver name and version
	Message string `json:"message,omitempty"` // why a solve ended as it did, for humans
	// Certificate says how the status of the (first) MILP solve was established by the
	// certification policy; nil for exact algorithms and heuristics.
	Certificate *certify.Certificate `json:"certificate,omitempty"`
	// PrimalDualIntegral is the backend's primal-dual integral of the first solve,
	// where it reports one (HiGHS on a MIP); null otherwise.
	PrimalDualIntegral *float64 `json:"primal_dual_integral,omitempty"`

	// Values are the solver's column values when it returned a solution (not part of
	// the JSON); a later solve of the same model structure can start from them.
	Values []float64 `json:"-"`
}

// Result statuses, as the spec names them.
const (
	StatusOptimal    = "optimal"
	StatusFeasible   = "feasible"
	StatusInfeasible = "infeasible"
	StatusUnbounded  = "unbounded"
	StatusTimeLimit  = "time_limit"
	// StatusInterrupted: a signal or a cancellation stopped the run (with the best
	// solution so far when there is one).
	StatusInterrupted = "interrupted"
	StatusError       = "error"
)

// Seconds holds the wall time of the build and solve phases.
type Seconds struct {
	Build float64 `json:"build"`
	Solve float64 `json:"solve"`
}

// ModelStats gives the size of the MILP that was solved (all zero for exact algorithms).
type ModelStats struct {
	Variables int `json:"variables"`
	Integers  int `json:"integers"`
	Rows      int `json:"rows"`
	Nonzeros  int `json:"nonzeros"`
}

// Check holds the independent checks of a result.
type Check struct {
	Evaluator *EvaluatorCheck `json:"evaluator"`
	Exact     *ExactCheck     `json:"exact"`
}

// EvaluatorCheck is the verdict of a kind's domain evaluator: a simulation of the
// decoded schedule that recomputes its objective from the domain formulas.
type EvaluatorCheck struct {
	OK           bool    `json:"ok"`
	Objective    float64 `json:"objective"`
	MaxViolation float64 `json:"max_violation"`
	Message      string  `json:"message,omitempty"` // the worst violation, when not OK
}

// ExactCheck compares a result with an exact algorithm's optimum.
type ExactCheck struct {
	Algorithm string   `json:"algorithm"`
	Objective *float64 `json:"objective"` // null when the exact algorithm found the instance infeasible or failed
	Agree     bool     `json:"agree"`
	Message   string   `json:"message,omitempty"`
}

// Ptr returns a pointer to a copy of v, for the result's optional numbers.
func Ptr(v float64) *float64 { return &v }
