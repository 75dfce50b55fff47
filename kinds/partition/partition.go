// Package partition is the adapter of the kind "partition": roofline partitioning of
// code portions across processors (seed 002, PeaPaw): loading, the MILP of
// formulations/partition, decoding with the evaluator of domain/partition, the exact
// algorithms of exact/partition and the case-study and random generators.
package partition

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/spf13/pflag"

	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/domain/partition"
	exactpartition "github.com/schedopt/schedopt/exact/partition"
	fpartition "github.com/schedopt/schedopt/formulations/partition"
	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/solve"
)

// Problem is a loaded "partition" instance: roofline partitioning of code
// portions across processors (seed 002, PeaPaw; reference 002 §2.3).
type Problem struct {
	kinds.Base
	Inst *partition.Instance
}

// Kind returns the kind "partition": instances parsed by partition.Parse, and the
// case-study and random generators.
func Kind() kinds.Kind {
	return kinds.New("partition", partition.Parse, func(in *partition.Instance, name string) kinds.Problem {
		return &Problem{Base: kinds.Base{KindName: "partition", InstName: name}, Inst: in}
	}, generators)
}

// Formulate builds the PeaPaw MILP (formulations/partition). The decoder rounds the
// placements, recomputes T and E from the fractions with the domain formulas, and
// checks that the schedule is at least as good as the model claims.
func (p *Problem) Formulate() (*solve.Formulated, error) {
	f, err := fpartition.Build(p.Inst)
	if err != nil {
		return nil, err
	}
	cols := f.Model.Columns()
	decode := func(values []float64) (any, solve.EvaluatorCheck, error) {
		sol, err := p.Inst.NewSolution(f.Fractions(values))
		if err != nil {
			return nil, solve.EvaluatorCheck{}, err
		}
		claim := f.Model.ObjectiveConstant()
		for j, c := range cols.Cost {
			claim += c * values[j]
		}
		check, err := p.evaluate(sol)
		if err != nil {
			return nil, solve.EvaluatorCheck{}, err
		}
		// The epigraph T may exceed the makespan; it may not fall below it.
		if check.OK && check.Objective > claim && partition.RelDiff(check.Objective, claim) > partition.ValueTol {
			check.OK = false
			check.Message = fmt.Sprintf("the model claims objective %g, the fractions give %g", claim, check.Objective)
		}
		return sol, check, nil
	}
	return &solve.Formulated{Model: f.Model, Decode: decode}, nil
}

// evaluate runs the domain evaluator on sol.
func (p *Problem) evaluate(sol partition.Solution) (solve.EvaluatorCheck, error) {
	rep, err := p.Inst.Evaluate(sol)
	if err != nil {
		return solve.EvaluatorCheck{}, err
	}
	return solve.EvaluatorCheck{OK: rep.OK, Objective: rep.Objective, MaxViolation: rep.MaxViolation, Message: rep.Worst}, nil
}

// Solve solves the instance with req's backend and cross-checks it with the exact
// algorithms of exact/partition.
func (p *Problem) Solve(ctx context.Context, req solve.Request) (*solve.Result, error) {
	return kinds.SolveOne(ctx, p, req, p.Exact)
}

// Exact runs exact/partition. Instances it does not cover give ErrNoExact.
func (p *Problem) Exact(ctx context.Context) (*solve.Outcome, error) {
	res, err := exactpartition.Solve(ctx, p.Inst)
	if errors.Is(err, exactpartition.ErrNotCovered) {
		return nil, fmt.Errorf("%w: %v", solve.ErrNoExact, err)
	}
	if err != nil {
		return nil, err
	}
	out := &solve.Outcome{Algorithm: res.Algorithm, Optimal: true, Feasible: res.Feasible, Objective: res.Objective}
	if !res.Feasible {
		out.Check = solve.EvaluatorCheck{OK: true}
		return out, nil
	}
	out.Solution = res.Solution
	if out.Check, err = p.evaluate(res.Solution); err != nil {
		return nil, err
	}
	return out, nil
}

func generators() []kinds.Generator {
	return []kinds.Generator{
		{
			Kind:    "partition",
			Summary: "PeaPaw roofline partitioning: the case studies of seed 002 (Table IV platforms, §3.2 workloads) or random instances",
			Example: "  schedopt gen partition --platform i7+titan --app sa --split whole --objective min-energy\n" +
				"  schedopt gen partition --platform i3+750 --app da --split chunks --chunks 64 --deadline 0.01\n" +
				"  schedopt gen partition --platform i7+750 --app sa --merged      # the DP view: one portion\n" +
				"  schedopt gen partition --random --processors 3 --portions 6 --seed 4",
			Flags: genPartition,
		},
	}
}

