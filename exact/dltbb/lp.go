package dltbb

import (
	"errors"
	"math"
	"sort"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
)

// LP is min C·x subject to Rows[r]·x (≤ when Rel[r] < 0, = when Rel[r] == 0, ≥ when
// Rel[r] > 0) B[r] and x >= 0, dense: the small programs of one node.
type LP struct {
	C    []float64
	Rows [][]float64
	Rel  []int
	B    []float64
	// U, when set, holds an upper bound per column that every point of interest
	// satisfies (len(C); +Inf for none). Solvers ignore it; DualBound needs it to
	// bound the columns whose reduced cost its multipliers leave negative. For a
	// min-time node it includes T <= target: only schedules shorter than the target
	// still matter, and a bound of the LP restricted to them decides the pruning.
	U []float64
	// Cutoff, when HasCutoff is set, is the value the caller compares the optimum
	// with and no more: a solver may stop as soon as it has row multipliers whose
	// DualBound reaches Cutoff, and return no point (x nil) with that bound as the
	// objective. Other solvers ignore it and solve to the optimum. The search sets it
	// on the LPs of the inner nodes it prunes at the target (a pruned node's point is
	// never read), where the dual simplex from the slack basis crosses the target a
	// few pivots before its optimum (SimplexDual).
	Cutoff    float64
	HasCutoff bool
	// BoundOnly says that the caller reads only the objective, as a bound (the
	// load-bound LPs of tightenLoads), and no point: a solver may skip checking its
	// point against the rows. The objective a certifying solver returns is the
	// DualBound of its multipliers, valid whatever the point.
	BoundOnly bool

	// warm, set by the search on the cut rounds of one node and on its load-bound
	// LPs, lets SimplexDual start from the previous LP's tableau (warm.go); other
	// solvers ignore it.
	warm *warmStart
}

// cutoff returns p's cutoff, +Inf when it has none.
func (p *LP) cutoff() float64 {
	if p.HasCutoff {
		return p.Cutoff
	}
	return math.Inf(1)
}

// LPSolver solves an LP and returns an optimal x and the objective (or, when the LP has
// a cutoff, possibly no x and a valid lower bound of at least LP.Cutoff). It returns an
// error for which errors.Is(err, ErrInfeasible) holds when the program is infeasible;
// any other error stops the search. With Options.Threads > 1 it is called from several
// goroutines at once and must be safe for that (Simplex, SimplexDual and DualBound
// are: they share nothing between calls), and must not modify p, which the search
// may reuse. p, its rows included, is valid only during the call: the search
// recycles the rows' storage once it is done with a node's LPs (nodeLP.release), so
// a solver that keeps a program must copy it.
type LPSolver func(p *LP) (x []float64, obj float64, err error)

// ErrInfeasible is the error an LPSolver returns (or wraps) for an infeasible program.
var ErrInfeasible = errors.New("dltbb: linear program is infeasible")

// node LP relations.
const (
	le = -1
	eq = 0
	ge = 1
)

// relax holds what every node LP of one search shares.
type relax struct {
	in       *dm.Instance
	m, n     int
	lbT      float64   // valid lower bound on T (CapacityLowerBoundTime)
	sMin     float64   // min_i S_i
	oMin     float64   // min_i O_i
	forced   []bool    // machines every schedule below the target uses
	betaMax  []float64 // upper bound on the load of M_i below the target
	alphaMin []float64 // lower bound on the load of M_i below the target
	caps     []float64 // capacity of M_i at the last target: max(0, target − S_i − O_i)/(a_1i + C_i)
	deadline float64   // +Inf without one
	fixed    bool      // T == deadline (fixed_length)
	// target is the last target of setTarget (+Inf before the first): only schedules
	// shorter than it matter, which bounds every time column of a min-time node LP.
	target float64

	// energy is set for min-energy (see energy.go); nil for min-time.
	energy *energyModel
	// noExcessCut leaves out the excess chord of a concave g_i (Options.NoExcessCut).
	noExcessCut bool
	// noUseRows leaves out the used-machine rows (Options.NoUseRows).
	noUseRows bool
	// noUseSplit leaves out the splits of relax.splitsUse (Options.NoUseSplit).
	noUseSplit bool
}

func newRelax(in *dm.Instance) *relax {
	r := &relax{in: in, m: in.M(), n: in.N, lbT: CapacityLowerBoundTime(in), sMin: math.Inf(1), oMin: math.Inf(1),
		forced: make([]bool, in.M()), betaMax: make([]float64, in.M()), alphaMin: make([]float64, in.M()), deadline: math.Inf(1),
		target: math.Inf(1)}
	for i, mc := range in.Machines {
		r.sMin = math.Min(r.sMin, mc.S)
		r.oMin = math.Min(r.oMin, mc.O)
		r.betaMax[i] = in.V
	}
	if in.Deadline != nil {
		r.deadline = *in.Deadline
		r.fixed = in.FixedLength
	}
	if in.Objective == dm.MinEnergy {
		r.energy = newEnergyModel(in)
	}
	return r
}

// clone returns a copy of r that setTarget can tighten on its own: the slices setTarget
// writes in place are copied, the rest (the instance, the energy model, caps, which
// setTarget replaces) is shared and only read.
func (r *relax) clone() *relax {
	c := *r
	c.forced = append([]bool(nil), r.forced...)
	c.betaMax = append([]float64(nil), r.betaMax...)
	c.alphaMin = append([]float64(nil), r.alphaMin...)
	return &c
}

