package dltbb

import (
	"errors"
	"math"
)

// loads are bounds on the suffix loads β_i of a node that hold in every completion of
// its prefix shorter than the target, and therefore in its whole subtree (a child's
// suffix is part of its parent's; a machine that is unserved in the child has the
// same suffix load as in the parent). They come from tightenLoads.
type loads struct {
	max []float64 // β_i <= max[i]
	// kLo[i] <= k_i <= kHi[i] for the number k_i of suffix messages to M_i (count
	// branching, counts.go); both nil for no range.
	kLo, kHi []int
	// floor is a lower bound on T in every completion of the node shorter than the
	// target (its parent's bound, or its own), 0 for none: the floor of the
	// used-machine rows (see useRows).
	floor float64
}

// withFloor returns lb with its floor raised to t (lb itself when that changes
// nothing). lb may be nil; loads are never written in place.
func (lb *loads) withFloor(t float64) *loads {
	if lb != nil && lb.floor >= t {
		return lb
	}
	out := &loads{floor: t}
	if lb != nil {
		out.max, out.kLo, out.kHi = lb.max, lb.kLo, lb.kHi
	}
	return out
}

// tightenLoads returns bounds on the suffix loads of the node with prefix seq, those
// of lb (the parent's; nil for none) tightened by optimisation-based bound
// tightening: for each machine M_i, the largest β_i of the node LP with the row
// T <= target added. (The smallest β_i of the unserved forced machines, as the load
// bounds of the sequencing cuts, was tried too: on the hard generator seed 3 it
// raised no node bound along the optimal path, at up to six more LPs per node.)
//
// Why they hold: the node LP (with its sequencing cuts, which hold for every schedule
// shorter than the target) is a relaxation of every completion of seq shorter than
// the target, whose suffix loads are its β_i; so the largest β_i over the LP bounds them.
// The value used is the solver's objective of min −β_i, which a certifying solver
// returns as a lower bound (DualBound): a wrong vertex gives a weaker bound, never a
// wrong one. A bound only replaces an old one when it is tighter, and a solver that
// gives no answer leaves the old one.
//
// Why they help: the message count k_i >= β_i/β̄_i and Σ k_i <= n − p let the
// relaxation spread the suffix load over many machines at a fraction of a message
// each. With β̄_i the load M_i can still take at this node, instead of its capacity
// over the whole horizon, that spreading costs whole messages. Along the best
// sequence of generator seed 3 (m = 10, n = 12) the bound at depth 10 rises from
// 255.72 to 258.12 s (optimum 260.09), and the depth-11 node is pruned.
//
// For min-energy the row added is the node's energy below the target, and the bounds
// hold in every completion of the node's machine set cheaper than the target. There
// they bound how far the LP can spread the load over cheap machines: generator seed
// 32 at T = 700 s, open at 0.36 % after 120 s without them, is proven in 1.4 s.
//
// For min-time the load-bound LPs start from the optimum of the node's own objective,
// min T, over the same rows, which it returns as at (nil for min-energy, or when that
// LP gave no point).
//
// ok is false when an LP is infeasible: no completion is below the target. lps counts
// the programs solved. Before the first incumbent lb is returned unchanged.
func (s *search) tightenLoads(seq []int, cuts [][]int, ms *machineSet, lb *loads) (out *loads, at *nodePoint, lps int, ok bool) {
	r := s.rx
	out = r.loadsOf(lb)
	target := s.target()
	if len(seq) >= r.n || math.IsInf(target, 1) {
		return out, nil, 0, true
	}
	nl := r.buildWith(seq, cuts, ms, out)
	defer nl.release() // only bounds and a point leave
	if !s.opt.NoLinkTail {
		r.addTails(nl, seq, s.storedTails(seq, len(seq), out)) // the node's own link-and-tail cuts
	}
	warm := &warmStart{}
	defer warm.release()
	return s.boundLoads(nl, warm, out, target)
}

// tightenOpen is tightenLoads (min-time) on a child that its LP left open, from that
// LP as solveNode handed it over (f): its rows, cuts and link-and-tail cuts, with the
// min-T LP's optimal tableau. The min-T LP over those rows and T <= target starts
// from that tableau, where it is optimal already, instead of from the slack basis
// after the node comes off the queue. The rows differ from tightenLoads' in one
// respect: the floor of the used-machine rows is the parent's bound, not the child's.
//
// On generator seed 50 (m = 10) the cold min-T LP of tightenLoads was about 55 of
// the 92 pivots a node's load bounds took, and the load bounds 15 % of all pivots.
func (s *search) tightenOpen(f *nodeFinal) (out *loads, at *nodePoint, lps int, ok bool) {
	return s.boundLoads(f.nl, f.warm, s.rx.loadsOf(f.lb), s.target())
}

