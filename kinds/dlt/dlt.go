// Package dlt is the adapter of the divisible-load kinds "dlt-flat" (seed 004, LP
// (2.5)-(2.9)) and "dlt-single" (seed 004 §5.1, ILP (5.1)-(5.11)): loading, the
// formulations, decoding with the evaluators of domain/dlt, the exact oracles of
// exact/dlt and the instance generators.
package dlt

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/spf13/pflag"

	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/domain/dlt"
	exactdlt "github.com/schedopt/schedopt/exact/dlt"
	"github.com/schedopt/schedopt/formulations/dltflat"
	"github.com/schedopt/schedopt/formulations/dltsingle"
	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/solve"
)

// ---- dlt-flat ----

// FlatProblem is a loaded "dlt-flat" instance (seed 004, LP (2.5)-(2.9)).
type FlatProblem struct {
	kinds.Base
	Inst *dlt.FlatInstance
}

// KindFlat is the kind name of FlatProblem.
const KindFlat = "dlt-flat"

// FlatKind returns the kind "dlt-flat": instances parsed by dlt.ParseFlat, and the
// random-star generator.
func FlatKind() kinds.Kind {
	return kinds.New(KindFlat, dlt.ParseFlat, func(in *dlt.FlatInstance, name string) kinds.Problem {
		return &FlatProblem{Base: kinds.Base{KindName: KindFlat, InstName: name}, Inst: in}
	}, flatGenerators)
}

// Formulate builds the LP (2.5)-(2.9); its decoder runs the flat-memory evaluator.
func (p *FlatProblem) Formulate() (*solve.Formulated, error) {
	f, err := dltflat.Build(p.Inst)
	if err != nil {
		return nil, err
	}
	return &solve.Formulated{Model: f.Model, Decode: func(x []float64) (any, solve.EvaluatorCheck, error) {
		sol := f.Decode(x)
		return sol, flatCheck(p.Inst, sol), nil
	}}, nil
}

func flatCheck(in *dlt.FlatInstance, sol *dlt.FlatSolution) solve.EvaluatorCheck {
	return evaluatorCheck(dlt.EvaluateFlat(in, sol))
}

// Solve solves the LP with req's backend and cross-checks it with Exact.
func (p *FlatProblem) Solve(ctx context.Context, req solve.Request) (*solve.Result, error) {
	return kinds.SolveOne(ctx, p, req, p.Exact)
}

// Exact is the O(m) recursion (2.1)-(2.3) (the closed form (4.7)-(4.11) for identical
// machines). It is the LP optimum when every chunk is nonnegative, no memory limit
// binds, and the LP dual of the all-finish-together vertex is feasible: with μ = 1 the
// duals y_j = (1 − C_j·Σ_{i>j} y_i)/(a_j + C_j) of rows (2.6) must be >= 0 (always true
// for identical machines; it fails when an earlier link is slower than a later machine
// computes, and then a later machine is better left without load). Otherwise, for
// m <= exactdlt.MaxEnumFlatMachines, it enumerates the LP's vertices; larger instances
// give ErrNoExact.
func (p *FlatProblem) Exact(ctx context.Context) (*solve.Outcome, error) {
	in := p.Inst
	sp, algo, err := flatRecursion(in)
	if errors.Is(err, solve.ErrNoExact) {
		var ok bool
		sp, ok, err = exactdlt.FlatVertices(ctx, in)
		if errors.Is(err, exactdlt.ErrNotApplicable) {
			return nil, fmt.Errorf("%w: m = %d > %d machines for the vertex enumeration", solve.ErrNoExact, len(in.Machines), exactdlt.MaxEnumFlatMachines)
		}
		if err != nil {
			return nil, err
		}
		algo = "dlt-flat LP vertex enumeration"
		if !ok {
			return &solve.Outcome{Algorithm: algo, Optimal: true}, nil
		}
	}
	if err != nil {
		return nil, err
	}
	sol := &dlt.FlatSolution{T: sp.T, Alpha: sp.Alpha}
	return &solve.Outcome{Algorithm: algo, Optimal: true, Feasible: true, Objective: sp.T, Solution: sol,
		Check: flatCheck(in, sol)}, nil
}

