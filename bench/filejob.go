package bench

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/benchfile"
	"github.com/schedopt/schedopt/modelperm"
	"github.com/schedopt/schedopt/solu"
	"github.com/schedopt/schedopt/solve"
)

// FileJob is one job on a model file, as a FileRunner runs it.
type FileJob struct {
	Path    string // the model file (MPS or LP, plain or gzipped)
	Name    string // the instance name (benchfile.Name)
	Backend string
	Options backends.Options // time limit, gap, threads, seed
	// Permutation is the number of the row and column permutation to solve
	// (modelperm.Random with the instance name; 0: the file as written).
	Permutation int
	Read        benchfile.Options
	// Certify confirms every optimum with a second backend (Spec.Certify).
	Certify bool
}

// FileOutcome is what a FileRunner returns: the result object, whose solution maps
// column names to values (so it is already in the file's terms, whatever the
// permutation), and the job's peak memory when the runner could measure it.
type FileOutcome struct {
	Result *solve.Result
	// PeakRSS is the peak resident memory of the job in bytes (0: not measured).
	PeakRSS int64
	// Memory says what PeakRSS measures, e.g. "child process rusage".
	Memory string
}

// FileRunner runs one job on a model file. The sweep judges its outcome the same way
// whatever the runner: status, .solu verdict, point check. Implementations: InProcess
// (this package), a child process of schedopt (cmd/schedopt), and command-line
// solvers.
type FileRunner interface {
	RunFile(ctx context.Context, job FileJob) (FileOutcome, error)
}

// InProcess runs model-file jobs in the sweep's own process, through the
// certification policy (solve.Bare), as schedopt solve-mps does. It cannot tell one
// job's memory from another's, so it reports none.
type InProcess struct {
	// NewSolver maps backend names to solvers (default solve.NewSolver).
	NewSolver func(name string) (backends.Solver, error)
}

// RunFile reads the file, applies the job's permutation, solves it under the
// certification policy and maps the point back to the file's column order.
func (ip InProcess) RunFile(ctx context.Context, job FileJob) (FileOutcome, error) {
	t0 := time.Now()
	m, err := benchfile.Read(job.Path, job.Read)
	if err != nil {
		return FileOutcome{}, err
	}
	perm := modelperm.Random(job.Name, job.Permutation, m.NumVars(), m.NumRows())
	pm, err := perm.Apply(m)
	if err != nil {
		return FileOutcome{}, fmt.Errorf("permutation %d: %w", job.Permutation, err)
	}
	build := time.Since(t0).Seconds()
	newSolver := ip.NewSolver
	if newSolver == nil {
		newSolver = solve.NewSolver
	}
	solver, err := newSolver(job.Backend)
	if err != nil {
		return FileOutcome{}, err
	}
	policy, err := solve.NewPolicy(job.Backend, job.Certify)
	if err != nil {
		return FileOutcome{}, fmt.Errorf("certification policy: %w", err)
	}
	res, err := solve.Bare(ctx, benchfile.Format(job.Path), job.Name, pm, solve.Request{
		Backend: job.Backend, Solver: solver, Options: job.Options, Policy: policy})
	if res != nil {
		res.Seconds.Build = build
		if res.Values != nil {
			if res.Values, err = perm.Restore(res.Values); err != nil {
				return FileOutcome{Result: res}, err
			}
		}
	}
	return FileOutcome{Result: res}, err
}

// SoluCheck is the .solu verdict of a result line: what the file expects (null
// without an entry), its value (null without one), the verdict and its evidence.
type SoluCheck struct {
	Expected *string      `json:"expected"`
	Value    *float64     `json:"value"`
	Verdict  solu.Verdict `json:"verdict"`
	Reason   string       `json:"reason,omitempty"`
}

// PointCheck is the check of a reported point against the coefficients of the file
// (package ratcheck checks in exact rational arithmetic).
type PointCheck struct {
	// MaxAbsViolation and MaxRelViolation are the largest violations of a row, a
	// bound or integrality.
	MaxAbsViolation float64 `json:"max_abs_violation"`
	MaxRelViolation float64 `json:"max_rel_violation"`
	// Feasible says whether the point is feasible at the checker's tolerances in
	// exact arithmetic; FloatFeasible whether the same check in float64 accepts it.
	Feasible      bool   `json:"feasible"`
	FloatFeasible bool   `json:"float_feasible"`
	Objective     string `json:"objective,omitempty"` // the exact objective, as a decimal
	Worst         string `json:"worst,omitempty"`
}

// PointChecker checks a point, given by column names and values, against the model
// file at path. It is called for every model-file result with a point.
type PointChecker func(ctx context.Context, path string, names []string, x []float64) (*PointCheck, error)

