package workload

import (
	"context"
	"fmt"
	"math"
	"sort"

	dw "github.com/schedopt/schedopt/domain/workload"
)

// MemTuple is one element of a PMem cell (seed 000 §10.6, ref §2.5): the energy and
// makespan of a partial solution on processors c..p−1, the size part given to P_c (in
// granules), the number of active processors among c..p−1, and key, the energy of the
// chosen partial solution in the child cell PMem[c+1][w−part] (energies are unique in
// a Pareto set, so it serves as a pointer).
type MemTuple struct {
	Eng    float64
	Time   float64
	Part   int
	Active int
	Key    float64
}

// cell is a PMem cell: visited once, then final; NS marks "no solution".
type cell struct {
	tuples []MemTuple
	final  bool
}

// HEPOPTAOptions tune HEPOPTA. The zero value takes ε from the minimum-energy
// time-optimal distribution, the smallest valid threshold.
type HEPOPTAOptions struct {
	// Epsilon, when non-nil, is the energy threshold to use instead; any value at least
	// the energy of some time-optimal distribution keeps the result exact
	// (Prop. 10.3).
	Epsilon *float64
}

// HEPOPTAStats counts the operations of one HEPOPTA run.
type HEPOPTAStats struct {
	Expansions int // nodes expanded (their children enumerated)
	MemReads   int // ReadParetoMem hits that avoided an expansion
	Cuts       int // subtrees removed by the size threshold σ
}

// HEPOPTAResult is HEPOPTA's output with its internals, for inspection and tests.
type HEPOPTAResult struct {
	Front   Front   // sorted by increasing T (the paper lists it by increasing energy)
	Epsilon float64 // the energy threshold ε
	Sigma   []int   // the size thresholds σ_0..σ_{p−1}, in granules
	Stats   HEPOPTAStats
	mem     [][]cell // mem[c][w] for c in 1..p−2
	root    cell
}

// Mem returns the final PMem cell of level c (1 ≤ c ≤ p−2) and remaining workload w
// (granules), sorted by increasing energy. ok is false when the node was never
// expanded. A cell without solutions holds one tuple with Eng = +Inf (the paper's _NS).
func (r *HEPOPTAResult) Mem(c, w int) ([]MemTuple, bool) {
	if c < 1 || c >= len(r.mem) || w < 0 || w >= len(r.mem[c]) || !r.mem[c][w].final {
		return nil, false
	}
	return r.mem[c][w].tuples, true
}

