package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/registry"
	"github.com/schedopt/schedopt/certify"
	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/portfolio"
	"github.com/schedopt/schedopt/solve"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// solveFlags are the flags solve, solve-mps and front share.
type solveFlags struct {
	backend   string
	timeLimit time.Duration
	gap       float64
	threads   int
	json      bool
	noCheck   bool
	log       bool
	certify   bool
}

// register adds the shared flags; withExact offers the backend "exact" too, and def is
// the default backend (solve.Auto for solve and front, the first MILP backend for
// solve-mps, as the spec says).
func (f *solveFlags) register(fs *pflag.FlagSet, withExact bool, def string) {
	names := append([]string{solve.Auto}, registry.Names()...)
	if withExact {
		names = append(names, solve.Exact)
	}
	fs.StringVar(&f.backend, "backend", def, "solver backend: "+strings.Join(names, "|")+
		" (auto: the strongest paths the instance has, concurrently with --threads >= 2; the result's backend names the one that proved it)")
	fs.DurationVar(&f.timeLimit, "time-limit", 0, "solver time limit, e.g. 60s or 5m (0: none)")
	fs.Float64Var(&f.gap, "gap", backends.DefaultRelGap, "relative MIP gap; the solve stops when proven within it")
	fs.IntVar(&f.threads, "threads", 0, "solver threads (0: the solver's choice; for auto, all cores)")
	fs.BoolVar(&f.json, "json", false, "print the result as one JSON object on stdout")
	fs.BoolVar(&f.log, "log", false, "show the solver's log on stderr")
	fs.BoolVar(&f.certify, "certify", false, "confirm every optimum with a second backend (a cutoff solve that must be infeasible), however long it takes")
}

// policy returns the certification policy of the flags' backend (docs/certification.md).
func (f *solveFlags) policy() (certify.Policy, error) {
	return solve.NewPolicy(f.backend, f.certify)
}

// run solves p as req says, through the portfolio (package portfolio) when the
// backend is solve.Auto.
func (f *solveFlags) run(ctx context.Context, p kinds.Problem, req kinds.RunRequest) (*solve.Result, error) {
	if req.Backend == solve.Auto {
		return portfolio.Run(ctx, p, portfolio.Request{Options: req.Options, NoCheck: req.NoCheck, Certify: f.certify, Start: req.Start})
	}
	return kinds.Run(ctx, p, req)
}

// options checks the flags and returns the backend options.
func (f *solveFlags) options(e *env, withExact bool) (backends.Options, error) {
	if !withExact && f.backend == solve.Exact {
		return backends.Options{}, usagef("--backend: exact is not available here (use %s)", milpChoice())
	}
	if strings.HasPrefix(f.backend, solve.HeuristicPrefix) {
		return backends.Options{}, usagef("--backend: %q: heuristics run in sweeps (schedopt bench), not in solve", f.backend)
	}
	if err := solve.CheckBackend("--backend", f.backend); err != nil {
		return backends.Options{}, err
	}
	if !(f.gap >= 0 && f.gap < 1) {
		return backends.Options{}, usagef("--gap: relative gap %g must be in [0, 1)", f.gap)
	}
	if f.timeLimit < 0 {
		return backends.Options{}, usagef("--time-limit: must be >= 0, got %s", f.timeLimit)
	}
	if f.threads < 0 {
		return backends.Options{}, usagef("--threads: must be >= 0, got %d", f.threads)
	}
	o := backends.Options{TimeLimit: f.timeLimit, RelGap: f.gap, Threads: f.threads}
	if f.log {
		o.Log = e.stderr
	}
	return o, nil
}

