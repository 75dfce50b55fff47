package solu

import (
	"fmt"
	"math"
)

// Tolerances of the MIPLIB 2017 test scripts (scripts/parse.awk and
// scripts/evalrun.sh of the MIPLIB 2017 test engine, version 1.0.3): a reported value
// matches a known one when it is within AbsTol of it for |known| <= AbsTolBelow, and
// within RelTol·|known| above.
const (
	// RelTol is the relative tolerance on a known value above AbsTolBelow in
	// magnitude (parse.awk's reltol).
	RelTol = 1e-6
	// AbsTol is the absolute tolerance on a known value of magnitude at most
	// AbsTolBelow (evalrun.sh's LINTOL, which parse.awk uses as abstol).
	AbsTol = 1e-4
	// AbsTolBelow is the magnitude up to which the absolute tolerance applies.
	AbsTolBelow = 100
)

// Tol is the tolerance around the known value v: AbsTol when |v| <= AbsTolBelow,
// RelTol·|v| otherwise.
func Tol(v float64) float64 {
	if math.Abs(v) <= AbsTolBelow {
		return AbsTol
	}
	return RelTol * math.Abs(v)
}

// Verdict is the judgement of one result against a .solu file.
type Verdict string

// Verdicts, as the result lines spell them.
const (
	OK      Verdict = "ok"      // consistent with the file
	Fail    Verdict = "fail"    // contradicts the file, or the solver's point is wrong
	Better  Verdict = "better"  // a verified point better than the =best= value
	Timeout Verdict = "timeout" // stopped by a limit, nothing contradicts the file
	Abort   Verdict = "abort"   // the run failed (an error, a crash, an abandoned solver)
	Unknown Verdict = "unknown" // a definite answer the file cannot judge
)

// Result statuses Judge understands: those of the result object (docs/spec.md).
const (
	StatusOptimal     = "optimal"
	StatusFeasible    = "feasible"
	StatusInfeasible  = "infeasible"
	StatusUnbounded   = "unbounded"
	StatusTimeLimit   = "time_limit"
	StatusInterrupted = "interrupted"
	StatusError       = "error"
)

// Answer is what a run reported, as Judge needs it.
type Answer struct {
	Status string // one of the Status constants
	// Objective is the objective of the run's point, recomputed from the model; nil
	// without a point.
	Objective *float64
	// BadPoint marks a point that failed verification against the model: the run
	// claimed a solution that is not one.
	BadPoint bool
	// Aborted marks a run that failed outright (an error, a crash, a solver that
	// ignored its hard stop).
	Aborted  bool
	Maximize bool
	// RelGap and AbsGap are the gaps the run was asked for: an optimum claimed at a
	// gap may be that much worse than the known optimum without contradicting it.
	RelGap, AbsGap float64
}

// Judgement is a verdict with its evidence.
type Judgement struct {
	Verdict Verdict
	Reason  string // the evidence, for fail and better; empty otherwise
}

// Judge judges the answer a against the entry e (known is false when the file has no
// entry for the instance). Precedence: an aborted run is abort; a point that failed
// verification is fail; a verified point on an =inf= instance, or better than an
// =opt= value beyond Tol, is fail; one better than a =best= value beyond Tol is
// better; then the status is compared with the entry.
func Judge(e Entry, known bool, a Answer) Judgement {
	if !known {
		e = Entry{Expected: Unkn}
	}
	if a.Aborted || a.Status == StatusError && !a.BadPoint {
		return Judgement{Verdict: Abort}
	}
	if a.BadPoint {
		return Judgement{Fail, "the reported point violates the model"}
	}
	if a.Objective != nil {
		obj := *a.Objective
		switch {
		case e.Expected == Inf:
			return Judgement{Fail, fmt.Sprintf("verified point of objective %.10g on an instance the file says is infeasible", obj)}
		case e.Expected == Opt && better(obj, e.Value, Tol(e.Value), a.Maximize):
			return Judgement{Fail, fmt.Sprintf("verified point of objective %.10g is better than the optimum %.10g", obj, e.Value)}
		case e.Expected == Best && better(obj, e.Value, Tol(e.Value), a.Maximize):
			return Judgement{Better, fmt.Sprintf("verified point of objective %.10g is better than the best known %.10g", obj, e.Value)}
		}
	}
	switch a.Status {
	case StatusOptimal:
		if a.Objective == nil {
			return Judgement{Fail, "optimal without a point"}
		}
		obj := *a.Objective
		slack := math.Max(Tol(e.Value), math.Max(a.RelGap*math.Abs(e.Value), a.AbsGap))
		switch e.Expected {
		case Opt:
			if better(e.Value, obj, slack, a.Maximize) {
				return Judgement{Fail, fmt.Sprintf("claimed optimum %.10g, the file's optimum is %.10g", obj, e.Value)}
			}
			return Judgement{Verdict: OK}
		case Best:
			if better(e.Value, obj, slack, a.Maximize) {
				return Judgement{Fail, fmt.Sprintf("claimed optimum %.10g is worse than the known solution %.10g", obj, e.Value)}
			}
			return Judgement{Verdict: OK}
		case Unbd:
			return Judgement{Fail, fmt.Sprintf("claimed optimum %.10g on an instance the file says is unbounded", obj)}
		case Feas:
			return Judgement{Verdict: OK}
		}
		return Judgement{Verdict: Unknown}
	case StatusInfeasible:
		switch e.Expected {
		case Opt, Best, Feas:
			return Judgement{Fail, "claimed infeasible on an instance the file says has a solution" + valueNote(e)}
		case Unbd:
			return Judgement{Fail, "claimed infeasible on an instance the file says is unbounded"}
		case Inf:
			return Judgement{Verdict: OK}
		}
		return Judgement{Verdict: Unknown}
	case StatusUnbounded:
		switch e.Expected {
		case Opt, Best:
			return Judgement{Fail, "claimed unbounded on an instance the file gives a finite value" + valueNote(e)}
		case Inf:
			return Judgement{Fail, "claimed unbounded on an instance the file says is infeasible"}
		case Unbd, Feas:
			return Judgement{Verdict: OK}
		}
		return Judgement{Verdict: Unknown}
	}
	// feasible, time_limit, interrupted: stopped by a limit.
	return Judgement{Verdict: Timeout}
}

// better reports whether a is better than b by more than tol in the sense given.
func better(a, b, tol float64, maximize bool) bool {
	if maximize {
		return a > b+tol
	}
	return a < b-tol
}

func valueNote(e Entry) string {
	if e.HasValue() {
		return fmt.Sprintf(" (=%s= %.10g)", e.Expected, e.Value)
	}
	return ""
}