// flatRecursion returns the recursion's split when it is provably LP-optimal, and an
// error wrapping ErrNoExact when it is not.
func flatRecursion(in *dlt.FlatInstance) (exactdlt.Split, string, error) {
	m := len(in.Machines)
	s := exactdlt.Star{A: make([]float64, m), C: make([]float64, m), S: make([]float64, m)}
	same := true
	for i, mc := range in.Machines {
		s.A[i], s.C[i], s.S[i] = mc.A, mc.C, mc.S
		same = same && mc.A == in.Machines[0].A && mc.C == in.Machines[0].C && mc.S == in.Machines[0].S
	}
	algo := "dlt recursion (2.1)-(2.3)"
	sp, err := exactdlt.Recursion(s, in.V)
	if same {
		algo = "dlt closed form (4.7)-(4.11)"
		sp, _, _, err = exactdlt.Homogeneous(s.A[0], s.C[0], s.S[0], in.V, m)
	}
	if errors.Is(err, exactdlt.ErrInfeasible) {
		return sp, algo, fmt.Errorf("%w: some machine would get a negative chunk", solve.ErrNoExact)
	}
	if err != nil {
		return sp, algo, err
	}
	for i, a := range sp.Alpha {
		if a > in.Memory(i)*(1+dlt.RelTol) {
			return sp, algo, fmt.Errorf("%w: the memory of machine %d binds", solve.ErrNoExact, i)
		}
	}
	y, tail := 0.0, 0.0
	for j := m - 1; j >= 0; j-- {
		y = (1 - s.C[j]*tail) / (s.A[j] + s.C[j])
		if y < -1e-12 {
			return sp, algo, fmt.Errorf("%w: the all-finish-together split is not LP-optimal for this order", solve.ErrNoExact)
		}
		tail += y
	}
	return sp, algo, nil
}

// ---- dlt-single ----

// SingleProblem is a loaded "dlt-single" instance (seed 004 §5.1, ILP (5.1)-(5.11)).
type SingleProblem struct {
	kinds.Base
	Inst *dlt.SingleInstance
	// Opts selects the formulation variant (Plain: the thesis's model as printed).
	Opts dltsingle.Options
}

// KindSingle is the kind name of SingleProblem.
const KindSingle = "dlt-single"

// SingleKind returns the kind "dlt-single": instances parsed by dlt.ParseSingle, and
// the Table 5.1 generator.
func SingleKind() kinds.Kind {
	return kinds.New(KindSingle, dlt.ParseSingle, func(in *dlt.SingleInstance, name string) kinds.Problem {
		return &SingleProblem{Base: kinds.Base{KindName: KindSingle, InstName: name}, Inst: in}
	}, singleGenerators)
}

// Formulate builds the ILP (5.1)-(5.11). Its decoder fills E from the evaluator's
// simulation and rejects a solution whose model energy is below the simulated one (the
// model would then claim an energy the schedule does not achieve).
func (p *SingleProblem) Formulate() (*solve.Formulated, error) {
	f, err := dltsingle.Build(p.Inst, p.Opts)
	if err != nil {
		return nil, err
	}
	return &solve.Formulated{Model: f.Model, Decode: func(x []float64) (any, solve.EvaluatorCheck, error) {
		sol := f.Decode(x)
		check := singleCheck(p.Inst, sol)
		if mE, ok := f.ModelEnergy(x); ok {
			kinds.CheckModelEnergy(&check, mE, sol.E)
		}
		return sol, check, nil
	}}, nil
}

// singleCheck sets sol.E to the simulated energy (5.4) and returns the evaluator's
// verdict.
func singleCheck(in *dlt.SingleInstance, sol *dlt.SingleSolution) solve.EvaluatorCheck {
	_, en := dlt.EvaluateSingle(in, sol)
	sol.E = en.E
	rep, _ := dlt.EvaluateSingle(in, sol)
	return evaluatorCheck(rep)
}

// evaluatorCheck turns an evaluator report into the result's check.
func evaluatorCheck(rep dlt.Report) solve.EvaluatorCheck {
	return kinds.Verdict(rep.OK(), rep.Objective, rep.MaxViolation, rep.Worst)
}

// Solve solves the ILP with req's backend and cross-checks it with Exact.
func (p *SingleProblem) Solve(ctx context.Context, req solve.Request) (*solve.Result, error) {
	return kinds.SolveOne(ctx, p, req, p.Exact)
}

// Exact runs exact/dlt's oracle: the all-tight bisection over machine counts for
// min-time (any m), the vertex enumeration otherwise (m <= exactdlt.MaxEnumMachines).
func (p *SingleProblem) Exact(ctx context.Context) (*solve.Outcome, error) {
	out, err := exactdlt.Single(ctx, p.Inst)
	if errors.Is(err, exactdlt.ErrNotApplicable) {
		return nil, fmt.Errorf("%w: dlt-single with m = %d > %d beyond min-time", solve.ErrNoExact, p.Inst.M, exactdlt.MaxEnumMachines)
	}
	if err != nil {
		return nil, err
	}
	res := &solve.Outcome{Algorithm: out.Algorithm, Optimal: true, Feasible: out.Feasible, Objective: out.Objective}
	if out.Feasible {
		res.Solution = out.Solution
		res.Check = singleCheck(p.Inst, out.Solution)
	}
	return res, nil
}

// ---- generators ----

