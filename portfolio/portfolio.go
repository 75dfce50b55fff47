package portfolio

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/registry"
	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/model"
	"github.com/schedopt/schedopt/solve"
)

// CrossCheckBudget bounds how long the losing path of a race may still run after the
// winner's proof to serve as a cross-check: this fraction of the winner's time, and at
// least MinCrossCheck. Longer, it is cancelled: the user asked for an answer, not for
// a second one.
const (
	CrossCheckBudget = 0.1
	MinCrossCheck    = 100 * time.Millisecond
)

// stopWait is how long a cancelled path is waited for before the race answers without
// it (a cancelled certified solve returns within certify.StopGrace; an exact algorithm
// checks its context between nodes).
const stopWait = time.Second

// Request says how to run the portfolio.
type Request struct {
	// Options are the options of every path: time limit, gaps, seed, log. Threads is
	// the total for the portfolio (0: runtime.GOMAXPROCS); it is split between the
	// paths that run concurrently.
	Options backends.Options
	// NoCheck skips the exact cross-check of the MILP paths.
	NoCheck bool
	// Certify confirms every optimum of a MILP path with a second backend (--certify).
	Certify bool
	// Start is the MIP start of the MILP paths (see kinds.RunRequest.Start).
	Start []float64
	// NewBackend makes the MILP backends of the paths and of their certification
	// policies (default registry.New; a registry.Set's New shares instances and
	// their worker processes across runs).
	NewBackend func(name string) (backends.Solver, error)
}

func (r Request) newBackend() func(name string) (backends.Solver, error) {
	if r.NewBackend != nil {
		return r.NewBackend
	}
	return registry.New
}

// Paths returns the backends "auto" runs for p, strongest first: p's own plan when
// it is a kinds.Planner, otherwise the default MILP backend.
func Paths(p kinds.Problem) []string {
	if pl, ok := p.(kinds.Planner); ok {
		if ps := pl.AutoPaths(); len(ps) > 0 {
			return ps
		}
	}
	return []string{solve.MILPBackends()[0]}
}

// Run solves p with the backend "auto" (see the package documentation).
func Run(ctx context.Context, p kinds.Problem, req Request) (*solve.Result, error) {
	var paths []path
	for _, name := range Paths(p) {
		paths = append(paths, path{name: name, run: func(ctx context.Context, opts backends.Options) (*solve.Result, error) {
			solver, err := solve.NewSolverFrom(req.newBackend(), name)
			if err != nil {
				return nil, err
			}
			policy, err := solve.NewPolicyFrom(req.newBackend(), name, req.Certify)
			if err != nil {
				return nil, err
			}
			return kinds.Run(ctx, p, kinds.RunRequest{Backend: name, Solver: solver, Options: opts,
				NoCheck: req.NoCheck, Start: req.Start, Policy: policy})
		}})
	}
	return race(ctx, paths, req.Options)
}

// ModelPaths returns the backends RunModel runs with threads threads (0: GOMAXPROCS):
// HiGHS alone with one, HiGHS and CBC with more.
func ModelPaths(threads int) []string {
	if threadsOf(threads) >= 2 {
		return []string{"highs", "cbc"}
	}
	return []string{"highs"}
}

// RunModel solves a model that belongs to no kind (solve-mps) with the backend "auto":
// the backends of ModelPaths, each through solve.Bare and its certification policy.
// kind and name label the result.
func RunModel(ctx context.Context, kind, name string, m *model.Model, req Request) (*solve.Result, error) {
	var paths []path
	for _, b := range ModelPaths(req.Options.Threads) {
		paths = append(paths, path{name: b, run: func(ctx context.Context, opts backends.Options) (*solve.Result, error) {
			solver, err := solve.NewSolverFrom(req.newBackend(), b)
			if err != nil {
				return nil, err
			}
			policy, err := solve.NewPolicyFrom(req.newBackend(), b, req.Certify)
			if err != nil {
				return nil, err
			}
			return solve.Bare(ctx, kind, name, m, solve.Request{Backend: b, Solver: solver, Options: opts, Policy: policy})
		}})
	}
	return race(ctx, paths, req.Options)
}

// path is one way to answer: a backend name and how to run it with given options.
type path struct {
	name string
	run  func(ctx context.Context, opts backends.Options) (*solve.Result, error)
}

// outcome is how one path ended.
type outcome struct {
	i         int
	res       *solve.Result
	err       error
	seconds   float64
	cancelled bool
}

