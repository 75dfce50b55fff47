package kinds

import (
	"context"
	"fmt"
	"math"

	"github.com/schedopt/schedopt/solve"
)

// Problem is one loaded and validated instance of some kind. The kind subpackages
// (kinds/dlt, kinds/stencil, ...) implement it on top of the domain, formulation, exact
// and heuristic packages.
type Problem interface {
	// Kind is the instance's "kind" field, for example "dlt-multi".
	Kind() string
	// Name is the instance's "name" field, or the file's base name without extension.
	Name() string
	// Formulate builds the MILP and the decoder of its solutions. Kinds whose
	// objective needs several solves (Pareto fronts) return the first model and solve
	// through Solve instead.
	Formulate() (*solve.Formulated, error)
	// Solve solves the instance with req's backend. Most kinds delegate to SolveOne;
	// kinds with several solves per answer implement their own loop, with every
	// backend solve going through solve.Certified.
	Solve(ctx context.Context, req solve.Request) (*solve.Result, error)
}

// HeuristicProblem is a Problem with named heuristics (for sweeps that compare them
// with optima).
type HeuristicProblem interface {
	Problem
	// Heuristics lists the heuristic names this instance supports.
	Heuristics() []string
	// RunHeuristic runs one heuristic; the Result has Backend set to the heuristic's
	// name, status "feasible" and an evaluator check. A heuristic never claims
	// infeasibility: when it finds no valid schedule the status is "error" and the
	// message starts with NoScheduleMessage.
	RunHeuristic(ctx context.Context, name string) (*solve.Result, error)
}

// NoScheduleMessage starts the message of a heuristic result that found no valid
// schedule, which proves nothing about the instance.
const NoScheduleMessage = "no valid schedule found (not a proof of infeasibility): "

// Kind is one instance kind: its name (the instance's "kind" field), its loader and
// its generators. A registry (Registry) holds the kinds the program knows.
type Kind interface {
	// Name is the kind's name, for example "dlt-multi".
	Name() string
	// Load parses and validates an instance of this kind from JSON; name is used when
	// the instance has no "name" field. Bad input is a *domain.FieldError.
	Load(data []byte, name string) (Problem, error)
	// Generators lists the kind's instance generators (for `schedopt gen`).
	Generators() []Generator
}

// New returns a Kind from its parts: the instance parser (which validates), the
// function that wraps a parsed instance into a Problem, and the generators. It saves
// every kind the same load-then-wrap code.
func New[I any](name string, parse func(data []byte) (I, error), wrap func(in I, name string) Problem, gens func() []Generator) Kind {
	return kind{name: name, load: func(data []byte, n string) (Problem, error) {
		in, err := parse(data)
		if err != nil {
			return nil, err
		}
		return wrap(in, n), nil
	}, gens: gens}
}

type kind struct {
	name string
	load func([]byte, string) (Problem, error)
	gens func() []Generator
}

func (k kind) Name() string                                   { return k.name }
func (k kind) Load(data []byte, name string) (Problem, error) { return k.load(data, name) }
func (k kind) Generators() []Generator {
	if k.gens == nil {
		return nil
	}
	return k.gens()
}

// Base holds what every Problem reports about itself: the kind and the instance name.
// Kind adapters embed it to get Kind and Name.
type Base struct {
	KindName string // the instance's kind, e.g. "dlt-flat"
	InstName string // the instance's name
}

// Kind returns the instance's kind.
func (b Base) Kind() string { return b.KindName }

// Name returns the instance's name.
func (b Base) Name() string { return b.InstName }

// SolveOne solves a single-model Problem: p's formulation through solve.SolveModel,
// cross-checked with exact (nil for none). Most kinds' Solve is this call.
func SolveOne(ctx context.Context, p Problem, req solve.Request, exact solve.ExactFunc) (*solve.Result, error) {
	return solve.SolveModel(ctx, p.Kind(), p.Name(), func() (*solve.Formulated, error) { return Formulate(ctx, p) }, req, exact)
}

// ModelFormulator is a Problem whose formulation does work that serves only a solve
// (a MIP start) and can leave it out when the model comes out the same without it:
// export writes the model alone.
type ModelFormulator interface {
	// FormulateModel builds the same model as FormulateContext, bit for bit, with
	// possibly no MIP start.
	FormulateModel(ctx context.Context) (*solve.Formulated, error)
}

// FormulateModel builds p's model for writing it out: with p's FormulateModel when p
// has one, else as Formulate does.
func FormulateModel(ctx context.Context, p Problem) (*solve.Formulated, error) {
	mf, ok := p.(ModelFormulator)
	if !ok {
		return Formulate(ctx, p)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	f, err := mf.FormulateModel(ctx)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	return f, nil
}

// Planner is a Problem that tells the backend "auto" (package portfolio) which paths
// prove it best.
type Planner interface {
	// AutoPaths returns the backends to run for this instance, strongest first:
	// solve.Exact where the kind's exact algorithm scales to it, a MILP backend where
	// the MILP may win. The first is run alone on one thread; with more threads the
	// first two run concurrently and the first proof answers.
	AutoPaths() []string
}

// Advisor is a Problem that can tell a user who got no proof from a backend which
// other path proves such instances (a dedicated algorithm behind --backend exact).
type Advisor interface {
	// Advice returns one sentence for res, obtained with backend, or "" for none.
	Advice(backend string, res *solve.Result) string
}

// ContextFormulator is a Problem whose formulation runs slow steps (MIP-start
// heuristics, for example) that stop when ctx is done.
type ContextFormulator interface {
	// FormulateContext is Formulate under ctx: it returns ctx's error (wrapped) when
	// ctx is done before the model is built.
	FormulateContext(ctx context.Context) (*solve.Formulated, error)
}

// Formulate builds p's model under ctx: with p's FormulateContext when p has one, else
// with Formulate. It returns ctx's error, wrapped, when ctx is done before or after the
// build, so that a deadline or a signal during the build is never lost.
func Formulate(ctx context.Context, p Problem) (*solve.Formulated, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	var f *solve.Formulated
	var err error
	if cf, ok := p.(ContextFormulator); ok {
		f, err = cf.FormulateContext(ctx)
	} else {
		f, err = p.Formulate()
	}
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	return f, nil
}

// Verdict is the evaluator check of a report: ok, the recomputed objective and the
// largest violation, with worst (the worst violation) as the message only when the
// schedule is rejected.
func Verdict(ok bool, objective, maxViolation float64, worst string) solve.EvaluatorCheck {
	c := solve.EvaluatorCheck{OK: ok, Objective: objective, MaxViolation: maxViolation}
	if !ok {
		c.Message = worst
	}
	return c
}

// EnergyTol is the relative amount by which a model's energy may fall below the
// evaluator's before the decoder flags it (solver tolerances are about 1e-7 scaled).
const EnergyTol = 1e-6

// CheckModelEnergy rejects a decoded schedule whose model energy is below its
// simulated energy by more than EnergyTol (relative to max(1, |simulated|)): the model
// would then claim an energy the schedule does not achieve. The violation becomes the
// check's message when it is the largest.
func CheckModelEnergy(check *solve.EvaluatorCheck, modelEnergy, simulated float64) {
	scale := math.Max(1, math.Abs(simulated))
	if modelEnergy >= simulated-EnergyTol*scale {
		return
	}
	check.OK = false
	if v := (simulated - modelEnergy) / scale; v > check.MaxViolation || check.Message == "" {
		check.MaxViolation = math.Max(check.MaxViolation, v)
		check.Message = fmt.Sprintf("the model's energy %g is below the schedule's simulated energy %g", modelEnergy, simulated)
	}
}