func singleGenerators() []kinds.Generator {
	return []kinds.Generator{{
		Kind:    KindSingle,
		Summary: "homogeneous hierarchical-memory system, the §5.1 defaults of Table 5.1 (seed 004)",
		Example: "  schedopt gen dlt-single --m 10\n  schedopt gen dlt-single --m 10 --objective min-energy --deadline 842",
		Flags:   genDLTSingle,
	}}
}

func flatGenerators() []kinds.Generator {
	return []kinds.Generator{{
		Kind:    KindFlat,
		Summary: "random heterogeneous star with flat memory (seed 004 §2.2.2)",
		Example: "  schedopt gen dlt-flat --m 8 --V 1000 --seed 3",
		Flags:   genDLTFlat,
	}}
}

// Table51 returns the §5.1 defaults (Table 5.1 with a1 = 0.082, a2 = 2.366, the values
// that make the printed b2 = −2274.89 match rho = 996) for m machines.
func Table51(m int, objective string) *dlt.SingleInstance {
	return &dlt.SingleInstance{Kind: "dlt-single", V: 10000, M: m, C: 0.006, S: 70, PS: 101, PI: 6, PN: 91,
		A1: 0.082, A2: 2.366, K1: 13, K2: 294.43, Rho: 996, Objective: objective}
}

func genDLTSingle(fs *pflag.FlagSet) func(seed int64) (any, error) {
	d := Table51(10, dlt.MinTime)
	fs.IntVar(&d.M, "m", d.M, "number of machines")
	fs.Float64Var(&d.V, "V", d.V, "load [MB]")
	fs.Float64Var(&d.C, "C", d.C, "communication rate [s/MB]")
	fs.Float64Var(&d.S, "S", d.S, "startup time [s]")
	fs.Float64Var(&d.Rho, "rho", d.Rho, "usable RAM [MB]")
	fs.StringVar(&d.Objective, "objective", d.Objective, "min-time or min-energy")
	deadline := fs.Float64("deadline", 0, "deadline [s] (required for min-energy)")
	fixed := fs.Bool("fixed-length", false, "T == deadline")
	return func(int64) (any, error) {
		in := *d
		if fs.Changed("deadline") { // passed on even when NaN or <= 0, for Validate to reject
			in.Deadline = deadline
		}
		in.FixedLength = *fixed
		in.Name = fmt.Sprintf("table5.1-m%d-%s", in.M, in.Objective)
		if err := in.Validate(); err != nil {
			return nil, kinds.FlagError(err)
		}
		return &in, nil
	}
}

func genDLTFlat(fs *pflag.FlagSet) func(seed int64) (any, error) {
	m := fs.Int("m", 8, "number of machines")
	V := fs.Float64("V", 1000, "load [MB]")
	mem := fs.Float64("memory", 0, "if > 0, each machine gets memory B ~ U[0.5, 1.5]·memory·V/m, scaled up if needed so that ΣB >= 1.05·V")
	return func(seed int64) (any, error) {
		if *m < 1 {
			return nil, domain.Errorf("--m", "must be >= 1, got %d", *m)
		}
		rng := rand.New(rand.NewPCG(uint64(seed), 0x5eed004))
		in := &dlt.FlatInstance{Kind: "dlt-flat", Name: fmt.Sprintf("flat-m%d-seed%d", *m, seed), V: *V, Objective: "min-time"}
		for i := 0; i < *m; i++ {
			mc := dlt.FlatMachine{A: 0.05 + 0.1*rng.Float64(), C: 0.001 + 0.009*rng.Float64(), S: 0.1 + 5.9*rng.Float64()}
			if *mem > 0 {
				b := (0.5 + rng.Float64()) * *mem * *V / float64(*m)
				mc.B = &b
			}
			in.Machines = append(in.Machines, mc)
		}
		if *mem > 0 {
			total := 0.0
			for _, mc := range in.Machines {
				total += *mc.B
			}
			if total < 1.05**V {
				for _, mc := range in.Machines {
					*mc.B *= 1.05 * *V / total
				}
			}
		}
		if err := in.Validate(); err != nil {
			return nil, kinds.FlagError(err)
		}
		return in, nil
	}
}

// EstimateSize bounds the LP's size from the machine count: m + 1 columns and the
// triangular prefix-sum rows (2.6), m(m+1)/2 nonzeros, plus the memory and load rows
// (measured: m = 1000 gives 1001 columns and 502,500 nonzeros).
func (p *FlatProblem) EstimateSize() kinds.Size {
	m := float64(len(p.Inst.Machines))
	return kinds.Size{Variables: m + 2, Nonzeros: m*(m+1)/2 + 4*m + 10}
}

// EstimateSize bounds the ILP's size from m.
func (p *SingleProblem) EstimateSize() kinds.Size {
	m := float64(p.Inst.M)
	return kinds.Size{Variables: 8*m + 4, Nonzeros: 4*m*m + 40*m + 10}
}
