// Package dltmulti is the adapter of the kind "dlt-multi" (seed 004 §6, MIP
// (6.6)-(6.28)): loading, the formulation with a heuristic MIP start, decoding with the
// evaluator of domain/dltmulti, the sequence-enumeration oracle of exact/dltseq, the
// online heuristics of heuristics/dlt and the §6.4 generator.
package dltmulti

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/schedopt/schedopt/domain"
	dm "github.com/schedopt/schedopt/domain/dltmulti"
	"github.com/schedopt/schedopt/exact/dltseq"
	fdm "github.com/schedopt/schedopt/formulations/dltmulti"
	hdlt "github.com/schedopt/schedopt/heuristics/dlt"
	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/solve"
)

// Problem is a loaded "dlt-multi" instance (seed 004 §6, MIP (6.6)-(6.28)).
type Problem struct {
	kinds.Base
	Inst *dm.Instance
	// Opts selects the formulation variant; Opts.Plain gives the thesis's model.
	Opts fdm.Options
	// NoStart skips the heuristic MIP start (the plain model never gets one).
	NoStart bool
}

var _ kinds.HeuristicProblem = (*Problem)(nil)

// Kind returns the kind "dlt-multi": instances parsed by dltmulti.Parse, and the §6.4
// generator.
func Kind() kinds.Kind {
	return kinds.New(dm.Kind, dm.Parse, func(in *dm.Instance, name string) kinds.Problem {
		return &Problem{Base: kinds.Base{KindName: dm.Kind, InstName: name}, Inst: in}
	}, generators)
}

// heuristicSeed seeds the Rnd processor sorting rule.
const heuristicSeed = 4

// Formulate builds the MIP. Unless Opts.Plain or NoStart, it first polishes the
// heuristics' machine orders into n-message schedules (MinTimeForSequence) and gives the
// best one as a MIP start (and, for min-time without an energy cap, its length as the
// horizon). The decoder runs the evaluator and rejects a solution whose model energy is
// below the simulated one.
func (p *Problem) Formulate() (*solve.Formulated, error) {
	return p.FormulateContext(context.Background())
}

// FormulateContext is Formulate under ctx: the MIP-start heuristics stop when ctx is
// done, and the error is then ctx's.
func (p *Problem) FormulateContext(ctx context.Context) (*solve.Formulated, error) {
	opts := p.Opts
	if !opts.Plain && !p.NoStart && opts.Start == nil {
		s, ok := p.BestStart(ctx)
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("dlt-multi: MIP start: %w", err)
		}
		if ok {
			opts.Start = &s
			if p.Inst.Objective == dm.MinTime && p.Inst.EnergyLimit == nil {
				opts.UpperT = dm.Evaluate(p.Inst, s, dm.EvalOptions{}).Makespan
			}
		}
	}
	f, err := fdm.Build(p.Inst, opts)
	if err != nil {
		return nil, err
	}
	return &solve.Formulated{Model: f.Model, Decode: func(x []float64) (any, solve.EvaluatorCheck, error) {
		s := f.Decode(x)
		r := dm.Evaluate(p.Inst, s, dm.EvalOptions{})
		check := multiCheck(r)
		if f.E >= 0 {
			kinds.CheckModelEnergy(&check, x[f.E], r.E)
		}
		return dm.NewSolution(p.Inst, s, r), check, nil
	}}, nil
}

// multiCheck is the evaluator check of a dlt-multi report.
func multiCheck(r *dm.Report) solve.EvaluatorCheck {
	return kinds.Verdict(r.OK(), r.Objective, r.MaxViolation, r.Worst())
}

// BestStart returns the best n-message schedule obtained by polishing the machine
// orders of the online heuristics (SSC and GSS with every PSR, cut or repeated to n
// messages) with the fixed-sequence LP, judged by the instance's objective. ok is false
// when none meets the deadline and energy limit, or when ctx is done first.
func (p *Problem) BestStart(ctx context.Context) (dm.Schedule, bool) {
	in := p.Inst
	var best dm.Schedule
	bestV, found := math.Inf(1), false
	for _, seq := range p.StartSequences(ctx) {
		if ctx.Err() != nil {
			return dm.Schedule{}, false
		}
		s, ok, err := minTimeForSequence(ctx, in, seq)
		if err != nil || !ok {
			continue
		}
		if in.FixedLength {
			s.T = *in.Deadline
		}
		r := dm.Evaluate(in, s, dm.EvalOptions{})
		if r.OK() && r.Objective < bestV {
			best, bestV, found = s, r.Objective, true
		}
	}
	if ctx.Err() != nil {
		return dm.Schedule{}, false
	}
	return best, found
}

