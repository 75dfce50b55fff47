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
// ok is false when an LP is infeasible: no completion is shorter than the target. lps
// counts the programs solved. Min-time only (for min-energy, and before the first
// incumbent, lb is returned unchanged).
func (s *search) tightenLoads(seq []int, cuts [][]int, ms *machineSet, lb *loads) (out *loads, lps int, ok bool) {
	r := s.rx
	out = &loads{max: append([]float64(nil), r.betaMax...)}
	if lb != nil {
		for i := range out.max {
			if lb.max != nil {
				out.max[i] = math.Min(out.max[i], lb.max[i])
			}
		}
		out.kLo, out.kHi, out.floor = lb.kLo, lb.kHi, lb.floor // never written in place
	}
	target := s.target()
	if r.energy != nil || len(seq) >= r.n || math.IsInf(target, 1) {
		return out, 0, true
	}
	// One LP per machine, all from the same node LP: min −β_i subject to the node's
	// rows and T <= target. They differ only in the objective, so each starts from the
	// previous one's optimal tableau (warm.go); they run in machine order on one
	// goroutine, so that the bounds do not depend on Options.Threads.
	nl := r.buildWith(seq, cuts, ms, out)
	if !s.opt.NoLinkTail {
		r.addTails(nl, seq, s.storedTails(seq, len(seq), out)) // the node's own link-and-tail cuts
	}
	var todo []int
	for i := range r.m {
		if out.max[i] > minBetaMax {
			todo = append(todo, i)
		}
	}
	obj := make([]float64, len(todo))
	errs := make([]error, len(todo))
	warm := &warmStart{}
	defer warm.release()
	for k := range todo {
		lp := *nl.lp
		lp.warm = warm
		lp.C = make([]float64, len(nl.lp.C))
		lp.C[nl.beta+todo[k]] = -1
		row := make([]float64, len(lp.C))
		row[nl.T] = 1
		lp.Rows = append(lp.Rows[:len(lp.Rows):len(lp.Rows)], row)
		lp.Rel = append(lp.Rel[:len(lp.Rel):len(lp.Rel)], le)
		lp.B = append(lp.B[:len(lp.B):len(lp.B)], target)
		_, obj[k], errs[k] = s.solver(&lp)
	}
	lps = len(todo)
	for k, i := range todo {
		switch {
		case errors.Is(errs[k], ErrInfeasible):
			return out, lps, false
		case errs[k] != nil:
			continue // no answer: the bound stays
		}
		out.max[i] = math.Max(0, math.Min(out.max[i], -obj[k]+loadSlack*r.in.V))
	}
	return out, lps, true
}

// loadSlack, relative to V, is added to every load bound of tightenLoads: room for a
// solver that returns its objective without a certificate (the package's tests use
// the plain Simplex), which may stop a little short of the largest load.
const loadSlack = 1e-6

// tighten runs tightenLoads on the open node it and solves its LP again with the new
// bounds. It returns the node with its own bounds, its new bound (never below the old
// one) and cuts, or pruned when no completion can be shorter than the target.
func (s *search) tighten(it item) (out item, pruned bool) {
	lb, lps, ok := s.tightenLoads(it.seq, it.cuts, it.ms, it.lb.withFloor(it.bound))
	s.res.LPs += lps
	if !ok {
		return it, true
	}
	out = it
	out.lb, out.tight = lb, true
	x, b, cuts, ok, lps, err := s.solveCounted(it.seq, it.cuts, it.ms, lb)
	s.res.LPs += lps
	switch {
	case err != nil:
		return out, false // the old bound and cuts still hold
	case !ok || b >= s.target():
		return out, true
	}
	out.bound, out.cuts = math.Max(b, it.bound), cuts
	out.splitOn, out.splitAt = s.pickSplit(it.seq, it.ms, lb, x)
	return out, false
}