// runFileJob runs one model-file job with the sweep's FileRunner and judges it.
func runFileJob(ctx context.Context, j Job, spec *Spec, plan *Plan, o SweepOptions, rec *Record) {
	rec.Permutation = j.Permutation
	rec.Sense = "min"
	if j.Instance.Maximize {
		rec.Sense = "max"
	}
	opts := backends.Options{TimeLimit: j.TimeLimit, Threads: max(spec.Threads, DefaultThreadsPerJob), Seed: j.Rep, RelGap: j.Gap}
	jctx := ctx
	if j.TimeLimit > 0 {
		overrun := o.Overrun
		if overrun <= 0 {
			overrun = max(10*time.Second, j.TimeLimit/2)
		}
		var cancel context.CancelFunc
		jctx, cancel = context.WithTimeout(ctx, j.TimeLimit+overrun)
		defer cancel()
	}
	runner := o.FileRunner
	switch {
	case IsCmdBackend(j.Backend):
		runner = CommandLine{}
	case runner == nil:
		runner = InProcess{NewSolver: o.NewSolver}
	}
	fj := FileJob{Path: j.Instance.File, Name: j.Instance.Name, Backend: j.Backend, Options: opts,
		Permutation: j.Permutation, Read: spec.ReadOptions(), Certify: spec.Certify}
	var out FileOutcome
	res, err, abandoned := runOrGiveUp(jctx, func() (*solve.Result, error) {
		o, err := runner.RunFile(jctx, fj)
		out = o
		return o.Result, err
	})
	switch {
	case abandoned:
		rec.Status, rec.Abandoned = solve.StatusTimeLimit, true
		rec.Error = fmt.Sprintf("abandoned: the solver did not stop within %s of its hard stop (time limit + overrun)", GiveUpGrace)
	case err != nil && jctx.Err() != nil && ctx.Err() == nil:
		// A runner that stops its solver at the hard stop (a child process killed):
		// the solver overran its limit, as an abandoned one does.
		rec.Status, rec.Abandoned = solve.StatusTimeLimit, true
		rec.Error = "stopped at the hard stop (time limit + overrun): " + err.Error()
	case err != nil:
		rec.Status, rec.Error, rec.Result = solve.StatusError, err.Error(), res
	default:
		rec.Status, rec.Result = res.Status, res
		if res.Status == solve.StatusError && res.Message != "" {
			rec.Error = res.Message
		}
	}
	if !abandoned && out.PeakRSS > 0 {
		rss := out.PeakRSS
		rec.PeakRSS, rec.Memory = &rss, out.Memory
	}
	names, x := pointOf(rec.Result)
	if o.CheckPoint != nil && names != nil {
		pc, err := o.CheckPoint(ctx, j.Instance.File, names, x)
		if err != nil {
			rec.Error = joinMsg(rec.Error, "point check: "+err.Error())
		} else if pc != nil {
			rec.PointCheck = pc
		}
	}
	rec.Solu = judge(plan, j, rec)
}

// judge returns the .solu verdict of a finished model-file record.
func judge(plan *Plan, j Job, rec *Record) *SoluCheck {
	entry, known := plan.Solu.Lookup(j.Instance.Name)
	// A solver stopped at the hard stop is a time-out (its status is time_limit); a
	// crash or an error without a result is an abort.
	a := solu.Answer{Status: rec.Status, Aborted: rec.Crashed || rec.Result == nil && rec.Status == solve.StatusError,
		Maximize: j.Instance.Maximize, RelGap: j.Gap}
	if r := rec.Result; r != nil {
		ev := r.Check.Evaluator
		switch {
		case ev != nil && !ev.OK:
			a.BadPoint = true
		case r.Objective != nil && ev != nil:
			a.Objective = r.Objective
		}
	}
	if pc := rec.PointCheck; pc != nil && !pc.Feasible {
		a.BadPoint, a.Objective = true, nil
	}
	jd := solu.Judge(entry, known, a)
	sc := &SoluCheck{Verdict: jd.Verdict, Reason: jd.Reason}
	if a.BadPoint && rec.PointCheck != nil && !rec.PointCheck.Feasible && rec.PointCheck.Worst != "" {
		sc.Reason = joinMsg(sc.Reason, "exact check: "+rec.PointCheck.Worst)
	}
	if known {
		e := string(entry.Expected)
		sc.Expected = &e
		if entry.HasValue() {
			v := entry.Value
			sc.Value = &v
		}
	}
	return sc
}

// pointOf returns the point of a result as column names and values, from its
// solution {"values": {name: value}} (as decoded from JSON or built in process);
// nil without a point.
func pointOf(res *solve.Result) ([]string, []float64) {
	if res == nil || res.Solution == nil {
		return nil, nil
	}
	sol, ok := res.Solution.(map[string]any)
	if !ok {
		return nil, nil
	}
	var names []string
	var x []float64
	switch vs := sol["values"].(type) {
	case map[string]float64:
		for n, v := range vs {
			names, x = append(names, n), append(x, v)
		}
	case map[string]any:
		for n, v := range vs {
			f, ok := v.(float64)
			if !ok {
				f = math.NaN()
			}
			names, x = append(names, n), append(x, f)
		}
	default:
		return nil, nil
	}
	return names, x
}

func joinMsg(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
