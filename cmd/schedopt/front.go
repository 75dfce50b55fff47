package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/schedopt/schedopt/domain"
	fig "github.com/schedopt/schedopt/figure"
	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/kinds/builtin"
	"github.com/schedopt/schedopt/solve"
	"github.com/spf13/cobra"
)

// FrontPoint is one point of a trade-off curve.
type FrontPoint struct {
	T       float64  `json:"T"`
	E       *float64 `json:"E"` // null when the solve found no schedule
	Status  string   `json:"status"`
	Gap     *float64 `json:"gap"` // relative; null when unknown (no schedule, an error)
	Seconds float64  `json:"seconds"`
	Sizes   []int    `json:"sizes,omitempty"`
	Message string   `json:"message,omitempty"`
	// Backend names the path that answered this point: the curve's backend, or for
	// the backend auto the path it took ("exact" or a MILP backend).
	Backend string `json:"backend,omitempty"`
}

// FrontResult is what `schedopt front --json` prints.
type FrontResult struct {
	Kind        string       `json:"kind"`
	Name        string       `json:"name"`
	Backend     string       `json:"backend"`
	Objective   string       `json:"objective"`
	FixedLength *bool        `json:"fixed_length,omitempty"`
	TMin        *float64     `json:"t_min"` // T*; null when --from and --to were both given (no min-time solve)
	Points      []FrontPoint `json:"points"`
}

func newFrontCmd(e *env) *cobra.Command {
	var f solveFlags
	var from, to, step float64
	var steps int
	var fixed, total bool
	var plotPath string
	cmd := &cobra.Command{
		Use:   "front [INSTANCE.json | -]",
		Short: "Trade-off curve of energy against schedule length",
		Long: `front computes the energy / schedule-length trade-off of an instance.

dlt-single and dlt-multi: first the shortest schedule T* (min-time), then the minimum
energy at deadlines T from --from (default T*) to --to (default 2·T*) in --steps equal
steps (or every --step seconds), as the thesis's figures do. With --fixed-length (the
default) the schedule length is exactly T; with --fixed-length=false it is at most T,
and each solve starts from the previous one's schedule (a MIP start: a schedule that
meets a deadline meets every later one; with a fixed length it would have the wrong
length, so none is given).

workload: the exact Pareto front of makespan and dynamic energy (or, with --total,
static_power·makespan + dynamic energy).

--json prints one JSON object with the points; --plot writes the curve (.svg or .png,
both when the name has no extension).`,
		Example: `  schedopt front instances/dlt-single-table5.1-minenergy.json --steps 8 --plot out/front
  schedopt front instances/dlt-multi-tiny-m3-n4.json --from 300 --to 400 --step 10 --time-limit 30s --json
  schedopt front instances/workload-small.json --plot out/pareto.png`,
		Args: argsOf(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts, err := f.options(e, true)
			if err != nil {
				return err
			}
			if err := checkPlotPath(plotPath); err != nil {
				return err
			}
			if steps < 2 {
				return usagef("--steps: must be >= 2, got %d", steps)
			}
			if step < 0 || from < 0 || to < 0 {
				return usagef("--from, --to and --step must be >= 0")
			}
			arg, err := e.instanceArg(args)
			if err != nil {
				return err
			}
			data, err := e.readInstance(arg)
			if err != nil {
				return err
			}
			path := displayPath(arg)
			base, err := builtin.Registry().Load(data, kinds.DefaultName(path))
			if err != nil {
				return domain.InFile(path, err)
			}
			if err := e.limits.CheckSize(base); err != nil {
				return domain.InFile(path, err)
			}
			solver, err := solve.NewSolver(f.backend)
			if err != nil {
				return err
			}
			policy, err := f.policy()
			if err != nil {
				return err
			}
			// Every solve of the curve has its own wall-clock deadline (--time-limit +
			// wallClockGrace, as solve's) and is abandoned abandonGrace after it or
			// after a signal when its solver does not stop (errAbandoned): the sweep
			// then stops, so abandoned solves never pile up (see deadlineSweep).
			run := func(ctx context.Context, p kinds.Problem, start []float64) (*solve.Result, error) {
				pctx, cancel := wallClock(ctx, f.timeLimit)
				defer cancel()
				o := opts
				o.TimeLimit = remaining(pctx, opts.TimeLimit)
				res, err := within(pctx, func() (*solve.Result, error) {
					return f.run(pctx, p, kinds.RunRequest{Backend: f.backend, Solver: solver, Options: o, NoCheck: true, Start: start, Policy: policy})
				})
				if err != nil && !errors.Is(err, errAbandoned) && pctx.Err() != nil && ctx.Err() == nil {
					return &solve.Result{Kind: p.Kind(), Name: p.Name(), Backend: f.backend, Status: solve.StatusTimeLimit,
						Message: "stopped before the solve ended: " + err.Error()}, nil
				}
				return res, err
			}
			var fr *FrontResult
			switch base.Kind() {
			case "dlt-single", "dlt-multi":
				fr, err = deadlineSweep(cmd.Context(), e, path, data, base, run, sweepRange{from, to, step, steps}, fixed, true)
			case "workload":
				fr, err = workloadFront(cmd.Context(), path, data, base, run, total)
			default:
				return usagef("front: kind %s has no trade-off curve (dlt-single, dlt-multi, workload)", base.Kind())
			}
			if cmd.Context().Err() != nil {
				return exitError{code: exitFailure, msg: "interrupted"}
			}
			if err != nil {
				return err
			}
			fr.Backend = f.backend
			if f.json {
				if err := writeJSON(e.stdout, fr); err != nil {
					return err
				}
			} else {
				writeFrontTable(e, fr)
			}
			if plotPath != "" {
				files, err := plotFront(fr, plotPath)
				if err != nil {
					return err
				}
				fmt.Fprintf(e.stderr, "wrote %s\n", strings.Join(files, ", "))
			}
			return nil
		},
	}
	f.register(cmd.Flags(), true, solve.Auto)
	fl := cmd.Flags()
	fl.Float64Var(&from, "from", 0, "smallest deadline T [s] (default: the shortest schedule T*)")
	fl.Float64Var(&to, "to", 0, "largest deadline T [s] (default: 2·T*)")
	fl.Float64Var(&step, "step", 0, "deadline step [s] (overrides --steps)")
	fl.IntVar(&steps, "steps", 10, "number of deadlines from --from to --to")
	fl.BoolVar(&fixed, "fixed-length", true, "schedule length exactly T (false: at most T)")
	fl.BoolVar(&total, "total", false, "workload: count static energy (pareto-total)")
	fl.StringVar(&plotPath, "plot", "", "write the curve to FILE (.svg, .png, or no extension for both)")
	return cmd
}

