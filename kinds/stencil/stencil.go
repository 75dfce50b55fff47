// Package stencil is the adapter of the kind "stencil": task mapping with
// communication rounds (seed 001, ILP (6.1)-(6.15)): loading, the compact and arc-slot
// formulations with a heuristic MIP start, decoding with an optimal colouring and the
// evaluator of domain/stencil, the enumeration and chromatic-index oracles, the
// heuristics of seed 001 and the block-grid generator.
package stencil

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/schedopt/schedopt/domain"
	dst "github.com/schedopt/schedopt/domain/stencil"
	"github.com/schedopt/schedopt/exact/edgecolour"
	fst "github.com/schedopt/schedopt/formulations/stencil"
	hst "github.com/schedopt/schedopt/heuristics/stencil"
	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/solve"
)

// Problem is a loaded "stencil" instance: task mapping with communication
// rounds (seed 001, ILP (6.1)-(6.15)).
type Problem struct {
	kinds.Base
	Inst *dst.Instance
	// Formulation is "compact" (default), "arc-slot" or "arc-slot-literal".
	Formulation string
	// Colouring selects the compact model's colouring block; the default (Auto) uses the
	// matching block for up to maxMatchingProcessors processors and the colour classes
	// beyond.
	Colouring Colouring
	// NoStart skips the heuristic MIP start.
	NoStart bool
	// NoLoadSearch solves the whole model even when the load-vector search of
	// exact/stencil applies (block grids of equal blocks, compact formulation).
	NoLoadSearch bool

	mu       sync.Mutex
	decoded  []int      // the last decoded mapping, for the exact cross-check
	loads    *loadProof // the load-vector search, once run
	loadsErr error      // why it does not apply
}

// Colouring selects the colouring block of the compact model.
type Colouring int

// Colouring block choices.
const (
	ColouringAuto Colouring = iota
	ColouringClasses
	ColouringMatchings
)

// maxMatchingProcessors is the largest processor count for which the automatic choice
// takes the matching block (K_8 has 105 maximal matchings).
const maxMatchingProcessors = 8

// stencilEnergyTol is the relative slack between a model's energy and the evaluator's
// (the solvers' feasibility tolerances let a row be off by about 1e-6).
const stencilEnergyTol = 1e-6

// maxEnumeration bounds the mappings the exact enumeration visits (m^n).
const maxEnumeration = 50000

// Kind returns the kind "stencil": instances parsed by stencil.Parse, and the
// block-grid generator.
func Kind() kinds.Kind {
	return kinds.New("stencil", dst.Parse, New, generators)
}

// New wraps a validated instance called name.
func New(in *dst.Instance, name string) kinds.Problem {
	return &Problem{Base: kinds.Base{KindName: "stencil", InstName: name}, Inst: in}
}

// options returns the formulation options.
func (p *Problem) options() fst.Options {
	var o fst.Options
	switch p.Colouring {
	case ColouringClasses:
		o.Colouring = fst.ColourClasses
	case ColouringMatchings:
		o.Colouring = fst.Matchings
	default:
		if p.Formulation == "" || p.Formulation == "compact" {
			if len(p.Inst.Processors) <= maxMatchingProcessors {
				o.Colouring = fst.Matchings
			}
		}
	}
	return o
}

// Build returns the formulation selected by p.Formulation, with a heuristic MIP start
// unless NoStart.
func (p *Problem) Build() (*fst.Formulation, error) {
	return p.BuildContext(context.Background())
}

// BuildContext is Build under ctx: the heuristics of the MIP start stop when ctx is
// done, and the error is then ctx's.
func (p *Problem) BuildContext(ctx context.Context) (*fst.Formulation, error) {
	opt := p.options()
	var f *fst.Formulation
	var err error
	switch p.Formulation {
	case "", "compact":
		f, err = fst.Compact(p.Inst, opt)
	case "compact-classes":
		opt.Colouring = fst.ColourClasses
		f, err = fst.Compact(p.Inst, opt)
	case "arc-slot":
		f, err = fst.ArcSlot(p.Inst, opt)
	case "arc-slot-literal":
		opt.Literal = true
		f, err = fst.ArcSlot(p.Inst, opt)
	default:
		return nil, fmt.Errorf("unknown stencil formulation %q (compact, arc-slot, arc-slot-literal)", p.Formulation)
	}
	if err != nil {
		return nil, err
	}
	if !p.NoStart {
		best, ok := p.cachedIncumbent()
		if best == nil {
			best, ok = p.BestHeuristic(ctx)
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("stencil: MIP start: %w", err)
		}
		if ok {
			// A start the model cannot hold (more rounds than colours) is skipped.
			_ = f.SetStart(best.Assignment, best.Schedule)
		}
	}
	return f, nil
}

