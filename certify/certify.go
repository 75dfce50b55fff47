package certify

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/model"
)

// Policy says how much confirmation a solve's claims get. The zero value is the
// default policy: every claim is verified, infeasibility and unboundedness are
// confirmed, and cheap MIP optima are confirmed by a cutoff solve; a second backend
// takes part only when one is given.
type Policy struct {
	// Second is an independent backend. It confirms claims of backends that have no
	// presolve to switch off (a re-solve of lp_solve takes the same path), decides
	// when two solves without a verified point disagree and, with Certify, confirms
	// every optimum. nil: no second opinion is available.
	Second backends.Solver
	// Third is a further independent backend, asked when the first two paths leave a
	// claim undecided (for example an infeasibility that only a presolve can prove,
	// on a model whose second backend loops). nil: none.
	Third backends.Solver
	// Certify confirms every optimum, however long the first solve took, with Second
	// (with the first backend without presolve when Second is nil): a re-solve with
	// an objective cutoff just better than the claimed value must come back
	// infeasible.
	Certify bool
	// ConfirmBelow is the solve time under which a MIP optimum is confirmed by a
	// cutoff solve even without Certify; 0 means DefaultConfirmBelow, a negative
	// value never confirms optima on the default path.
	ConfirmBelow time.Duration
	// Off disables the policy and passes the solver's raw claims through. Only the
	// wrong-claims suite uses it, to count what the solvers claim on their own.
	Off bool
}

// DefaultConfirmBelow is the default Policy.ConfirmBelow. Below it a second look
// costs less than starting a process, and it is where the random models that exposed
// the presolve bugs live (they solve in milliseconds). Above it, proving the optimum
// again costs about as much as finding it (HiGHS without presolve took 0.8 to 1.6
// times the presolved solve's time on nine MIPLIB 3 instances of 0.1 to 1 s), so a
// confirmation within the price of one solve would mostly end inconclusive; longer
// solves are confirmed with Policy.Certify (docs/certification.md).
const DefaultConfirmBelow = 100 * time.Millisecond

// confirmBudget bounds each confirmation solve when the caller set no time limit: this
// many times the first solve's time, and at least minConfirmTime. Some confirmations
// cannot end by themselves (branch and bound without presolve on an integer-infeasible
// model with free columns, such as 6x + 10y + 14z = 7, never terminates), so every
// confirmation has a limit. One that runs out leaves the claim unconfirmed or passes
// the question to the second backend; it never turns a claim into its opposite.
const (
	confirmBudget  = 10
	minConfirmTime = 2 * time.Second
)

// Without Policy.Certify, a cutoff solve confirming an optimum gets no more time than
// the first solve took (and at least minCutoffTime, the time a tiny model's solve
// takes to set up): a confirmation never costs more than the solve it confirms. It
// runs on a path in this process when there is one (a child process spends tens of
// milliseconds starting); only when it ran in a child process and ran out does one
// more path get the same cap (cutoffTries). A confirmation that runs out leaves the
// optimum backed by the solver's proof and the verified point alone, and the
// certificate says so.
const (
	minCutoffTime = 10 * time.Millisecond
	// cutoffTries is how many paths (each on another backend) the cutoff solve of an
	// optimum may take, each under the same cap, when the one before ran out in a
	// child process: it may have spent its cap starting (CBC's child process on a
	// loaded machine) on a tiny model whose optimum is wrong.
	cutoffTries = 2
)

// StopGrace is how long after a solve's time limit, or after the cancellation of its
// context, Solve waits for a backend to return before it abandons the solve and
// answers without it (a time limit, or an interruption, with no point). HiGHS 1.10
// does not watch its clock, nor its interrupt callback, in every phase of a MIP
// solve; an abandoned solve goes on in its goroutine, asked to stop through its
// context, until its solver returns. With StopGrace, Solve returns within its
// caller's time limit plus well under a second whatever a backend does.
const StopGrace = 400 * time.Millisecond

// Tolerances of the policy.
const (
	// AgreeTol is the relative difference, on top of the requested gaps, within which
	// two objective values count as the same optimum.
	AgreeTol = 1e-6
	// Infinity is the magnitude at or beyond which a value is a solver's infinity:
	// lp_solve reports 1e30 as the "optimal" objective of unbounded models, and the
	// MPS convention takes |v| >= 1e20 as infinite.
	Infinity = 1e20
	// RefuteTol is the relative margin, beyond the gaps, by which a verified point must
	// beat a claimed optimum to refute it. A point accepted within
	// model.FeasibilityTol can beat a true optimum by about 1e-6 relative (rows
	// violated by 5e-7 moved a dlt-single optimum by 1e-6); the wrong optima seen
	// from the solvers were off by 1e-3 and more.
	RefuteTol = 1e-4
	// rayTol is the scaled tolerance of the ray check: a row's a·d may have the wrong
	// sign by rayTol·Σ|a_j·d_j|.
	rayTol = 1e-7
)

// Presolver is implemented by backends whose default run presolves the model. For
// them a re-solve with backends.PresolveOff takes an independent path through the
// solver, which is how the policy confirms their claims without a second backend.
type Presolver interface {
	PresolvesByDefault() bool
}

// Isolated is implemented by backends that run every solve in a child process (CBC,
// whose assertion failures would otherwise end the caller's process). Each solve then
// pays a process start, tens of milliseconds, so the policy asks such a backend last
// where a cheap look will do: the ray LP and the capped cutoff solve of an optimum.
type Isolated interface {
	SolvesInChildProcess() bool
}

// Certificate records how a result's status was established: the checks made and
// every solve behind it.
type Certificate struct {
	// Method says in words how the status was confirmed, e.g. "solver proof, point
	// verified, cutoff solve on highs without presolve infeasible".
	Method string `json:"method"`
	// Confirmed is true when a second, independent solve or a checked certificate
	// (a verified point, a verified ray) backs the status beyond the solver's claim.
	Confirmed bool `json:"confirmed"`
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
	Backend   string   `json:"backend"`   // the backend's name, with " (presolve off)" when switched off
	Purpose   string   `json:"purpose"`   // one of the Purpose* constants
	Status    string   `json:"status"`    // the backend's raw status
	Objective *float64 `json:"objective"` // the objective of its point, null without one
	Seconds   float64  `json:"seconds"`
}

