// Package workload is the adapter of the kind "workload": the distribution of a
// divisible workload over processors with discrete time/energy profiles (seeds 000 and
// 003): loading, the ILP of formulations/workload with its lexicographic stages and
// ε-constraint front loop, the exact algorithms of exact/workload, the heuristics and
// the profile generators.
package workload

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/domain"
	dw "github.com/schedopt/schedopt/domain/workload"
	xw "github.com/schedopt/schedopt/exact/workload"
	fw "github.com/schedopt/schedopt/formulations/workload"
	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/model"
	"github.com/schedopt/schedopt/solve"
)

// Exact algorithms of the kind "workload", selectable with the instance field
// "algorithm" under `--backend exact`.
const (
	WorkloadDP         = "dp"              // bi-objective DP (ref §2.8), the default
	WorkloadHEPOPTA    = "hepopta"         // seed 000 Algorithms 1–2 (+ Algorithm 3 for pareto-total)
	WorkloadMCKPSweep  = "mckp-sweep"      // time-threshold ε-constraint over the MCKP DP
	WorkloadIdentical  = "identical-sweep" // the same over min-plus doubling, identical processors
	WorkloadAdaptAleph = "adaptaleph"      // seed 003 Algorithm 1, local front only
	WorkloadBrute      = "brute-force"     // every distribution, tiny instances
)

// Algorithms lists the exact algorithms of the kind "workload".
func Algorithms() []string {
	return []string{WorkloadDP, WorkloadHEPOPTA, WorkloadMCKPSweep, WorkloadIdentical, WorkloadAdaptAleph, WorkloadBrute}
}

// workloadBruteLimit bounds the distributions brute force may enumerate.
const workloadBruteLimit = 20_000_000

// Problem is a loaded "workload" instance (seeds 000 and 003).
type Problem struct {
	kinds.Base
	Inst *dw.Instance
	ts   *dw.Tables
	// Aggregate selects the integer-count ILP; it defaults to true for identical
	// processors (p ≥ 2).
	Aggregate bool
	forms     sync.Map // the formulations Formulate built, by model, for polisher
}

// Kind returns the kind "workload": instances parsed by workload.Parse with an exact
// algorithm from Algorithms, and the profile generators.
func Kind() kinds.Kind {
	return kinds.New("workload", parse, New, generators)
}

// parse parses and validates an instance and its "algorithm" field.
func parse(data []byte) (*dw.Instance, error) {
	in, err := dw.Parse(data)
	if err != nil {
		return nil, err
	}
	if in.Algorithm != "" && !slices.Contains(Algorithms(), in.Algorithm) {
		return nil, domain.Errorf("algorithm", "unknown exact algorithm %q (one of %s)", in.Algorithm, strings.Join(Algorithms(), ", "))
	}
	return in, nil
}

// New wraps a validated instance called name.
func New(in *dw.Instance, name string) kinds.Problem {
	return NewProblem(in, name)
}

// NewProblem wraps a validated instance called name, with the integer-count ILP for
// identical processors.
func NewProblem(in *dw.Instance, name string) *Problem {
	ts := in.Tables()
	return &Problem{Base: kinds.Base{KindName: "workload", InstName: name}, Inst: in, ts: ts, Aggregate: ts.P() > 1 && ts.Identical()}
}

// Formulate builds the ILP of ref §1.9 with the instance's single objective (the
// first, min-time, stage for fronts, which Solve drives itself).
func (p *Problem) Formulate() (*solve.Formulated, error) {
	f, err := fw.New(p.ts, p.Inst.StaticPower, fw.Options{Aggregate: p.Aggregate})
	if err != nil {
		return nil, err
	}
	f.SetObjective(stage1(p.Inst.Objective))
	p.forms.Store(f.M, f)
	return &solve.Formulated{Model: f.M, Decode: p.decoder(f)}, nil
}

func stage1(obj string) fw.Objective {
	switch obj {
	case dw.ObjMinEnergy:
		return fw.MinEnergy
	case dw.ObjMinTotal:
		return fw.MinTotal
	}
	return fw.MinTime
}

// rejected is the evaluator's verdict on a schedule it cannot evaluate. Its numbers
// stay finite (JSON cannot hold NaN or Inf, and a sweep record with them would lose
// its result): no objective, and the largest violation there is.
func rejected(err error) solve.EvaluatorCheck {
	return solve.EvaluatorCheck{OK: false, Objective: 0, MaxViolation: math.MaxFloat64, Message: err.Error()}
}

// decoder turns solver values into the spec's solution and evaluates it.
func (p *Problem) decoder(f *fw.Formulation) func([]float64) (any, solve.EvaluatorCheck, error) {
	return func(x []float64) (any, solve.EvaluatorCheck, error) {
		sizes, err := f.Sizes(x)
		if err != nil {
			return nil, solve.EvaluatorCheck{}, err
		}
		sol, ev, err := p.Inst.SolutionOf(sizes)
		if err != nil {
			return sol, rejected(err), nil
		}
		return sol, solve.EvaluatorCheck{OK: true, Objective: p.Inst.ObjectiveOf(ev)}, nil
	}
}