// lowerBound is a valid lower bound on the objective: CapacityLowerBoundTime for
// min-time, 0 for min-energy (every term of (6.4) is nonnegative).
func (r *relax) lowerBound() float64 {
	if r.energy != nil {
		return 0
	}
	return r.lbT
}

// kColRatio: a machine gets a message-count column k_i (and the out-of-core rows)
// only when its load bound exceeds kColRatio·ρ_i; below, out-of-core chunks cannot
// matter much and the column only slows the LPs (any choice keeps the bound valid).
const kColRatio = 1.25

// release hands the arrays nl's rows were cut from back for reuse (floatArrays). Nothing may read
// nl's rows, or those of an LP extended from it (relax.extended), afterwards; an LP
// that is not released is collected as usual.
func (nl *nodeLP) release() {
	for _, b := range nl.blocks {
		floatArrays.Put(b)
	}
	nl.blocks = nil
}

// minBetaMax [MB] is the load bound below which a machine is taken to receive no
// suffix load (its 1/β̄ would make the LP badly scaled).
const minBetaMax = 1e-6

// setTarget records what holds for every schedule with T < target: the forced
// machines and the load bounds β̄_i = (target − S_i − O_i)/(a_1i + C_i). Both only
// tighten when the target decreases, so rows built for an earlier target stay valid.
func (r *relax) setTarget(target float64) {
	if math.IsInf(target, 1) {
		return
	}
	in := r.in
	r.target = math.Min(r.target, target)
	total := 0.0
	caps := make([]float64, r.m)
	r.caps = caps
	for i, mc := range in.Machines {
		caps[i] = math.Max(0, target-mc.S-mc.O) / (mc.A1 + mc.C)
		total += caps[i]
		r.betaMax[i] = math.Min(r.betaMax[i], caps[i])
	}
	for i := range in.Machines {
		if total-caps[i] < in.V*(1-1e-9) {
			r.forced[i] = true
		}
		// α_i = V − Σ_{k≠i} α_k >= V − Σ_{k≠i} cap_k(T) >= V − Σ_{k≠i} cap_k(target).
		r.alphaMin[i] = math.Max(r.alphaMin[i], in.V-(total-caps[i]))
	}
}

// CapacityLowerBoundTime returns the smallest T with Σ_i max(0, T − S_i − O_i)/(a_1i +
// C_i) >= V, a lower bound on every schedule's length: M_i starts its first message no
// earlier than S_i, and from then on it receives (C_i per MB, O_i per message) or
// computes (at least a_1i per MB), never both (6.17). It dominates the water-filling
// part of dltmulti.ValidLowerBoundTime, which leaves out C_i.
func CapacityLowerBoundTime(in *dm.Instance) float64 {
	lo, hi := 0.0, 1.0
	capacity := func(T float64) float64 {
		s := 0.0
		for _, mc := range in.Machines {
			s += math.Max(0, T-mc.S-mc.O) / (mc.A1 + mc.C)
		}
		return s
	}
	for capacity(hi) < in.V {
		lo, hi = hi, 2*hi
	}
	for range 200 {
		mid := (lo + hi) / 2
		if mid <= lo || mid >= hi {
			break
		}
		if capacity(mid) >= in.V {
			hi = mid
		} else {
			lo = mid
		}
	}
	return lo // capacity(lo) < V: every T below lo is infeasible
}

// nodeLP is a built node LP with the columns the cut separation reads.
type nodeLP struct {
	lp    *LP
	T     int         // the T column
	tp    int         // the suffix start t_p, -1 at a leaf
	s     map[int]int // first-message start of each unserved forced machine
	cuts  [][]int     // the sequencing cuts it holds (subsets of unserved machines)
	konst float64     // constant added to the LP's objective (min-energy)
	beta  int         // the column of β_0 (β_i is beta + i), -1 at a leaf
	// alphaMin are the load bounds its sequencing cuts use (seqCut), spare the
	// number of machines among the unserved forced ones that may receive more than
	// one suffix message.
	alphaMin []float64
	spare    int
	// blocks are the recycled arrays its rows were cut from (release).
	blocks []*[]float64
}

// addSeqCuts appends the rows of the sequencing cuts of the subsets in cuts (seqCut)
// to the suffix node LP nl: Σ λ_i (s_i − t_p) >= Σ_{i<k} λ_i λ_k, and the same with
// the release min_{i∈A} S_i in place of t_p. (nl.cuts is the caller's to set.)
func (r *relax) addSeqCuts(nl *nodeLP, cuts [][]int) {
	lp := nl.lp
	nv := len(lp.C)
	for _, A := range cuts {
		lam, rhs, ok := r.seqCut(A, nl.spare, nl.alphaMin)
		if !ok {
			continue
		}
		withTp := make([]float64, nv)
		withRel := make([]float64, nv)
		rel := math.Inf(1)
		sum := 0.0
		for k, i := range A {
			withTp[nl.s[i]] += lam[k]
			withRel[nl.s[i]] += lam[k]
			sum += lam[k]
			rel = math.Min(rel, r.in.Machines[i].S)
		}
		withTp[nl.tp] -= sum
		lp.Rows = append(lp.Rows, withTp, withRel)
		lp.Rel = append(lp.Rel, ge, ge)
		lp.B = append(lp.B, rhs, rhs+sum*rel)
	}
}