// Purposes of the solves in a Certificate.
const (
	PurposeSolve       = "solve"       // the solve asked for
	PurposeConfirm     = "confirm"     // the same model again, by another path
	PurposeCutoff      = "cutoff"      // the model with an objective cutoff just better than the claim
	PurposeFeasibility = "feasibility" // the model with a zero objective
	PurposeRay         = "ray"         // the LP of improving rays of the relaxation
)

// Result is a certified backend result: Status, Values, Objective, Bound and Gap
// have passed the policy, and Certificate says how.
type Result struct {
	backends.Result
	Certificate Certificate
}

// Solve solves m with s under policy p and returns a result whose every claim has
// been checked:
//
//   - a point (optimal or feasible) is verified against m (bounds, integrality,
//     every row, model.FeasibilityTol and model.IntegralityTol) and its objective
//     recomputed; a violating point is never returned: the model is re-solved by
//     another path, and when that fails too the status is NumericalError with the
//     violated row or column in the message;
//   - an objective at or beyond Infinity is an unboundedness claim, never an optimum;
//   - infeasibility is confirmed by a re-solve without presolve (by Second for
//     backends without presolve); when the two disagree, a verified point decides,
//     and otherwise Second;
//   - unboundedness needs a verified feasible point and a verified improving ray of
//     the LP relaxation (for rational data, a feasible MIP whose relaxation is
//     unbounded is unbounded: Meyer 1974);
//   - "infeasible or unbounded" is always resolved: a feasibility solve with a zero
//     objective, then the ray LP;
//   - a MIP optimum whose first solve took less than ConfirmBelow, and every optimum
//     with Certify, is confirmed by a cutoff solve that must come back infeasible;
//     a verified better point refutes the claim and replaces it. Without Certify the
//     cutoff solve runs in this process where it can and gets no more than the first
//     solve's time (and at least minCutoffTime); when it ran in a child process and
//     ran out, one more path on another backend gets the same. An inconclusive
//     confirmation leaves the optimum on the solver's proof and the verified point,
//     and the certificate's method says so.
//
// Confirmations of a claim that still stands run under a budget (the remainder of
// the caller's limit, or without one ten times the first solve and at least 2 s).
// Once a verified point refutes a claim, the path that found it is no longer a
// confirmation but the solve: it solves on to the end from that point under the
// caller's limit, none when the caller set none.
//
// Solve returns within opts.TimeLimit plus StopGrace and a little (when it is set),
// and within StopGrace of ctx's end, whatever the backends do: a solve that overruns
// is abandoned (see StopGrace).
//
// An error means no solve could be attempted or the backend failed outright.
func Solve(ctx context.Context, s backends.Solver, m *model.Model, opts backends.Options, p Policy) (Result, error) {
	if p.Off {
		raw, err := call(ctx, s, m, opts)
		if err != nil {
			return Result{}, err
		}
		return Result{Result: raw, Certificate: Certificate{Method: "raw solver claim (certification off)",
			Solves: []Attempt{{Backend: s.Name(), Purpose: PurposeSolve, Status: string(raw.Status), Seconds: raw.Time.Seconds()}}}}, nil
	}
	c := &certifier{m: m, opts: opts, p: p, first: s, begin: time.Now(), tried: map[tried]bool{}, discredited: map[path]bool{}}
	if opts.TimeLimit > 0 {
		// The whole certified solve ends by the caller's limit plus StopGrace (and a
		// little, so that the first solve's own guard, which reports a time limit,
		// fires first): later solves find their context done and return at once.
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadlineCause(ctx, c.begin.Add(opts.TimeLimit+StopGrace+overallSlack), errOverall)
		defer cancel()
	}
	l, err := c.solve(ctx, s, opts.Presolve, m, PurposeSolve, opts)
	if err != nil {
		return Result{}, err
	}
	c.firstTime = l.res.Time
	res, err := c.certify(ctx, l, 0)
	if err != nil {
		return Result{}, err
	}
	return c.result(res), nil
}

// certifier holds one certified solve's state.
type certifier struct {
	m     *model.Model
	opts  backends.Options
	p     Policy
	first backends.Solver
	begin time.Time
	cert  Certificate
	// firstTime is the first solve's time, the yardstick of confirmation budgets.
	firstTime time.Duration
	// tried records the paths already taken on each model (m, its feasibility and
	// cutoff models), so that every further look is a new one.
	tried map[tried]bool
	// discredited holds the paths that made a claim the policy refuted: they are
	// never asked to confirm anything afterwards.
	discredited map[path]bool
	// The ray LP's outcome, once it is known (found, or no ray by enough backends).
	rayDone, rayFound bool
	// latticeDone and proved record the exact integer-infeasibility argument
	// (integerInfeasible), tried once.
	latticeDone, proved bool
	rayNorm             float64
	steps               []string // what established the status, in words, for Certificate.Method
	notes               []string
}

// look is one solve's claim after the checks that need no solve.
type look struct {
	model    *model.Model // the model solved: m itself, or its feasibility model
	res      backends.Result
	who      string // backend name, with " (presolve off)"
	solver   backends.Solver
	presolve backends.Presolve
	verified bool // res.HasSolution and the point passed model.Verify
	worst    string
	maxViol  float64
	atInf    bool          // the solver reported an objective at its infinity
	limit    time.Duration // the solve's time limit (0: none)
}

// errOverall is the cause of the context of a certified solve whose caller's time
// limit (plus StopGrace) has passed.
var errOverall = errors.New("certify: time limit of the certified solve reached")

// overallSlack separates the deadline of a whole certified solve from that of its
// first solve, which has the same limit.
const overallSlack = 100 * time.Millisecond

