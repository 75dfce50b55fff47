package bench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/spf13/pflag"

	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/domain/dlt"
	exactdlt "github.com/schedopt/schedopt/exact/dlt"
	"github.com/schedopt/schedopt/formulations/dltflat"
	"github.com/schedopt/schedopt/formulations/dltsingle"
)

// dltEnergyTol is the relative amount by which a model's energy may differ from the
// evaluator's before the decoder flags it (solver tolerances are about 1e-7 scaled).
const dltEnergyTol = 1e-6

// ---- dlt-flat ----

// DLTFlatProblem is a loaded "dlt-flat" instance (seed 004, LP (2.5)-(2.9)).
type DLTFlatProblem struct {
	name string
	Inst *dlt.FlatInstance
}

func loadDLTFlat(data []byte, name string) (Problem, error) {
	in, err := dlt.ParseFlat(data)
	if err != nil {
		return nil, err
	}
	return &DLTFlatProblem{name: name, Inst: in}, nil
}

// Kind returns "dlt-flat".
func (p *DLTFlatProblem) Kind() string { return "dlt-flat" }

// Name returns the instance's name.
func (p *DLTFlatProblem) Name() string { return p.name }

// Formulate builds the LP (2.5)-(2.9); its decoder runs the flat-memory evaluator.
func (p *DLTFlatProblem) Formulate() (*Formulated, error) {
	f, err := dltflat.Build(p.Inst)
	if err != nil {
		return nil, err
	}
	return &Formulated{Model: f.Model, Decode: func(x []float64) (any, EvaluatorCheck, error) {
		sol := f.Decode(x)
		return sol, flatCheck(p.Inst, sol), nil
	}}, nil
}

func flatCheck(in *dlt.FlatInstance, sol *dlt.FlatSolution) EvaluatorCheck {
	return evaluatorCheck(dlt.EvaluateFlat(in, sol))
}

// Solve solves the LP with req's backend and cross-checks it with Exact.
func (p *DLTFlatProblem) Solve(ctx context.Context, req SolveRequest) (*Result, error) {
	return SolveFormulated(ctx, p, req, p.Exact)
}

// Exact is the O(m) recursion (2.1)-(2.3) (the closed form (4.7)-(4.11) for identical
// machines). It is the LP optimum when every chunk is nonnegative, no memory limit
// binds, and the LP dual of the all-finish-together vertex is feasible: with μ = 1 the
// duals y_j = (1 − C_j·Σ_{i>j} y_i)/(a_j + C_j) of rows (2.6) must be >= 0 (always true
// for identical machines; it fails when an earlier link is slower than a later machine
// computes, and then a later machine is better left without load). Otherwise, for
// m <= exactdlt.MaxEnumFlatMachines, it enumerates the LP's vertices; larger instances
// give ErrNoExact.
func (p *DLTFlatProblem) Exact(ctx context.Context) (*Outcome, error) {
	in := p.Inst
	sp, algo, err := flatRecursion(in)
	if errors.Is(err, ErrNoExact) {
		var ok bool
		sp, ok, err = exactdlt.FlatVertices(ctx, in)
		if errors.Is(err, exactdlt.ErrNotApplicable) {
			return nil, fmt.Errorf("%w: m = %d > %d machines for the vertex enumeration", ErrNoExact, len(in.Machines), exactdlt.MaxEnumFlatMachines)
		}
		if err != nil {
			return nil, err
		}
		algo = "dlt-flat LP vertex enumeration"
		if !ok {
			return &Outcome{Algorithm: algo, Optimal: true}, nil
		}
	}
	if err != nil {
		return nil, err
	}
	sol := &dlt.FlatSolution{T: sp.T, Alpha: sp.Alpha}
	return &Outcome{Algorithm: algo, Optimal: true, Feasible: true, Objective: sp.T, Solution: sol,
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
		return sp, algo, fmt.Errorf("%w: some machine would get a negative chunk", ErrNoExact)
	}
	if err != nil {
		return sp, algo, err
	}
	for i, a := range sp.Alpha {
		if a > in.Memory(i)*(1+dlt.RelTol) {
			return sp, algo, fmt.Errorf("%w: the memory of machine %d binds", ErrNoExact, i)
		}
	}
	y, tail := 0.0, 0.0
	for j := m - 1; j >= 0; j-- {
		y = (1 - s.C[j]*tail) / (s.A[j] + s.C[j])
		if y < -1e-12 {
			return sp, algo, fmt.Errorf("%w: the all-finish-together split is not LP-optimal for this order", ErrNoExact)
		}
		tail += y
	}
	return sp, algo, nil
}

// ---- dlt-single ----