// Solve solves the MIP with req's backend and cross-checks it with Exact.
//
// With the backend "exact", instances too large for the enumeration go to the sequence
// branch-and-bound of exact/dltbb (solveSequenceBB) where it applies: min-time without
// an energy limit or fixed length, and min-energy without an energy limit.
func (p *Problem) Solve(ctx context.Context, req solve.Request) (*solve.Result, error) {
	if req.Backend == solve.Exact && SequenceBBApplies(p.Inst) && !enumerable(p.Inst) {
		return p.solveSequenceBB(ctx, req)
	}
	return kinds.SolveOne(ctx, p, req, p.Exact)
}

// ExactMaxCases bounds the enumeration Exact runs as a cross-check (m^n·2^n linear
// programs); m = 3, n = 4 is 1296.
const ExactMaxCases = 5000

func enumerationCases(in *dm.Instance) float64 {
	return math.Pow(float64(in.M()), float64(in.N)) * math.Pow(2, float64(in.N))
}

// enumerable reports whether Exact's enumeration accepts the instance.
func enumerable(in *dm.Instance) bool { return enumerationCases(in) <= ExactMaxCases }

// Exact enumerates every message sequence and chunk piece of a tiny instance
// (exact/dltseq) and returns the optimum; larger instances give ErrNoExact.
func (p *Problem) Exact(ctx context.Context) (*solve.Outcome, error) {
	in := p.Inst
	if !enumerable(in) {
		return nil, fmt.Errorf("%w: m^n·2^n = %g sequence LPs exceed %d", solve.ErrNoExact, enumerationCases(in), ExactMaxCases)
	}
	res, err := dltseq.Solve(ctx, in, dltseq.Options{})
	if err != nil {
		return nil, err
	}
	out := &solve.Outcome{Algorithm: fmt.Sprintf("sequence enumeration (%d sequences, %d LPs)", res.Sequences, res.LPs),
		Optimal: true, Feasible: res.Feasible, Objective: res.Objective}
	if res.Feasible {
		r := dm.Evaluate(in, res.Schedule, dm.EvalOptions{})
		out.Solution = dm.NewSolution(in, res.Schedule, r)
		out.Check = multiCheck(r)
	}
	return out, nil
}

// Heuristics lists "ssc-<PSR>" and "gss-<PSR>" for the 14 processor sorting rules,
// "super-ssc" and "super-gss", and for identical machines the §5.2.1 rules "hom-ssc",
// "hom-scu", "hom-sco", "hom-gss".
func (p *Problem) Heuristics() []string {
	var hs []string
	for _, rule := range []hdlt.Rule{hdlt.SSC, hdlt.GSS} {
		for _, psr := range hdlt.PSRs() {
			hs = append(hs, string(rule)+"-"+string(psr))
		}
	}
	hs = append(hs, "super-ssc", "super-gss")
	identical := true
	for _, mc := range p.Inst.Machines {
		identical = identical && dm.Identical(mc, p.Inst.Machines[0])
	}
	if identical {
		for _, r := range hdlt.HomogeneousRules() {
			hs = append(hs, "hom-"+string(r))
		}
	}
	return hs
}

