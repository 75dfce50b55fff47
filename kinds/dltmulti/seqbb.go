package dltmulti

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/schedopt/schedopt/backends"
	dm "github.com/schedopt/schedopt/domain/dltmulti"
	"github.com/schedopt/schedopt/exact/dltbb"
	hdlt "github.com/schedopt/schedopt/heuristics/dlt"
	"github.com/schedopt/schedopt/solve"
)

// SequenceBBApplies reports whether the sequence branch-and-bound (exact/dltbb) can
// solve the instance: minimum time without an energy limit or a fixed length, or
// minimum energy under its deadline (fixed length or not) without an energy limit.
func SequenceBBApplies(in *dm.Instance) bool { return dltbb.Applies(in) }

// AutoPaths is the plan of the backend "auto" (kinds.Planner): the sequence
// branch-and-bound alone, with every thread, where it applies to an instance too large
// for the enumeration, and the MILP, cross-checked by the enumeration, otherwise. The
// MILP is no rival there: on the §6.4 generator at gap 0.2 % and one thread, HiGHS took
// 3 to 50 times as long as the search (m = 3..6, n = 4..8: 0.31 against 0.11 s up to
// 10.2 against 0.22 s), and on Table 6.1 it stays at 3.6 % after 120 s while the search
// proves it in 33 s; racing it halved the search's threads (Table 6.1 on two threads:
// 39 s with HiGHS beside it, 22 s with both threads for the search;
// docs/reproduction/dltmulti.md).
func (p *Problem) AutoPaths() []string {
	if SequenceBBApplies(p.Inst) && !enumerable(p.Inst) {
		return []string{solve.Exact}
	}
	return []string{solve.MILPBackends()[0]}
}

// Advice points a MILP solve that ended without a proof to the sequence
// branch-and-bound, which proves Table 6.1 to 0.2 % in under a minute where HiGHS
// stays at 3.6 % after 120 s (min-time) and at 3-31 % (min-energy at fixed T = 432 to
// 1000 s), see docs/reproduction/dltmulti.md.
func (p *Problem) Advice(backend string, res *solve.Result) string {
	if backend == solve.Exact || backend == solve.Auto || !SequenceBBApplies(p.Inst) || enumerable(p.Inst) {
		return ""
	}
	if res == nil || (res.Status != solve.StatusFeasible && res.Status != solve.StatusTimeLimit) {
		return ""
	}
	return "dlt-multi: --backend exact (the sequence branch-and-bound) usually proves such instances much faster, e.g. --backend exact --gap 0.002"
}

// StartSequences returns the online heuristics' machine orders
// (hdlt.StartSequences), the sequence branch-and-bound's starting incumbents.
func (p *Problem) StartSequences(ctx context.Context) [][]int {
	return hdlt.StartSequences(ctx, p.Inst, heuristicSeed)
}

// solveSequenceBB runs exact/dltbb under ctx (the time limit) with req's relative gap
// and turns its outcome into a result: "optimal" when the tree was exhausted (T within
// the gap of the bound), "feasible" with the bound reached otherwise. The schedule is
// the evaluator-checked incumbent.
func (p *Problem) solveSequenceBB(ctx context.Context, req solve.Request) (*solve.Result, error) {
	in := p.Inst
	t0 := time.Now()
	threads := req.Options.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	opt := dltbb.Options{Gap: req.Options.RelGap, Starts: p.StartSequences(ctx), Threads: threads}
	if w := req.Options.Log; w != nil {
		opt.Log, opt.LogEvery = w, 5*time.Second
	} else if w := req.Log; w != nil {
		opt.Log, opt.LogEvery = w, 5*time.Second
	}
	var second backends.Solver
	if s, err := solve.NewSolver("highs"); err == nil {
		second = s
	}
	if in.Objective == dm.MinEnergy && second == nil {
		return nil, fmt.Errorf("%s: sequence branch-and-bound for min-energy needs the highs backend for its node LPs", p.Name())
	}
	cert := newLPCert(second, in.Objective == dm.MinEnergy)
	lp := cert.solve
	out, err := dltbb.Solve(ctx, in, lp, opt)
	if err != nil {
		return nil, fmt.Errorf("%s: sequence branch-and-bound: %w", p.Name(), err)
	}
	res := &solve.Result{Kind: p.Kind(), Name: p.Name(), Backend: solve.Exact,
		Solver: fmt.Sprintf("sequence branch-and-bound (exact/dltbb: %d nodes, %d count splits, %d LPs, %d failed LPs, %d uncertified leaves; %s)", out.Nodes, out.Splits, out.LPs, out.Failed, out.Uncertified, cert.summary()),
		Nodes:  int64(out.Nodes)}
	res.Seconds.Solve = time.Since(t0).Seconds()
	switch {
	case !out.Feasible && out.Optimal:
		res.Status = solve.StatusInfeasible
		return res, nil
	case !out.Feasible:
		res.Status = solve.StatusTimeLimit
		res.Message = "no schedule found before the time limit"
		return res, nil
	case out.Optimal:
		res.Status = solve.StatusOptimal
	default:
		res.Status = solve.StatusFeasible
		res.Message = "time limit reached"
	}
	r := dm.Evaluate(in, out.Schedule, dm.EvalOptions{})
	check := multiCheck(r)
	res.Check.Evaluator = &check
	res.Solution = dm.NewSolution(in, out.Schedule, r)
	res.Objective = solve.Ptr(r.Objective)
	bound := math.Min(out.Bound, r.Objective)
	res.Bound = solve.Ptr(bound)
	res.Gap = solve.Ptr((r.Objective - bound) / math.Max(math.Abs(r.Objective), 1e-12))
	if !check.OK {
		res.Status = solve.StatusError
		res.Message = "the evaluator rejected the branch-and-bound's schedule: " + check.Message
	}
	return res, nil
}