// call runs s.Solve and returns what it returns, unless the solve overruns: StopGrace
// after its time limit, or after ctx is done, call stops waiting, cancels the solve's
// context and returns a result without a point (TimeLimit, or Interrupted when ctx is
// done). The abandoned solve ends in its goroutine when its solver returns.
func call(ctx context.Context, s backends.Solver, m *model.Model, opts backends.Options) (backends.Result, error) {
	type out struct {
		res backends.Result
		err error
	}
	begin := time.Now()
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan out, 1)
	go func() {
		res, err := s.Solve(sctx, m, opts)
		done <- out{res, err}
	}()
	var hard <-chan time.Time
	if opts.TimeLimit > 0 {
		t := time.NewTimer(opts.TimeLimit + StopGrace)
		defer t.Stop()
		hard = t.C
	}
	select {
	case o := <-done:
		return o.res, o.err
	case <-hard:
	case <-ctx.Done():
		if context.Cause(ctx) != errOverall {
			t := time.NewTimer(StopGrace)
			defer t.Stop()
			select {
			case o := <-done:
				return o.res, o.err
			case <-t.C:
			}
		}
	}
	st, why := backends.TimeLimit, fmt.Sprintf("time limit reached; the solver overran it by %v and was abandoned", StopGrace)
	if ctx.Err() != nil && context.Cause(ctx) != errOverall {
		st, why = backends.Interrupted, fmt.Sprintf("interrupted: context done; the solver did not stop within %v and was abandoned", StopGrace)
	}
	r := backends.Stopped(s.Name(), st, why)
	r.Time = time.Since(begin)
	return r, nil
}

// maxDepth bounds how often a refuted claim leads to another solve.
const maxDepth = 3

func (c *certifier) result(r backends.Result) Result {
	r.Time = time.Since(c.begin)
	if r.HasSolution {
		r.Gap = backends.RelativeGap(r.Objective, r.Bound)
		if rep, err := c.m.Verify(r.Values); err == nil {
			c.cert.MaxViolation = rep.MaxViolation()
		}
	} else {
		r.Objective, r.Gap, r.Values = math.NaN(), math.NaN(), nil
	}
	if r.Status == backends.Infeasible || r.Status == backends.Unbounded {
		r.Bound = math.NaN()
	}
	if len(c.steps) > 0 {
		c.cert.Method = strings.Join(c.steps, ", ")
	} else if c.cert.Method == "" {
		c.cert.Method = "solver claim"
	}
	c.cert.Note = strings.Join(c.notes, "; ")
	if c.cert.Note != "" && !strings.Contains(r.Message, c.cert.Note) {
		r.Message += " [certify: " + c.cert.Note + "]"
	}
	return Result{Result: r, Certificate: c.cert}
}

// solve runs one solve and applies the checks that need no solve: the point is
// verified against the original model and its objective recomputed; an objective at
// the solver's infinity turns the claim into one of unboundedness.
func (c *certifier) solve(ctx context.Context, s backends.Solver, pre backends.Presolve, m *model.Model, purpose string, opts backends.Options) (look, error) {
	opts.Presolve = pre
	who := s.Name()
	if pre == backends.PresolveOff && presolves(s) {
		who += " (presolve off)"
	}
	c.tried[tried{m, s, pre}] = true
	raw, err := call(ctx, s, m, opts)
	if err != nil {
		return look{}, fmt.Errorf("certify: %s on %s: %w", purpose, who, err)
	}
	l := look{model: m, res: raw, who: who, solver: s, presolve: pre, limit: opts.TimeLimit}
	at := Attempt{Backend: who, Purpose: purpose, Status: string(raw.Status), Seconds: raw.Time.Seconds()}
	if raw.HasSolution && isInf(raw.Objective) {
		l.atInf = true
	}
	if raw.HasSolution && !l.atInf && purpose != PurposeRay {
		// The point is judged against the original model: a cutoff or feasibility
		// model differs from it in one row or the objective only.
		rep, err := c.m.Verify(raw.Values)
		switch {
		case err != nil:
			l.worst = err.Error()
		case rep.Feasible():
			l.verified = true
			l.res.Objective = rep.Objective
			o := rep.Objective
			at.Objective = &o
		default:
			l.worst, l.maxViol = rep.Worst, rep.MaxViolation()
		}
	}
	if l.atInf {
		l.res.Status = backends.Unbounded
		l.res.HasSolution, l.res.Values = false, nil
		l.res.Objective, l.res.Bound = math.NaN(), math.NaN()
	}
	c.cert.Solves = append(c.cert.Solves, at)
	return l, nil
}

// certify turns a look into a result whose status is backed by the policy. depth
// counts the re-solves a refuted claim has led to.
func (c *certifier) certify(ctx context.Context, l look, depth int) (backends.Result, error) {
	if l.res.HasSolution && !l.verified && !l.atInf {
		return c.violatingPoint(ctx, l, depth)
	}
	switch {
	case l.res.Status == backends.Optimal:
		return c.optimal(ctx, l, depth)
	case l.res.Status == backends.Infeasible:
		return c.infeasible(ctx, l, depth)
	case l.res.Status == backends.Unbounded, l.res.Status == backends.InfeasibleOrUnbounded:
		return c.unboundedOrInfeasible(ctx, l, depth)
	}
	if l.verified {
		c.steps = append(c.steps, "point verified, no proof of optimality ("+string(l.res.Status)+")")
		return l.res, nil
	}
	if l.res.Status == backends.Other || l.res.Status == backends.NumericalError {
		// No answer and no limit reached (seen: CBC 2.10 ending "before branch and
		// bound" on a model with a MIP start, a worker that died): another path
		// gets the question, so that the caller still gets a definite status.
		if alt, ok := c.other(l, depth); ok {
			c.notes = append(c.notes, fmt.Sprintf("%s ended with %s and no answer (%s)", l.who, l.res.Status, l.res.Message))
			l2, err := c.solve(ctx, alt.s, alt.pre, c.m, PurposeConfirm, c.confirmOpts())
			if err != nil {
				return backends.Result{}, err
			}
			return c.certify(ctx, l2, depth+1)
		}
	}
	return l.res, nil
}