type sweepRange struct {
	from, to, step float64
	steps          int
}

// deadlines returns the deadlines of the sweep.
func (r sweepRange) deadlines() []float64 {
	var out []float64
	if r.step > 0 {
		for t := r.from; t <= r.to*(1+1e-12); t += r.step {
			out = append(out, t)
		}
		return out
	}
	for k := 0; k < r.steps; k++ {
		out = append(out, r.from+(r.to-r.from)*float64(k)/float64(r.steps-1))
	}
	return out
}

type runFunc func(ctx context.Context, p kinds.Problem, start []float64) (*solve.Result, error)

// withFields returns the instance JSON with some top-level fields replaced (nil
// deletes a field). Rewriting the instance keeps the sweep within the spec's contract:
// any kind adapter that reads the spec's fields supports it.
func withFields(data []byte, set map[string]any) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	for k, v := range set {
		if v == nil {
			delete(m, k)
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		m[k] = b
	}
	return json.Marshal(m)
}

func deadlineSweep(ctx context.Context, e *env, path string, data []byte, base kinds.Problem, run runFunc, r sweepRange, fixed, verbose bool) (*FrontResult, error) {
	fr := &FrontResult{Kind: base.Kind(), Name: base.Name(), Objective: "min-energy", FixedLength: &fixed}
	load := func(set map[string]any) (kinds.Problem, error) {
		d, err := withFields(data, set)
		if err != nil {
			return nil, domain.InFile(path, err)
		}
		p, err := builtin.Registry().Load(d, base.Name())
		if err != nil {
			return nil, domain.InFile(path, err)
		}
		return p, nil
	}
	if r.from == 0 || r.to == 0 {
		p, err := load(map[string]any{"objective": "min-time", "deadline": nil, "fixed_length": false, "energy_limit": nil})
		if err != nil {
			return nil, err
		}
		if verbose {
			fmt.Fprintf(e.stderr, "front: shortest schedule of %s...\n", base.Name())
		}
		res, err := run(ctx, p, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: min-time: %w", path, err)
		}
		if res.Objective == nil {
			return nil, fmt.Errorf("%s: min-time ended %s without a schedule%s", path, res.Status, msgSuffix(res.Message))
		}
		tmin := *res.Objective
		fr.TMin = &tmin
		if r.from == 0 {
			r.from = tmin
		}
		if r.to == 0 {
			r.to = 2 * tmin
		}
	}
	if r.to < r.from {
		return nil, usagef("--to %g is below --from %g", r.to, r.from)
	}
	var start []float64
	ts := r.deadlines()
	for k, t := range ts {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		p, err := load(map[string]any{"objective": "min-energy", "deadline": t, "fixed_length": fixed, "energy_limit": nil})
		if err != nil {
			return nil, err
		}
		res, err := run(ctx, p, start)
		pt := FrontPoint{T: t}
		if errors.Is(err, errAbandoned) && ctx.Err() == nil {
			// The solver ignored its limit and still runs in the background. Every
			// point is a model of the same size, so the next would do the same: stop
			// here rather than pile up solves, and say so for the rest.
			pt.Status, pt.Message = solve.StatusTimeLimit, "the solver did not stop at its limit and was abandoned"
			fr.Points = append(fr.Points, pt)
			for _, rest := range ts[k+1:] {
				fr.Points = append(fr.Points, FrontPoint{T: rest, Status: solve.StatusTimeLimit,
					Message: fmt.Sprintf("not run: the solve at T=%.6g ignored its time limit", t)})
			}
			if verbose {
				fmt.Fprintf(e.stderr, "front: %d/%d T=%.6g abandoned; the remaining %d points are not run\n", k+1, len(ts), t, len(ts)-k-1)
			}
			break
		}
		if err != nil {
			pt.Status, pt.Message = solve.StatusError, err.Error()
		} else {
			pt.Status, pt.E, pt.Gap, pt.Message = res.Status, res.Objective, res.Gap, res.Message
			pt.Seconds = res.Seconds.Build + res.Seconds.Solve
			pt.Backend = res.Backend
			// A schedule of length at most T meets every later deadline, so it is a
			// valid start for the next solve; one of length exactly T is not (every
			// such start was rejected), so fixed-length solves start cold.
			if res.Values != nil && !fixed {
				start = res.Values
			}
		}
		if verbose {
			fmt.Fprintf(e.stderr, "front: %d/%d T=%.6g %s\n", k+1, len(ts), t, pt.Status)
		}
		fr.Points = append(fr.Points, pt)
	}
	return fr, nil
}