// cachedIncumbent returns the heuristic incumbent of an earlier load-vector search
// (nil when there was none), so that the MIP start of the whole model does not run
// the heuristics again.
func (p *Problem) cachedIncumbent() (*dst.Solution, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.loads == nil {
		return nil, false
	}
	return p.loads.best, true
}

// Formulate builds the MILP and its decoder. The decoder reads the mapping, replaces
// the model's round schedule by an optimal colouring of the mapping's multigraph when
// that has fewer rounds (the energy is the same unless rounds bind the makespan, and
// then the model minimises them itself), keeps the model's count in model_rounds, and
// runs the evaluator.
func (p *Problem) Formulate() (*solve.Formulated, error) {
	return p.FormulateContext(context.Background())
}

// FormulateContext is Formulate under ctx (see BuildContext).
func (p *Problem) FormulateContext(ctx context.Context) (*solve.Formulated, error) {
	f, err := p.BuildContext(ctx)
	if err != nil {
		return nil, err
	}
	return p.formulated(f), nil
}

// formulated wraps a built formulation with its decoder (see Formulate).
func (p *Problem) formulated(f *fst.Formulation) *solve.Formulated {
	cols := f.Model.Columns()
	decode := func(x []float64) (any, solve.EvaluatorCheck, error) {
		claim := f.Model.ObjectiveConstant()
		for j, c := range cols.Cost {
			claim += c * x[j]
		}
		assign, sched, modelRounds, err := f.Decode(x)
		if err != nil {
			return nil, solve.EvaluatorCheck{}, err
		}
		p.mu.Lock()
		p.decoded = assign
		p.mu.Unlock()
		if col, err := p.colour(assign); err == nil && len(col) < len(sched) {
			sched = col
		}
		sol, check, err := p.evaluate(assign, sched)
		if err != nil {
			return nil, solve.EvaluatorCheck{}, err
		}
		sol.ModelRounds = &modelRounds
		// The model may overestimate (a suboptimal colouring within the makespan); it
		// must never claim less energy than its mapping costs.
		if check.OK && claim < check.Objective-stencilEnergyTol*math.Max(1, math.Abs(check.Objective)) {
			check.OK = false
			check.MaxViolation = (check.Objective - claim) / math.Max(1, math.Abs(check.Objective))
			check.Message = fmt.Sprintf("the model claims %g J, its mapping costs %g J", claim, check.Objective)
		}
		return sol, check, nil
	}
	return &solve.Formulated{Model: f.Model, Decode: decode}
}

// maxStartEdges caps the edges (communication quanta) of a mapping's multigraph that
// BestHeuristic colours: colouring is linear in the edges, and a MIP start is only a
// hint. The soak found a stencil with link_time 1000 whose
// mappings had 10^6 edges: its start took more than 60 s (docs/robustness.md).
const maxStartEdges = 1 << 16

// maxColourEdges caps the edges of a multigraph this package colours: edgecolour's
// colourings allocate per colour and run in time linear in the edges. The soak found an arc of 2^53+1 cells whose colouring asked for a
// 16 TB palette and killed the process (docs/robustness.md).
const maxColourEdges = 1 << 24

// errTooManyEdges reports a multigraph beyond maxColourEdges.
var errTooManyEdges = errors.New("stencil: the mapping's multigraph has too many edges to colour")