// extended returns a copy of nl with the rows of more sequencing cuts and
// link-and-tail cuts appended (the next cut round of a node whose other rows stay
// the same); nl itself is left as it is.
func (r *relax) extended(nl *nodeLP, seq []int, cuts [][]int, more [][]int, tails []tailCut) *nodeLP {
	out := *nl
	lp := *nl.lp
	n := len(lp.Rows)
	lp.Rows, lp.Rel, lp.B = lp.Rows[:n:n], lp.Rel[:n:n], lp.B[:n:n]
	lp.warm = nil
	out.lp, out.cuts = &lp, cuts
	r.addSeqCuts(&out, more)
	r.addTails(&out, seq, tails)
	return &out
}

// nodeBetaMax returns the load bounds of a node with load bounds lb: the search's β̄_i,
// which tighten as the target falls, or lb's where smaller (both hold).
func (r *relax) nodeBetaMax(lb *loads) []float64 {
	if lb == nil || lb.max == nil {
		return r.betaMax
	}
	out := make([]float64, r.m)
	for i := range out {
		out[i] = math.Min(r.betaMax[i], lb.max[i])
	}
	return out
}

// nodeForced returns the machines that every completion of a node with machine set ms
// (min-energy; nil for min-time) and loads lb uses: those of ms, or of the target
// (setTarget), and, with more machines than messages, the machines whose count range
// starts at one suffix message or more (a count split, counts.go), which then get a
// first-message column like them. (With m <= n the count rows alone carry the range,
// so that those searches stay as they were measured.)
func (r *relax) nodeForced(ms *machineSet, lb *loads) []bool {
	forced := r.forced
	if ms != nil {
		forced = ms.forced
	}
	out := r.countForced(forced, lb)
	if out == nil {
		return forced
	}
	for i, f := range forced {
		out[i] = out[i] || f
	}
	return out
}

// countForced returns the machines that the count ranges of lb force beyond those of
// base: with more machines than messages, those whose range starts at one suffix
// message or more (nil for none, and always with m <= n).
func (r *relax) countForced(base []bool, lb *loads) []bool {
	if lb == nil || lb.kLo == nil || r.m <= r.n {
		return nil
	}
	var out []bool
	for i, lo := range lb.kLo {
		if lo > 0 && !base[i] {
			if out == nil {
				out = make([]bool, r.m)
			}
			out[i] = true
		}
	}
	return out
}

// suffixColumns lays out the suffix columns of a node LP from column nv on: s_i, the
// first-message start of each unserved forced machine, and k_i, the number of suffix
// messages to M_i, for the machines whose load may exceed kColRatio·ρ_i. It returns
// their columns and the next free one. The search's β̄_i, not the node's, decides
// whether M_i gets a k_i column: a k_i column only adds rows, so a node bound never
// falls when its load bounds tighten.
func (r *relax) suffixColumns(seq []int, forced []bool, betaMax []float64, nv int) (sCol, kCol map[int]int, next int) {
	sCol, kCol = map[int]int{}, map[int]int{}
	for i := range r.m {
		if forced[i] && !r.served(seq, i) {
			sCol[i] = nv
			nv++
		}
		if betaMax[i] > minBetaMax && r.betaMax[i] > kColRatio*r.in.Machines[i].Rho {
			kCol[i] = nv
			nv++
		}
	}
	return sCol, kCol, nv
}

// neededUnforced returns a lower bound on the number of unserved machines that are
// not forced (and allowed by ms) but receive load in every completion of seq shorter
// than the target: each machine's whole load is at most β̄_i (its capacity at the
// target, as setTarget computes it), the loads add up to V, so the unserved unforced
// machines that take load must cover V − Σ β̄_k over the other (served or forced,
// allowed) machines, which needs at least as many of them as the largest β̄_i do.
// Each of them takes a suffix message of its own, which the count of the sequencing
// cuts (seqCut's spare) can leave out.
func (r *relax) neededUnforced(seq []int, forced []bool, ms *machineSet) int {
	deficit := r.in.V
	var free []float64
	for i := range r.m {
		switch {
		case ms != nil && !ms.allowed[i]:
		case forced[i] || r.served(seq, i):
			deficit -= r.betaMax[i]
		default:
			free = append(free, r.betaMax[i])
		}
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(free)))
	u := 0
	for _, c := range free {
		if deficit <= r.in.V*1e-9 {
			break
		}
		deficit -= c
		u++
	}
	return u
}

// build returns the LP of the node with prefix seq (len(seq) == n: the exact LP of
// the sequence) with the sequencing cuts of the subsets in cuts (see seqCut). seq
// holds symbols (see symbols); for min-time they are the machines. For min-energy the
// objective is the energy bound of energy.go and T is fixed to (or bounded by) the
// deadline.
func (r *relax) build(seq []int, cuts [][]int, ms *machineSet) *nodeLP {
	return r.buildWith(seq, cuts, ms, nil)
}