// stoppedExact turns an exact algorithm stopped by the context (the time limit, or an
// interrupt) into a definite "time_limit" result without a solution; other outcomes
// pass through.
func (p *Problem) stoppedExact(ctx context.Context, req solve.Request) func(*solve.Result, error) (*solve.Result, error) {
	return func(res *solve.Result, err error) (*solve.Result, error) {
		if err == nil || ctx.Err() == nil || !(errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)) {
			return res, err
		}
		return &solve.Result{Kind: p.Kind(), Name: p.Name(), Backend: req.Backend, Status: stoppedStatus(err),
			Message: "the exact algorithm was stopped: " + err.Error()}, nil
	}
}

// polisher passes solves to a backend and applies Formulation.Polish to the values of
// the models built by Formulate, before solve.SolveModel verifies them. It wraps the
// backend inside the certification policy (certify.Solve calls it), so the policy
// checks the polished point.
type polisher struct {
	backends.Solver
	forms *sync.Map // *model.Model → *fw.Formulation
}

func (s polisher) Solve(ctx context.Context, m *model.Model, opts backends.Options) (backends.Result, error) {
	r, err := s.Solver.Solve(ctx, m, opts)
	f, ok := s.forms.LoadAndDelete(m) // one solve per formulated model: do not keep it
	if ok && err == nil && r.HasSolution {
		f.(*fw.Formulation).Polish(r.Values)
	}
	return r, err
}

// AutoPaths is the plan of the backend "auto" (kinds.Planner): the exact algorithms
// (the DPs and HPOPTA for single objectives, the exact front algorithms for fronts),
// which answer in milliseconds where the MILP may take minutes, ahead of the MILP.
func (p *Problem) AutoPaths() []string {
	return []string{solve.Exact, solve.MILPBackends()[0]}
}

// Solve solves the instance. Single objectives go through kinds.SolveOne followed by
// the lexicographic stages (fewest active processors last); fronts run the exact
// time-threshold ε-constraint loop on the MILP backend, or the selected exact
// algorithm for "exact".
func (p *Problem) Solve(ctx context.Context, req solve.Request) (*solve.Result, error) {
	if dw.IsFront(p.Inst.Objective) {
		if req.Backend == solve.Exact {
			return p.stoppedExact(ctx, req)(p.solveFrontExact(ctx, req))
		}
		return p.solveFrontMILP(ctx, req)
	}
	if req.Backend == solve.Exact {
		return p.stoppedExact(ctx, req)(kinds.SolveOne(ctx, p, req, p.exactSingle))
	}
	if req.Solver != nil {
		req.Solver = polisher{req.Solver, &p.forms}
	}
	res, err := kinds.SolveOne(ctx, p, req, p.exactSingle)
	if err != nil || req.Backend == solve.Exact || res.Status != solve.StatusOptimal {
		return res, err
	}
	if err := p.lexStages(ctx, req, res); err != nil {
		return nil, fmt.Errorf("%s: %w", p.Name(), err)
	}
	return res, nil
}

// milp is one solve of a stage with bookkeeping shared by the loops.
type milp struct {
	req      solve.Request
	deadline time.Time
	res      *solve.Result
	solves   int
	unproven bool
}

func newMILP(req solve.Request, res *solve.Result) *milp {
	m := &milp{req: req, res: res}
	if req.Options.TimeLimit > 0 {
		m.deadline = time.Now().Add(req.Options.TimeLimit)
	}
	return m
}

// errStageLimit stops a loop when the overall time limit is spent.
var errStageLimit = errors.New("time limit reached during the stages")

// solve runs one stage on f and returns its values when it is optimal (proven), or
// nil with ok = false otherwise. A non-optimal stage marks the run unproven.
func (m *milp) solve(ctx context.Context, f *fw.Formulation) (x []float64, ok bool, err error) {
	opts := m.req.Options
	if !m.deadline.IsZero() {
		left := time.Until(m.deadline)
		if left <= 0 {
			return nil, false, errStageLimit
		}
		opts.TimeLimit = left
	}
	cert, err := solve.Certified(ctx, f.M, m.req, opts)
	if err != nil {
		return nil, false, err
	}
	raw := cert.Result
	if m.res.Certificate == nil {
		m.res.Certificate = &cert.Certificate
	}
	m.solves++
	m.res.Seconds.Solve += raw.Time.Seconds()
	m.res.Nodes += raw.Nodes
	m.res.Solver = raw.Solver
	if !raw.HasSolution {
		m.unproven = m.unproven || raw.Status != backends.Infeasible
		if raw.Status == backends.TimeLimit || raw.Status == backends.Interrupted {
			return nil, false, errStageLimit
		}
		return nil, false, nil
	}
	f.Polish(raw.Values)
	rep, err := f.M.Verify(raw.Values)
	if err != nil {
		return nil, false, err
	}
	if !rep.Feasible() {
		return nil, false, fmt.Errorf("%s returned a point that violates the model: %s", m.req.Backend, rep.Worst)
	}
	if raw.Status != backends.Optimal {
		m.unproven = true
	}
	return raw.Values, raw.Status == backends.Optimal, nil
}

