package dltbb

import (
	"math"
	"slices"
	"sync"
)

// Link-and-tail cuts: a bound on how long the suffix of a node takes from the order of
// its messages on the link, which the node LP leaves out.
//
// The node LP lets every machine receive its suffix load as if the link served all of
// them at once: each machine's time rows start at the suffix start t_p, and only the
// one link row adds the transfers up. In a schedule the suffix messages c = p+1..n
// cross the link one after the other from t_p on, and each must then still be
// computed, with every later chunk of its machine. Write q_c = C_i α_c for the
// transfer of chunk c to machine i = m(c) (its link interval, O_i + C_i α_c, is at
// least that), s_c for its start, Q_i = C_i β_i for machine i's suffix transfers and Q
// = Σ_i Q_i. Then:
//
//   - the link (Queyranne's inequality for disjoint intervals, started at s_c >= t_p):
//     Σ_c q_c (s_c − t_p) >= Σ_{c<d} q_c q_d = ½(Q² − Σ_c q_c²);
//   - the tail: from s_c on, machine i receives and computes chunk c and every later
//     one, never both at once ((6.17), (6.20), τ >= a_1 α), so
//     s_c <= T − (C_i + a_1i)·(α_c + the later chunks of i).
//
// Multiplying the tail by q_c, adding over c and using the link inequality:
//
//	(T − t_p)·Q >= ½Q² + Σ_i [ v_i Q_i² + u_i Σ_{c∈i} q_c² ],   v_i = (C_i + a_1i)/(2C_i), u_i = a_1i/(2C_i).
//
// (Per machine, Σ_c q_c·(q_c + later) = ½(Q_i² + Σ_c q_c²).) With k_i suffix chunks,
// Σ_{c∈i} q_c² >= Q_i²/k_i, and the k_i are bounded: Σ_i k_i = n − p, and each k_i <=
// K = 1 + spare (every unserved forced machine, and the unforced ones that must take
// load, get a suffix message of their own; nodeLP.spare counts the rest). So
//
//	T − t_p >= ½Q + [Σ_i v_i Q_i² + P(Q)]/Q,   P(Q) = min { Σ_i u_i Q_i²/k_i : 0 <= k_i <= K, Σ_i k_i <= n − p }.
//
// The right side is convex in the loads (a sum of quadratic-over-linear terms), and
// the cut is linear in them. For any numbers y_i, exactly, Q_i²/Q >= 2 y_i Q_i − y_i² Q
// (from (Q_i − y_i Q)² >= 0). For any λ, ν_i >= 0, by u_i Q_i²/k + (λ + ν_i) k Q² >=
// 2 sqrt(u_i (λ + ν_i))·Q_i Q for every k > 0, summed with Σ k_i <= B = n − p and
// k_i <= K:
//
//	P(Q)/Q >= Σ_i 2·sqrt(u_i (λ + ν_i))·Q_i − (λ B + K Σ_i ν_i)·Q.
//
// Each choice of y, λ, ν gives a valid linear cut T − t_p >= Σ_i g_i C_i β_i. The
// search takes y_i = Q̄_i/Q̄ and the optimal λ, ν of P at the LP point Q̄, which makes
// the cut the tangent of the convex bound there; its validity does not depend on how
// well they are computed (only its strength does), and it keeps a small margin
// (tailMargin) for the rounding of its coefficients. Every step holds for the
// schedules shorter than the target, like the rest of the node LP (the spare count
// relies on the forced machines).
//
// Release dates give a second form: the chunks of a set A of machines start no
// earlier than R_A = min_{i∈A} S_i, so T − R_A >= the same bound over A's machines
// only (Queyranne's inequality holds for any subset of the intervals), provided T >=
// R_A even when A's suffix is empty, i.e. some machine of A is used in every
// completion. The cuts are separated for A = every machine (against t_p) and for A =
// {i : S_i >= θ} (against R_A), a few rounds per node with the sequencing cuts.
//
// Why it helps: the node LP lets every machine start on its suffix load at t_p, as if
// it had the link alone, and the capacity and sequencing cuts only see the first
// messages' lower bounds; the order of the messages on the link is left to the
// branching. Along the optimal sequence of generator seed 3 (m = 10, n = 12, optimum
// 260.09 s, target 259.57 s, with the load bounds) the root bound rises from 241.7 to
// 253.6 s and the depth-5 bound from 247.5 to 256.0 s. Min-time only
// (Options.NoLinkTail turns the cuts off).

