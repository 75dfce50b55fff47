package isoeff

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/schedopt/schedopt/backends"
	dm "github.com/schedopt/schedopt/domain/dltmulti"
	kdm "github.com/schedopt/schedopt/kinds/dltmulti"
	"github.com/schedopt/schedopt/solve"
)

// SeqBBConfig says how SeqBBProbe solves.
type SeqBBConfig struct {
	Machine   dm.Machine
	TimeLimit time.Duration // per probe; 0 for none
	Gap       float64       // relative gap (UB − LB)/UB at which a probe stops with a proof
	Threads   int           // per probe; 0 means 1
}

// SeqBBProbe returns a ProbeFunc that solves a probe with the sequence branch-and-bound
// of exact/dltbb, through kinds/dltmulti's exact backend (tiny probes go to its sequence
// enumeration instead), instead of the MIP (5.17)-(5.26).
//
// This is the same problem. (5.17)-(5.26) is the min-time special case of the chapter 6
// model (6.6)-(6.28) (formulations/dltmulti.Build) on identical machines, row for row:
// (5.18) = (6.16) (one O per message, t_{n+1} := T in both), (5.19) = (6.20), (5.20) =
// (6.17) (a machine computes a chunk after receiving it and receives its next one
// after computing it), (5.21) = (6.15) with S_i = S (every message starts at or after
// S: the chapter 5 machines are all woken at time 0, the chapter 6 ones just in time for
// their first message, which gives the same rows when all S_i are equal), (5.22) =
// (6.21) (>= against =, the same in min-time), (5.23) = (6.14), (5.24) = (6.13)
// (exactly n messages, each to one machine), (5.25) = (6.18), (5.26) = (6.19) (τ the
// maximum of the two pieces). The other rows of chapter 6 only define the energy. The
// sequence branch-and-bound solves a fixed sequence of (6.6)-(6.28) exactly (one LP per
// leaf) and bounds the rest, so its T and bound are those of (5.17)-(5.26); tested
// against BuildHomogeneous solved by HiGHS (TestSeqBBProbeMatchesTheMIP).
//
// The probe's T is the evaluator's makespan of the best schedule; Bound is the larger of
// the search's proven lower bound on T(m, n, V) and HomogeneousLowerBound (T itself when
// the search ends optimal at gap 0), Gap = (T − Bound)/T, so the efficiency lies in
// [T(1,1,V)/(m·T), T(1,1,V)/(m·Bound)]. A probe the search left "feasible" at its time
// limit is "optimal" when HomogeneousLowerBound alone closes the gap.
func SeqBBProbe(cfg SeqBBConfig) ProbeFunc {
	return func(ctx context.Context, m, n int, V float64) (Probe, error) {
		p := Probe{M: m, N: n, V: V}
		threads := cfg.Threads
		if threads <= 0 {
			threads = 1
		}
		in := Instance(cfg.Machine, m, n, V)
		pr := &kdm.Problem{Inst: in}
		pr.KindName, pr.InstName = dm.Kind, in.Name
		pctx, cancel := ctx, context.CancelFunc(func() {})
		if cfg.TimeLimit > 0 {
			pctx, cancel = context.WithTimeout(ctx, cfg.TimeLimit)
		}
		t0 := time.Now()
		res, err := pr.Solve(pctx, solve.Request{Backend: solve.Exact,
			Options: backends.Options{RelGap: cfg.Gap, Threads: threads, TimeLimit: cfg.TimeLimit}})
		cancel()
		p.Seconds = time.Since(t0).Seconds()
		if err != nil {
			return p, fmt.Errorf("isoeff: probe m = %d, n = %d, V = %g: %w", m, n, V, err)
		}
		if err := ctx.Err(); err != nil {
			return p, fmt.Errorf("isoeff: probe m = %d, n = %d, V = %g: %w", m, n, V, err)
		}
		p.Status = res.Status
		if res.Objective == nil || res.Solution == nil {
			return p, fmt.Errorf("isoeff: probe m = %d, n = %d, V = %g: status %s without a schedule: %s", m, n, V, res.Status, res.Message)
		}
		if res.Status == solve.StatusError || (res.Check.Evaluator != nil && !res.Check.Evaluator.OK) {
			return p, fmt.Errorf("isoeff: probe m = %d, n = %d, V = %g: status %s: %s", m, n, V, res.Status, res.Message)
		}
		sol, ok := res.Solution.(dm.Solution)
		if !ok {
			return p, fmt.Errorf("isoeff: probe m = %d, n = %d, V = %g: solution of type %T", m, n, V, res.Solution)
		}
		p.Schedule = sol.Schedule()
		r := dm.Evaluate(in, p.Schedule, dm.EvalOptions{})
		if !r.OK() {
			return p, fmt.Errorf("isoeff: probe m = %d, n = %d, V = %g: the evaluator rejects the schedule: %s", m, n, V, r.Worst())
		}
		p.T = r.Makespan
		if p.Bound, err = HomogeneousLowerBound(cfg.Machine, m, n, V); err != nil {
			return p, err
		}
		if res.Bound != nil {
			p.Bound = math.Max(p.Bound, *res.Bound)
		}
		p.Bound = math.Min(p.Bound, p.T)
		p.Gap = (p.T - p.Bound) / p.T
		if p.Status == solve.StatusFeasible && p.Gap <= cfg.Gap {
			p.Status = solve.StatusOptimal // proven by HomogeneousLowerBound
		}
		p.E = Efficiency(cfg.Machine, m, V, p.T)
		return p, nil
	}
}

// EInterval returns the interval the probe proves for E(m, n, V): [T(1,1,V)/(m·T),
// T(1,1,V)/(m·Bound)] (a single point when Bound is unset or equal to T).
func (p Probe) EInterval(mc dm.Machine) (lo, hi float64) {
	lo = Efficiency(mc, p.M, p.V, p.T)
	if p.Bound > 0 && p.Bound < p.T {
		return lo, Efficiency(mc, p.M, p.V, p.Bound)
	}
	return lo, lo
}