// violatingPoint handles a point that model.Verify rejects: it is never reported.
// The model is solved again by another path; when none is left, the result is a
// NumericalError naming the worst violation.
func (c *certifier) violatingPoint(ctx context.Context, l look, depth int) (backends.Result, error) {
	c.discredit(l)
	c.notes = append(c.notes, fmt.Sprintf("%s returned a point that violates the model: %s", l.who, l.worst))
	if alt, ok := c.other(l, depth); ok {
		l2, err := c.solve(ctx, alt.s, alt.pre, c.m, PurposeConfirm, c.confirmOpts())
		if err != nil {
			return backends.Result{}, err
		}
		return c.certify(ctx, l2, depth+1)
	}
	r := l.res
	r.Status = backends.NumericalError
	r.HasSolution = false
	r.Message = "solver returned a point that violates the model: " + l.worst
	c.cert.MaxViolation = l.maxViol
	return r, nil
}

// optimal confirms an optimality claim with a verified point. On a model with open
// columns it first looks for an improving ray: a verified point and a ray prove the
// model unbounded (CBC 2.10 has claimed optima of -1.6e11 on unbounded MILPs, and
// confirmed them with cutoff solves it called infeasible).
func (c *certifier) optimal(ctx context.Context, l look, depth int) (backends.Result, error) {
	if hasOpenColumn(c.m) {
		// Without Certify, the ray LPs that back an optimum get half the first
		// solve's time in all (at least minCutoffTime): an LP of the model's size is
		// usually far quicker than the MIP, and with its cutoff solve (at most the
		// first solve's time) the confirmations of an optimum cost at most one and a
		// half first solves.
		o := c.confirmOpts()
		if !c.p.Certify {
			o.TimeLimit = min(o.TimeLimit, max(c.firstTime/2, minCutoffTime))
		}
		norm, found, err := c.ray(ctx, l.solver, o)
		if err != nil {
			return backends.Result{}, err
		}
		if found {
			c.discredit(l)
			c.notes = append(c.notes, fmt.Sprintf("%s claimed the optimum %g of a model with an improving ray", l.who, l.res.Objective))
			c.steps = append(c.steps, "verified feasible point and verified improving ray")
			c.cert.Confirmed = true
			r := l.res
			r.Status = backends.Unbounded
			r.HasSolution, r.Values = false, nil
			r.Message = fmt.Sprintf("unbounded: feasible point and improving ray of norm %.3g", norm)
			return r, nil
		}
	}
	c.steps = append(c.steps, "solver proof, point verified")
	mip := c.m.NumIntegers() > 0
	quick := c.confirmBelow() > 0 && l.res.Time < c.confirmBelow()
	if !c.p.Certify && !(mip && quick) {
		return l.res, nil
	}
	z := l.res.Objective
	cut, delta := c.cutoffModel(z)
	// Any path other than the claim's own will do: the cutoff model is new to all.
	// Capped, it takes one in this process first: a child process may spend the cap
	// starting.
	lc := l
	lc.model = cut
	alt, ok := c.other(lc, depth)
	switch {
	case c.p.Certify && c.p.Second != nil && c.p.Second != l.solver:
		alt, ok = path{c.p.Second, backends.PresolveAuto}, true
	case !c.p.Certify:
		alt, ok = c.cheapOther(lc, depth)
	}
	if !ok {
		return l.res, nil
	}
	var l2 look
	var opts backends.Options
	var inconclusive []string
	for try := 0; try < cutoffTries; try++ {
		if try > 0 {
			// The last cutoff solve ran out in a child process: one more path, on
			// another backend, with the same cap.
			if c.p.Certify || !isolated(l2.solver) {
				break
			}
			lc.solver, lc.presolve = l2.solver, l2.presolve
			if alt, ok = c.cheapOther(lc, depth, l2.solver); !ok {
				break
			}
		}
		opts = c.confirmOpts()
		switch {
		case c.p.Certify && c.opts.TimeLimit == 0:
			opts.TimeLimit = 0 // asked for: as long as it takes
		case !c.p.Certify:
			// Not asked for: no longer than the solve it confirms (and minCutoffTime).
			opts.TimeLimit = min(opts.TimeLimit, max(c.firstTime, minCutoffTime))
		}
		var err error
		if l2, err = c.solve(ctx, alt.s, alt.pre, cut, PurposeCutoff, opts); err != nil {
			return backends.Result{}, err
		}
		sense := float64(c.m.Sense())
		switch {
		case l2.res.Status == backends.Infeasible:
			c.steps = append(c.steps, fmt.Sprintf("cutoff solve on %s infeasible", l2.who))
			c.cert.Confirmed = true
			return l.res, nil
		case l2.verified && sense*(z-l2.res.Objective) > delta+RefuteTol*math.Max(1, math.Abs(z)):
			// A verified point better than the claim by more than the gaps: the claim
			// was wrong. The cutoff model's optimum is the original's, since the true
			// optimum lies beyond the cutoff.
			c.discredit(l)
			c.notes = append(c.notes, fmt.Sprintf("%s claimed the optimum %g; %s found a verified point of %g", l.who, z, l2.who, l2.res.Objective))
			c.steps = c.steps[:0]
			if l2, err = c.finish(ctx, l2); err != nil {
				return backends.Result{}, err
			}
			if l2.res.Status == backends.Optimal {
				c.steps = append(c.steps, fmt.Sprintf("first claim refuted; optimum from the cutoff solve on %s, point verified", l2.who))
				return l2.res, nil
			}
			r := l2.res
			r.Status = backends.Other
			c.steps = append(c.steps, "first claim refuted by a verified better point, no proof of optimality")
			return r, nil
		case l2.verified:
			// Better only by what the feasibility tolerance allows: no refutation, no
			// confirmation either.
			c.steps = append(c.steps, fmt.Sprintf("cutoff solve on %s found a point within the feasibility tolerance of the claim (%.10g)", l2.who, l2.res.Objective))
			return l.res, nil
		}
		inconclusive = append(inconclusive, fmt.Sprintf("%s: %s", l2.who, l2.res.Status))
	}
	if !c.p.Certify {
		c.steps = append(c.steps, fmt.Sprintf("cutoff solve inconclusive (%s; capped at %.3g s, the first solve's time or %v: optimum not confirmed beyond the solver's proof)",
			strings.Join(inconclusive, ", "), opts.TimeLimit.Seconds(), minCutoffTime))
		return l.res, nil
	}
	c.steps = append(c.steps, fmt.Sprintf("cutoff solve on %s inconclusive (%s)", l2.who, l2.res.Status))
	return l.res, nil
}