// DLTSingleProblem is a loaded "dlt-single" instance (seed 004 §5.1, ILP (5.1)-(5.11)).
type DLTSingleProblem struct {
	name string
	Inst *dlt.SingleInstance
	// Opts selects the formulation variant (Plain: the thesis's model as printed).
	Opts dltsingle.Options
}

func loadDLTSingle(data []byte, name string) (Problem, error) {
	in, err := dlt.ParseSingle(data)
	if err != nil {
		return nil, err
	}
	return &DLTSingleProblem{name: name, Inst: in}, nil
}

// Kind returns "dlt-single".
func (p *DLTSingleProblem) Kind() string { return "dlt-single" }

// Name returns the instance's name.
func (p *DLTSingleProblem) Name() string { return p.name }

// Formulate builds the ILP (5.1)-(5.11). Its decoder fills E from the evaluator's
// simulation and rejects a solution whose model energy is below the simulated one (the
// model would then claim an energy the schedule does not achieve).
func (p *DLTSingleProblem) Formulate() (*Formulated, error) {
	f, err := dltsingle.Build(p.Inst, p.Opts)
	if err != nil {
		return nil, err
	}
	return &Formulated{Model: f.Model, Decode: func(x []float64) (any, EvaluatorCheck, error) {
		sol := f.Decode(x)
		check := singleCheck(p.Inst, sol)
		if mE, ok := f.ModelEnergy(x); ok && mE < sol.E-dltEnergyTol*math.Max(1, math.Abs(sol.E)) {
			v := (sol.E - mE) / math.Max(1, math.Abs(sol.E))
			if v > check.MaxViolation {
				check.MaxViolation = v
				check.Message = fmt.Sprintf("the model's energy %g is below the schedule's simulated energy %g", mE, sol.E)
			}
			check.OK = false
		}
		return sol, check, nil
	}}, nil
}

// singleCheck sets sol.E to the simulated energy (5.4) and returns the evaluator's
// verdict.
func singleCheck(in *dlt.SingleInstance, sol *dlt.SingleSolution) EvaluatorCheck {
	_, en := dlt.EvaluateSingle(in, sol)
	sol.E = en.E
	rep, _ := dlt.EvaluateSingle(in, sol)
	return evaluatorCheck(rep)
}

// evaluatorCheck turns an evaluator report into the result's check; the message names
// the worst violation only when the schedule is rejected.
func evaluatorCheck(rep dlt.Report) EvaluatorCheck {
	c := EvaluatorCheck{OK: rep.OK(), Objective: rep.Objective, MaxViolation: rep.MaxViolation}
	if !c.OK {
		c.Message = rep.Worst
	}
	return c
}

// Solve solves the ILP with req's backend and cross-checks it with Exact.
func (p *DLTSingleProblem) Solve(ctx context.Context, req SolveRequest) (*Result, error) {
	return SolveFormulated(ctx, p, req, p.Exact)
}

// Exact runs exact/dlt's oracle: the all-tight bisection over machine counts for
// min-time (any m), the vertex enumeration otherwise (m <= exactdlt.MaxEnumMachines).
func (p *DLTSingleProblem) Exact(ctx context.Context) (*Outcome, error) {
	out, err := exactdlt.Single(ctx, p.Inst)
	if errors.Is(err, exactdlt.ErrNotApplicable) {
		return nil, fmt.Errorf("%w: dlt-single with m = %d > %d beyond min-time", ErrNoExact, p.Inst.M, exactdlt.MaxEnumMachines)
	}
	if err != nil {
		return nil, err
	}
	res := &Outcome{Algorithm: out.Algorithm, Optimal: true, Feasible: out.Feasible, Objective: out.Objective}
	if out.Feasible {
		res.Solution = out.Solution
		res.Check = singleCheck(p.Inst, out.Solution)
	}
	return res, nil
}

// ---- generators ----

func dltGenerators() []Generator {
	return []Generator{
		{
			Kind:    "dlt-single",
			Summary: "homogeneous hierarchical-memory system, the §5.1 defaults of Table 5.1 (seed 004)",
			Example: "  schedopt gen dlt-single --m 10\n  schedopt gen dlt-single --m 10 --objective min-energy --deadline 842",
			Flags:   genDLTSingle,
		},
		{
			Kind:    "dlt-flat",
			Summary: "random heterogeneous star with flat memory (seed 004 §2.2.2)",
			Example: "  schedopt gen dlt-flat --m 8 --V 1000 --seed 3",
			Flags:   genDLTFlat,
		},
	}
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
			return nil, flagError(err)
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
			return nil, flagError(err)
		}
		return in, nil
	}
}

// flagError renames an instance field error to the flag that set it.
func flagError(err error) error {
	var fe *domain.FieldError
	if errors.As(err, &fe) && fe.Field != "" {
		fe.Field = "--" + strings.ReplaceAll(fe.Field, "_", "-") // energy_limit is --energy-limit
	}
	return err
}