// buildWith is build with the node's own load bounds lb (see tightenLoads) added to
// the search's: lb.max in place of β̄_i where smaller, and as a row β_i <= lb.max[i];
// nil adds none. Every entry must bound the suffix load of its machine in every
// completion of seq shorter than the target.
func (r *relax) buildWith(seq []int, cuts [][]int, ms *machineSet, lb *loads) *nodeLP {
	alphaMin := r.alphaMin
	if ms != nil {
		alphaMin = ms.alphaMin
	}
	forced := r.nodeForced(ms, lb)
	betaMax := r.nodeBetaMax(lb)
	in, n := r.in, r.n
	p := len(seq)
	suffix := p < n
	nt := p
	if suffix {
		nt = p + 1 // t_p is the start of the suffix
	}
	A := func(j int) int { return j }
	Tj := func(j int) int { return p + j }
	Tau := func(j int) int { return p + nt + j }
	Tc := 2*p + nt
	Beta := func(i int) int { return Tc + 1 + i }
	nv := Tc + 1
	sCol, kCol := map[int]int{}, map[int]int{}
	if suffix {
		nv += r.m
		sCol, kCol, nv = r.suffixColumns(seq, forced, betaMax, nv)
	}
	// The used-machine rows (useRows).
	floor := r.floor(lb)
	use := r.useRows(seq, sCol, betaMax, ms, lb, floor)
	// useCount is the second count row: k_i, or the used-machine row's lower bound on
	// y_i in place of β_i/β̄_i (its T coefficient −useT, its constant in useRHS).
	var useCount []float64
	useT, useRHS := 0.0, 0.0
	Kc := func(i int) int { return kCol[i] }
	// Energy columns: G_j (g of a prefix chunk on a convex machine that can go
	// out-of-core), H_i (g of M_i's suffix load, convex with a k_i column), z_i (an
	// unserved, unforced machine is used in the suffix), W_i (its time from its first
	// message to T, when P^N > P^I).
	em := r.energy
	gCol, hCol, zCol, wCol := map[int]int{}, map[int]int{}, map[int]int{}, map[int]int{}
	// X_i: the out-of-core excess Σ_c (α_c − ρ_i)^+ of M_i's suffix chunks, for a
	// concave g_i (see energyObjective); it costs (a_2 − a_1) per MB in M_i's time rows.
	xCol := map[int]int{}
	if em != nil {
		for j, sym := range seq {
			if i := r.mach(sym); em.kinked(i) && in.Machines[i].Rho < in.V {
				gCol[j] = nv
				nv++
			}
		}
		if suffix {
			for i, mc := range in.Machines {
				if _, ok := kCol[i]; ok && em.kinked(i) {
					hCol[i] = nv
					nv++
				}
				if em.concave[i] && betaMax[i] > mc.Rho && (ms == nil || ms.allowed[i]) {
					xCol[i] = nv
					nv++
				}
				if _, f := sCol[i]; f || r.served(seq, i) || ms != nil && !ms.allowed[i] {
					continue
				}
				zCol[i] = nv
				nv++
				if mc.PN > mc.PI {
					wCol[i] = nv
					nv++
				}
			}
		}
	}
	lp := &LP{C: make([]float64, nv)}
	lp.C[Tc] = 1
	// The rows are cut from recycled arrays (floatArray; building the node LPs was a
	// tenth of the search's time, most of it in allocation), handed back by
	// nodeLP.release; each row is capped at nv, so that nothing appended to one can
	// reach the next.
	rowsHint := 6*p + 4*r.m + 16
	lp.Rows, lp.Rel, lp.B = make([][]float64, 0, rowsHint), make([]int, 0, rowsHint), make([]float64, 0, rowsHint)
	var block []float64
	var blocks []*[]float64
	add := func(rel int, b float64, kv ...float64) {
		if len(block) < nv {
			bp := floatArray(nv)
			blocks, block = append(blocks, bp), *bp
		}
		row := block[:nv:nv]
		block = block[nv:]
		clear(row)
		for k := 0; k+1 < len(kv); k += 2 {
			row[int(kv[k])] += kv[k+1]
		}
		lp.Rows = append(lp.Rows, row)
		lp.Rel = append(lp.Rel, rel)
		lp.B = append(lp.B, b)
	}
	f := func(c int) float64 { return float64(c) }
	// xt returns the X_i term of M_i's time rows (none without the column).
	xt := func(i int) []float64 {
		if c, ok := xCol[i]; ok {
			return []float64{f(c), in.Machines[i].A2 - in.Machines[i].A1}
		}
		return nil
	}
	lastIndex := make([]int, r.m) // last prefix message per machine, -1 if none
	for i := range lastIndex {
		lastIndex[i] = -1
	}
	for j, sym := range seq {
		i := r.mach(sym)
		mc := in.Machines[i]
		add(ge, 0, f(Tau(j)), 1, f(A(j)), -mc.A1)
		add(ge, mc.B2(), f(Tau(j)), 1, f(A(j)), -mc.A2)
		add(ge, mc.S, f(Tj(j)), 1)
		next := Tc
		if j+1 < nt {
			next = Tj(j + 1)
		}
		add(le, -mc.O, f(Tj(j)), 1, f(A(j)), mc.C, f(next), -1)             // (6.16)
		add(le, -mc.O, f(Tj(j)), 1, f(A(j)), mc.C, f(Tau(j)), 1, f(Tc), -1) // (6.20)
		if l := lastIndex[i]; l >= 0 {
			pm := in.Machines[i]
			add(le, -pm.O, f(Tj(l)), 1, f(A(l)), pm.C, f(Tau(l)), 1, f(Tj(j)), -1) // (6.17)
		}
		lastIndex[i] = j
	}
	load := make([]float64, 0, 2*(p+r.m))
	for j := range p {
		load = append(load, f(A(j)), 1)
	}
	rem := n - p
	nForced := 0
	if suffix {
		if p == 0 {
			add(ge, r.sMin, f(Tj(0)), 1)
		}
		ovh := 0.0
		link := []float64{f(Tj(p)), 1, f(Tc), -1}
		// k_i >= 0 is the number of suffix messages to M_i (Σ k_i = rem). From its
		// ready time on, M_i receives and computes its suffix load β_i in k_i chunks:
		// at least k_i·O_i + C_i β_i + a_1i β_i, and, by the out-of-core piece of
		// (3.1), Σ (a_2i α_c + b_2i) = a_2i β_i + k_i b_2i. A machine that takes load
		// takes a message: k_i >= β_i/β̄_i.
		busy := func(rel int, rhs float64, start []float64, i int) {
			mc := in.Machines[i]
			var buf [16]float64
			kv := append(append(append(buf[:0], start...), f(Kc(i)), mc.O, f(Beta(i)), mc.C+mc.A1, f(Tc), -1), xt(i)...)
			add(rel, rhs, kv...)
			kv = append(append(buf[:0], start...), f(Kc(i)), mc.O+mc.B2(), f(Beta(i)), mc.C+mc.A2, f(Tc), -1)
			add(rel, rhs, kv...)
		}
		// Machines whose load cannot exceed ρ_i keep k_i = β_i/β̄_i implicitly (no
		// column: the out-of-core rows are void for them), which keeps the LPs small.
		count := []float64{}
		countRHS := float64(rem)
		for i, mc := range in.Machines {
			load = append(load, f(Beta(i)), 1)
			link = append(link, f(Beta(i)), mc.C)
			if lo, hi := lb.countRange(i); hi == 0 {
				add(le, 0, f(Beta(i)), 1) // no suffix message to M_i (count branching)
			} else if _, ok := kCol[i]; ok && (lo > 0 || hi < rem) {
				add(ge, float64(lo), f(Kc(i)), 1)
				add(le, float64(hi), f(Kc(i)), 1)
			}
			if _, ok := kCol[i]; ok {
				add(le, 0, f(Beta(i)), 1/betaMax[i], f(Kc(i)), -1)
				count = append(count, f(Kc(i)), 1)
				useCount = append(useCount, f(Kc(i)), 1)
			} else {
				g := mc.C + mc.A1
				_, first := sCol[i]
				lo, _ := lb.countRange(i)
				switch {
				case first:
					countRHS-- // its first message
				case lo >= 1 && r.served(seq, i):
					// A served machine split to take a suffix message (splitsUse):
					// a whole one in the count (β_i/β̄_i <= 1 is below it).
					countRHS--
				case betaMax[i] <= minBetaMax:
					// M_i can compute (almost) nothing before the target.
					add(le, math.Max(betaMax[i], 0), f(Beta(i)), 1)
				default:
					g += mc.O / betaMax[i]
					count = append(count, f(Beta(i)), 1/betaMax[i])
					if use[i] {
						span := floor - mc.S - mc.O
						useCount = append(useCount, f(Beta(i)), (mc.C+mc.A1)/span)
						useT += 1 / span
						useRHS -= floor / span
					} else {
						useCount = append(useCount, f(Beta(i)), 1/betaMax[i])
					}
				}
				add(le, 0, append([]float64{f(Tj(p)), 1, f(Beta(i)), g, f(Tc), -1}, xt(i)...)...)
				if si, first := sCol[i]; first {
					nForced++
					ovh += mc.O
					add(ge, 0, f(si), 1, f(Tj(p)), -1)
					add(ge, mc.S, f(si), 1)
					add(le, -mc.O, append([]float64{f(si), 1, f(Beta(i)), mc.C + mc.A1, f(Tc), -1}, xt(i)...)...)
				} else if l := lastIndex[i]; l >= 0 {
					add(le, -mc.O, append([]float64{f(Tj(l)), 1, f(A(l)), mc.C, f(Tau(l)), 1, f(Beta(i)), g, f(Tc), -1}, xt(i)...)...)
				} else if mc.S <= r.lbT {
					add(le, -mc.S, append([]float64{f(Beta(i)), g, f(Tc), -1}, xt(i)...)...)
				}
				continue
			}
			busy(le, 0, []float64{f(Tj(p)), 1}, i)
			if use[i] {
				// The used-machine row with k_i >= y_i in place of y_i (useRows).
				add(le, -floor, f(Beta(i)), mc.C+mc.A1, f(Tc), -1, f(Kc(i)), -(floor - mc.S - mc.O))
			}
			if si, first := sCol[i]; first {
				// s_i, the start of M_i's first message: after the prefix and S_i.
				nForced++
				ovh += mc.O
				add(ge, 0, f(si), 1, f(Tj(p)), -1)
				add(ge, mc.S, f(si), 1)
				add(ge, 1, f(Kc(i)), 1)
				busy(le, 0, []float64{f(si), 1}, i)
				continue
			}
			if l := lastIndex[i]; l >= 0 {
				busy(le, -mc.O, []float64{f(Tj(l)), 1, f(A(l)), mc.C, f(Tau(l)), 1}, i)
			} else if mc.S <= r.lbT {
				busy(le, -mc.S, nil, i)
			}
		}
		ovh += float64(rem-nForced) * r.oMin
		add(le, -ovh, link...)
		if len(count) > 0 {
			add(le, countRHS, count...)
		}
		if useT > 0 {
			add(le, countRHS+useRHS, append(useCount, f(Tc), -useT)...)
		}
	}
	if suffix && lb != nil {
		for i := range r.m {
			if betaMax[i] < r.betaMax[i] {
				add(le, betaMax[i], f(Beta(i)), 1) // the node's own load bound
			}
		}
	}
	if suffix && ms != nil {
		for i := range r.m {
			if !ms.allowed[i] {
				add(le, 0, f(Beta(i)), 1) // not used
			}
		}
	}
	add(eq, in.V, load...)
	add(ge, r.lbT, f(Tc), 1)
	if !math.IsInf(r.deadline, 1) {
		rel := le
		if r.fixed {
			rel = eq
		}
		add(rel, r.deadline, f(Tc), 1)
	}
	lp.U = r.columnBounds(nv, p, nt, Tc, sCol, kCol)
	nl := &nodeLP{lp: lp, T: Tc, tp: -1, s: sCol, cuts: cuts, beta: -1, alphaMin: alphaMin, blocks: blocks}
	if suffix {
		nl.tp = Tj(p)
		nl.beta = Beta(0)
		nl.spare = rem - nForced - r.neededUnforced(seq, forced, ms)
		r.addSeqCuts(nl, cuts)
	}
	if em != nil {
		cols := energyCols{A: A, Tj: Tj, Beta: Beta, Kc: kCol, G: gCol, H: hCol, Z: zCol, W: wCol, X: xCol}
		r.energyObjective(nl, seq, cols, rem-nForced, betaMax, add)
		r.energyBounds(lp.U, seq, cols)
	}
	return nl
}

