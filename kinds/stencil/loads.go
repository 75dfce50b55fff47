package stencil

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	dst "github.com/schedopt/schedopt/domain/stencil"
	"github.com/schedopt/schedopt/exact/gridcut"
	xst "github.com/schedopt/schedopt/exact/stencil"
	fst "github.com/schedopt/schedopt/formulations/stencil"
	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/model"
	"github.com/schedopt/schedopt/solve"
)

// maxLoadVectors bounds the load vectors (before symmetry) the load-vector search
// visits: C(n+m−1, m−1) for n blocks on m processors.
const maxLoadVectors = 5e6

// maxRestricted bounds the load vectors a MILP solve may be split into: beyond it the
// whole model is solved instead.
const maxRestricted = 16

// errNoLoadSearch says the load-vector search does not apply to an instance.
var errNoLoadSearch = errors.New("stencil: the load-vector search does not apply")

// loadProof is the outcome of the load-vector search of exact/stencil on an
// instance: the grid's profile, the bounds and the heuristic incumbent they close.
type loadProof struct {
	profile gridcut.Result
	bounder *xst.Bounder
	best    *dst.Solution // the incumbent: the best heuristic mapping, evaluated
	loads   []int         // its canonical load vector (blocks per processor)
	perm    []int         // relabelling of best to those loads
	proof   *xst.Proof
	seconds float64
}

// loadSearch runs (once; later calls return the cached outcome) the heuristics for
// an incumbent and the search over load vectors with the grid's isoperimetric
// bounds. It returns errNoLoadSearch (wrapped) for instances it does not cover: no
// block grid of equal blocks, too many load vectors, or no heuristic mapping that
// meets the deadline.
func (p *Problem) loadSearch(ctx context.Context) (*loadProof, error) {
	p.mu.Lock()
	lp, err := p.loads, p.loadsErr
	p.mu.Unlock()
	if lp != nil || err != nil {
		return lp, err
	}
	lp, err = p.runLoadSearch(ctx)
	if ctx.Err() != nil {
		return nil, err // do not cache an interrupted search
	}
	p.mu.Lock()
	p.loads, p.loadsErr = lp, err
	p.mu.Unlock()
	return lp, err
}

func (p *Problem) runLoadSearch(ctx context.Context) (*loadProof, error) {
	t0 := time.Now()
	in := p.Inst
	shape, err := xst.Shape(in)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errNoLoadSearch, err)
	}
	n, m := float64(len(in.Tasks)), float64(len(in.Processors))
	if lg, _ := math.Lgamma(n + m); lg-lgammaOf(n+1)-lgammaOf(m) > math.Log(maxLoadVectors) {
		return nil, fmt.Errorf("%w: more than %g load vectors", errNoLoadSearch, maxLoadVectors)
	}
	var g gridcut.Grid
	for a := range g {
		g[a] = gridcut.Axis{Len: shape.Len[a], Periodic: shape.Periodic[a], Weight: shape.Weight[a]}
	}
	// The profile (up to a second for the Cuboid) is computed while the heuristics run.
	type profiled struct {
		r   gridcut.Result
		err error
	}
	done := make(chan profiled, 1)
	go func() {
		r, err := gridcut.Profile(ctx, g)
		done <- profiled{r, err}
	}()
	best, ok := p.BestHeuristic(ctx)
	pr := <-done
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	prof, err := pr.r, pr.err
	if errors.Is(err, gridcut.ErrTooLarge) {
		return nil, fmt.Errorf("%w: %v", errNoLoadSearch, err)
	}
	if err != nil {
		return nil, fmt.Errorf("stencil: isoperimetric profile: %w", err)
	}
	b, err := xst.NewBounder(in, shape, prof.Min)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%w: no heuristic mapping meets the deadline", errNoLoadSearch)
	}
	blocks := make([]int, len(in.Processors))
	for _, q := range best.Assignment {
		blocks[q]++
	}
	loads, perm := b.Canonical(blocks)
	pf, err := b.Search(ctx, best.E)
	if err != nil {
		return nil, err
	}
	return &loadProof{profile: prof, bounder: b, best: best, loads: loads, perm: perm, proof: pf, seconds: time.Since(t0).Seconds()}, nil
}

func lgammaOf(x float64) float64 { v, _ := math.Lgamma(x); return v }

// describe says what the search found, for result messages.
func (lp *loadProof) describe() string {
	pf := lp.proof
	kind := "a lower bound"
	if lp.profile.Exact {
		kind = "exact"
	}
	return fmt.Sprintf("load-vector search (exact/stencil): %d load vectors up to symmetry, %d closed by the isoperimetric bound (%s profile, %s), %d infeasible, %d open; heuristic incumbent %.9g J",
		pf.Vectors, pf.Pruned, kind, lp.profile.Method, pf.Infeasible, len(pf.Open), pf.Incumbent)
}