// tailCut is one link-and-tail cut, made at a node of depth from: T − ref >= Σ_i
// coef[i]·(suffix load of M_i after message from) − margin, with ref the start of
// message from (release < 0) or the constant release. A descendant's LP holds it with
// the loads of its messages from.. in place of part of the β_i, so the cuts of a node
// are passed on to its children (tailStore).
type tailCut struct {
	from    int
	release float64 // < 0: the reference is the start of message from
	coef    []float64
	margin  float64
}

// tailMargin, relative to the cut's right side at the LP point (and at least
// tailAbsMargin), is taken off every link-and-tail cut: room for the rounding of its
// coefficients, which are computed in floating point.
const (
	tailMargin    = 1e-9
	tailAbsMargin = 1e-9
)

// tailTol is the relative violation below which a link-and-tail cut is not added.
const tailTol = 5e-4

// tailProgress is the relative rise of a node's bound below which a separation round
// ends the link-and-tail cuts of that node; maxTailRounds is the number of rounds
// that may add them. With every round solved from scratch, 3 rounds and 2e-4 were
// the best trade (on generator seed 3, 400 nodes: 3 rounds instead of 8 saved 28 %
// of the LPs and lowered the bound reached by 0.05 s of 257.4 s). Since a round
// starts from the previous one's tableau (warm.go: about 3 pivots against some 60),
// more rounds cost little: with 6 and 1e-5, five Table 6.3 seeds that take 9-35 s
// were proven in 0.94 of the time (0.82-1.03 per seed), and after 60 s seed 24 (m = 10) was
// at 1.56 % instead of 1.70 %, after 120 s m = 15 seed 3 at 1.55 % instead of 1.96 %
// (seed 2: 4.80 % against 4.77 %). Side by side, one thread each, GOGC=400.
const (
	tailProgress  = 1e-5
	maxTailRounds = 6
)

// addTails appends the rows of the link-and-tail cuts to the node LP nl of prefix seq
// (none at a leaf, whose LP stays the exact one of its sequence).
func (r *relax) addTails(nl *nodeLP, seq []int, tails []tailCut) {
	p := len(seq)
	if nl.tp < 0 {
		return
	}
	nv := len(nl.lp.C)
	for _, tc := range tails {
		if tc.from > p {
			continue
		}
		row := make([]float64, nv)
		row[nl.T] = 1
		rhs := -tc.margin
		if tc.release < 0 {
			row[p+tc.from] -= 1 // the start t_from (Tj(from) = p + from; t_p for from = p)
		} else {
			rhs += tc.release
		}
		for j := tc.from; j < p; j++ {
			row[j] -= tc.coef[r.mach(seq[j])] // α_j, part of the suffix load at depth from
		}
		for i, g := range tc.coef {
			row[nl.beta+i] -= g
		}
		nl.lp.Rows = append(nl.lp.Rows, row)
		nl.lp.Rel = append(nl.lp.Rel, ge)
		nl.lp.B = append(nl.lp.B, rhs)
	}
}

// tailSlack returns how far the LP point x of the node with prefix seq lies inside
// the cut tc (its row's left side less its right side).
func (r *relax) tailSlack(nl *nodeLP, seq []int, tc tailCut, x []float64) float64 {
	p := len(seq)
	v := x[nl.T] + tc.margin
	if tc.release < 0 {
		v -= x[p+tc.from]
	} else {
		v -= tc.release
	}
	for j := tc.from; j < p; j++ {
		v -= tc.coef[r.mach(seq[j])] * x[j]
	}
	for i, g := range tc.coef {
		v -= g * x[nl.beta+i]
	}
	return v
}

