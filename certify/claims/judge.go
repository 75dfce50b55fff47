package claims

import (
	"fmt"
	"math"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/model"
)

// ObjTol is the relative tolerance, on max(1, |optimum|), within which a claimed
// objective matches the reference optimum (on top of the requested gaps), and within
// which two backends' optima agree.
const ObjTol = 1e-6

// Claim is what one solve said about a model, as the judge sees it.
type Claim struct {
	Status    backends.Status
	Objective float64   // the claimed objective; NaN without a point
	Values    []float64 // the claimed point; nil when the solve claims none
	Err       error     // the solve returned an error instead of a result
}

// ClaimOf returns the claim a solve's result (or error) makes.
func ClaimOf(res backends.Result, err error) Claim {
	if err != nil {
		return Claim{Err: err, Objective: math.NaN()}
	}
	c := Claim{Status: res.Status, Objective: res.Objective}
	if res.HasSolution {
		c.Values = res.Values
		if c.Values == nil {
			c.Values = []float64{} // a point was claimed; Verify reports the wrong length
		}
	}
	return c
}

// String formats the claim for reports, e.g. "optimal -12 (point)".
func (c Claim) String() string {
	if c.Err != nil {
		return "error: " + c.Err.Error()
	}
	s := string(c.Status)
	if !math.IsNaN(c.Objective) {
		s += fmt.Sprintf(" %.10g", c.Objective)
	}
	if c.Values != nil {
		s += " (point)"
	}
	return s
}

// Verdict is the judge's classification of a claim.
type Verdict string

// Verdicts. The wrong ones break the promise that a result is never wrong; the
// indefinite ones keep it but give no answer.
const (
	// OK: the claim agrees with the reference (an indefinite status is Indefinite,
	// never OK).
	OK Verdict = "ok"
	// Unjudged: a definite claim on a model without a reference answer (the other
	// backends did not agree). Points are still verified.
	Unjudged Verdict = "unjudged"
	// Indefinite: no definite status — infeasible-or-unbounded on a model that is
	// one of the two, time limit, interrupt, numerical error, other, or an error
	// return. A point it carries is still verified.
	Indefinite Verdict = "indefinite"

	// FalseInfeasible: infeasible, but a feasible point exists.
	FalseInfeasible Verdict = "false infeasible"
	// FalseUnbounded: unbounded, but the model is infeasible or has an optimum.
	FalseUnbounded Verdict = "false unbounded"
	// FalseOptimal: optimal, but the model is infeasible or unbounded (lp_solve's
	// "optimal" at its infinity 1e30 lands here).
	FalseOptimal Verdict = "false optimal"
	// FalseInfOrUnbd: "infeasible or unbounded", but the model has a finite optimum:
	// neither half of the claim is true.
	FalseInfOrUnbd Verdict = "false inf-or-unbd"
	// WrongOptimum: optimal with an objective, or a point whose recomputed objective,
	// off the true optimum by more than ObjTol·max(1, |opt|) plus the gaps.
	WrongOptimum Verdict = "wrong optimum"
	// BadPoint: a claimed point that model.Verify rejects, or a point that passes
	// Verify only within its tolerances on a model that is infeasible.
	BadPoint Verdict = "bad point"
	// BeyondOptimum: a verified point whose objective is better than the true
	// optimum, under a status other than optimal (a time limit's incumbent, say).
	BeyondOptimum Verdict = "beyond optimum"
)

// WrongVerdicts lists the verdicts that count as wrong claims, in report order.
func WrongVerdicts() []Verdict {
	return []Verdict{FalseInfeasible, FalseUnbounded, FalseOptimal, FalseInfOrUnbd, WrongOptimum, BadPoint, BeyondOptimum}
}

// Wrong reports whether v is a wrong claim.
func (v Verdict) Wrong() bool {
	switch v {
	case OK, Unjudged, Indefinite:
		return false
	}
	return true
}