// lexStages refines an optimal single-objective result: min-time then min energy under
// T*, min-energy then min time under E*, min-total then min time; finally the fewest
// active processors. A stage that fails to prove optimality leaves the earlier
// solution in place.
func (p *Problem) lexStages(ctx context.Context, req solve.Request, res *solve.Result) error {
	sol, ok := res.Solution.(dw.Solution)
	if !ok {
		return nil
	}
	f, err := fw.New(p.ts, p.Inst.StaticPower, fw.Options{Aggregate: p.Aggregate})
	if err != nil {
		return err
	}
	m := newMILP(req, res)
	ev, err := p.Inst.Evaluate(sol.Sizes)
	if err != nil {
		return nil // the evaluator already flagged it
	}
	best := sol.Sizes
	adopt := func(x []float64) (dw.Eval, bool) {
		sizes, err := f.Sizes(x)
		if err != nil {
			return dw.Eval{}, false
		}
		e, err := p.Inst.Evaluate(sizes)
		if err != nil {
			return dw.Eval{}, false
		}
		best = sizes
		return e, true
	}
	run := func(obj fw.Objective) (dw.Eval, bool) {
		f.SetObjective(obj)
		x, ok, err := m.solve(ctx, f)
		if err != nil || !ok {
			return dw.Eval{}, false
		}
		return adopt(x)
	}
	switch p.Inst.Objective {
	case dw.ObjMinTime:
		f.SetThreshold(ev.T)
		if e2, ok := run(fw.MinEnergy); ok {
			f.BoundEnergy(fw.Slack(e2.Dynamic))
			run(fw.MinActive)
		}
	case dw.ObjMinEnergy:
		f.BoundEnergy(fw.Slack(ev.Dynamic))
		if e2, ok := run(fw.MinTime); ok {
			f.SetThreshold(e2.T)
			run(fw.MinActive)
		}
	case dw.ObjMinTotal:
		f.BoundTotal(fw.Slack(ev.Total))
		if e2, ok := run(fw.MinTime); ok {
			f.SetThreshold(e2.T)
			run(fw.MinActive)
		}
	}
	final, ev2, err := p.Inst.SolutionOf(best)
	if err != nil {
		return err
	}
	res.Solution = final
	res.Objective = solve.Ptr(p.Inst.ObjectiveOf(ev2))
	if res.Bound != nil {
		// The later stages may move the first objective by fw.StageTol: keep the gap
		// the gap of the reported objective.
		res.Gap = solve.Ptr(backends.RelativeGap(*res.Objective, *res.Bound))
	}
	res.Check.Evaluator = &solve.EvaluatorCheck{OK: true, Objective: p.Inst.ObjectiveOf(ev2)}
	res.Message = fmt.Sprintf("lexicographic stages: %d extra MILP solves", m.solves)
	if res.Check.Exact != nil && res.Check.Exact.Objective != nil {
		ex := *res.Check.Exact.Objective
		tol := math.Max(req.Options.AbsGap, req.Options.RelGap*math.Abs(ex)) + solve.AgreeTol*math.Max(1, math.Abs(ex))
		res.Check.Exact.Agree = math.Abs(*res.Objective-ex) <= tol
	}
	return nil
}

// minEnergyOracle picks the cheaper exact E*(τ) algorithm: min-plus doubling for
// identical processors when N·log2(p) < p·m, the MCKP DP otherwise.
func (p *Problem) minEnergyOracle() (xw.Oracle, string) {
	ts := p.ts
	if p.defaultFrontAlgorithm() == WorkloadIdentical {
		return func(ctx context.Context, tau float64) (xw.Point, bool, error) {
			return xw.IdenticalMinEnergy(ctx, ts, tau)
		}, "min-plus doubling DP"
	}
	return func(ctx context.Context, tau float64) (xw.Point, bool, error) {
		return xw.MinEnergy(ctx, ts, tau)
	}, "MCKP DP"
}

// defaultFrontAlgorithm is the exact front algorithm used for checks: the identical
// sweep when doubling is cheaper, else the DP.
func (p *Problem) defaultFrontAlgorithm() string {
	ts := p.ts
	if ts.P() > 2 && ts.Identical() && float64(ts.N)*math.Log2(float64(ts.P())) < float64(ts.P()*ts.Procs[0].Len()) {
		return WorkloadIdentical
	}
	return WorkloadDP
}