// RunHeuristic runs one heuristic and evaluates its schedule (any number of messages).
// Its status is "feasible", or "infeasible" when the schedule misses the deadline or
// the energy limit. A fixed-length instance is evaluated at T = deadline.
func (p *Problem) RunHeuristic(ctx context.Context, name string) (*solve.Result, error) {
	in := p.Inst
	t0 := time.Now()
	var s dm.Schedule
	var err error
	switch {
	case strings.HasPrefix(name, "super-"):
		crit := hdlt.ByTime
		if in.Objective == dm.MinEnergy {
			crit = hdlt.ByEnergy
		}
		s, _, err = hdlt.Super(ctx, in, hdlt.Rule(strings.TrimPrefix(name, "super-")), crit, heuristicSeed)
	case strings.HasPrefix(name, "hom-"):
		s, err = hdlt.Homogeneous(ctx, in, hdlt.Rule(strings.TrimPrefix(name, "hom-")))
	default:
		rule, psr, ok := strings.Cut(name, "-")
		if !ok {
			return nil, fmt.Errorf("%s: unknown heuristic %q", p.Name(), name)
		}
		s, err = hdlt.Online(ctx, in, hdlt.Rule(rule), hdlt.PSR(psr), heuristicSeed)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: heuristic %s: %w", p.Name(), name, err)
	}
	r := dm.Evaluate(in, s, dm.EvalOptions{AnyCount: true})
	if in.FixedLength && r.Makespan <= *in.Deadline {
		s.T = *in.Deadline
		r = dm.Evaluate(in, s, dm.EvalOptions{AnyCount: true})
	}
	res := &solve.Result{Kind: p.Kind(), Name: p.Name(), Backend: solve.HeuristicPrefix + name, Status: solve.StatusFeasible,
		Solver: "heuristic " + name}
	res.Seconds.Solve = time.Since(t0).Seconds()
	check := multiCheck(r)
	res.Check.Evaluator = &check
	res.Solution = dm.NewSolution(in, s, r)
	res.Objective = solve.Ptr(r.Objective)
	if !r.OK() {
		res.Status = solve.StatusError
		res.Message = r.Worst()
		limitsOnly := true
		for _, v := range r.Violations {
			if v.Amount > dm.EvalTol && v.Rule != "deadline" && v.Rule != "energy_limit" {
				limitsOnly = false
			}
		}
		if limitsOnly {
			// A heuristic schedule that misses the deadline or the energy limit proves
			// nothing about the instance.
			res.Status = solve.StatusError
			res.Objective = nil
			res.Message = kinds.NoScheduleMessage + res.Message
		}
	}
	return res, nil
}

// ---- generator ----

func generators() []kinds.Generator {
	return []kinds.Generator{{
		Kind:    dm.Kind,
		Summary: "heterogeneous hierarchical-memory system, the §6.4 generator (seed 004)",
		Example: "  schedopt gen dlt-multi --m 10 --seed 1\n  schedopt gen dlt-multi --m 3 --n 4 --V 3000 --objective min-energy --deadline 400\n" +
			"  schedopt gen dlt-multi --from instances/dlt-multi-table6.1.json --objective min-energy --deadline 432 --fixed-length\n" +
			"  # Fig. 6.3: Table 6.1 with n = 4 messages\n" +
			"  schedopt gen dlt-multi --from instances/dlt-multi-table6.1.json --n 4 --objective min-energy --deadline 1300 --fixed-length\n" +
			"  # Fig. 6.5: only the machines M1..M8 of Table 6.1 are available\n" +
			"  schedopt gen dlt-multi --from instances/dlt-multi-table6.1.json --m 8 --objective min-energy --deadline 500 --fixed-length\n" +
			"  # Fig. 6.8: Table 6.1 with drawn hibernate-to-disk startups (the thesis's draws are not printed)\n" +
			"  schedopt gen dlt-multi --from instances/dlt-multi-table6.1.json --variant hdd --seed 1 --objective min-energy --deadline 500 --fixed-length",
		Flags: genDLTMulti,
	}}
}