// useRows reports, per machine, whether the node LP of seq gets its used-machine row:
//
//	(C_i + a_1i) β_i <= (T − F) + (F − S_i − O_i) y_i,
//
// with F = floor a lower bound on T in every completion of the node shorter than the
// target, and y_i ∈ {0, 1} whether M_i takes a suffix message. It holds for both
// values: with y_i = 0, β_i = 0 and T >= F; with y_i = 1, M_i starts no earlier than
// S_i, takes at least one message (O_i) and receives and computes β_i (C_i + a_1i per
// MB) before T, never both at once ((6.17)), so (C_i + a_1i) β_i <= T − S_i − O_i. It
// is the McCormick envelope of β_i <= y_i·(T − S_i − O_i)/(C_i + a_1i) over
// T ∈ [F, target], where the node LP had only β_i <= β̄_i·y_i, with β̄_i the capacity
// at the target.
//
// y_i is not a column (one per machine made the LPs twice as slow). A machine with a
// message count k_i gets the row with k_i in place of y_i (k_i >= y_i and
// F − S_i − O_i > 0 keep it valid). For the others the row's lower bound on y_i,
// ((C_i + a_1i) β_i − T + F)/(F − S_i − O_i), takes the place of β_i/β̄_i in a second
// count row: the sum of lower bounds on the y_i is at most Σ y_i <= n − p.
//
// Why it helps: with more machines than suffix messages the node LP at a T well
// below the target loaded every machine to a fraction β_i/β̄_i of a message; these
// rows charge a machine loaded to its capacity at T (not at the target) a whole
// message. On generator seed 2 with m = 15 (n = 12) the root bound rises from 233.0
// to 247.4 s (optimum 276.9 s), and along the best sequence at depth 4 from 249.1 to
// 254.1 s. F is the parent's bound for a child (expand), the node's own bound at its
// load bounds and count splits, and the root is solved again with its own bound as
// F while that raises it (solveCounted). Doing that at every node cost more LPs than
// it gained.
//
// Min-time, for the unserved machines without a first-message column (a served
// machine's ready time is a column, an unserved forced one's row with s_i is
// stronger) that can take load, and only where F − S_i − O_i > 0.
func (r *relax) useRows(seq []int, sCol map[int]int, betaMax []float64, ms *machineSet, lb *loads, floor float64) []bool {
	use := make([]bool, r.m)
	if r.energy != nil || r.noUseRows || len(seq) >= r.n {
		return use
	}
	for i, mc := range r.in.Machines {
		_, first := sCol[i]
		_, hi := lb.countRange(i)
		use[i] = !first && hi > 0 && betaMax[i] > minBetaMax && floor-mc.S-mc.O > 0 &&
			(ms == nil || ms.allowed[i]) && !r.served(seq, i)
	}
	return use
}