// chromaticIndex colours a bundle matrix exactly, unless it has more than
// maxColourEdges edges (errTooManyEdges).
func chromaticIndex(ctx context.Context, mu [][]int64) (edgecolour.Result, error) {
	if n := edgeCount(mu, maxColourEdges); n > maxColourEdges {
		return edgecolour.Result{}, fmt.Errorf("%w: more than %d", errTooManyEdges, maxColourEdges)
	}
	return edgecolour.ChromaticIndex(ctx, edgecolour.Bundles(mu), 0)
}

// edgeCount returns the number of edges of a symmetric bundle matrix, or a number
// above limit as soon as the count passes it (so that it cannot overflow).
func edgeCount(mu [][]int64, limit int64) int64 {
	var n int64
	for i := range mu {
		for j := i + 1; j < len(mu[i]); j++ {
			if mu[i][j] < 0 || mu[i][j] > limit-n {
				return limit + 1
			}
			n += mu[i][j]
		}
	}
	return n
}

// edges returns the number of edges of a mapping's multigraph (each edge is one
// quantum exchanged in some round), or a number above maxStartEdges when the mapping
// is invalid.
func (p *Problem) edges(assign []int) int64 {
	mu, err := p.Inst.Bundles(assign)
	if err != nil {
		return maxStartEdges + 1
	}
	return edgeCount(mu, maxStartEdges)
}

// colour returns an optimal round schedule of a mapping's multigraph (a greedy one
// when the exact search gives up). The decoder uses it: a decoded incumbent is
// recoloured even after the solve's context ended.
func (p *Problem) colour(assign []int) ([][]dst.Pair, error) {
	return p.colourContext(context.Background(), assign)
}

// colourContext is colour under ctx: it returns ctx's error soon after ctx is done.
func (p *Problem) colourContext(ctx context.Context, assign []int) ([][]dst.Pair, error) {
	mu, err := p.Inst.Bundles(assign)
	if err != nil {
		return nil, err
	}
	res, err := chromaticIndex(ctx, mu)
	if err != nil && res.Colouring == nil && res.Index > 0 {
		return nil, err
	}
	return toSchedule(res.Colouring), nil
}

func toSchedule(col edgecolour.Colouring) [][]dst.Pair {
	s := make([][]dst.Pair, 0, len(col))
	for _, class := range col {
		if len(class) == 0 {
			continue
		}
		r := make([]dst.Pair, len(class))
		for i, e := range class {
			r[i] = dst.Pair{e[0], e[1]}
		}
		s = append(s, r)
	}
	return s
}

// evaluate runs the domain evaluator on a mapping and schedule.
func (p *Problem) evaluate(assign []int, sched [][]dst.Pair) (*dst.Solution, solve.EvaluatorCheck, error) {
	ev, err := p.Inst.Evaluate(assign, sched)
	if err != nil {
		return nil, solve.EvaluatorCheck{}, err
	}
	check := kinds.Verdict(ev.OK(), ev.E, ev.MaxViolation, strings.Join(ev.Problems, "; "))
	return ev.Solution(assign, sched), check, nil
}

// Solve solves the instance with req's backend. Block grids of equal blocks with the
// compact formulation go through the load-vector search (solveByLoads: MILPs with the
// loads fixed for the vectors the isoperimetric bound leaves open, the rest closed by
// the bound); other instances, or searches that leave too many vectors open, solve
// the whole model. The exact cross-check enumerates all mappings of tiny instances;
// otherwise it recomputes the energy of the decoded mapping with its exact chromatic
// index (the rounds the model reports must not undercut it).
func (p *Problem) Solve(ctx context.Context, req solve.Request) (*solve.Result, error) {
	p.mu.Lock()
	p.decoded = nil
	p.mu.Unlock()
	var res *solve.Result
	var err error
	byLoads := false
	if req.Backend != solve.Exact && !p.NoLoadSearch && (p.Formulation == "" || p.Formulation == "compact") {
		res, byLoads, err = p.solveByLoads(ctx, req)
		if err != nil {
			return nil, err
		}
	}
	if !byLoads {
		res, err = kinds.SolveOne(ctx, p, req, p.Exact)
	}
	if err != nil || res.Check.Exact == nil {
		return res, err
	}
	if sol, ok := res.Solution.(*dst.Solution); ok && sol.ModelRounds != nil && *sol.ModelRounds < sol.Rounds {
		res.Check.Exact.Agree = false
		res.Check.Exact.Message = fmt.Sprintf("the model counts %d rounds, the chromatic index of its mapping is %d", *sol.ModelRounds, sol.Rounds)
	}
	return res, nil
}