// exactSingle is the exact algorithm of the single objectives, with the same
// lexicographic tie-breaks as the MILP stages.
func (p *Problem) exactSingle(ctx context.Context) (*solve.Outcome, error) {
	ts, in := p.ts, p.Inst
	oracle, oname := p.minEnergyOracle()
	var pt xw.Point
	alg := ""
	switch in.Objective {
	case dw.ObjMinTime:
		tstar, err := xw.MinMakespan(ctx, ts)
		if err != nil {
			return nil, err
		}
		q, ok, err := oracle(ctx, tstar)
		if err != nil {
			return nil, fmt.Errorf("min-energy DP at T* = %g: %w", tstar, err)
		}
		if !ok {
			return nil, fmt.Errorf("min-energy DP at T* = %g: no distribution", tstar)
		}
		pt, alg = q, "binary search over Θ + "+oname
	case dw.ObjMinEnergy:
		emin, ok, err := oracle(ctx, math.Inf(1))
		if err != nil {
			return nil, fmt.Errorf("min-energy DP: %w", err)
		}
		if !ok {
			return nil, fmt.Errorf("min-energy DP: no distribution")
		}
		// The smallest threshold that still reaches E_min (E*(τ) is non-increasing).
		th := xw.Thetas(ts)
		var searchErr error
		k := sort.Search(len(th), func(i int) bool {
			q, ok, err := oracle(ctx, th[i])
			if err != nil && searchErr == nil {
				searchErr = err
			}
			return err == nil && ok && xw.EqualEnergy(q.E, emin.E)
		})
		if searchErr != nil {
			return nil, fmt.Errorf("min-energy DP: %w", searchErr)
		}
		if k == len(th) {
			return nil, fmt.Errorf("min-energy DP: no threshold reaches E_min = %g", emin.E)
		}
		q, _, err := oracle(ctx, th[k])
		if err != nil {
			return nil, err
		}
		pt, alg = q, oname+" + binary search over Θ"
	case dw.ObjMinTotal:
		f, name, err := p.exactFront(ctx, "")
		if err != nil {
			return nil, err
		}
		q, _ := xw.MinTotal(f, in.StaticPower)
		pt, alg = q, name+" + min over the front (Prop. 10.11)"
	default:
		return nil, solve.ErrNoExact
	}
	sol, ev, err := in.SolutionOf(pt.Sizes)
	if err != nil {
		return nil, fmt.Errorf("exact distribution rejected by the evaluator: %w", err)
	}
	return &solve.Outcome{Algorithm: alg, Optimal: true, Feasible: true, Objective: in.ObjectiveOf(ev), Solution: sol,
		Check: solve.EvaluatorCheck{OK: true, Objective: in.ObjectiveOf(ev)}}, nil
}

// exactFront computes the (T, dynamic E) front with the named algorithm ("" for the
// default). proven is false for ADAPTALEPH, whose front is local.
func (p *Problem) exactFront(ctx context.Context, alg string) (xw.Front, string, error) {
	f, name, _, err := p.exactFrontProven(ctx, alg)
	return f, name, err
}

func (p *Problem) exactFrontProven(ctx context.Context, alg string) (xw.Front, string, bool, error) {
	ts := p.ts
	if alg == "" {
		alg = p.defaultFrontAlgorithm()
	}
	var f xw.Front
	var err error
	proven := true
	switch alg {
	case WorkloadDP:
		f, err = xw.ParetoDP(ctx, ts)
	case WorkloadHEPOPTA:
		var r *xw.HEPOPTAResult
		if r, err = xw.HEPOPTA(ctx, ts, xw.HEPOPTAOptions{}); err == nil {
			f = r.Front
		}
	case WorkloadMCKPSweep:
		f, err = xw.MCKPSweep(ctx, ts)
	case WorkloadIdentical:
		f, err = xw.IdenticalSweep(ctx, ts)
	case WorkloadAdaptAleph:
		var r *xw.AlephResult
		k := p.Inst.Neighbourhood
		if k == 0 {
			k = ts.N // the full model
		}
		if r, err = xw.AdaptAleph(ctx, ts, k); err == nil {
			f, proven = r.Front, false
		}
	case WorkloadBrute:
		var all []xw.Point
		if all, err = xw.BruteForce(ctx, ts, workloadBruteLimit); err == nil {
			f = xw.NonDominated(all)
		}
	default:
		return nil, alg, false, fmt.Errorf("unknown exact algorithm %q", alg)
	}
	if err != nil {
		return nil, alg, false, fmt.Errorf("%s: %w", alg, err)
	}
	return f, alg, proven, nil
}