// finish lets the path whose verified point refuted a claim solve on to the end: it is
// then no longer a confirmation but the solve, and gets what remains of the caller's
// time limit (none means none) instead of a confirmation budget. The re-solve starts
// from the refuting point. A look that ended with a proof, or whose run already had
// the caller's whole limit, is returned as it is, and so is l when the re-solve ends
// without a verified point.
func (c *certifier) finish(ctx context.Context, l look) (look, error) {
	if !l.verified || l.res.Status == backends.Optimal || l.limit == 0 || ctx.Err() != nil {
		return l, nil
	}
	o := c.solveOpts()
	if o.TimeLimit > 0 && l.limit >= o.TimeLimit {
		return l, nil
	}
	start := l.model.Clone()
	start.ClearStart()
	for j, v := range l.res.Values {
		start.SetStart(model.Var(j), v)
	}
	l2, err := c.solve(ctx, l.solver, l.presolve, start, PurposeSolve, o)
	if err != nil {
		return look{}, err
	}
	if !l2.verified {
		return l, nil
	}
	return l2, nil
}

// solveOpts returns the options of a solve that replaces a refuted claim: the
// caller's, with what remains of the caller's time limit, and no limit when the
// caller set none.
func (c *certifier) solveOpts() backends.Options {
	o := c.opts
	if o.TimeLimit > 0 {
		o.TimeLimit = max(o.TimeLimit-time.Since(c.begin), time.Millisecond)
	}
	return o
}

// infeasible confirms an infeasibility claim about m by another path. When m's LP
// relaxation has an improving ray, "infeasible" and "unbounded" are easily confused
// (CBC 2.10 reports unbounded MILPs as infeasible, with and without presolve), so
// the claim is decided on the feasibility model instead, which has no objective to
// be unbounded in.
func (c *certifier) infeasible(ctx context.Context, l look, depth int) (backends.Result, error) {
	if _, found, err := c.ray(ctx, l.solver, c.confirmOpts()); err != nil {
		return backends.Result{}, err
	} else if found {
		c.notes = append(c.notes, fmt.Sprintf("%s claims infeasibility of a model whose relaxation has an improving ray: decided on the feasibility model", l.who))
		return c.unboundedOrInfeasible(ctx, l, depth)
	}
	v, l2, err := c.confirmInfeasible(ctx, l, depth)
	if err != nil {
		return backends.Result{}, err
	}
	switch v {
	case confirmed:
		if l2.who != l.who {
			c.steps = append(c.steps, fmt.Sprintf("%s claims infeasibility, confirmed by %s", l.who, l2.who))
		}
		c.cert.Confirmed = l2.who != l.who || c.proved
		return l2.res, nil
	case refuted:
		c.discredit(l)
		c.notes = append(c.notes, fmt.Sprintf("%s claimed infeasibility; %s found a verified point", l.who, l2.who))
		if l2, err = c.finish(ctx, l2); err != nil {
			return backends.Result{}, err
		}
		return c.certify(ctx, l2, depth+1)
	}
	return unconfirmed(l2.res, fmt.Sprintf("infeasibility claimed by %s, not confirmed (%s: %s)", l.who, l2.who, l2.res.Status)), nil
}

// verdict is the outcome of confirmInfeasible.
type verdict int

const (
	undecided verdict = iota // no other path agreed or found a point
	confirmed                // another path also claims infeasibility (or none is left)
	refuted                  // another path found a verified point
)

// confirmInfeasible takes up to two more looks at l.model, about which l claims
// infeasibility, by other paths (the same backend without presolve, then Second).
// The first that also claims infeasibility confirms the claim, and the first with a
// verified point refutes it; the look returned is that one, or the last one made.
// With no other path at all the claim stands as the solver's alone (returned as l).
func (c *certifier) confirmInfeasible(ctx context.Context, l look, depth int) (verdict, look, error) {
	if !c.latticeDone {
		c.latticeDone = true
		if proof, ok := integerInfeasible(c.m); ok {
			c.proved = true
			c.steps = append(c.steps, "confirmed by an exact argument: "+proof)
		}
	}
	if c.proved {
		return confirmed, l, nil
	}
	last := l
	for look := range 2 {
		var skip []backends.Solver
		if last.who != l.who {
			skip = append(skip, last.solver) // a further look at a backend that just gave up proves little
		}
		alt, ok := c.other(last, depth, skip...)
		if !ok {
			break
		}
		o := c.confirmOpts()
		if look == 0 && c.opts.TimeLimit > 0 {
			// Under the caller's limit, the first look leaves half of what remains to
			// the second: a backend that cannot decide (HiGHS 1.10 branching on, deaf
			// to its limit) must not take the other path's chance to.
			o.TimeLimit = max(o.TimeLimit/2, time.Millisecond)
		}
		next, err := c.solve(ctx, alt.s, alt.pre, l.model, purposeOf(l), o)
		if err != nil {
			return undecided, next, err
		}
		switch {
		case next.res.Status == backends.Infeasible:
			return confirmed, next, nil
		case next.verified:
			return refuted, next, nil
		}
		last, depth = next, depth+1
	}
	if last.who == l.who {
		c.steps = append(c.steps, "solver claim, no independent path left to confirm it")
		return confirmed, l, nil
	}
	return undecided, last, nil
}