// floorStep is the relative rise of the root bound over the floor of its
// used-machine rows for which solveCounted solves it again with the bound as floor.
const floorStep = 1e-3

// raisesFloor reports whether bound, the bound of the root LP (seq empty) with loads
// lb, lies far enough above the floor its used-machine rows had (useRows) to solve it
// again with the bound as the floor. Other nodes get their floor from their parent.
func (r *relax) raisesFloor(seq []int, lb *loads, bound float64) bool {
	if r.energy != nil || r.noUseRows || len(seq) > 0 {
		return false
	}
	floor := r.floor(lb)
	return bound > floor+floorStep*math.Abs(floor) && bound < r.target
}

// floor returns the floor of the used-machine rows of a node with loads lb: lb's
// floor, or the capacity bound where higher.
func (r *relax) floor(lb *loads) float64 {
	var f float64
	if lb != nil {
		f = lb.floor
	}
	return math.Max(r.lbT, f)
}

// columnBounds returns the upper bounds of a node LP's columns (LP.U) for the
// schedules that still matter, T <= min(target, deadline): every start t_j,
// computing time τ_j and first-message start s_i is at most T (rows (6.16), (6.20),
// the link and first-message rows), every load at most V (the load row), every
// message count k_i at most n (the count row). Columns are laid out as in build: p
// loads, nt starts, p computing times, T, m suffix loads, then the s_i and k_i.
func (r *relax) columnBounds(nv, p, nt, Tc int, sCol, kCol map[int]int) []float64 {
	uT := math.Min(r.target, r.deadline)
	u := make([]float64, nv)
	for j := range p {
		u[j] = r.in.V // α_j
	}
	for j := p; j < Tc; j++ {
		u[j] = uT // t_j and τ_j
	}
	u[Tc] = uT
	for j := Tc + 1; j < nv; j++ {
		u[j] = r.in.V // β_i
	}
	for _, c := range sCol {
		u[c] = uT
	}
	for _, c := range kCol {
		u[c] = float64(r.n)
	}
	return u
}