// frontOf converts a dynamic front to the spec's solution for the instance's
// objective (HTPOPTA's filter for pareto-total) and evaluates every point.
func (p *Problem) frontOf(f xw.Front) (dw.Front, solve.EvaluatorCheck) {
	if p.Inst.Objective == dw.ObjParetoTotal {
		f = xw.HTPOPTA(f, p.Inst.StaticPower)
	}
	out := dw.Front{Front: []dw.Solution{}}
	for _, q := range f {
		s, _, err := p.Inst.SolutionOf(q.Sizes)
		if err != nil {
			return out, rejected(err)
		}
		out.Front = append(out.Front, s)
	}
	viol, err := p.Inst.CheckFront(out)
	check := solve.EvaluatorCheck{OK: err == nil, MaxViolation: viol}
	if len(out.Front) > 0 {
		check.Objective = out.Front[0].T
	}
	if err != nil {
		check.Message = err.Error()
	}
	return out, check
}

// solveFrontExact computes the front with the instance's exact algorithm. Its
// "objective" is the front's smallest makespan; the exact check compares with the
// default algorithm when another one was chosen.
func (p *Problem) solveFrontExact(ctx context.Context, req solve.Request) (*solve.Result, error) {
	res := &solve.Result{Kind: p.Kind(), Name: p.Name(), Backend: req.Backend}
	t0 := time.Now()
	f, alg, proven, err := p.exactFrontProven(ctx, p.Inst.Algorithm)
	if err != nil {
		return nil, fmt.Errorf("%s: exact: %w", p.Name(), err)
	}
	res.Seconds.Solve = time.Since(t0).Seconds()
	res.Solver = alg
	sol, check := p.frontOf(f)
	p.fillFront(res, sol, check, proven)
	if !req.NoCheck && alg != p.defaultFrontAlgorithm() {
		p.crossCheckFront(ctx, res, sol, req.Options)
	}
	return res, nil
}

func (p *Problem) fillFront(res *solve.Result, sol dw.Front, check solve.EvaluatorCheck, proven bool) {
	res.Solution = sol
	res.Check.Evaluator = &check
	res.Status = solve.StatusFeasible
	if proven {
		res.Status = solve.StatusOptimal
	}
	if len(sol.Front) > 0 {
		res.Objective = solve.Ptr(sol.Front[0].T)
		if proven {
			res.Bound, res.Gap = solve.Ptr(sol.Front[0].T), solve.Ptr(0)
		}
	}
	if !check.OK {
		res.Status = solve.StatusError
		res.Message = "the evaluator rejected the front: " + check.Message
	}
}

// crossCheckFront compares sol point by point with the default exact algorithm's
// front: same length, identical makespans, energies within the gaps plus AgreeTol.
func (p *Problem) crossCheckFront(ctx context.Context, res *solve.Result, sol dw.Front, opts backends.Options) {
	f, alg, err := p.exactFront(ctx, "")
	if err != nil {
		res.Check.Exact = &solve.ExactCheck{Algorithm: "error", Message: err.Error()}
		return
	}
	want, _ := p.frontOf(f)
	ec := &solve.ExactCheck{Algorithm: alg, Agree: true}
	if len(want.Front) > 0 {
		ec.Objective = solve.Ptr(want.Front[0].T)
	}
	ec.Message = CompareFronts(sol, want, opts)
	ec.Agree = ec.Message == ""
	res.Check.Exact = ec
}

// CompareFronts returns "" when got agrees with the exact front want, and otherwise a
// description of the first difference. With zero gaps, agreement is equality point by
// point: identical makespans, energies within AgreeTol, the same active-processor
// counts. With a gap g > 0 the loop may merge points whose energies lie within g and may
// stop a makespan within g of T*, so got agrees when it covers want within the gap
// (every exact point has a got point with T' ≤ T·(1+g) and E' ≤ E·(1+g), plus AbsGap
// and AgreeTol) and no got point lies below the exact front.
func CompareFronts(got, want dw.Front, opts backends.Options) string {
	strict, activeOnly := strictFrontDiff(got, want, opts)
	if strict == "" || activeOnly || (opts.RelGap == 0 && opts.AbsGap == 0) {
		return strict // a representative with too many active processors is never within a gap
	}
	within := func(x, limit, g float64) bool {
		return x <= limit*(1+g)+opts.AbsGap+solve.AgreeTol*math.Max(1, math.Abs(limit))
	}
	covered := func(cov []dw.Solution, q dw.Solution, g float64) bool {
		for _, c := range cov {
			if within(c.T, q.T, g) && within(c.E, q.E, g) {
				return true
			}
		}
		return false
	}
	for k, w := range want.Front {
		if !covered(got.Front, w, opts.RelGap) {
			return fmt.Sprintf("exact point %d (T=%g, E=%g) is not covered within the gap %g by the %d-point front", k, w.T, w.E, opts.RelGap, len(got.Front))
		}
	}
	for k, g := range got.Front {
		if !covered(want.Front, g, 0) {
			return fmt.Sprintf("point %d (T=%g, E=%g) lies below the exact front", k, g.T, g.E)
		}
	}
	return ""
}