// purposeOf names a second look at l's model.
func purposeOf(l look) string {
	if strings.HasSuffix(l.model.Name, feasibilitySuffix) {
		return PurposeFeasibility
	}
	return PurposeConfirm
}

// feasibilitySuffix ends the name of a feasibility model.
const feasibilitySuffix = "_feasibility"

// unboundedOrInfeasible resolves an unboundedness or "infeasible or unbounded" claim
// to a definite status: a feasibility solve (zero objective) decides whether a point
// exists, its infeasibility claim confirmed like any other, and the ray LP whether
// the relaxation has an improving ray.
func (c *certifier) unboundedOrInfeasible(ctx context.Context, l look, depth int) (backends.Result, error) {
	feas := c.m.Clone()
	feas.Name = c.m.Name + feasibilitySuffix
	feas.SetObjective(c.m.Sense(), model.Expr{})
	feas.ClearStart()
	lf, err := c.solve(ctx, l.solver, l.presolve, feas, PurposeFeasibility, c.confirmOpts())
	if err != nil {
		return backends.Result{}, err
	}
	if !lf.verified {
		var v verdict
		var lf2 look
		if lf.res.Status == backends.Infeasible {
			v, lf2, err = c.confirmInfeasible(ctx, lf, depth)
		} else if alt, ok := c.other(lf, depth, lf.solver); ok {
			// No point and no claim (a time limit, a violating point): one more look,
			// whose own infeasibility claim needs its confirmation in turn.
			lf2, err = c.solve(ctx, alt.s, alt.pre, feas, PurposeFeasibility, c.confirmOpts())
			switch {
			case err != nil:
			case lf2.verified:
				v = refuted
			case lf2.res.Status == backends.Infeasible:
				lf = lf2
				v, lf2, err = c.confirmInfeasible(ctx, lf2, depth+1)
			}
		}
		if err != nil {
			return backends.Result{}, err
		}
		switch v {
		case confirmed:
			what := fmt.Sprintf("%s: %s; the feasibility solve on %s is infeasible", l.who, l.res.Status, lf.who)
			if lf2.who != lf.who {
				what += ", confirmed by " + lf2.who
			}
			c.steps = append(c.steps, what)
			c.cert.Confirmed = lf2.who != lf.who || c.proved
			r := lf2.res
			r.Status = backends.Infeasible
			return r, nil
		case undecided:
			// No solver decides; an exact proof that no integer point exists still does
			// (the claim said "infeasible" or "infeasible or unbounded" outright, or
			// "unbounded" of a model the proof shows has no point).
			if !c.latticeDone {
				c.latticeDone = true
				if proof, ok := integerInfeasible(c.m); ok {
					c.proved = true
					c.steps = append(c.steps, fmt.Sprintf("%s: %s; the feasibility solves ended without an answer; infeasible by an exact argument: %s", l.who, l.res.Status, proof))
					c.cert.Confirmed = true
					r := l.res
					r.Status = backends.Infeasible
					r.HasSolution, r.Values = false, nil
					return r, nil
				}
			}
			return unconfirmed(l.res, fmt.Sprintf("the feasibility solves ended without an answer (%s: %s)", lf.who, lf.res.Status)), nil
		}
		if lf.res.Status == backends.Infeasible {
			c.discredit(lf)
			c.notes = append(c.notes, fmt.Sprintf("the feasibility solve on %s claimed infeasibility; %s found a verified point", lf.who, lf2.who))
		}
		lf = lf2
	}
	// A verified point exists: the model is unbounded exactly when the relaxation has
	// an improving ray.
	ray, found, err := c.ray(ctx, l.solver, c.confirmOpts())
	if err != nil {
		return backends.Result{}, err
	}
	if found {
		c.steps = append(c.steps, fmt.Sprintf("%s: %s; verified feasible point and verified improving ray", l.who, l.res.Status))
		c.cert.Confirmed = true
		r := l.res
		r.Status = backends.Unbounded
		r.HasSolution, r.Values = false, nil
		r.Message = fmt.Sprintf("unbounded: feasible point and improving ray of norm %.3g", ray)
		return r, nil
	}
	// Bounded and feasible: the claim was wrong. Solve for the optimum, starting from
	// the feasible point.
	c.discredit(l)
	c.notes = append(c.notes, fmt.Sprintf("%s claimed %s, but the model has a feasible point and no improving ray", l.who, l.res.Status))
	start := c.m.Clone()
	start.ClearStart()
	for j, v := range lf.res.Values {
		start.SetStart(model.Var(j), v)
	}
	alt, ok := c.other(l, depth)
	if !ok {
		alt = path{l.solver, backends.PresolveOff}
	}
	// The claim is refuted: this solve is the solve, under the caller's limit.
	l2, err := c.solve(ctx, alt.s, alt.pre, start, PurposeSolve, c.solveOpts())
	if err != nil {
		return backends.Result{}, err
	}
	if l2.res.Status == backends.Unbounded || l2.res.Status == backends.InfeasibleOrUnbounded || l2.res.Status == backends.Infeasible {
		// Still no optimum: report the verified point without a proof.
		r := lf.res
		r.Status = backends.Other
		r.Objective = c.objective(lf.res.Values)
		r.Bound = math.NaN()
		c.steps = append(c.steps, "point verified, no proof of optimality")
		return r, nil
	}
	return c.certify(ctx, l2, maxDepth)
}

// unconfirmed turns a claim the policy could not back into Other.
func unconfirmed(r backends.Result, why string) backends.Result {
	r.Status = backends.Other
	r.HasSolution, r.Values = false, nil
	r.Message += " (" + why + ")"
	return r
}