// exactByLoads is the exact algorithm for `--backend exact` on block grids: the
// incumbent, when the load-vector search closes every other load vector.
func (p *Problem) exactByLoads(ctx context.Context) (*solve.Outcome, error) {
	lp, err := p.loadSearch(ctx)
	if err != nil {
		if errors.Is(err, errNoLoadSearch) {
			return nil, fmt.Errorf("%w: %v", solve.ErrNoExact, err)
		}
		return nil, err
	}
	if !lp.proof.Proved() {
		return nil, fmt.Errorf("%w: %s", solve.ErrNoExact, lp.describe())
	}
	sol, check, err := p.evaluate(lp.best.Assignment, lp.best.Schedule)
	if err != nil {
		return nil, err
	}
	return &solve.Outcome{Algorithm: lp.describe(), Optimal: true, Feasible: true, Objective: check.Objective, Solution: sol, Check: check}, nil
}

// solveByLoads solves a block-grid instance by the load-vector search: the load
// vector of the heuristic incumbent and every vector the isoperimetric bound leaves
// open get a MILP with their loads fixed and the bound's cut rows (each through the
// certification policy, least bound first, skipped once the best energy reaches its
// bound); every other vector is closed by the bound. The answer is optimal when every
// vector is closed or solved to optimality. ok is false when the search does not
// apply or leaves too many vectors open; the caller then solves the whole model.
func (p *Problem) solveByLoads(ctx context.Context, req solve.Request) (res *solve.Result, ok bool, err error) {
	t0 := time.Now()
	lp, err := p.loadSearch(ctx)
	if err != nil {
		if errors.Is(err, errNoLoadSearch) {
			return nil, false, nil
		}
		return nil, false, fmt.Errorf("%s: %w", p.Name(), err)
	}
	vectors := []xst.Candidate{{Loads: lp.loads, Bound: math.Inf(-1)}}
	for _, c := range lp.proof.Open {
		if !equalLoads(c.Loads, lp.loads) {
			vectors = append(vectors, c)
		}
	}
	if len(vectors) > maxRestricted {
		return nil, false, nil
	}
	if b, ok := lp.bounder.Bound(lp.loads); ok {
		vectors[0].Bound = b
	}
	// The incumbent relabelled to its canonical loads: the start of its vector.
	start := make([]int, len(lp.best.Assignment))
	for u, q := range lp.best.Assignment {
		start[u] = lp.perm[q]
	}
	var best *solve.Result
	bestObj := math.Inf(1)
	bound := lp.proof.Closed
	solved, skipped, nodes := 0, 0, int64(0)
	open := false
	visited := 0
	for i, v := range vectors {
		visited = i + 1
		if i > 0 && v.Bound >= bestObj-xst.PruneTol*math.Abs(bestObj) {
			skipped++
			bound = math.Min(bound, v.Bound)
			continue
		}
		sub := req
		sub.Start = nil // the incumbent, relabelled, is the start of its vector
		if lim := req.Options.TimeLimit; lim > 0 {
			left := lim - time.Since(t0)
			if left <= 0 || ctx.Err() != nil {
				open = true
				bound = math.Min(bound, v.Bound)
				continue
			}
			sub.Options.TimeLimit = left
		}
		var vstart []int
		if i == 0 {
			vstart = start
		}
		r, err := solve.SolveModel(ctx, p.Kind(), p.Name(), func() (*solve.Formulated, error) {
			return p.restricted(lp, v.Loads, vstart)
		}, sub, nil)
		if err != nil {
			return nil, false, err
		}
		solved++
		nodes += r.Nodes
		switch {
		case r.Status == solve.StatusInfeasible:
			// No mapping with these loads: closed.
		case r.Status == solve.StatusOptimal && r.Objective != nil:
			// Optimal within the requested gaps: the vector's bound is the solver's.
			vb := *r.Objective
			if r.Bound != nil {
				vb = math.Min(vb, *r.Bound)
			}
			bound = math.Min(bound, vb)
		default:
			open = true
			vb := v.Bound
			if r.Bound != nil {
				vb = math.Max(vb, *r.Bound)
			}
			bound = math.Min(bound, vb)
		}
		if r.Objective != nil && r.Check.Evaluator != nil && r.Check.Evaluator.OK && *r.Objective < bestObj {
			best, bestObj = r, *r.Objective
		}
		if best == nil && i == 0 {
			best = r // keep the first answer, whatever its status, to report it
		}
		if r.Status == solve.StatusInterrupted || r.Status == solve.StatusError {
			open = true
			if ctx.Err() != nil {
				break
			}
		}
	}
	for _, v := range vectors[visited:] {
		// Left when the run was interrupted: still open.
		open = true
		bound = math.Min(bound, v.Bound)
	}
	if best == nil {
		// The time limit ran out before the first MILP: no solution from a solve.
		res = &solve.Result{Kind: p.Kind(), Name: p.Name(), Backend: req.Backend, Status: solve.StatusTimeLimit,
			Message: lp.describe() + "; the time limit ran out before the MILP with the incumbent's loads"}
		if !math.IsInf(bound, 0) {
			res.Bound = solve.Ptr(bound)
		}
		res.Seconds.Build = lp.seconds
		return res, true, nil
	}
	res = best
	res.Nodes = nodes
	res.Seconds.Build += lp.seconds
	res.Seconds.Solve = time.Since(t0).Seconds() - lp.seconds
	res.Solver += " with the load-vector search"
	msg := fmt.Sprintf("%s; %d MILP solve(s) with loads fixed, %d vector(s) closed by the best energy", lp.describe(), solved, skipped)
	if res.Message != "" {
		msg = res.Message + "; " + msg
	}
	res.Message = msg
	if res.Objective != nil {
		if !math.IsInf(bound, 0) {
			bound = math.Min(bound, *res.Objective)
			res.Bound = solve.Ptr(bound)
			res.Gap = solve.Ptr(relGap(*res.Objective, bound))
		}
		proven := !open && solve.ProvenWithin(*res.Objective, bound, req.Options)
		if inc := lp.best.E; *res.Objective > inc+kinds.EnergyTol*math.Max(1, math.Abs(inc)) {
			// The incumbent is feasible, so its vector's MILP cannot end above it; a
			// claim that does is not trusted.
			proven = false
			res.Message += fmt.Sprintf("; the MILPs' best %.9g J is worse than the heuristic incumbent's %.9g J", *res.Objective, inc)
		}
		switch {
		case res.Status == solve.StatusError || res.Status == solve.StatusInterrupted:
		case proven:
			res.Status = solve.StatusOptimal
		default:
			res.Status = solve.StatusFeasible
		}
	}
	if sol, ok := res.Solution.(*dst.Solution); ok && !req.NoCheck {
		p.mu.Lock()
		p.decoded = sol.Assignment
		p.mu.Unlock()
		out, err := p.Exact(ctx)
		switch {
		case errors.Is(err, solve.ErrNoExact):
		case err != nil:
			res.Check.Exact = &solve.ExactCheck{Algorithm: "error", Message: err.Error()}
		default:
			ec := &solve.ExactCheck{Algorithm: out.Algorithm, Agree: solve.Agree(res, out, model.Minimize, req.Options)}
			if out.Feasible {
				ec.Objective = solve.Ptr(out.Objective)
			}
			res.Check.Exact = ec
		}
	}
	return res, true, nil
}