// Judgement is a verdict with a human-readable reason.
type Judgement struct {
	Verdict Verdict
	Detail  string
}

// definite reports whether s is a definite status.
func definite(s backends.Status) bool {
	return s == backends.Optimal || s == backends.Infeasible || s == backends.Unbounded
}

// objTol returns the tolerance within which an objective matches the optimum opt
// under the gaps of opts.
func objTol(opt float64, opts backends.Options) float64 {
	gap := math.Max(opts.AbsGap, opts.RelGap*math.Max(math.Abs(opt), 1e-10))
	return ObjTol*math.Max(1, math.Abs(opt)) + gap
}

// Judge classifies claim c about m against the reference ref, solved with opts (whose
// gaps widen the objective tolerance). The order of the checks: an error is
// indefinite; a status the reference contradicts is wrong; a claimed point must pass
// model.Verify; an optimum must match the reference's value, and so must its point's
// recomputed objective; no verified point may beat the reference optimum, nor exist
// on an infeasible model; then an indefinite status is Indefinite, a definite claim
// without a reference Unjudged, and the rest OK.
func Judge(m *model.Model, c Claim, ref Truth, opts backends.Options) Judgement {
	if c.Err != nil {
		return Judgement{Indefinite, "error: " + c.Err.Error()}
	}
	switch {
	case c.Status == backends.Optimal && (ref.Status == Infeasible || ref.Status == Unbounded):
		return Judgement{FalseOptimal, fmt.Sprintf("optimal %g on a model that is %s", c.Objective, ref.Status)}
	case c.Status == backends.Infeasible && (ref.Status == Optimal || ref.Status == Unbounded):
		return Judgement{FalseInfeasible, "infeasible, but the model is " + ref.String()}
	case c.Status == backends.Unbounded && (ref.Status == Optimal || ref.Status == Infeasible):
		return Judgement{FalseUnbounded, "unbounded, but the model is " + ref.String()}
	case c.Status == backends.InfeasibleOrUnbounded && ref.Status == Optimal:
		return Judgement{FalseInfOrUnbd, "infeasible or unbounded, but the model is " + ref.String()}
	}
	var rep model.Report
	if c.Values != nil {
		var err error
		rep, err = m.Verify(c.Values)
		if err != nil {
			return Judgement{BadPoint, err.Error()}
		}
		if !rep.Feasible() {
			return Judgement{BadPoint, fmt.Sprintf("%s point violates the model: %s", c.Status, rep.Worst)}
		}
	}
	sign := float64(m.Sense())
	if ref.Status == Optimal {
		opt, tol := ref.Objective, objTol(ref.Objective, opts)+ref.Slack
		if c.Status == backends.Optimal {
			if !(math.Abs(c.Objective-opt) <= tol) {
				return Judgement{WrongOptimum, fmt.Sprintf("optimal %.10g, true optimum %.10g", c.Objective, opt)}
			}
			if c.Values != nil && !(math.Abs(rep.Objective-opt) <= tol) {
				return Judgement{WrongOptimum, fmt.Sprintf("optimal point's objective %.10g, true optimum %.10g", rep.Objective, opt)}
			}
		}
		if c.Values != nil && sign*(rep.Objective-opt) < -tol {
			return Judgement{BeyondOptimum, fmt.Sprintf("%s point's objective %.10g beats the optimum %.10g", c.Status, rep.Objective, opt)}
		}
	}
	if ref.Status == Infeasible && c.Values != nil {
		return Judgement{BadPoint, fmt.Sprintf("%s point (max violation %.3g) on an infeasible model", c.Status, rep.MaxViolation())}
	}
	switch {
	case !definite(c.Status):
		return Judgement{Indefinite, string(c.Status)}
	case ref.Status == Unknown:
		return Judgement{Unjudged, "no reference answer"}
	}
	return Judgement{OK, ""}
}