// Exact runs the exhaustive enumeration for tiny instances (at most 50,000 mappings,
// each priced with its exact chromatic index); after a solve, the exact chromatic
// index of the decoded mapping; otherwise (`--backend exact`) the load-vector search,
// which is exact when its bounds close every load vector but the incumbent's.
func (p *Problem) Exact(ctx context.Context) (*solve.Outcome, error) {
	if out, err := p.Enumerate(ctx); !errors.Is(err, solve.ErrNoExact) {
		return out, err
	}
	p.mu.Lock()
	assign := p.decoded
	p.mu.Unlock()
	if assign == nil {
		out, err := p.exactByLoads(ctx)
		if errors.Is(err, solve.ErrNoExact) {
			return nil, fmt.Errorf("%w: %d^%d mappings are too many to enumerate; %v", solve.ErrNoExact, len(p.Inst.Processors), len(p.Inst.Tasks), err)
		}
		return out, err
	}
	mu, err := p.Inst.Bundles(assign)
	if err != nil {
		return nil, err
	}
	res, err := chromaticIndex(ctx, mu)
	if err != nil {
		return nil, fmt.Errorf("%w: chromatic index of the decoded mapping: %v", solve.ErrNoExact, err)
	}
	sol, check, err := p.evaluate(assign, toSchedule(res.Colouring))
	if err != nil {
		return nil, err
	}
	// Optimal for this mapping: the model's objective must equal it.
	return &solve.Outcome{Algorithm: "chromatic index of the decoded mapping (" + res.Algorithm + ")", Optimal: true, Feasible: true,
		Objective: check.Objective, Solution: sol, Check: check}, nil
}

// Enumerate finds the optimum of a tiny instance by trying every mapping, each with
// an exact colouring of its multigraph. It returns ErrNoExact for instances with more
// than 50,000 mappings.
func (p *Problem) Enumerate(ctx context.Context) (*solve.Outcome, error) {
	in := p.Inst
	n, m := len(in.Tasks), len(in.Processors)
	if float64(n)*math.Log(float64(m)) > math.Log(maxEnumeration) {
		return nil, fmt.Errorf("%w: %d^%d mappings", solve.ErrNoExact, m, n)
	}
	assign := make([]int, n)
	out := &solve.Outcome{Algorithm: "enumeration of mappings with exact chromatic index", Optimal: true}
	var bestAssign []int
	var bestSched [][]dst.Pair
	best := math.Inf(1)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		mu, err := in.Bundles(assign)
		if err != nil {
			return nil, err
		}
		res, err := chromaticIndex(ctx, mu)
		if errors.Is(err, errTooManyEdges) {
			return nil, fmt.Errorf("%w: enumeration: %v", solve.ErrNoExact, err)
		}
		if err != nil {
			return nil, fmt.Errorf("enumeration: %w", err)
		}
		sched := toSchedule(res.Colouring)
		ev, err := in.Evaluate(assign, sched)
		if err != nil {
			return nil, err
		}
		if ev.OK() && ev.E < best {
			best = ev.E
			bestAssign = append([]int(nil), assign...)
			bestSched = sched
		}
		i := 0
		for i < n {
			assign[i]++
			if assign[i] < m {
				break
			}
			assign[i] = 0
			i++
		}
		if i == n {
			break
		}
	}
	if bestAssign == nil {
		out.Feasible = false
		out.Check = solve.EvaluatorCheck{OK: true}
		return out, nil
	}
	sol, check, err := p.evaluate(bestAssign, bestSched)
	if err != nil {
		return nil, err
	}
	out.Feasible, out.Objective, out.Solution, out.Check = true, check.Objective, sol, check
	return out, nil
}