// relGap is |obj − bound| / max(|obj|, tiny), the gap the backends report.
func relGap(obj, bound float64) float64 {
	return math.Abs(obj-bound) / math.Max(math.Abs(obj), 1e-10)
}

func equalLoads(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// restricted builds the compact model with the loads fixed to blocks (canonical) and
// the isoperimetric cut rows, with start (a mapping with those loads) as MIP start
// when given.
func (p *Problem) restricted(lp *loadProof, blocks []int, start []int) (*solve.Formulated, error) {
	in := p.Inst
	opt := p.options()
	// The loads are fixed: the load-order rows between identical processors would only
	// restate them (and the search has its own, pairwise-checked symmetry classes).
	opt.NoSymmetry = true
	opt.Loads = make([]float64, len(blocks))
	opt.MinCutCells = make([]float64, len(blocks))
	cells := in.Tasks[0].Cells
	used := 0
	for _, k := range blocks {
		if k > 0 {
			used++
		}
	}
	for q, k := range blocks {
		opt.Loads[q] = float64(k) * cells
		if used > 1 && k > 0 {
			// Every boundary face of q's blocks carries an arc each way.
			opt.MinCutCells[q] = 2 * lp.bounder.BoundaryCells(k)
		}
	}
	f, err := fst.Compact(in, opt)
	if err != nil {
		return nil, err
	}
	if start != nil {
		if sched, err := p.colour(start); err == nil {
			_ = f.SetStart(start, sched)
		}
	}
	return p.formulated(f), nil
}