// energyBounds sets the upper bounds (LP.U) of the energy columns that columnBounds
// left at V. Each of G', H' and W_i appears only in rows that bound it from below and
// has a positive cost, so some optimum of the node LP has it at its lower envelope,
// which these bound: G' = (s2 − s1)(α − ρ)^+ <= (s2 − s1)V, likewise H'; W_i <= n·O_i +
// (C_i + a_2i)V (the larger of its two rows at z_i <= 1, β_i <= V, X_i <= β_i, k_i <=
// n, b_2i < 0). X_i <= β_i <= V and z_i <= 1 are rows. DualBound's box then holds an
// optimum, which is all its bound needs.
func (r *relax) energyBounds(u []float64, seq []int, c energyCols) {
	in, em := r.in, r.energy
	for j, col := range c.G {
		i := r.mach(seq[j])
		u[col] = (em.s2[i] - em.s1[i]) * in.V
	}
	for i, col := range c.H {
		u[col] = (em.s2[i] - em.s1[i]) * in.V
	}
	for _, col := range c.X {
		u[col] = in.V
	}
	for _, col := range c.Z {
		u[col] = 1
	}
	for i, col := range c.W {
		mc := in.Machines[i]
		u[col] = float64(r.n)*mc.O + (mc.C+mc.A2)*in.V
	}
}

// energyCols are the columns energyObjective reads.
type energyCols struct {
	A, Tj, Beta       func(int) int
	Kc, G, H, Z, W, X map[int]int
}

// energyObjective replaces the node LP's objective T by the energy bound of energy.go
// and adds the rows of its energy columns. spare is the number of suffix messages
// not taken by unserved forced machines; betaMax are the node's load bounds.
func (r *relax) energyObjective(nl *nodeLP, seq []int, c energyCols, spare int, betaMax []float64, add func(int, float64, ...float64)) {
	in, em := r.in, r.energy
	C := nl.lp.C
	f := func(c int) float64 { return float64(c) }
	C[nl.T] = in.P0N
	first := make([]int, r.m)
	for i := range first {
		first[i] = -1
	}
	for j, sym := range seq {
		if i := r.mach(sym); first[i] < 0 {
			first[i] = j
		}
	}
	// Prefix chunks.
	for j, sym := range seq {
		i := r.mach(sym)
		mc := in.Machines[i]
		switch {
		case !em.concave[i]: // s1 <= s2
			if g, ok := c.G[j]; ok {
				// G' = G − s1 α >= 0 (the LP's columns are nonnegative and g may be
				// negative: k1 < P^N a1); G' >= (s2 − s1) α + c2.
				// Scaled by 1/(s2 − s1): G'/(s2 − s1) >= α − ρ.
				C[g] = 1
				C[c.A(j)] += em.s1[i]
				add(ge, -in.Machines[i].Rho, f(g), 1/(em.s2[i]-em.s1[i]), f(c.A(j)), -1)
			} else {
				C[c.A(j)] += em.s1[i] // α <= V <= ρ: on-core
			}
		case sym < r.m: // on-core piece
			add(le, mc.Rho, f(c.A(j)), 1)
			C[c.A(j)] += em.s1[i]
		default: // out-of-core piece
			add(ge, mc.Rho, f(c.A(j)), 1)
			C[c.A(j)] += em.s2[i]
			nl.konst += em.c2[i]
		}
	}
	zs := []float64{}
	for i, mc := range in.Machines {
		switch {
		case first[i] >= 0: // served: exact in t_f
			nl.konst += mc.S * (mc.PS - mc.PI)
			C[nl.T] += mc.PN
			C[c.Tj(first[i])] += mc.PI - mc.PN
		case nl.s[i] != 0: // unserved and forced: used, first message at s_i
			nl.konst += mc.S * (mc.PS - mc.PI)
			C[nl.T] += mc.PN
			C[nl.s[i]] += mc.PI - mc.PN
		default:
			C[nl.T] += mc.PI
		}
		if nl.tp < 0 {
			continue
		}
		// g of the suffix load β_i: Σ_c g(α_c) >= s1 β_i and, with k_i chunks,
		// >= s2 β_i + c2 k_i (convex). Concave: s1 β_i + (s2 − s1) X_i with the
		// out-of-core excess X_i charged in the time rows (exact), or, where no chunk
		// can exceed ρ_i, the chord (then s1).
		if x, ok := c.X[i]; ok {
			// Concave g: Σ_c g(α_c) = s1 β_i + (s2 − s1) X_i exactly, with X_i <= β_i
			// the out-of-core excess, whose time the rows charge.
			C[c.Beta(i)] += em.s1[i]
			C[x] = em.s2[i] - em.s1[i]
			add(le, 0, f(x), 1, f(c.Beta(i)), -1)
			if !r.noExcessCut && !math.IsInf(r.deadline, 1) {
				// The excess chord: X_i > 0 needs a suffix chunk above ρ_i, so
				// β_i >= ρ_i + X_i, and X_i <= x̄_i (excessMax); hence
				// X_i (ρ_i + x̄_i) <= X_i x̄_i + ρ_i x̄_i <= β_i x̄_i, i.e.
				// X_i <= β_i x̄_i/(ρ_i + x̄_i), the hull of X <= min((β − ρ)^+, x̄).
				// Without it the LP could count a suffix load far below ρ_i as
				// out-of-core (seed 3 at T = 700: 172 MB at s2 − s1 = −305 J/MB).
				xb := r.excessMax(i)
				add(le, 0, f(x), 1, f(c.Beta(i)), -xb/(in.Machines[i].Rho+xb))
			}
		} else if h, ok := c.H[i]; ok {
			// H' = H − s1 β_i >= 0, as G' above.
			C[h] = 1
			C[c.Beta(i)] += em.s1[i]
			add(ge, 0, f(h), 1/(em.s2[i]-em.s1[i]), f(c.Beta(i)), -1, f(c.Kc[i]), in.Machines[i].Rho)
		} else {
			C[c.Beta(i)] += em.chord(i, math.Min(betaMax[i], in.V))
		}
		z, ok := c.Z[i]
		if !ok {
			continue
		}
		// An unserved machine that may stay unused: z_i in [0, 1], β_i <= β̄_i z_i,
		// startup S(P^S − P^I) z_i, and (P^N − P^I)(T − t_f) >= (P^N − P^I)(O z_i +
		// (C + a_1) β_i) (and the out-of-core form with k_i) when P^N > P^I, else
		// >= (P^N − P^I)(deadline − S_i) z_i.
		zs = append(zs, f(z), 1)
		add(le, 1, f(z), 1)
		add(le, 0, f(c.Beta(i)), 1, f(z), -math.Max(betaMax[i], minBetaMax))
		C[z] += mc.S * (mc.PS - mc.PI)
		if w, ok := c.W[i]; ok {
			C[w] = mc.PN - mc.PI
			row := []float64{f(w), 1, f(z), -mc.O, f(c.Beta(i)), -(mc.C + mc.A1)}
			if x, ok := c.X[i]; ok {
				row = append(row, f(x), -(mc.A2 - mc.A1))
			}
			add(ge, 0, row...)
			if k, ok := c.Kc[i]; ok {
				add(ge, 0, f(w), 1, f(k), -(mc.O + mc.B2()), f(c.Beta(i)), -(mc.C + mc.A2))
			}
		} else {
			C[z] += (mc.PN - mc.PI) * (r.deadline - mc.S)
		}
	}
	if len(zs) > 0 {
		add(le, float64(max(spare, 0)), zs...) // each needs a suffix message of its own
	}
}