// Heuristics lists the heuristics of seed 001: Alg_1 with orders IJK, JIK, KIJ (grids
// only) and RD, Alg_2 and Alg_3 (published code semantics and pseudo-code), Alg_4 with
// f = 0.1..1.0, and TM, the tabu search started from the best of the others.
func (p *Problem) Heuristics() []string {
	var hs []string
	if p.Inst.Grid != nil {
		hs = append(hs, "Alg_1-IJK", "Alg_1-JIK", "Alg_1-KIJ")
	}
	hs = append(hs, "Alg_1-RD", "Alg_2", "Alg_2-pseudocode", "Alg_3", "Alg_3-pseudocode")
	for i := 1; i <= 10; i++ {
		hs = append(hs, fmt.Sprintf("Alg_4-%.1f", float64(i)/10))
	}
	return append(hs, "TM")
}

// heuristicRDSeed seeds Alg_1-RD.
const heuristicRDSeed = 1

// mapping runs one named greedy heuristic.
func (p *Problem) mapping(name string) ([]int, error) {
	in := p.Inst
	switch name {
	case "Alg_1-IJK":
		return hst.LoadBalancing(in, hst.IJK, 0)
	case "Alg_1-JIK":
		return hst.LoadBalancing(in, hst.JIK, 0)
	case "Alg_1-KIJ":
		return hst.LoadBalancing(in, hst.KIJ, 0)
	case "Alg_1-RD":
		return hst.LoadBalancing(in, hst.Random, heuristicRDSeed)
	case "Alg_2":
		return hst.DegreeMinimisation(in, true), nil
	case "Alg_2-pseudocode":
		return hst.DegreeMinimisation(in, false), nil
	case "Alg_3":
		return hst.MulticutMinimisation(in, true), nil
	case "Alg_3-pseudocode":
		return hst.MulticutMinimisation(in, false), nil
	}
	var f float64
	if _, err := fmt.Sscanf(name, "Alg_4-%g", &f); err == nil && f > 0 && f <= 1 {
		return hst.NeighboursAccumulation(in, f), nil
	}
	return nil, fmt.Errorf("unknown heuristic %q", name)
}

// maxSubsetProcessors is the largest processor count for which BestHeuristic also runs
// the heuristics on every subset of the processors (the optimum often leaves some idle,
// which the load-balancing heuristics never do).
const maxSubsetProcessors = 6

// BestHeuristic returns the evaluated mapping of least energy among the greedy
// heuristics, run on all processors and (for up to six) on every subset of them, and
// the tabu search from the best, preferring mappings that meet the deadline. ok is
// false when none does.
func (p *Problem) BestHeuristic(ctx context.Context) (*dst.Solution, bool) {
	var best *dst.Solution
	bestOK := false
	consider := func(assign []int) {
		if ctx.Err() != nil || p.edges(assign) > maxStartEdges {
			return
		}
		sched, err := p.colourContext(ctx, assign)
		if err != nil {
			return
		}
		sol, check, err := p.evaluate(assign, sched)
		if err != nil {
			return
		}
		if best == nil || (check.OK && !bestOK) || (check.OK == bestOK && sol.E < best.E) {
			best, bestOK = sol, check.OK
		}
	}
	m := len(p.Inst.Processors)
	full := 1<<m - 1
	for set := full; set > 0; set-- {
		if set != full && m > maxSubsetProcessors || ctx.Err() != nil {
			break
		}
		sub, procs := subInstance(p.Inst, set)
		sp := &Problem{Base: p.Base, Inst: sub}
		for _, name := range sp.Heuristics() {
			if name == "TM" {
				continue
			}
			a, err := sp.mapping(name)
			if err != nil {
				continue
			}
			for u := range a {
				a[u] = procs[a[u]]
			}
			consider(a)
		}
		// Deadline packing: the last processor of the subset takes as much as the
		// deadline allows, the others grow compact regions for the rest, or a little
		// more (a rounder region may cut less).
		for extra := 0; extra <= len(p.Inst.Tasks)/10 && ctx.Err() == nil; extra++ {
			quota, ok := packingQuotas(sub, extra)
			if !ok {
				break
			}
			var cands [][]int
			for _, o := range []hst.Order{hst.IJK, hst.JIK, hst.KIJ} {
				if order, err := hst.TaskOrder(sub, o, 0); err == nil {
					cands = append(cands, hst.RegionGrowing(sub, quota, order))
				}
			}
			if extra == 0 {
				for _, f := range []float64{1, 0.9, 0.5} {
					cands = append(cands, hst.NeighboursAccumulationQuotas(sub, f, quota))
				}
			}
			for _, a := range cands {
				for u := range a {
					a[u] = procs[a[u]]
				}
				consider(a)
			}
		}
	}
	p.boxStarts(ctx, consider)
	if best != nil && ctx.Err() == nil {
		if a, err := hst.TaskMovement(ctx, p.Inst, best.Assignment, hst.TabuOptions{}); err == nil {
			consider(a)
		}
	}
	return best, best != nil && bestOK
}