func newSolveCmd(e *env) *cobra.Command {
	var f solveFlags
	var plotPath string
	cmd := &cobra.Command{
		Use:   "solve [INSTANCE.json | -]",
		Short: "Solve one instance and check the result",
		Long: `solve loads an instance (any kind of the spec), builds its MILP, solves it with the
chosen backend (or the exact combinatorial algorithm with --backend exact), decodes the
schedule, re-evaluates it with the kind's independent evaluator and, unless --no-check,
cross-checks the objective with the exact oracle where one exists.

The default backend, auto, takes the strongest path the kind has: its exact algorithm
where one scales (the dlt-multi sequence branch-and-bound, on every thread, the workload
DPs), the MILP elsewhere; where both may win (workload) and --threads is 2 or more (0:
all cores), both run concurrently and the first proof answers. The result's "backend"
names the path that answered, and "paths" how each one ended. Without an instance
argument, or with "-", the instance is read from standard input.

The status is "optimal" only when the solver proved optimality within --gap; "feasible"
is a solution without that proof (for example at the time limit); "time_limit" means the
limit was reached without a solution. The exit status is 0 for every such definite
status, infeasible included.`,
		Example: `  schedopt solve instances/workload-small.json
  schedopt solve instances/dlt-multi-tiny-m3-n4.json --time-limit 60s --gap 0.002 --json
  schedopt solve instances/stencil-small.json --backend lpsolve --no-check
  schedopt solve instances/workload-small.json --backend exact
  schedopt solve instances/dlt-multi-tiny-m3-n4.json --plot out/gantt.svg
  schedopt gen stencil --grid sphere --config 2cpu-2gpu --deadline 2.66e-3 | schedopt solve --time-limit 10m`,
		Args: argsOf(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts, err := f.options(e, true)
			if err != nil {
				return err
			}
			sigCtx := cmd.Context()
			ctx, cancel := wallClock(sigCtx, f.timeLimit)
			defer cancel()
			if err := checkPlotPath(plotPath); err != nil {
				return err
			}
			// Parsing a large instance takes seconds: it too ends at the deadline or
			// a signal.
			path, err := e.instanceArg(args)
			if err != nil {
				return err
			}
			p, err := within(ctx, func() (kinds.Problem, error) { return e.loadProblem(path) })
			if errors.Is(err, errAbandoned) {
				res := &solve.Result{Name: kinds.DefaultName(displayPath(path)), Backend: f.backend,
					Status: solve.StatusTimeLimit, Message: "stopped while reading the instance: " + err.Error()}
				stoppedStatus(res, sigCtx, ctx)
				if f.json {
					if err := writeJSON(e.stdout, res); err != nil {
						return err
					}
				} else {
					writeSummary(e.stdout, res)
				}
				return statusExit(res, sigCtx)
			}
			if err != nil {
				return err
			}
			solver, err := solve.NewSolver(f.backend)
			if err != nil {
				return err
			}
			if e.stderrTTY {
				fmt.Fprintf(e.stderr, "solving %s (%s) with %s...\n", p.Name(), p.Kind(), f.backend)
			}
			policy, err := f.policy()
			if err != nil {
				return err
			}
			opts.TimeLimit = remaining(ctx, opts.TimeLimit)
			res, err := within(ctx, func() (*solve.Result, error) {
				return f.run(ctx, p, kinds.RunRequest{Backend: f.backend, Solver: solver, Options: opts, NoCheck: f.noCheck, Policy: policy})
			})
			if err != nil && ctx.Err() != nil {
				// The deadline or a signal stopped a phase outside the solver (the build,
				// the MIP-start heuristics): a definite result without a solution.
				res, err = &solve.Result{Kind: p.Kind(), Name: p.Name(), Backend: f.backend,
					Status: solve.StatusTimeLimit, Message: "stopped before the solve ended: " + err.Error()}, nil
			}
			if err == nil {
				stoppedStatus(res, sigCtx, ctx)
			}
			if errors.Is(err, solve.ErrNoExact) {
				return usagef("--backend exact: %s: %v; use %s", displayPath(path), err, milpChoice())
			}
			if fe := (*domain.FieldError)(nil); errors.As(err, &fe) {
				// Found while building or before solving (values whose scale no solver
				// takes): bad input, one line naming the file, exit 2. The wrapping
				// messages were formatted without the file, so the FieldError goes alone.
				return domain.InFile(displayPath(path), fe)
			}
			if err != nil {
				if f.json {
					res := &solve.Result{Kind: p.Kind(), Name: p.Name(), Backend: f.backend, Status: solve.StatusError, Message: err.Error()}
					if werr := writeJSON(e.stdout, res); werr != nil {
						return werr
					}
				}
				return err
			}
			if f.json {
				if err := writeJSON(e.stdout, res); err != nil {
					return err
				}
			} else {
				writeSummary(e.stdout, res)
			}
			if a, ok := p.(kinds.Advisor); ok && sigCtx.Err() == nil {
				if advice := a.Advice(res.Backend, res); advice != "" {
					fmt.Fprintln(e.stderr, "note:", advice)
				}
			}
			if plotPath != "" {
				if err := plotResult(displayPath(path), res, plotPath); err != nil {
					return err
				}
				fmt.Fprintf(e.stderr, "wrote %s\n", plotPath)
			}
			return statusExit(res, sigCtx)
		},
	}
	f.register(cmd.Flags(), true, solve.Auto)
	cmd.Flags().BoolVar(&f.noCheck, "no-check", false, "skip the cross-check with the exact oracle (the evaluator always runs)")
	cmd.Flags().StringVar(&plotPath, "plot", "", "also plot the result to FILE (.svg or .png): a Gantt chart for dlt-multi, the front for workload pareto")
	return cmd
}