// loadsOf returns the load bounds a node with loads lb (nil: none) starts
// tightenLoads from: lb's, capped by the search's (relax.betaMax), in a new value
// (loads are never written in place).
func (r *relax) loadsOf(lb *loads) *loads {
	out := &loads{max: append([]float64(nil), r.betaMax...)}
	if lb != nil {
		for i := range out.max {
			if lb.max != nil {
				out.max[i] = math.Min(out.max[i], lb.max[i])
			}
		}
		out.kLo, out.kHi, out.floor = lb.kLo, lb.kHi, lb.floor
	}
	return out
}

// boundLoads is the work of tightenLoads on the node LP nl, built with the loads out
// (whose columns it lays out), from the tableau in warm (if any).
func (s *search) boundLoads(nl *nodeLP, warm *warmStart, out *loads, target float64) (_ *loads, at *nodePoint, lps int, ok bool) {
	r := s.rx
	// One LP per machine, all from the same node LP: min −β_i subject to the node's
	// rows and T <= target. They differ only in the objective, so each starts from the
	// previous one's optimal tableau (warm.go); they run in machine order on one
	// goroutine, so that the bounds do not depend on Options.Threads.
	var todo []int
	for i := range r.m {
		if out.max[i] > minBetaMax {
			todo = append(todo, i)
		}
	}
	obj := make([]float64, len(todo))
	errs := make([]error, len(todo))
	// The rows of every one of these LPs: the node's, and T <= target (min-energy:
	// the node's energy below the target). Solvers do not modify them.
	row, rhs := make([]float64, len(nl.lp.C)), target
	if r.energy != nil {
		copy(row, nl.lp.C)
		rhs -= nl.konst
	} else {
		row[nl.T] = 1
	}
	rows := append(nl.lp.Rows[:len(nl.lp.Rows):len(nl.lp.Rows)], row)
	rel := append(nl.lp.Rel[:len(nl.lp.Rel):len(nl.lp.Rel)], le)
	b := append(nl.lp.B[:len(nl.lp.B):len(nl.lp.B)], rhs)
	if r.energy == nil {
		// First the node's own objective, min T, over the same rows: the dual
		// simplex solves it from the slack basis, and the load-bound LPs go on from
		// its optimum with the primal simplex (warm.go). They used to start from the
		// slack basis with their costs shifted to zero (dualStart), whose dual
		// simplex then wandered among ties: on 8,000 nodes of generator seed 63 (m =
		// 10) the first load-bound LP of a node took 126 pivots, and all of them 1.61
		// million; from the min-T optimum, 57 for that LP and 0.94 million in all.
		lp := *nl.lp
		lp.warm, lp.Rows, lp.Rel, lp.B = warm, rows, rel, b
		lp.HasCutoff = false // its point is read
		x, bound, err := s.solver(&lp)
		lps++
		switch {
		case errors.Is(err, ErrInfeasible):
			return out, nil, lps, false
		case err == nil:
			// out laid out its columns (suffixColumns); the new bounds go to a copy.
			at = &nodePoint{x: x, bound: bound - lpBoundSlack*math.Abs(bound), lb: out}
		}
	}
	for k := range todo {
		lp := *nl.lp
		lp.warm, lp.Rows, lp.Rel, lp.B = warm, rows, rel, b
		lp.HasCutoff, lp.BoundOnly = false, true
		lp.C = make([]float64, len(nl.lp.C))
		lp.C[nl.beta+todo[k]] = -1
		_, obj[k], errs[k] = s.solver(&lp)
	}
	lps += len(todo)
	built := out
	out = &loads{max: append([]float64(nil), built.max...), kLo: built.kLo, kHi: built.kHi, floor: built.floor}
	for k, i := range todo {
		switch {
		case errors.Is(errs[k], ErrInfeasible):
			return out, nil, lps, false
		case errs[k] != nil:
			continue // no answer: the bound stays
		}
		out.max[i] = math.Max(0, math.Min(out.max[i], -obj[k]+loadSlack*r.in.V))
	}
	return out, at, lps, true
}

// nodePoint is an optimal point x of a node LP, its bound (the solver's objective,
// less lpBoundSlack) and the load bounds the LP was built with, which decide where its
// columns are (pickSplit reads x with them).
type nodePoint struct {
	x     []float64
	bound float64
	lb    *loads
}