// path is a way to solve the model again: a backend and its presolve setting.
type path struct {
	s   backends.Solver
	pre backends.Presolve
}

// discredit records that l's path made a claim the policy refuted.
func (c *certifier) discredit(l look) { c.discredited[path{l.solver, l.presolve}] = true }

// tried identifies a path taken on a model.
type tried struct {
	m   *model.Model
	s   backends.Solver
	pre backends.Presolve
}

// other returns a new path for another look at l's model: first the same backend
// without presolve when l ran with it (cheap, and off the path of the presolve bugs),
// then the first backend, Second and Third, each with and without presolve, skipping
// paths already taken on that model and backends in skip. ok is false when none is
// left, or when depth has reached maxDepth.
func (c *certifier) other(l look, depth int, skip ...backends.Solver) (path, bool) {
	if depth >= maxDepth {
		return path{}, false
	}
	var cands []path
	if presolves(l.solver) && l.presolve != backends.PresolveOff {
		cands = append(cands, path{l.solver, backends.PresolveOff})
	}
	cands = append(cands, path{c.first, c.opts.Presolve})
	for _, s := range []backends.Solver{c.first, c.p.Second, c.p.Third} {
		if s == nil {
			continue
		}
		cands = append(cands, path{s, backends.PresolveAuto})
		if presolves(s) {
			cands = append(cands, path{s, backends.PresolveOff})
		}
	}
	for _, p := range cands {
		if p.s == l.solver && p.pre == l.presolve || c.tried[tried{l.model, p.s, p.pre}] || c.discredited[p] || slices.Contains(skip, p.s) {
			continue
		}
		return p, true
	}
	return path{}, false
}

func presolves(s backends.Solver) bool {
	p, ok := s.(Presolver)
	return ok && p.PresolvesByDefault()
}

// isolated reports whether s solves in a child process (Isolated).
func isolated(s backends.Solver) bool {
	i, ok := s.(Isolated)
	return ok && i.SolvesInChildProcess()
}

// cheapOther is other for a capped look: a path on a backend that solves in this
// process when there is one, and otherwise whatever other returns.
func (c *certifier) cheapOther(l look, depth int, skip ...backends.Solver) (path, bool) {
	inProcess := slices.Clip(skip)
	for _, s := range []backends.Solver{l.solver, c.first, c.p.Second, c.p.Third} {
		if s != nil && isolated(s) {
			inProcess = append(inProcess, s)
		}
	}
	if p, ok := c.other(l, depth, inProcess...); ok {
		return p, true
	}
	return c.other(l, depth, skip...)
}

func (c *certifier) confirmBelow() time.Duration {
	if c.p.ConfirmBelow == 0 {
		return DefaultConfirmBelow
	}
	return c.p.ConfirmBelow
}

// confirmOpts returns the options of a confirmation solve: the caller's, without the
// log, limited to what remains of the caller's time limit or, without one, to the
// confirmation budget. A confirmation that refutes its claim solves on under
// solveOpts (finish).
func (c *certifier) confirmOpts() backends.Options {
	o := c.opts
	o.Log = nil
	if o.TimeLimit > 0 {
		o.TimeLimit = max(o.TimeLimit-time.Since(c.begin), time.Millisecond)
	} else {
		o.TimeLimit = max(minConfirmTime, confirmBudget*c.firstTime)
	}
	return o
}

// objective recomputes the objective of x on the original model.
func (c *certifier) objective(x []float64) float64 {
	rep, err := c.m.Verify(x)
	if err != nil {
		return math.NaN()
	}
	return rep.Objective
}

// cutoffModel returns a copy of m with the row "objective better than z by more than
// the requested gaps" and that margin. When every objective coefficient and column is
// integral, no objective value lies strictly between z−1 and z, so the cutoff is at
// z − 1/2 (which also keeps it clear of the solvers' tolerances).
func (c *certifier) cutoffModel(z float64) (*model.Model, float64) {
	m := c.m
	delta := math.Max(c.opts.AbsGap, c.opts.RelGap*math.Abs(z)) + AgreeTol*math.Max(1, math.Abs(z))
	if integralObjective(m) && delta < 0.5 {
		delta = 0.5
	}
	cut := m.Clone()
	cut.Name = m.Name + "_cutoff"
	cut.ClearStart()
	cols := m.Columns()
	var e model.Expr
	for j, cj := range cols.Cost {
		if cj != 0 {
			e.Add(model.Var(j), cj)
		}
	}
	rhs := z - m.ObjectiveConstant()
	if m.Sense() == model.Minimize {
		cut.AddConstr(e, model.LE, rhs-delta, "schedopt_cutoff")
	} else {
		cut.AddConstr(e, model.GE, rhs+delta, "schedopt_cutoff")
	}
	return cut, delta
}

// integralObjective reports whether the objective takes only integer values on
// integer points: integer columns with integer costs, continuous columns without cost.
func integralObjective(m *model.Model) bool {
	cols := m.Columns()
	if m.ObjectiveConstant() != math.Trunc(m.ObjectiveConstant()) {
		return false
	}
	for j, cj := range cols.Cost {
		if cj == 0 {
			continue
		}
		if !cols.Kind[j].IsInteger() || cj != math.Trunc(cj) {
			return false
		}
	}
	return true
}