// boxStarts offers, for block grids, every axis-aligned box of blocks on one processor
// with the rest on another, for every ordered pair of processors: the optima of
// Tables 6.4/6.5 are such boxes or close to them (halvings, rings of blocks). It stops
// when ctx is done (a 16×16×16 grid has millions of boxes).
func (p *Problem) boxStarts(ctx context.Context, consider func([]int)) {
	g := p.Inst.Grid
	m := len(p.Inst.Processors)
	if g == nil || m < 2 || len(p.Inst.Tasks) > 4096 {
		return
	}
	a := make([]int, len(p.Inst.Tasks))
	for i0 := 0; i0 < g.NX; i0++ {
		for i1 := i0 + 1; i1 <= g.NX; i1++ {
			for j0 := 0; j0 < g.NY; j0++ {
				for j1 := j0 + 1; j1 <= g.NY; j1++ {
					for k0 := 0; k0 < g.NZ; k0++ {
						for k1 := k0 + 1; k1 <= g.NZ; k1++ {
							if ctx.Err() != nil {
								return
							}
							for q := 0; q < m; q++ {
								for r := 0; r < m; r++ {
									if q == r {
										continue
									}
									for k := 0; k < g.NZ; k++ {
										for j := 0; j < g.NY; j++ {
											for i := 0; i < g.NX; i++ {
												in := i >= i0 && i < i1 && j >= j0 && j < j1 && k >= k0 && k < k1
												u := i + j*g.NX + k*g.NX*g.NY
												a[u] = r
												if in {
													a[u] = q
												}
											}
										}
									}
									consider(append([]int(nil), a...))
								}
							}
						}
					}
				}
			}
		}
	}
}

// packingQuotas gives the last processor its capacity within the deadline and splits
// the remaining cells, plus extra average tasks, among the others in proportion to
// their speeds. ok is false for a single processor or when nothing remains.
func packingQuotas(in *dst.Instance, extra int) ([]float64, bool) {
	m := len(in.Processors)
	if m < 2 {
		return nil, false
	}
	last := in.Processors[m-1]
	capLast := math.Min(last.MemoryCells, in.Deadline*(1+dst.TimeTol)/last.TimePerCell)
	rest := in.TotalCells() - capLast
	if rest <= 0 {
		return nil, false
	}
	rest += float64(extra) * in.TotalCells() / float64(len(in.Tasks))
	if rest >= in.TotalCells() {
		return nil, false
	}
	speed := 0.0
	for _, pr := range in.Processors[:m-1] {
		speed += 1 / pr.TimePerCell
	}
	q := make([]float64, m)
	for i, pr := range in.Processors[:m-1] {
		q[i] = rest * (1 / pr.TimePerCell) / speed
	}
	q[m-1] = in.TotalCells()
	return q, true
}

// subInstance restricts an instance to the processors in the bit set, returning it
// with the original index of each remaining processor. Validation is not repeated: a
// subset may miss the deadline, which only makes its heuristics' mappings infeasible.
func subInstance(in *dst.Instance, set int) (*dst.Instance, []int) {
	var procs []int
	for q := range in.Processors {
		if set>>q&1 == 1 {
			procs = append(procs, q)
		}
	}
	out := *in
	out.Processors = make([]dst.Processor, len(procs))
	out.LinkTime = make([][]float64, len(procs))
	out.LinkEnergy = make([][]float64, len(procs))
	for i, q := range procs {
		out.Processors[i] = in.Processors[q]
		out.LinkTime[i] = make([]float64, len(procs))
		out.LinkEnergy[i] = make([]float64, len(procs))
		for j, r := range procs {
			out.LinkTime[i][j] = in.LinkTime[q][r]
			out.LinkEnergy[i][j] = in.LinkEnergy[q][r]
		}
	}
	return &out, procs
}