// loadSlack, relative to V, is added to every load bound of tightenLoads: room for a
// solver that returns its objective without a certificate (the package's tests use
// the plain Simplex), which may stop a little short of the largest load.
const loadSlack = 1e-6

// tighten runs tightenLoads on the open node it, when it did not get its load bounds
// as a child, with its LP (tightenOpen: every min-time child but those whose min-T LP
// gave no point). It returns the node with its own
// bounds, its new bound (never below the old one), cuts and count split, or pruned
// when no completion can be shorter than the target.
//
// Min-time takes the bound and the point the split is picked from off the min-T LP
// that tightenLoads starts from (its rows are the node's before the new load bounds).
// Min-energy, and a min-time node whose min-T LP gave no point, solve the node LP
// again with the new bounds. That re-solve was one of the three node LPs a node solves
// from scratch, and it pruned few nodes: on 15,000 nodes of generator seed 50 (m =
// 10), 98 of 19,000 were pruned by their load bounds and the re-solve together. The
// children and the split halves are solved with the new bounds either way. Without
// it, seeds 50 and 63 were proven in 131.5 and 110.5 s of CPU instead of 145.0 and
// 122.4 s (two runs side by side), with about the same number of LPs.
func (s *search) tighten(it item) (out item, pruned bool) {
	c := s.tightenCount(len(it.seq))
	c.runs++
	lb, at, lps, ok := s.tightenLoads(it.seq, it.cuts, it.ms, it.lb.withFloor(it.bound))
	s.res.LPs += lps
	if !ok {
		c.pruned++
		return it, true
	}
	out = it
	out.lb, out.tight = lb, true
	if at != nil {
		// Below the target: its LP has the row T <= target.
		out.bound = math.Max(it.bound, at.bound)
		out.splitOn, out.splitAt = s.pickSplit(it.seq, it.ms, at.lb, at.x)
		return out, false
	}
	x, b, cuts, ok, lps, err := s.solveCounted(it.seq, it.cuts, it.ms, lb)
	s.res.LPs += lps
	switch {
	case err != nil:
		return out, false // the old bound and cuts still hold
	case !ok || b >= s.target():
		c.pruned++
		return out, true
	}
	out.bound, out.cuts = math.Max(b, it.bound), cuts
	out.splitOn, out.splitAt = s.pickSplit(it.seq, it.ms, lb, x)
	return out, false
}

// tightenCount is what tightenPays knows about the load bounds at one depth.
type tightenCount struct {
	offered, runs, pruned int
}

// tightenCount returns the count of depth d, growing the table as needed.
func (s *search) tightenCount(d int) *tightenCount {
	for len(s.tightens) <= d {
		s.tightens = append(s.tightens, tightenCount{})
	}
	return &s.tightens[d]
}

// tightenPays reports whether a node at depth d is to get its load bounds: the first
// tightenProbe nodes of every depth do, then those of a depth where at least one in
// tightenHit of the nodes that got them was pruned by them, and every tightenProbe-th
// node of the others, which keeps the count current. Min-energy only: a min-time
// search always tightens (with the rule, generator seed 63 at m = 10 was proven in
// 1.03 million LPs instead of 1.30 million, but seed 50 needed 1.67 million instead
// of 1.55 million and 242 s of CPU instead of 161 s).
//
// Why: at depths where nothing is pruned by them the LPs only slow the search, and
// min-energy bounds are often blind to the order of the first messages, so every
// node of the first levels is expanded. Generator seed 3 at T = 400 s (m = 10, six
// machines used) expands all 6^5 = 7,776 nodes of depth 5; of the 9,330 nodes of
// depths 1-5 that got their load bounds none was pruned by them (at depth 6, 2,038 of
// 3,996 were), and they took half of the search's LPs. It was proven in 35.1 s
// without load bounds, 65.5 s with them at every node and 35.0 s with this rule;
// seeds 49 and 66 at T = 400, open without them, in 88.5 and 82.9 s at every node
// and 64.8 and 61.1 s with the rule (CLI, one thread, two runs side by side). One in
// 100 instead of one in 20 was some 5 % slower on all ten instances tried.
func (s *search) tightenPays(d int) bool {
	if s.rx.energy == nil {
		return true
	}
	c := s.tightenCount(d)
	c.offered++
	return c.runs < tightenProbe || c.pruned*tightenHit >= c.runs || c.offered%tightenProbe == 0
}

// tightenProbe and tightenHit: see tightenPays.
const (
	tightenProbe = 32
	tightenHit   = 20
)