// ray looks for an improving ray of m's LP relaxation with s and verifies it: a
// direction d that keeps every row and bound satisfiable from any feasible point
// (a·d ≥ 0 for a finite lower row bound, ≤ 0 for a finite upper one, d_j ≥ 0 for a
// finite lower column bound, ≤ 0 for a finite upper one) and improves the objective
// (c·d = −1 for min, +1 for max). found is false when the ray LP is infeasible or
// the direction it returns fails the check.
func (c *certifier) ray(ctx context.Context, s backends.Solver, opts backends.Options) (norm float64, found bool, err error) {
	if c.rayDone {
		return c.rayNorm, c.rayFound, nil
	}
	if !hasOpenColumn(c.m) || !slices.ContainsFunc(c.m.Columns().Cost, func(cj float64) bool { return cj != 0 }) {
		// Every column bounded: no direction is a ray; a constant objective cannot
		// improve along any.
		c.rayDone = true
		return 0, false, nil
	}
	// A ray LP is cheap, and one backend's "no ray" is not trusted (CBC 2.10 reports
	// some feasible LPs with free columns infeasible): backends are asked in turn,
	// those in this process first, until one returns a ray that checkRay verifies
	// or two agree that there is none.
	var asked []backends.Solver
	for _, b := range []backends.Solver{s, c.first, c.p.Second, c.p.Third} {
		if b != nil && !slices.Contains(asked, b) {
			asked = append(asked, b)
		}
	}
	slices.SortStableFunc(asked, func(a, b backends.Solver) int {
		switch ia, ib := isolated(a), isolated(b); {
		case ia == ib:
			return 0
		case ib:
			return -1
		}
		return 1
	})
	// opts.TimeLimit, when set, bounds all the ray LPs together.
	begin, total := time.Now(), opts.TimeLimit
	none := 0
	for _, b := range asked {
		if total > 0 {
			if opts.TimeLimit = total - time.Since(begin); opts.TimeLimit <= 0 {
				break
			}
		}
		var noRay bool
		norm, found, noRay, err = c.findRay(ctx, b, opts)
		if err != nil || found {
			c.rayDone, c.rayNorm, c.rayFound = err == nil, norm, found
			return norm, found, err
		}
		if noRay {
			if none++; none == raysAgree {
				break
			}
		}
	}
	// Every backend asked, or enough agree that there is no ray. An answer that
	// came from solves which ran out is not kept: a later question with a larger
	// budget asks again.
	c.rayDone = none == raysAgree || none == len(asked)
	return 0, false, nil
}

// raysAgree is how many backends must find no improving ray before the policy takes
// it that there is none.
const raysAgree = 2

// hasOpenColumn reports whether some column of m has an infinite bound.
func hasOpenColumn(m *model.Model) bool {
	cols := m.Columns()
	for j := range cols.Lower {
		if math.IsInf(cols.Lower[j], 0) || math.IsInf(cols.Upper[j], 0) {
			return true
		}
	}
	return false
}

// findRay builds and solves the ray LP for ray. noRay is true when s called the ray
// LP infeasible: its claim that the relaxation has no improving ray.
func (c *certifier) findRay(ctx context.Context, s backends.Solver, opts backends.Options) (norm float64, found, noRay bool, err error) {
	m := c.m
	cols, rows := m.Columns(), m.Rows()
	r := model.New(m.Name + "_ray")
	n := m.NumVars()
	r.Grow(n, m.NumRows()+1, m.NumNonzeros()+n)
	for j := range n {
		lo, hi := math.Inf(-1), math.Inf(1)
		if !math.IsInf(cols.Lower[j], 0) {
			lo = 0
		}
		if !math.IsInf(cols.Upper[j], 0) {
			hi = 0
		}
		r.AddContinuous(lo, hi, "")
	}
	var e model.Expr
	for i := range m.NumRows() {
		e.Reset()
		for k := rows.Start[i]; k < rows.Start[i+1]; k++ {
			e.Add(model.Var(rows.Index[k]), rows.Value[k])
		}
		lo, hi := math.Inf(-1), math.Inf(1)
		if !math.IsInf(rows.Lower[i], 0) {
			lo = 0
		}
		if !math.IsInf(rows.Upper[i], 0) {
			hi = 0
		}
		if !math.IsInf(lo, 0) || !math.IsInf(hi, 0) {
			r.AddRange(e, lo, hi, "")
		}
	}
	e.Reset()
	for j, cj := range cols.Cost {
		if cj != 0 {
			e.Add(model.Var(j), cj)
		}
	}
	target := -float64(m.Sense()) // min: c·d = −1; max: c·d = +1
	r.AddConstr(e, model.EQ, target, "improve")
	l, err := c.solve(ctx, s, backends.PresolveOff, r, PurposeRay, opts)
	if err != nil {
		return 0, false, false, err
	}
	// The ray LP's point is checked against the ray LP itself, not against m.
	if !l.res.HasSolution || (l.res.Status != backends.Optimal && l.res.Status != backends.Other) {
		return 0, false, l.res.Status == backends.Infeasible, nil
	}
	norm, found, err = checkRay(m, l.res.Values)
	return norm, found, false, err
}

// checkRay verifies an improving ray d of m's LP relaxation within rayTol.
func checkRay(m *model.Model, d []float64) (norm float64, ok bool, err error) {
	cols, rows := m.Columns(), m.Rows()
	for _, v := range d {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, false, nil
		}
		norm = math.Max(norm, math.Abs(v))
	}
	if norm == 0 {
		return 0, false, nil
	}
	tol := rayTol * norm
	for j, v := range d {
		if !math.IsInf(cols.Lower[j], 0) && v < -tol || !math.IsInf(cols.Upper[j], 0) && v > tol {
			return norm, false, nil
		}
	}
	for i := range m.NumRows() {
		ad, scale := 0.0, 0.0
		for k := rows.Start[i]; k < rows.Start[i+1]; k++ {
			t := rows.Value[k] * d[rows.Index[k]]
			ad += t
			scale += math.Abs(t)
		}
		slack := rayTol*scale + 1e-12
		if !math.IsInf(rows.Lower[i], 0) && ad < -slack || !math.IsInf(rows.Upper[i], 0) && ad > slack {
			return norm, false, nil
		}
	}
	cd, scale := 0.0, 0.0
	for j, cj := range cols.Cost {
		cd += cj * d[j]
		scale += math.Abs(cj * d[j])
	}
	improve := -float64(m.Sense()) * cd // > 0 when d improves
	return norm, improve > 0.5 && improve > rayTol*scale, nil
}

func isInf(x float64) bool { return math.IsInf(x, 0) || math.Abs(x) >= Infinity }