func threadsOf(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

// race runs paths as the package documentation says and returns the answer.
func race(ctx context.Context, paths []path, opts backends.Options) (*solve.Result, error) {
	if len(paths) == 0 {
		return nil, errors.New("portfolio: no path to run")
	}
	if threadsOf(opts.Threads) < 2 || len(paths) == 1 {
		return sequential(ctx, paths, opts)
	}
	return concurrent(ctx, paths[:2], opts)
}

// sequential runs the paths one after the other until one has an algorithm for the
// instance (no solve.ErrNoExact), and answers with it.
func sequential(ctx context.Context, paths []path, opts backends.Options) (*solve.Result, error) {
	var outs []outcome
	for i, p := range paths {
		t0 := time.Now()
		res, err := p.run(ctx, opts)
		o := outcome{i: i, res: res, err: err, seconds: time.Since(t0).Seconds()}
		outs = append(outs, o)
		if errors.Is(err, solve.ErrNoExact) && i+1 < len(paths) && ctx.Err() == nil {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("auto: %s: %w", p.name, err)
		}
		return answer(paths, outs, i, opts), nil
	}
	return nil, errors.New("portfolio: no path answered")
}

// concurrent runs two paths at once, the first with all threads but one.
func concurrent(ctx context.Context, paths []path, opts backends.Options) (*solve.Result, error) {
	n := threadsOf(opts.Threads)
	ch := make(chan outcome, len(paths))
	cancels := make([]context.CancelFunc, len(paths))
	begin := time.Now()
	for i, p := range paths {
		o := opts
		o.Threads = 1
		if i == 0 {
			o.Threads = n - 1
		}
		if i > 0 {
			o.Log = nil // one log on stderr, the strongest path's
		}
		pctx, cancel := context.WithCancel(ctx)
		cancels[i] = cancel
		go func() {
			t0 := time.Now()
			res, err := p.run(pctx, o)
			ch <- outcome{i: i, res: res, err: err, seconds: time.Since(t0).Seconds()}
		}()
	}
	defer func() {
		for _, c := range cancels {
			c()
		}
	}()
	outs := make([]outcome, len(paths))
	got := make([]bool, len(paths))
	winner := -1
	var budget <-chan time.Time
	for pending := len(paths); pending > 0; {
		select {
		case o := <-ch:
			outs[o.i], got[o.i] = o, true
			pending--
			if winner < 0 && o.err == nil && proven(o.res) {
				winner = o.i
				if pending > 0 {
					wait := max(MinCrossCheck, time.Duration(CrossCheckBudget*float64(time.Since(begin))))
					t := time.NewTimer(wait)
					defer t.Stop()
					budget = t.C
				}
			}
		case <-budget:
			budget = nil
			for i := range paths {
				if !got[i] {
					cancels[i]()
					outs[i].cancelled = true
				}
			}
			// A cancelled path returns promptly; one that does not is left behind.
			t := time.NewTimer(stopWait)
			defer t.Stop()
			for pending > 0 {
				select {
				case o := <-ch:
					o.cancelled = true
					outs[o.i], got[o.i] = o, true
					pending--
				case <-t.C:
					pending = 0
				}
			}
		}
	}
	for i := range outs {
		outs[i].i = i
		if !got[i] {
			outs[i].cancelled = true
		}
	}
	if winner < 0 {
		winner = best(outs)
	}
	if winner < 0 {
		// Every path failed: report the stronger path's error.
		for _, o := range outs {
			if o.err != nil {
				return nil, fmt.Errorf("auto: %s: %w", paths[o.i].name, o.err)
			}
		}
		return nil, errors.New("portfolio: no path answered")
	}
	return answer(paths, outs, winner, opts), nil
}

// proven reports whether r is a proven answer: optimal, infeasible or unbounded.
func proven(r *solve.Result) bool {
	if r == nil {
		return false
	}
	switch r.Status {
	case solve.StatusOptimal, solve.StatusInfeasible, solve.StatusUnbounded:
		return true
	}
	return false
}

// best returns the outcome to answer with when no path proved anything: a result with
// an objective and the smallest gap, then one with an objective, then any result; ties
// go to the stronger (earlier) path. -1 when every path failed.
func best(outs []outcome) int {
	rank := func(o outcome) (int, float64) {
		switch {
		case o.err != nil || o.res == nil || o.cancelled && o.res.Status == solve.StatusInterrupted:
			return 4, 0
		case o.res.Status == solve.StatusError:
			return 3, 0
		case o.res.Objective == nil:
			return 2, 0
		case o.res.Gap == nil:
			return 1, 0
		}
		return 0, *o.res.Gap
	}
	bi, br, bg := -1, 5, math.Inf(1)
	for i, o := range outs {
		r, g := rank(o)
		if r < 4 && (r < br || r == br && g < bg) {
			bi, br, bg = i, r, g
		}
	}
	return bi
}

// answer builds the result of a race won by outs[w]: its result, labelled with its
// backend, with every path's run listed and, when a MILP answer met an exact path that
// ended with an optimum, that optimum as its exact cross-check.
func answer(paths []path, outs []outcome, w int, opts backends.Options) *solve.Result {
	res := *outs[w].res
	res.Backend = paths[w].name
	res.Paths = nil
	for _, o := range outs {
		pr := solve.PathRun{Backend: paths[o.i].name, Seconds: o.seconds}
		switch {
		case o.err != nil:
			pr.Status, pr.Message = solve.StatusError, o.err.Error()
			if errors.Is(o.err, solve.ErrNoExact) {
				pr.Status = "unsupported"
			}
		case o.res == nil:
			pr.Status = "cancelled"
		default:
			pr.Status, pr.Objective = o.res.Status, o.res.Objective
			if o.cancelled && !proven(o.res) {
				pr.Status = "cancelled"
			}
		}
		if o.i != w && o.err == nil && o.res != nil && proven(o.res) && proven(&res) {
			a := agree(&res, o.res, opts)
			pr.Agree = &a
			if paths[o.i].name == solve.Exact && res.Check.Exact == nil && o.res.Objective != nil {
				res.Check.Exact = &solve.ExactCheck{Algorithm: o.res.Solver, Objective: o.res.Objective, Agree: a}
			}
		}
		res.Paths = append(res.Paths, pr)
	}
	return &res
}

// agree reports whether two proven results agree: the same status and, for optima,
// objectives within the requested gaps of each other (each may lie a gap from the
// optimum) plus solve.AgreeTol.
func agree(a, b *solve.Result, opts backends.Options) bool {
	if a.Status != b.Status {
		return false
	}
	if a.Status != solve.StatusOptimal {
		return true
	}
	if a.Objective == nil || b.Objective == nil {
		return false
	}
	x, y := *a.Objective, *b.Objective
	scale := math.Max(math.Abs(x), math.Abs(y))
	tol := 2*math.Max(opts.AbsGap, opts.RelGap*scale) + solve.AgreeTol*math.Max(1, scale)
	return math.Abs(x-y) <= tol
}