// RunHeuristic runs one heuristic and evaluates its mapping with an optimal colouring.
func (p *Problem) RunHeuristic(ctx context.Context, name string) (*solve.Result, error) {
	t0 := time.Now()
	var assign []int
	var err error
	if name == "TM" {
		best, _ := p.BestHeuristic(ctx)
		if best == nil {
			return nil, fmt.Errorf("%s: no start for TM", p.Name())
		}
		assign = best.Assignment
	} else {
		assign, err = p.mapping(name)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: heuristic %s: %w", p.Name(), name, err)
	}
	sched, err := p.colourContext(ctx, assign)
	if err != nil {
		return nil, fmt.Errorf("%s: heuristic %s: colouring: %w", p.Name(), name, err)
	}
	sol, check, err := p.evaluate(assign, sched)
	if err != nil {
		return nil, err
	}
	res := &solve.Result{Kind: p.Kind(), Name: p.Name(), Backend: solve.HeuristicPrefix + name, Status: solve.StatusFeasible,
		Solver: "heuristic " + name, Solution: sol, Objective: solve.Ptr(sol.E)}
	res.Seconds.Solve = time.Since(t0).Seconds()
	res.Check.Evaluator = &check
	if !check.OK {
		// The heuristics balance load and ignore the deadline: a miss proves nothing
		// about the instance.
		res.Status = solve.StatusError
		res.Objective = nil
		res.Message = kinds.NoScheduleMessage + check.Message
	}
	return res, nil
}

// ---- generator ----

func generators() []kinds.Generator {
	return []kinds.Generator{{
		Kind:    "stencil",
		Summary: "stencil block grids on CPUs and GPUs: the seed's Cuboid and Sphere (seed 001 §6.3) or any block grid",
		Example: "  schedopt gen stencil --grid cuboid --config cpu-gpu --deadline 3.22e-3\n" +
			"  schedopt gen stencil --grid sphere --config 2cpu-2gpu\n" +
			"  schedopt gen stencil --nx 3 --ny 2 --nz 2 --periodic i --config cpu-gpu --block 16",
		Flags: genStencil,
	}}
}

func genStencil(fs *pflag.FlagSet) func(seed int64) (any, error) {
	grid := fs.String("grid", "", "cuboid (8×4×4 blocks) or sphere (8×4×4, periodic in I and J); empty: use --nx/--ny/--nz")
	config := fs.String("config", "cpu-gpu", "processors: cpu-cpu, cpu-gpu or 2cpu-2gpu (or a list like cpu,gpu,gpu)")
	nx := fs.Int("nx", 0, "blocks along I (arbitrary grids)")
	ny := fs.Int("ny", 0, "blocks along J")
	nz := fs.Int("nz", 0, "blocks along K")
	periodic := fs.String("periodic", "", "periodic axes, a subset of \"ijk\"")
	block := fs.Int("block", dst.ThesisBlockSide, "cells per block side (the thesis: 64)")
	deadline := fs.Float64("deadline", 0, "deadline [s]; 0: everything on the fastest processor")
	name := fs.String("name", "", "instance name")
	return func(int64) (any, error) {
		var g dst.Grid
		var err error
		if *grid != "" {
			if g, err = dst.ThesisGrid(*grid); err != nil {
				return nil, domain.Errorf("--grid", "%v", err)
			}
		} else {
			if *nx <= 0 || *ny <= 0 || *nz <= 0 {
				return nil, domain.Errorf("--nx", "give --grid cuboid|sphere or positive --nx, --ny, --nz")
			}
			g = dst.Grid{NX: *nx, NY: *ny, NZ: *nz, Stencil: "7-point"}
			for _, c := range strings.ToLower(*periodic) {
				i := strings.IndexRune("ijk", c)
				if i < 0 {
					return nil, domain.Errorf("--periodic", "axes are i, j and k, got %q", *periodic)
				}
				g.Periodic[i] = true
			}
		}
		procs, err := stencilProcs(*config)
		if err != nil {
			return nil, domain.Errorf("--config", "%v", err)
		}
		if *block <= 0 {
			return nil, domain.Errorf("--block", "must be > 0")
		}
		nm := *name
		if nm == "" {
			label := *grid
			if label == "" {
				label = fmt.Sprintf("%dx%dx%d", g.NX, g.NY, g.NZ)
			}
			nm = "stencil-" + label + "-" + *config
		}
		in := dst.NewThesisInstance(nm, g, procs, *deadline)
		if *block != dst.ThesisBlockSide {
			in = scaleBlocks(in, *block)
			if *deadline > 0 {
				in.Deadline = *deadline
			}
		}
		if err := in.Validate(); err != nil {
			return nil, err
		}
		return in, nil
	}
}