// milpChoice lists the MILP backends for a message: "highs or lpsolve".
func milpChoice() string {
	names := registry.Names()
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// statusExit maps a result's status to the exit status: 0 for every definite status,
// 1 for "error" (the message is already in the result).
// wallClockGrace is how long after --time-limit the command's own deadline falls: the
// solver is given what remains of the limit and normally stops first; the deadline
// stops whatever did not (a phase before the solve, a solver that overruns).
const wallClockGrace = 500 * time.Millisecond

// wallClock returns the context of a whole command under --time-limit: parse, build,
// MIP start, solve, certification and decode all run before its deadline (limit +
// wallClockGrace from now). A zero limit means no deadline.
func wallClock(ctx context.Context, limit time.Duration) (context.Context, context.CancelFunc) {
	if limit <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, limit+wallClockGrace)
}

// abandonGrace is how long a run may go on after the command's deadline or a signal
// before the command stops waiting for it: a solver stuck in a phase that checks
// neither its time limit nor its interrupt (HiGHS presolve on a large MIP did, for
// 10 s and more than 1 GB) is abandoned and the process exits. wallClockGrace +
// abandonGrace stays under the 1 s the contract allows past --time-limit.
const abandonGrace = 200 * time.Millisecond

// errAbandoned reports a run left behind at the deadline or a signal.
var errAbandoned = errors.New("the run did not stop at the deadline or signal and was abandoned")

// within runs f and returns what it returns, unless ctx ends and f has not returned
// abandonGrace later: then it returns errAbandoned wrapped with ctx's error, and f
// goes on in its goroutine until the process exits.
func within[T any](ctx context.Context, f func() (T, error)) (T, error) {
	type out struct {
		v   T
		err error
	}
	done := make(chan out, 1)
	go func() {
		v, err := f()
		done <- out{v, err}
	}()
	select {
	case o := <-done:
		return o.v, o.err
	case <-ctx.Done():
	}
	t := time.NewTimer(abandonGrace)
	defer t.Stop()
	select {
	case o := <-done:
		return o.v, o.err
	case <-t.C:
		var zero T
		return zero, fmt.Errorf("%w: %w", errAbandoned, context.Cause(ctx))
	}
}

// remaining is the solver's time limit: what remains of the command's deadline, less
// the grace, and never more than limit (0: none). It is at least a millisecond, so that
// a spent limit is not read as "no limit".
func remaining(ctx context.Context, limit time.Duration) time.Duration {
	dl, ok := ctx.Deadline()
	if !ok || limit <= 0 {
		return limit
	}
	return min(limit, max(time.Until(dl)-wallClockGrace, time.Millisecond))
}

// stoppedStatus names why a run stopped early: "interrupted" only for a signal
// (sigCtx cancelled); a run the command's deadline stopped is "time_limit" without a
// solution and "feasible" with one.
func stoppedStatus(res *solve.Result, sigCtx, ctx context.Context) {
	if sigCtx.Err() != nil {
		// A signal stopped the run: every status but a proven one and an error is
		// "interrupted", a solution found so far kept with it.
		switch res.Status {
		case solve.StatusOptimal, solve.StatusInfeasible, solve.StatusUnbounded, solve.StatusError:
		default:
			res.Status = solve.StatusInterrupted
		}
		return
	}
	if ctx.Err() != nil && res.Status == solve.StatusInterrupted {
		res.Status = solve.StatusTimeLimit
		if res.Objective != nil {
			res.Status = solve.StatusFeasible
		}
	}
}