// strictFrontDiff compares two fronts point by point; activeOnly reports that the
// points match and only an active-processor count differs.
func strictFrontDiff(got, want dw.Front, opts backends.Options) (diff string, activeOnly bool) {
	if len(got.Front) != len(want.Front) {
		return fmt.Sprintf("%d front points, exact algorithm %d", len(got.Front), len(want.Front)), false
	}
	for k := range got.Front {
		g, w := got.Front[k], want.Front[k]
		tol := math.Max(opts.AbsGap, opts.RelGap*math.Abs(w.E)) + solve.AgreeTol*math.Max(1, math.Abs(w.E))
		if g.T != w.T || math.Abs(g.E-w.E) > tol {
			return fmt.Sprintf("point %d is (T=%g, E=%g), exact algorithm (T=%g, E=%g)", k, g.T, g.E, w.T, w.E), false
		}
	}
	for k := range got.Front {
		if a, b := activeCount(got.Front[k].Sizes), activeCount(want.Front[k].Sizes); a != b {
			return fmt.Sprintf("point %d uses %d active processors, exact algorithm %d", k, a, b), true
		}
	}
	return "", false
}

func activeCount(s []int) int {
	n := 0
	for _, v := range s {
		if v != 0 {
			n++
		}
	}
	return n
}

// solveFrontMILP runs the exact time-threshold ε-constraint of ref §1.9 on the MILP
// backend: min T gives T*; Sweep bisects the distinct table times ≥ T* with
// E*(τ) = min E_D under the threshold τ (points slower than τ fixed to zero); every
// front point then gets a last stage, min active processors under its τ and
// E_D ≤ E*(τ)(1+StageTol). pareto-total filters the dynamic front (Prop. 10.10).
// The status is optimal only when every solve proved optimality.
func (p *Problem) solveFrontMILP(ctx context.Context, req solve.Request) (*solve.Result, error) {
	if req.Solver == nil {
		return nil, fmt.Errorf("%s: no solver for backend %q", p.Name(), req.Backend)
	}
	res := &solve.Result{Kind: p.Kind(), Name: p.Name(), Backend: req.Backend}
	t0 := time.Now()
	f, err := fw.New(p.ts, p.Inst.StaticPower, fw.Options{Aggregate: p.Aggregate})
	if err != nil {
		return nil, fmt.Errorf("%s: formulate: %w", p.Name(), err)
	}
	res.Seconds.Build = time.Since(t0).Seconds()
	res.Model = solve.Stats(f.M)
	m := newMILP(req, res)
	// found holds every distribution the solves returned; complete is the front once the
	// sweep has finished (only the fewest-active stage is left).
	var found []xw.Point
	var complete xw.Front
	stop := func(err error) (*solve.Result, error) {
		if errors.Is(err, errStageLimit) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			res.Status = stoppedStatus(err)
			res.Message = fmt.Sprintf("stopped after %d MILP solves: %v", m.solves, err)
			if len(found) == 0 {
				return res, nil
			}
			// The distributions found so far are feasible: report their non-dominated
			// set as an unproven front ("feasible"), never as the exact one.
			part, what := complete, "the front's points, without the fewest-active stage on every point"
			if part == nil {
				part, what = xw.NonDominated(found), "the non-dominated distributions found so far, not the complete front"
			}
			sol, check := p.frontOf(part)
			p.fillFront(res, sol, check, false)
			if res.Status != solve.StatusError {
				res.Message = fmt.Sprintf("time limit after %d MILP solves: %d points, %s", m.solves, len(sol.Front), what)
			}
			return res, nil
		}
		return nil, fmt.Errorf("%s: %w", p.Name(), err)
	}
	point := func(x []float64) (xw.Point, error) {
		sizes, err := f.Sizes(x)
		if err != nil {
			return xw.Point{}, err
		}
		ev, err := p.Inst.Evaluate(sizes)
		if err != nil {
			return xw.Point{}, fmt.Errorf("decoded distribution rejected by the evaluator: %w", err)
		}
		return xw.Point{T: ev.T, E: ev.Dynamic, Active: ev.Active, Sizes: sizes}, nil
	}
	f.SetObjective(fw.MinTime)
	x, _, err := m.solve(ctx, f)
	if err != nil {
		return stop(err)
	}
	if x == nil {
		res.Status = solve.StatusInfeasible
		return res, nil
	}
	first, err := point(x)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Name(), err)
	}
	th := xw.Thetas(p.ts)
	th = th[sort.SearchFloat64s(th, first.T):]
	equal := func(a, b float64) bool {
		tol := math.Max(req.Options.AbsGap, req.Options.RelGap*math.Abs(b)) + dw.EnergyTol*math.Max(1, math.Abs(b))
		return math.Abs(a-b) <= tol
	}
	// Every distribution found so far is a MIP start candidate: the cheapest one that
	// meets a threshold is feasible there.
	found = []xw.Point{first}
	oracle := func(ctx context.Context, tau float64) (xw.Point, bool, error) {
		f.SetThreshold(tau)
		f.BoundEnergy(math.Inf(1))
		f.SetObjective(fw.MinEnergy)
		var start *xw.Point
		for k := range found {
			if found[k].T <= tau && (start == nil || found[k].E < start.E) {
				start = &found[k]
			}
		}
		f.M.ClearStart()
		if start != nil {
			if err := f.SetStart(start.Sizes); err != nil {
				return xw.Point{}, false, err
			}
		}
		x, _, err := m.solve(ctx, f)
		if err != nil || x == nil {
			return xw.Point{}, false, err
		}
		pt, err := point(x)
		if err == nil {
			found = append(found, pt)
		}
		return pt, err == nil, err
	}
	front, _, err := xw.Sweep(ctx, th, oracle, equal)
	if err != nil {
		return stop(err)
	}
	complete = front
	// Last stage: the fewest active processors at each point.
	for k, q := range front {
		f.SetThreshold(q.T)
		f.BoundEnergy(fw.Slack(q.E))
		f.SetObjective(fw.MinActive)
		f.M.ClearStart()
		if err := f.SetStart(q.Sizes); err != nil {
			return nil, fmt.Errorf("%s: %w", p.Name(), err)
		}
		x, ok, err := m.solve(ctx, f)
		if err != nil {
			return stop(err)
		}
		if ok {
			if r, err := point(x); err == nil && r.T == q.T && equal(r.E, q.E) {
				front[k] = r
			}
		}
	}
	sol, check := p.frontOf(front)
	p.fillFront(res, sol, check, !m.unproven)
	if res.Message == "" {
		res.Message = fmt.Sprintf("%d MILP solves (ε-constraint over %d thresholds)", m.solves, len(th))
	}
	if !req.NoCheck {
		p.crossCheckFront(ctx, res, sol, req.Options)
	}
	return res, nil
}