func workloadFront(ctx context.Context, path string, data []byte, base kinds.Problem, run runFunc, total bool) (*FrontResult, error) {
	obj := "pareto"
	if total {
		obj = "pareto-total"
	}
	d, err := withFields(data, map[string]any{"objective": obj})
	if err != nil {
		return nil, domain.InFile(path, err)
	}
	p, err := builtin.Registry().Load(d, base.Name())
	if err != nil {
		return nil, domain.InFile(path, err)
	}
	res, err := run(ctx, p, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	fr := &FrontResult{Kind: base.Kind(), Name: base.Name(), Objective: obj}
	if res.Status == solve.StatusError {
		return nil, fmt.Errorf("%s: %s", path, res.Message)
	}
	b, err := json.Marshal(res.Solution)
	if err != nil {
		return nil, fmt.Errorf("%s: front: %w", path, err)
	}
	var sol struct {
		Front []struct {
			T, E  float64
			Sizes []int `json:"sizes"`
		} `json:"front"`
	}
	if err := json.Unmarshal(b, &sol); err != nil {
		return nil, fmt.Errorf("%s: front: %w", path, err)
	}
	for _, q := range sol.Front {
		e := q.E
		// Every point carries the front's gap: 0 when every solve of it was proven.
		fr.Points = append(fr.Points, FrontPoint{T: q.T, E: &e, Status: res.Status, Gap: res.Gap, Sizes: q.Sizes})
	}
	if len(fr.Points) == 0 {
		return nil, fmt.Errorf("%s: the %s solve (%s) returned no front", path, obj, res.Status)
	}
	tmin := fr.Points[0].T // the front's shortest makespan, T* (HPOPT)
	fr.TMin = &tmin
	return fr, nil
}

func writeFrontTable(e *env, fr *FrontResult) {
	fmt.Fprintf(e.stdout, "%s (%s), %s, backend %s\n", fr.Name, fr.Kind, fr.Objective, fr.Backend)
	if fr.TMin != nil {
		fmt.Fprintf(e.stdout, "shortest schedule T* = %.6g s\n", *fr.TMin)
	}
	fmt.Fprintf(e.stdout, "%14s  %16s  %-10s  %8s\n", "T [s]", "E [J]", "status", "time [s]")
	for _, p := range fr.Points {
		ev := "–"
		if p.E != nil {
			ev = fmt.Sprintf("%.8g", *p.E)
		}
		fmt.Fprintf(e.stdout, "%14.6g  %16s  %-10s  %8.3f\n", p.T, ev, p.Status, p.Seconds)
	}
}

func plotFront(fr *FrontResult, path string) ([]string, error) {
	c := fig.Curve{Label: fr.Name, Steps: fr.Kind == "workload"}
	for _, p := range fr.Points {
		if p.E != nil {
			c.X = append(c.X, p.T)
			c.Y = append(c.Y, *p.E)
		}
	}
	title := fmt.Sprintf("Energy vs schedule length: %s (%s)", fr.Name, fr.Kind)
	ylab := "minimum energy E [J]"
	if fr.Kind == "workload" {
		title = fmt.Sprintf("Pareto front: %s", fr.Name)
		ylab = "dynamic energy E [J]"
		if fr.Objective == "pareto-total" {
			ylab = "total energy E [J]"
		}
		return fig.TradeOff([]fig.Curve{c}, title, "makespan T [s]", ylab, path)
	}
	return fig.TradeOff([]fig.Curve{c}, title, "schedule length T [s]", ylab, path)
}

// checkPlotPath accepts .svg, .png or no extension (both).
func checkPlotPath(path string) error {
	if path == "" {
		return nil
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case "", ".svg", ".png":
		return nil
	}
	return usagef("--plot: %s: unknown image format (use .svg, .png, or no extension for both)", path)
}

// plotResult draws a solve's result: the Gantt chart of a dlt-multi schedule, or the
// front of a workload pareto result.
func plotResult(instancePath string, res *solve.Result, path string) error {
	if res.Solution == nil {
		return fmt.Errorf("--plot: %s has no schedule to plot (status %s)", res.Name, res.Status)
	}
	switch res.Kind {
	case "dlt-multi":
		data, err := os.ReadFile(instancePath)
		if err != nil {
			return err
		}
		rows, T, err := fig.DLTMultiRows(data, res.Solution)
		if err != nil {
			return err
		}
		title := fmt.Sprintf("%s: T = %.4g s", res.Name, T)
		if res.Objective != nil {
			title += fmt.Sprintf(", objective %.6g", *res.Objective)
		}
		_, err = fig.Gantt(rows, title, path)
		return err
	case "workload":
		b, _ := json.Marshal(res.Solution)
		var sol struct {
			Front []struct{ T, E float64 } `json:"front"`
		}
		if json.Unmarshal(b, &sol) != nil || len(sol.Front) == 0 {
			return errors.New("--plot: the workload result has no front (use objective pareto, or schedopt front)")
		}
		fr := &FrontResult{Kind: res.Kind, Name: res.Name, Objective: "pareto"}
		for _, q := range sol.Front {
			e := q.E
			fr.Points = append(fr.Points, FrontPoint{T: q.T, E: &e})
		}
		_, err := plotFront(fr, path)
		return err
	}
	return usageError{fmt.Errorf("--plot: nothing to plot for kind %s (dlt-multi Gantt charts, workload fronts)", res.Kind)}
}