func statusExit(res *solve.Result, ctx context.Context) error {
	if res.Status == solve.StatusError {
		msg := res.Message
		if msg == "" {
			msg = "the solve ended in an error"
		}
		return exitError{code: exitFailure, msg: res.Name + ": " + msg}
	}
	if res.Status == solve.StatusInterrupted || ctx.Err() != nil && res.Status == solve.StatusTimeLimit {
		return exitError{code: exitFailure, msg: "interrupted"}
	}
	return nil
}

// writeJSON prints v as one JSON object and a newline. NaN and infinite numbers,
// which JSON cannot hold, are an error rather than a broken document.
//
// For a *solve.Result that cannot be encoded, it still prints one object: the result's
// identity with status "error" and the encoding error as the message, so that --json
// keeps its promise of exactly one object on stdout; the error is returned too.
func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		err = fmt.Errorf("encode result: %w", err)
		r, ok := v.(*solve.Result)
		if !ok {
			return err
		}
		fallback := &solve.Result{Kind: r.Kind, Name: r.Name, Backend: r.Backend, Solver: r.Solver,
			Status: solve.StatusError, Message: err.Error()}
		if fb, ferr := json.MarshalIndent(fallback, "", "  "); ferr == nil {
			_, _ = w.Write(append(fb, '\n'))
		}
		return err
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}

// writeSummary prints a result for people.
func writeSummary(w io.Writer, r *solve.Result) {
	pf := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	pf("instance   %s (%s)\n", r.Name, r.Kind)
	if r.Solver != "" {
		pf("backend    %s (%s)\n", r.Backend, r.Solver)
	} else {
		pf("backend    %s\n", r.Backend)
	}
	pf("status     %s\n", r.Status)
	if c := r.Certificate; c != nil {
		pf("certified  %s (%d solves)\n", c.Method, len(c.Solves))
	}
	if r.Objective != nil {
		pf("objective  %s\n", num(*r.Objective))
	}
	if r.Bound != nil {
		pf("bound      %s\n", num(*r.Bound))
	}
	if r.Gap != nil {
		pf("gap        %.4g%%\n", 100**r.Gap)
	}
	pf("time       build %.3f s, solve %.3f s\n", r.Seconds.Build, r.Seconds.Solve)
	if r.Model.Variables > 0 {
		pf("model      %d variables (%d integer), %d rows, %d nonzeros\n", r.Model.Variables, r.Model.Integers, r.Model.Rows, r.Model.Nonzeros)
	}
	if r.Nodes > 0 {
		pf("nodes      %d\n", r.Nodes)
	}
	if ev := r.Check.Evaluator; ev != nil {
		verdict := "ok"
		if !ev.OK {
			verdict = "REJECTED: " + ev.Message
		}
		pf("evaluator  %s (objective %s, max violation %.2g)\n", verdict, num(ev.Objective), ev.MaxViolation)
	}
	if ex := r.Check.Exact; ex != nil {
		v := "no optimum"
		if ex.Objective != nil {
			v = num(*ex.Objective)
		}
		verdict := "agrees"
		if !ex.Agree {
			verdict = "DISAGREES"
		}
		pf("exact      %s: %s, %s%s\n", ex.Algorithm, v, verdict, msgSuffix(ex.Message))
	}
	if r.Message != "" {
		pf("message    %s\n", r.Message)
	}
	if r.Solution != nil {
		b, err := json.Marshal(r.Solution)
		if err == nil {
			s := string(b)
			const maxShown = 600
			if len(s) > maxShown {
				s = s[:maxShown] + " ... (use --json for all of it)"
			}
			pf("solution   %s\n", s)
		}
	}
}

func msgSuffix(m string) string {
	if m == "" {
		return ""
	}
	return " (" + m + ")"
}

func num(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Sprint(x)
	}
	return fmt.Sprintf("%.10g", x)
}