// ---- generators ----

func generators() []kinds.Generator {
	return []kinds.Generator{{
		Kind:    "workload",
		Summary: "discrete time/energy profiles: linear, DGEMM-like, FFT-like or identical processors (seeds 000, 003)",
		Example: "  schedopt gen workload --profile dgemm --p 5 --points 450 --n 17152\n" +
			"  schedopt gen workload --profile fft --p 5 --n 14960\n" +
			"  schedopt gen workload --profile identical --shape dgemm --p 256 --points 1250 --n 16896\n" +
			"  schedopt gen workload --profile linear --a 1,2 --b 2,1 --n 348 --points 348",
		Flags: genWorkload,
	}}
}

func genWorkload(fs *pflag.FlagSet) func(seed int64) (any, error) {
	profile := fs.String("profile", "dgemm", "linear, dgemm, fft or identical")
	p := fs.Int("p", 5, "number of processors (dgemm, fft, identical)")
	points := fs.Int("points", 450, "points per profile (dgemm: 450; identical: 485 or 1250; linear: max size)")
	step := fs.Int("step", 64, "dgemm: rows per granule")
	n := fs.Int("n", 0, "workload (dgemm, fft: rows; identical, linear: granules); 0 = a default (dgemm: 17152 rows, or half the tables' capacity when they cannot hold it)")
	shape := fs.String("shape", "dgemm", "identical: dgemm (smooth, ~20% variations) or fft (sharp drops)")
	a := fs.Float64Slice("a", []float64{1, 2}, "linear: time per unit of each processor")
	b := fs.Float64Slice("b", []float64{2, 1}, "linear: dynamic energy per unit of each processor")
	objective := fs.String("objective", dw.ObjPareto, "min-time, min-energy, min-total-energy, pareto or pareto-total")
	static := fs.Float64("static-power", 0, "static (base) power of the platform [W]")
	return func(seed int64) (any, error) {
		var in *dw.Instance
		var err error
		switch *profile {
		case "linear":
			nn := *n
			if nn == 0 {
				nn = *points
			}
			in, err = dw.GenLinear(nn, *points, *a, *b)
		case "dgemm":
			nn := *n
			if nn == 0 {
				nn = defaultDGEMMRows(*p, *points, *step)
			}
			in, err = dw.GenDGEMM(seed, *p, *points, *step, nn)
		case "fft":
			nn := *n
			if nn == 0 {
				nn = 14960 // seed 000's example w = 14960×51200
				if *p == 1 {
					nn = 5120 // one FFT-like table holds at most 10000 rows
				}
			}
			in, err = dw.GenFFT(seed, *p, nn)
		case "identical":
			nn := *n
			if nn == 0 {
				nn = 66 * *p // n/p = 66 granules as in seed 003's Table 11
			}
			in, err = dw.GenIdentical(seed, *shape, *p, *points, nn)
		default:
			return nil, domain.Errorf("profile", "unknown profile %q (linear, dgemm, fft or identical)", *profile)
		}
		if err != nil {
			return nil, domain.Errorf("profile", "%v", err)
		}
		in.Objective = *objective
		in.StaticPower = *static
		if err := in.Validate(); err != nil {
			return nil, err
		}
		return in, nil
	}
}