// tailStore keeps the link-and-tail cuts binding at each solved node's LP, by prefix,
// for its children (safe for concurrent use; a nil store keeps nothing). It only saves
// separation rounds: a missing entry costs LPs, never validity.
//
// Nodes with the same prefix share what is stored under it. That is sound only where
// their cuts rest on the same facts. A cut's count bound K and its release form rest
// on the machines the node takes as forced; with more machines than messages these
// include the machines a count split gave a message (relax.nodeForced), so the two
// halves of a split differ. A half's cut that counts on M_i taking a message would be
// wrong in the other half, where M_i takes none. So each entry records those machines
// (tailEntry.forced), a prefix keeps the latest entry per forced set (up to
// maxEntriesPerPrefix), and a node takes an entry only where each of its machines
// still takes a suffix message (storedTails). With m <= n no entry has any, and a
// prefix keeps one entry, its last node's.
type tailStore struct {
	mu sync.Mutex
	m  map[string][]tailEntry
}

// tailEntry is one node's binding link-and-tail cuts, with forced, the machines its
// count range alone forced (relax.countForced over the search's forced machines; nil
// for none).
type tailEntry struct {
	forced []bool
	tails  []tailCut
}

// maxTailEntries bounds the store; beyond, it starts again empty.
const maxTailEntries = 1 << 18

// maxEntriesPerPrefix bounds the entries of one prefix (one per forced set, the
// latest first).
const maxEntriesPerPrefix = 4

func tailKey(seq []int) string {
	b := make([]byte, 0, 2*len(seq))
	for _, v := range seq {
		b = append(b, byte(v), byte(v>>8))
	}
	return string(b)
}