// stencilProcs parses a configuration name or a comma list of cpu/gpu.
func stencilProcs(config string) ([]dst.ThesisProc, error) {
	if ps, err := dst.ThesisConfig(config); err == nil {
		return ps, nil
	}
	var ps []dst.ThesisProc
	nc, ng := 0, 0
	for _, s := range strings.Split(config, ",") {
		switch strings.TrimSpace(strings.ToLower(s)) {
		case "cpu":
			p := dst.ThesisCPU()
			p.Name = fmt.Sprintf("cpu%d", nc)
			nc++
			ps = append(ps, p)
		case "gpu":
			p := dst.ThesisGPU()
			p.Name = fmt.Sprintf("gpu%d", ng)
			ng++
			ps = append(ps, p)
		default:
			return nil, fmt.Errorf("unknown configuration %q (cpu-cpu, cpu-gpu, 2cpu-2gpu, or a list like cpu,gpu,gpu)", config)
		}
	}
	return ps, nil
}

// scaleBlocks rebuilds an instance with side³-cell blocks, keeping per-cell rates and
// one face per round quantum.
func scaleBlocks(in *dst.Instance, side int) *dst.Instance {
	tasks, arcs := dst.BlockGrid(*in.Grid, dst.BlockDims{side, side, side})
	out := *in
	out.Tasks, out.Arcs = tasks, arcs
	face := float64(side * side)
	out.LinkTime = make([][]float64, len(in.LinkTime))
	out.LinkEnergy = make([][]float64, len(in.LinkEnergy))
	total := float64(len(tasks)) * float64(side*side*side)
	for p := range in.LinkTime {
		out.LinkTime[p] = make([]float64, len(in.LinkTime))
		out.LinkEnergy[p] = append([]float64(nil), in.LinkEnergy[p]...)
		for k := range out.LinkTime[p] {
			if p != k {
				out.LinkTime[p][k] = 1 / face // one face per round quantum
			}
		}
	}
	// One face per round: the round shrinks with the face.
	out.RoundTime = in.RoundTime * face / float64(dst.ThesisBlockSide*dst.ThesisBlockSide)
	out.Processors = append([]dst.Processor(nil), in.Processors...)
	for i := range out.Processors {
		out.Processors[i].MemoryCells = total
	}
	// The deadline was set for 64³ blocks: rescale it with the block volume.
	out.Deadline = in.Deadline * float64(side*side*side) / float64(dst.ThesisBlockSide*dst.ThesisBlockSide*dst.ThesisBlockSide)
	return &out
}

// EstimateSize bounds the ILP's size from the tasks T, arcs A and processors P: an
// assignment per task and processor, a cut indicator per arc and processor pair, and
// a round slot per processor pair and round (at most A rounds).
func (p *Problem) EstimateSize() kinds.Size {
	t, a, q := float64(len(p.Inst.Tasks)), float64(len(p.Inst.Arcs)), float64(len(p.Inst.Processors))
	vars := t*q + a*q*q + q*q*(a+1)
	return kinds.Size{Variables: vars, Nonzeros: 6*vars + 10*t*q + 100}
}