// defaultDGEMMRows is the workload of `gen workload --profile dgemm` without --n: seed
// 000's example w = 17152×10112 when p profiles of the given points and step can hold
// it, otherwise half of their capacity (a whole number of steps), so that small tables
// still give a valid instance.
func defaultDGEMMRows(p, points, step int) int {
	const seedRows = 17152
	capacity := p * points * step
	if capacity >= seedRows || step < 1 {
		return seedRows
	}
	return max(step, capacity/2/step*step)
}

// ---- heuristics ----

// Workload heuristics: the load-balanced distribution of seed 003 (⌊n/p⌋ granules each,
// one more on the first n mod p processors; it exists only when those sizes are table
// points) and ADAPTALEPH over the partial model of the instance's neighbourhood
// (default 50 points each side), whose front is only locally Pareto-optimal.
const (
	WorkloadHeurBalanced   = "load-balanced"
	WorkloadHeurAdaptAleph = "adaptaleph"
)

// workloadHeurNeighbourhood is ADAPTALEPH's T when the instance gives none.
const workloadHeurNeighbourhood = 50

// Heuristics lists the workload heuristics.
func (p *Problem) Heuristics() []string {
	return []string{WorkloadHeurBalanced, WorkloadHeurAdaptAleph}
}

// RunHeuristic runs one heuristic; its result is never "optimal".
func (p *Problem) RunHeuristic(ctx context.Context, name string) (*solve.Result, error) {
	res := &solve.Result{Kind: p.Kind(), Name: p.Name(), Backend: solve.HeuristicPrefix + name, Solver: name}
	t0 := time.Now()
	var cands xw.Front
	switch name {
	case WorkloadHeurBalanced:
		x := dw.Balanced(p.ts.N, p.ts.P())
		for i := range x {
			x[i] *= p.ts.Granule
		}
		if ev, err := p.Inst.Evaluate(x); err == nil {
			cands = xw.Front{{T: ev.T, E: ev.Dynamic, Active: ev.Active, Sizes: x}}
		}
	case WorkloadHeurAdaptAleph:
		k := p.Inst.Neighbourhood
		if k == 0 {
			k = workloadHeurNeighbourhood
		}
		r, err := xw.AdaptAleph(ctx, p.ts, k)
		if err != nil && !errors.Is(err, xw.ErrInfeasible) && !errors.Is(err, xw.ErrNoBalanced) {
			return nil, fmt.Errorf("%s: %s: %w", p.Name(), name, err)
		}
		if err == nil {
			cands = r.Front
		}
	default:
		return nil, fmt.Errorf("%s: unknown heuristic %q", p.Name(), name)
	}
	res.Seconds.Solve = time.Since(t0).Seconds()
	if len(cands) == 0 {
		res.Status = solve.StatusError
		res.Message = kinds.NoScheduleMessage + name + " found no distribution"
		return res, nil
	}
	if dw.IsFront(p.Inst.Objective) {
		sol, check := p.frontOf(cands)
		p.fillFront(res, sol, check, false)
		return res, nil
	}
	best := cands[0]
	for _, q := range cands[1:] {
		a, _ := p.Inst.Evaluate(q.Sizes)
		b, _ := p.Inst.Evaluate(best.Sizes)
		if p.Inst.ObjectiveOf(a) < p.Inst.ObjectiveOf(b) {
			best = q
		}
	}
	sol, ev, err := p.Inst.SolutionOf(best.Sizes)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", p.Name(), name, err)
	}
	res.Status = solve.StatusFeasible
	res.Objective = solve.Ptr(p.Inst.ObjectiveOf(ev))
	res.Solution = sol
	res.Check.Evaluator = &solve.EvaluatorCheck{OK: true, Objective: p.Inst.ObjectiveOf(ev)}
	return res, nil
}

// stoppedStatus is the status of a run stopped by err: "interrupted" for a
// cancellation (a signal), "time_limit" for the time limit.
func stoppedStatus(err error) string {
	if errors.Is(err, context.Canceled) {
		return solve.StatusInterrupted
	}
	return solve.StatusTimeLimit
}

// EstimateSize bounds the ILP's size from the profile points: a binary per point and
// a few rows per processor.
func (p *Problem) EstimateSize() kinds.Size {
	var pts float64
	for _, q := range p.Inst.Processors {
		pts += float64(len(q.Points))
	}
	q := float64(len(p.Inst.Processors))
	return kinds.Size{Variables: pts + q + 2, Nonzeros: 6*pts + 4*q + 10}
}