// HEPOPTA computes the (makespan, dynamic energy) front with seed 000's Algorithm 1
// and its kernel (Algorithm 2), reconstructed and corrected as in ref §2.3–§2.5:
//
//   - ε is the dynamic energy of a time-optimal distribution (line 4) and every point
//     with e_ij > ε is skipped (the energy-sorted scan stops at the first);
//   - σ_i = σ_{i+1} + max{x_ij : e_ij ≤ ε} (SIZETHRESHOLDCALC, empty max = 0) cuts
//     subtrees with w > σ_c;
//   - PMem memoises the Pareto set of each node (c, w), 1 ≤ c ≤ p−2, read back by
//     READPARETOMEM (NOT_SOLUTION when the cheapest completion exceeds ε);
//   - MERGEPARTIALPARETOES uses per-candidate time and P# (the listing accumulates
//     them), merges the root too (guard c ≤ p−2), and breaks once a child's time is
//     ≤ t_c(x); INSERT keeps the set non-dominated with the fewest active processors
//     among equal points;
//   - READFUNC's −1 sentinel for a missing size is treated as infeasible.
//
// Distributions are rebuilt from the key back-pointers (BUILDPARETOSOLS).
func HEPOPTA(ctx context.Context, ts *dw.Tables, opts HEPOPTAOptions) (*HEPOPTAResult, error) {
	p, N := ts.P(), ts.N
	res := &HEPOPTAResult{}
	if opts.Epsilon != nil {
		res.Epsilon = *opts.Epsilon
	} else {
		tstar, err := MinMakespan(ctx, ts)
		if err != nil {
			return nil, err
		}
		xt, ok, err := MinEnergy(ctx, ts, tstar)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, ErrInfeasible
		}
		res.Epsilon = xt.E
	}
	eps := res.Epsilon
	// Energy-sorted scan order of every table (Algorithm 1, line 2).
	order := make([][]int, p)
	for i, t := range ts.Procs {
		o := make([]int, t.Len())
		for j := range o {
			o[j] = j
		}
		sort.SliceStable(o, func(a, b int) bool { return t.Energy[o[a]] < t.Energy[o[b]] })
		order[i] = o
	}
	// SIZETHRESHOLDCALC (Algorithm 8).
	res.Sigma = make([]int, p)
	for i := p - 1; i >= 0; i-- {
		mx := 0
		for j, x := range ts.Procs[i].Size {
			if ts.Procs[i].Energy[j] <= eps && x > mx {
				mx = x
			}
		}
		if i < p-1 {
			mx += res.Sigma[i+1]
		}
		res.Sigma[i] = mx
	}
	if p == 1 {
		k := ts.Index(0, N)
		if k < 0 || ts.Procs[0].Energy[k] > eps {
			return nil, ErrInfeasible
		}
		pt, _ := pointOf(ts, []int{N})
		res.Front = Front{pt}
		return res, nil
	}
	res.mem = make([][]cell, p-1)
	for c := 1; c <= p-2; c++ {
		res.mem[c] = make([]cell, N+1)
	}
	h := &hepopta{ts: ts, res: res, eps: eps, order: order, ctx: ctx}
	if _, err := h.kernel(N, 0); err != nil {
		return nil, err
	}
	if len(res.root.tuples) == 0 || math.IsInf(res.root.tuples[0].Eng, 1) {
		return nil, ErrInfeasible
	}
	f, err := h.build()
	if err != nil {
		return nil, err
	}
	res.Front = f
	return res, nil
}

type hepopta struct {
	ctx   context.Context
	ts    *dw.Tables
	res   *HEPOPTAResult
	eps   float64
	order [][]int
	steps int
}

// point is READFUNC for times and energies: 0 for size 0, ok false for a size not in the
// table (the paper's −1 sentinel, which must not pass an "≤ ε" test).
func (h *hepopta) point(c, x int) (t, e float64, ok bool) {
	if x == 0 {
		return 0, 0, true
	}
	k := h.ts.Index(c, x)
	if k < 0 {
		return 0, 0, false
	}
	return h.ts.Procs[c].Time[k], h.ts.Procs[c].Energy[k], true
}

// kernel is HEPOPTA_KERNEL (Algorithm 2): it shares w among P_c..P_{p−1} and reports
// whether a solution exists.
func (h *hepopta) kernel(w, c int) (bool, error) {
	p := h.ts.P()
	if w > h.res.Sigma[c] { // CUT (Algorithm 9)
		h.res.Stats.Cuts++
		return false, nil
	}
	if c == p-1 { // last level
		_, e, ok := h.point(c, w)
		return ok && e <= h.eps, nil
	}
	var cl *cell
	if c == 0 {
		cl = &h.res.root
	} else {
		cl = &h.res.mem[c][w]
		if cl.final { // READPARETOMEM (Algorithm 10)
			h.res.Stats.MemReads++
			return !(math.IsInf(cl.tuples[0].Eng, 1) || cl.tuples[0].Eng > h.eps), nil
		}
	}
	h.steps++
	if h.steps%1024 == 0 {
		if err := h.ctx.Err(); err != nil {
			return false, err
		}
	}
	h.res.Stats.Expansions++
	var parts []int
	t := h.ts.Procs[c]
	// idx = −1 encodes the zero size, then the points in energy order while e ≤ ε.
	for idx := -1; idx < t.Len(); idx++ {
		x := 0
		if idx >= 0 {
			j := h.order[c][idx]
			if t.Energy[j] > h.eps {
				break
			}
			x = t.Size[j]
		}
		if x <= w {
			ok, err := h.kernel(w-x, c+1)
			if err != nil {
				return false, err
			}
			if ok {
				parts = append(parts, x)
			}
		}
		if w == 0 {
			break
		}
	}
	h.merge(w, c, cl, parts)
	if len(cl.tuples) == 0 { // MAKEPARETOFINAL (Algorithm 11)
		cl.tuples = []MemTuple{{Eng: math.Inf(1)}}
	}
	cl.final = true
	return len(parts) > 0, nil
}