// Paper returns a case-study instance of seed 002: the platform's Table IV
// processors (CPU first), the workload's portions with the given split, or the
// whole workload as one portion when merged (the DP view, L186).
func Paper(platform, app string, split partition.Split, chunks int, merged bool, objective string, deadline *float64) (*partition.Instance, error) {
	procs, err := partition.PaperPlatform(platform)
	if err != nil {
		return nil, domain.Errorf("--platform", "%v", err)
	}
	ps, err := partition.PaperWorkload(app, split, chunks)
	if err != nil {
		return nil, domain.Errorf("--app", "%v", err)
	}
	view := string(split)
	if split == partition.Chunks {
		view = fmt.Sprintf("chunks%d", chunks)
	}
	if merged {
		ps = []partition.Portion{partition.Merged(strings.ToLower(app), ps, split, chunks)}
		view = "merged-" + view
	}
	name := fmt.Sprintf("%s-%s-%s-%s", strings.ToLower(app), strings.ReplaceAll(strings.ToLower(platform), "+", ""), view, objective)
	if deadline != nil {
		name += "-deadline"
	}
	in := &partition.Instance{Kind: "partition", Processors: procs, Portions: ps, Objective: objective, Deadline: deadline, Name: name}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	return in, nil
}

// randomPartition returns a random instance: processors with rates and energies
// spread over two orders of magnitude, portions of random intensity and split.
func randomPartition(r *rand.Rand, K, n int, splits []partition.Split, objective string) *partition.Instance {
	in := &partition.Instance{Kind: "partition", Objective: objective}
	for k := 0; k < K; k++ {
		in.Processors = append(in.Processors, partition.Processor{
			Name:          fmt.Sprintf("p%d", k),
			TimePerFlop:   math.Pow(10, -1+2*r.Float64()),
			TimePerByte:   math.Pow(10, -1+2*r.Float64()),
			EnergyPerFlop: math.Pow(10, -1+2*r.Float64()),
			EnergyPerByte: math.Pow(10, -1+2*r.Float64()),
			StaticPower:   math.Pow(10, -1+2*r.Float64()),
		})
	}
	for j := 0; j < n; j++ {
		q := partition.Portion{Flops: float64(r.IntN(100)), Bytes: float64(r.IntN(100)), Split: splits[r.IntN(len(splits))]}
		if q.Split == partition.Chunks {
			q.Chunks = 1 + r.IntN(8)
		}
		in.Portions = append(in.Portions, q)
	}
	return in
}

func genPartition(fs *pflag.FlagSet) func(seed int64) (any, error) {
	platform := fs.String("platform", "i7+titan", "platform of Table IV: "+strings.Join(partition.PaperPlatforms(), ", "))
	app := fs.String("app", "sa", "workload of §3.2: "+strings.Join(partition.PaperWorkloads(), ", "))
	split := fs.String("split", "divisible", "split of every portion: divisible, whole or chunks")
	chunks := fs.Int("chunks", 64, "chunks per portion, with --split chunks")
	merged := fs.Bool("merged", false, "merge the workload into one portion (dataset partitioning)")
	objective := fs.String("objective", partition.ObjMinTime, "min-time or min-energy")
	deadline := fs.Float64("deadline", 0, "deadline on the makespan [s]; 0 for none")
	random := fs.Bool("random", false, "a random instance instead of a case study")
	procs := fs.Int("processors", 2, "processors, with --random")
	portions := fs.Int("portions", 4, "portions, with --random (splits drawn from --split, or all three with --split mixed)")
	return func(seed int64) (any, error) {
		var dl *float64
		if *deadline < 0 {
			return nil, domain.Errorf("--deadline", "must be >= 0, got %v", *deadline)
		}
		if *deadline > 0 {
			dl = deadline
		}
		if !*random {
			return Paper(*platform, *app, partition.Split(*split), *chunks, *merged, *objective, dl)
		}
		if *procs < 1 || *procs > 64 {
			return nil, domain.Errorf("--processors", "must be in [1, 64], got %d", *procs)
		}
		if *portions < 1 || *portions > 10000 {
			return nil, domain.Errorf("--portions", "must be in [1, 10000], got %d", *portions)
		}
		splits := []partition.Split{partition.Split(*split)}
		if *split == "mixed" {
			splits = []partition.Split{partition.Divisible, partition.Whole, partition.Chunks}
		}
		r := rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
		in := randomPartition(r, *procs, *portions, splits, *objective)
		in.Deadline = dl
		in.Name = fmt.Sprintf("random-p%d-n%d-seed%d", *procs, *portions, seed)
		if err := in.Validate(); err != nil {
			return nil, err
		}
		return in, nil
	}
}

// EstimateSize bounds the MILP's size from the portions J and processors K (a
// fraction and a binary per pair, plus a chunk count where portions come in chunks).
func (p *Problem) EstimateSize() kinds.Size {
	j, k := float64(len(p.Inst.Portions)), float64(len(p.Inst.Processors))
	return kinds.Size{Variables: 3*j*k + 2, Nonzeros: 12*j*k + 4*j + 4*k + 10}
}