func genDLTMulti(fs *pflag.FlagSet) func(seed int64) (any, error) {
	m := fs.Int("m", 10, "number of machines (with --from: keep only the file's first m machines, the available set {M1..Mm} of Fig. 6.5)")
	n := fs.Int("n", 12, "number of messages (installments) (with --from: replaces the file's n)")
	V := fs.Float64("V", 24000, "load [MB] (the thesis uses 24000 for m = 10) (with --from: replaces the file's V)")
	p0n := fs.Float64("P0N", 100, "originator power [W] (not given by the thesis) (with --from: replaces the file's P0N)")
	objective := fs.String("objective", dm.MinTime, "min-time or min-energy")
	deadline := fs.Float64("deadline", 0, "deadline [s] (required for min-energy)")
	fixed := fs.Bool("fixed-length", false, "T == deadline")
	limit := fs.Float64("energy-limit", 0, "energy cap [J] for min-time (default: none)")
	from := fs.String("from", "", "start from this dlt-multi instance file instead of the §6.4 generator; the objective, deadline and limits are set by the flags, and --m, --n, --V, --P0N and --variant change the file's instance only when given")
	variant := fs.String("variant", VariantMixed, "with --from, the idle power P^I and startup S of every machine (Fig. 6.8 of seed 004): "+
		"mixed (unchanged), hdd (S ~ U[40, 90] s, P^I ~ U[1, 7] W), ram (S ~ U[0.1, 6] s, P^I ~ U[70, 100] W), "+
		"cold (P^I = 0, S = 120 s), lb (P^I = 0, S unchanged); hdd and ram draw from --seed (the thesis does not print its draws); "+
		"O = S/100 is kept when the file has it for every machine (Table 6.1 does), otherwise O is unchanged")
	return func(seed int64) (any, error) {
		for _, f := range []struct {
			name string
			v    int
		}{{"m", *m}, {"n", *n}} {
			if fs.Changed(f.name) && f.v < 1 {
				return nil, domain.Errorf("--"+f.name, "must be >= 1, got %d", f.v)
			}
		}
		if *from != "" {
			o := deriveOpts{variant: *variant, seed: uint64(seed)}
			if fs.Changed("m") {
				o.m = *m
			}
			if fs.Changed("n") {
				o.n = *n
			}
			if fs.Changed("V") {
				o.V = V
			}
			if fs.Changed("P0N") {
				o.P0N = p0n
			}
			return fromFile(fs, *from, o, *objective, deadline, *fixed, limit)
		}
		if fs.Changed("variant") {
			return nil, domain.Errorf("--variant", "needs --from: the §6.4 generator already draws P^I and S per machine")
		}
		if *m < 1 {
			return nil, domain.Errorf("--m", "must be >= 1, got %d", *m)
		}
		if *n < 1 {
			return nil, domain.Errorf("--n", "must be >= 1, got %d", *n)
		}
		if !(*V > 0) {
			return nil, domain.Errorf("--V", "must be > 0, got %g", *V)
		}
		in, err := dm.Generate(dm.GenConfig{M: *m, N: *n, V: *V, P0N: *p0n, Seed: uint64(seed)})
		if err != nil {
			return nil, domain.Errorf("", "%v", err)
		}
		in.Objective = *objective
		// A given flag is always passed on, so that Validate rejects a NaN or negative
		// value instead of it being dropped silently.
		if fs.Changed("deadline") {
			in.Deadline = deadline
		}
		in.FixedLength = *fixed
		if fs.Changed("energy-limit") {
			in.EnergyLimit = limit
		}
		if err := in.Validate(); err != nil {
			return nil, kinds.FlagError(err)
		}
		return in, nil
	}
}

// fromFile is the generator's --from: the instance of path, changed by the overrides
// o, with the objective, deadline, fixed length and energy limit of the flags, named
// after them (so that a sweep over deadlines or variants has one name per instance).
func fromFile(fs *pflag.FlagSet, path string, o deriveOpts, objective string, deadline *float64, fixed bool, limit *float64) (any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, domain.Errorf("--from", "%v", err)
	}
	in, err := dm.Parse(data)
	if err != nil {
		return nil, domain.Errorf("--from", "%s: %v", path, err)
	}
	in.Objective, in.Deadline, in.FixedLength, in.EnergyLimit = objective, nil, fixed, nil
	name := in.Name
	if name == "" {
		name = "dlt-multi"
	}
	suffix, err := derive(in, o)
	if err != nil {
		return nil, err
	}
	name += suffix + "-" + objective
	if fs.Changed("deadline") {
		in.Deadline = deadline
		name += fmt.Sprintf("-T%g", *deadline)
	}
	if fixed {
		name += "-fixed"
	}
	if fs.Changed("energy-limit") {
		in.EnergyLimit = limit
		name += fmt.Sprintf("-E%g", *limit)
	}
	in.Name = name
	if err := in.Validate(); err != nil {
		return nil, kinds.FlagError(err)
	}
	return in, nil
}

// EstimateSize bounds the MIP's size from m and n (fitted on generated instances:
// 723 nonzeros for m = 3, n = 4; 54,684 for m = 12, n = 32).
func (p *Problem) EstimateSize() kinds.Size {
	m, n := float64(p.Inst.M()), float64(p.Inst.N)
	return kinds.Size{Variables: 6*n*m + 4*n + 10, Nonzeros: 50*n*m + 40*n*n + 100}
}

// polished is the result of one fixed-sequence LP.
type polished struct {
	s   dm.Schedule
	ok  bool
	err error
}

// minTimeForSequence is dltseq.MinTimeForSequence under ctx. The LP takes no context,
// so it runs in its own goroutine, which is abandoned (and finishes on its own, its
// result dropped) when ctx is done first: the caller returns at once.
func minTimeForSequence(ctx context.Context, in *dm.Instance, seq []int) (dm.Schedule, bool, error) {
	done := make(chan polished, 1)
	go func() {
		s, ok, err := dltseq.MinTimeForSequence(in, seq)
		done <- polished{s, ok, err}
	}()
	select {
	case r := <-done:
		return r.s, r.ok, r.err
	case <-ctx.Done():
		return dm.Schedule{}, false, fmt.Errorf("dlt-multi: sequence LP: %w", ctx.Err())
	}
}