// merge is MERGEPARTIALPARETOES (Algorithm 12) with per-candidate time and P#.
func (h *hepopta) merge(w, c int, cl *cell, parts []int) {
	p := h.ts.P()
	for _, x := range parts {
		var sub []MemTuple
		if c+1 < p-1 {
			sub = h.res.mem[c+1][w-x].tuples
			if len(sub) > 0 && math.IsInf(sub[0].Eng, 1) {
				continue
			}
		} else {
			xl := w - x
			tl, el, _ := h.point(p-1, xl)
			a := 0
			if xl != 0 {
				a = 1
			}
			sub = []MemTuple{{Eng: el, Time: tl, Part: xl, Active: a}}
		}
		tx, ex, _ := h.point(c, x)
		ax := 0
		if x != 0 {
			ax = 1
		}
		for _, tup := range sub {
			insert(&cl.tuples, MemTuple{Eng: tup.Eng + ex, Time: math.Max(tup.Time, tx), Part: x, Active: ax + tup.Active, Key: tup.Eng})
			if tup.Time <= tx {
				break // later children are slower-free but costlier: dominated
			}
		}
	}
}

// insert adds cand to a Pareto set sorted by increasing energy and strictly
// decreasing time (the five cases of ref §2.5), removing what cand dominates. Among
// equal (energy, time) the tuple with fewer active processors is kept.
func insert(set *[]MemTuple, cand MemTuple) {
	s := *set
	k := sort.Search(len(s), func(i int) bool { return !less(s[i].Eng, cand.Eng) })
	if k < len(s) && !less(cand.Eng, s[k].Eng) { // equal energy
		if cand.Time < s[k].Time || (cand.Time == s[k].Time && cand.Active < s[k].Active) {
			s[k] = cand
			*set = prune(s, k)
		}
		return
	}
	if k > 0 && s[k-1].Time <= cand.Time {
		return // a cheaper tuple is at least as fast
	}
	s = append(s, MemTuple{})
	copy(s[k+1:], s[k:])
	s[k] = cand
	*set = prune(s, k)
}

// prune deletes the successors of s[k] that are not strictly faster than it.
func prune(s []MemTuple, k int) []MemTuple {
	j := k + 1
	for j < len(s) && s[j].Time >= s[k].Time {
		j++
	}
	return append(s[:k+1], s[j:]...)
}

// build is BUILDPARETOSOLS (Algorithm 13): it follows the key back-pointers.
func (h *hepopta) build() (Front, error) {
	p, N := h.ts.P(), h.ts.N
	var f Front
	for _, tup := range h.res.root.tuples {
		x := make([]int, p)
		x[0] = tup.Part
		sum := tup.Part
		key := tup.Key
		for i := 1; i <= p-2; i++ {
			set := h.res.mem[i][N-sum].tuples
			k := sort.Search(len(set), func(a int) bool { return set[a].Eng >= key })
			if k == len(set) || set[k].Eng != key {
				return nil, fmt.Errorf("workload: HEPOPTA: key %g not found in PMem[%d][%d]", key, i, N-sum)
			}
			x[i] = set[k].Part
			sum += set[k].Part
			key = set[k].Key
		}
		x[p-1] = N - sum
		pt, ok := pointOf(h.ts, x)
		if !ok || pt.T != tup.Time || !EqualEnergy(pt.E, tup.Eng) {
			return nil, fmt.Errorf("workload: HEPOPTA rebuilt %v, which does not evaluate to (%g, %g)", x, tup.Time, tup.Eng)
		}
		f = append(f, pt)
	}
	sort.Slice(f, func(a, b int) bool { return f[a].T < f[b].T })
	return f, nil
}