func (ts *tailStore) get(seq []int) []tailEntry {
	if ts == nil {
		return nil
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.m[tailKey(seq)] // put never writes into a stored slice
}

func (ts *tailStore) put(seq []int, e tailEntry) {
	if ts == nil {
		return
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.m == nil || len(ts.m) >= maxTailEntries {
		ts.m = map[string][]tailEntry{}
	}
	key := tailKey(seq)
	out := []tailEntry{e}
	for _, old := range ts.m[key] {
		if len(out) < maxEntriesPerPrefix && !slices.Equal(old.forced, e.forced) {
			out = append(out, old)
		}
	}
	ts.m[key] = out
}

// storedTails returns the cuts stored for the prefix seq[:from] (the node's own, from
// = len(seq), or its parent's, from = len(seq) − 1) that hold at the node with prefix
// seq and load bounds lb: an entry holds when every machine its node took as forced by
// its count range still takes a suffix message after seq[:from] in every completion of
// this node (it is forced here too, or receives one of seq[from:]). A true ancestor's
// entry always holds; a sibling half's of a count split may not. Of the entries that
// hold, the one with the most such machines (the latest among equals) is taken: its
// cuts assume the most.
func (s *search) storedTails(seq []int, from int, lb *loads) []tailCut {
	now := s.rx.nodeForced(nil, lb)
	var best []tailCut
	most := -1
	for _, e := range s.tails.get(seq[:from]) {
		n, holds := 0, true
		for i, f := range e.forced {
			if !f {
				continue
			}
			n++
			if !now[i] && !slices.ContainsFunc(seq[from:], func(sym int) bool { return s.rx.mach(sym) == i }) {
				holds = false
				break
			}
		}
		if holds && n > most {
			best, most = e.tails, n
		}
	}
	return best
}

// bindingTails returns the cuts of tails that hold with (almost) no slack at x.
func (r *relax) bindingTails(nl *nodeLP, seq []int, tails []tailCut, x []float64) []tailCut {
	var out []tailCut
	for _, tc := range tails {
		if r.tailSlack(nl, seq, tc, x) <= tailTol*math.Max(1, math.Abs(x[nl.T])) {
			out = append(out, tc)
		}
	}
	return out
}

// separateTails returns the link-and-tail cuts violated at the LP point x of the node
// with prefix seq (min-time, a suffix): for every machine and for the machines with
// S_i >= θ, against t_p and against their release.
func (r *relax) separateTails(seq []int, nl *nodeLP, x []float64) []tailCut {
	if r.energy != nil || nl.tp < 0 {
		return nil
	}
	in := r.in
	rem := r.n - len(seq)
	K := float64(1 + max(nl.spare, 0))
	T, tp := x[nl.T], x[nl.tp]
	// cut returns the cut over A against release (< 0: t_p) and its violation at x.
	cut := func(A []bool, release float64) (tailCut, float64) {
		coef, val := r.tailCoef(A, x[nl.beta:nl.beta+r.m], K, float64(rem))
		if coef == nil {
			return tailCut{}, 0
		}
		ref := tp
		if release >= 0 {
			ref = release
		}
		margin := math.Max(tailAbsMargin, tailMargin*math.Abs(val))
		return tailCut{from: len(seq), release: release, coef: coef, margin: margin}, val - margin - (T - ref)
	}
	tol := tailTol * math.Max(1, math.Abs(T))
	var out []tailCut
	all := make([]bool, r.m)
	for i := range all {
		all[i] = true
	}
	if c, v := cut(all, -1); v > tol {
		out = append(out, c)
	}
	// Of the release forms, only the most violated one: each round adds few rows.
	var best tailCut
	bestV := tol
	seen := map[float64]bool{}
	for _, mc := range in.Machines {
		th := mc.S
		if seen[th] || th <= tp {
			continue
		}
		seen[th] = true
		// The release form divides by A's transfers Q_A: with Q_A = 0 it still says
		// T >= R_A, which holds only when some machine of A is used in every
		// completion (served in the prefix, or unserved and forced: it takes load).
		A := make([]bool, r.m)
		used := false
		for i, mk := range in.Machines {
			if mk.S >= th {
				A[i] = true
				_, forced := nl.s[i]
				used = used || forced || r.served(seq, i)
			}
		}
		if !used {
			continue
		}
		if c, v := cut(A, th); v > bestV {
			best, bestV = c, v
		}
	}
	if best.coef != nil {
		out = append(out, best)
	}
	return out
}

// tailCoef returns the coefficients g_i C_i (on β_i) of the link-and-tail cut over the
// machines of A, tangent at the suffix loads beta, and its right side there; nil when
// A's suffix takes no link time at beta.
//
// The machine terms are taken in their perspective form. A machine with suffix load
// takes at least one suffix message, k_i >= 1, so v_i Q_i² = v_i Q_i²/min(1, k_i) in
// every completion, and Σ_i [v_i max(Q_i², Q_i²/k_i) + u_i Q_i²/k_i] is convex in
// (Q, k) (a maximum and a sum of quadratic-over-linear terms). With prices μ_i = λ +
// ν_i on the counts, as above, and x_i = Q_i/Q,
//
//	(T − t_p) >= ½Q + Q Σ_i φ_i(Q_i/Q) − (λB + KΣ_i ν_i)Q,
//	φ_i(x) = min_{k>0} v_i max(x², x²/k) + u_i x²/k + μ_i k,
//
// and Q φ_i(Q_i/Q), the perspective of a convex function, lies above its tangent
// plane at any point. Without the perspective the v_i term let the node LP spread a
// suffix over more machines than it has messages at no cost in the cut: m identical
// machines at Q/m each were charged v Q²/m, though at most B = n − p of them can be
// used (v Q²/B with the perspective, whatever the spread).
func (r *relax) tailCoef(A []bool, beta []float64, K, B float64) ([]float64, float64) {
	in := r.in
	m := r.m
	x := make([]float64, m)
	Q := 0.0
	for i, mc := range in.Machines {
		if A[i] {
			x[i] = mc.C * math.Max(beta[i], 0)
			Q += x[i]
		}
	}
	if !(Q > 1e-12) {
		return nil, 0
	}
	terms := make([]chunkTerm, 0, m)
	idx := make([]int, 0, m)
	for i, mc := range in.Machines {
		if !A[i] {
			continue
		}
		x[i] /= Q
		terms = append(terms, chunkTerm{v: (mc.C + mc.A1) / (2 * mc.C), u: mc.A1 / (2 * mc.C), x: x[i]})
		idx = append(idx, i)
	}
	lam := chunkPrice(terms, K, B)
	common := 0.5 - lam*B
	dphi := make([]float64, m)
	for k, t := range terms {
		nu := math.Max(0, t.u*t.x*t.x/(K*K)-lam)
		phi, d := t.value(lam + nu)
		common += phi - t.x*d - K*nu
		dphi[idx[k]] = d
	}
	coef := make([]float64, m)
	val := 0.0
	for _, i := range idx {
		mc := in.Machines[i]
		coef[i] = (common + dphi[i]) * mc.C
		val += coef[i] * beta[i]
	}
	return coef, val
}

// chunkTerm is one machine's term of the link-and-tail bound (tailCoef): v max(x²,
// x²/k) + u x²/k for its share x of the suffix's transfers in k messages.
type chunkTerm struct{ v, u, x float64 }

// count returns the k >= 0 that minimises the term plus μk (+Inf for μ = 0 and x > 0).
func (t chunkTerm) count(mu float64) float64 {
	if t.x <= 0 {
		return 0
	}
	if mu <= 0 {
		return math.Inf(1)
	}
	if k := t.x * math.Sqrt((t.u+t.v)/mu); k <= 1 {
		return k
	}
	if k := t.x * math.Sqrt(t.u/mu); k >= 1 {
		return k
	}
	return 1
}

// value returns φ(x) = min_k [v max(x², x²/k) + u x²/k + μk] and its derivative in x
// (by the envelope theorem, that of the term at the minimising k).
// The three cases are those of count: the minimising k below 1, above 1, or 1.
func (t chunkTerm) value(mu float64) (phi, dphi float64) {
	if mu <= 0 {
		return t.v * t.x * t.x, 2 * t.v * t.x
	}
	if t.x*math.Sqrt((t.u+t.v)/mu) <= 1 {
		s := 2 * math.Sqrt((t.u+t.v)*mu)
		return s * t.x, s
	}
	if t.x*math.Sqrt(t.u/mu) >= 1 {
		s := 2 * math.Sqrt(t.u*mu)
		return t.v*t.x*t.x + s*t.x, 2*t.v*t.x + s
	}
	return (t.u+t.v)*t.x*t.x + mu, 2 * (t.u + t.v) * t.x
}

// chunkPrice returns the multiplier λ >= 0 of Σ k_i <= B in min Σ_i term_i(k_i) over
// 0 <= k_i <= K (chunkTerm): the k_i of λ fall as it grows, and λ = 0 when every k_i =
// K fits. Any λ >= 0 gives a valid cut; the right one gives the tangent.
func chunkPrice(terms []chunkTerm, K, B float64) float64 {
	count := func(lam float64) float64 {
		s := 0.0
		for _, t := range terms {
			s += math.Min(K, t.count(lam))
		}
		return s
	}
	n := 0.0
	hi := 0.0
	for _, t := range terms {
		if t.x > 0 {
			n++
			hi = math.Max(hi, (t.u+t.v)*t.x*t.x)
		}
	}
	if n == 0 || n*K <= B {
		return 0
	}
	// At λ = hi·n²/B² every k_i <= x_i·sqrt((u_i+v_i)/λ) <= B/n.
	lo, up := 0.0, hi*n*n/(B*B)+1e-300
	for range 100 {
		mid := (lo + up) / 2
		if mid <= lo || mid >= up {
			break
		}
		if count(mid) > B {
			lo = mid
		} else {
			up = mid
		}
	}
	return up
}