// seqCut returns the lengths λ_i and the right-hand side of the sequencing
// (Queyranne) inequality Σ_{i∈A} λ_i (s_i − R) >= rhs of the first messages of the
// machines in A, all unserved and forced. A machine that receives a single message
// sends all its load in it, at least alphaMin_i, so that message holds the link for at
// least λ_i = O_i + C_i·alphaMin_i. Up to spare machines may receive more messages, so
// their first message can be short: for the singles A∖D, whose intervals are disjoint
// and start at s_i >= R, Σ_{A∖D} λ_i (s_i − R) >= Σ_{i<k∈A∖D} λ_i λ_k; the terms of D on
// the left are >= 0, and the right side is smallest when D holds the spare largest λ_i,
// so rhs = Σ_{i<k} λ_i λ_k over A without its spare largest λ holds for every D.
func (r *relax) seqCut(A []int, spare int, alphaMin []float64) (lam []float64, rhs float64, ok bool) {
	if len(A)-max(spare, 0) < 2 {
		return nil, 0, false
	}
	lam = make([]float64, len(A))
	for k, i := range A {
		mc := r.in.Machines[i]
		lam[k] = mc.O + mc.C*alphaMin[i]
	}
	rest := append([]float64(nil), lam...)
	sort.Sort(sort.Reverse(sort.Float64Slice(rest)))
	rest = rest[max(spare, 0):]
	sum, sq := 0.0, 0.0
	for _, l := range rest {
		sum += l
		sq += l * l
	}
	return lam, (sum*sum - sq) / 2, true
}

// schedule decodes the exact LP of a full sequence.
func (r *relax) schedule(seq []int, x []float64) dm.Schedule {
	p := len(seq)
	s := dm.Schedule{Messages: make([]dm.Message, p)}
	for j, sym := range seq {
		s.Messages[j] = dm.Message{Machine: r.mach(sym), Size: math.Max(x[j], 0), Start: x[p+j]}
	}
	if r.energy != nil {
		// The energy is charged over T: the fixed length, or the LP's T (<= deadline).
		s.T = r.deadline
		if !r.fixed {
			s.T = x[2*p+p]
		}
	}
	return s
}

// unservedForced counts the forced machines (of ms, or of the target) without a
// message in seq.
func (r *relax) unservedForced(seq []int, ms *machineSet) int {
	forced := r.forced
	if ms != nil {
		forced = ms.forced
	}
	k := 0
	for i := range r.m {
		if !forced[i] {
			continue
		}
		if !r.served(seq, i) {
			k++
		}
	}
	return k
}
