package dltbb

import "math"

// Count branching (issue 26): a second way to split a node besides choosing its next
// message.
//
// Every completion of a prefix sends a whole number k_i of its n − p suffix messages
// to each machine M_i. The node LP only knows k_i >= β_i/β̄_i and Σ k_i <= n − p, with
// k_i continuous, and the rows k_i·O_i + (C_i + a_1i)β_i and k_i(O_i + b_2i) +
// (C_i + a_2i)β_i (the perspective of (3.1) in (β_i, k_i)). For one machine alone that
// is exact: it is the convex envelope of the integer-k cost. What it loses is the
// coupling: on the RAM-bound generator seeds (2 and 4 of the §6.4 generator, m = 10,
// n = 12) the LP gives two or three machines 2.4-2.6 messages each, which lets every
// one of them compute in core at the price of half a message's overhead, and the
// bound stays 0.7-0.9 % below the optimum however deep the sequence branching goes.
//
// A node whose LP has a fractional k_i is therefore split in two, as a MIP branches
// on an integer variable: k_i <= ⌊k_i⌋ and k_i >= ⌈k_i⌉. The two nodes keep the
// prefix and partition its completions, so the search stays exact; both carry the
// new count range in their loads (loads.kLo, loads.kHi), which their sequence
// children inherit shifted by the message they add (loads.child). A split is kept only
// when it raises the bound on both sides (minSplitGain), and a node is split at most
// maxSplits times in a row before its next message is branched on, so that the
// sequence branching, which also decides the order, keeps going.
//
// With more machines than messages (min-time), a machine without a count column,
// whose count is β_i/β̄_i in the LP, is split the same way: k_i = 0 (no suffix load)
// against k_i >= 1, which makes it forced for the node (nodeForced: a first-message
// column, the sequencing cuts, one message of the count). There the bound misses
// which machines are used at all; on generator seed 2 with m = 15 (gap 1 %, 120 s of
// CPU) the bound ends 2.65 % below the best schedule instead of 4.13 %. With at most as
// many machines as messages a machine already served in the prefix is split instead,
// the side k_i >= 1 counting it as one whole suffix message (splitsUse).
//
// Nodes pick their split after their load bounds (tighten); min-energy ones did so
// when their parent solved them until the min-energy search had load bounds too.
// Measured on the §6.4 generator (m = 10, n = 12, one
// thread, 60 s of CPU): seed 4 proven in 4.8-7.5 s (1.61 % open without), seed 1 in
// 6 s (41 s), seed 6 in 6 s (36 s); seed 2, whose gap is the order of its messages on
// the link, does worse (1.62 % against 1.49 %).

// maxSplits is the number of count splits in a row on one prefix.
const maxSplits = 3

// minSplitFraction is the smallest distance of k_i from an integer that is split.
const minSplitFraction = 0.05

// countRange returns the range of the number of suffix messages to M_i in every
// completion of the node: [0, +Inf) (as math.MaxInt) when lb carries none.
func (lb *loads) countRange(i int) (lo, hi int) {
	if lb == nil || lb.kHi == nil {
		return 0, math.MaxInt
	}
	return lb.kLo[i], lb.kHi[i]
}

// child returns the load bounds of the child that sends its next message to M_i:
// the same load bounds (the child's suffix is part of the parent's), and M_i's count
// range one lower. ok is false when the parent's range leaves M_i no message.
func (lb *loads) child(i int) (out *loads, ok bool) {
	if lb == nil || lb.kHi == nil {
		return lb, true
	}
	if lb.kHi[i] <= 0 {
		return nil, false
	}
	out = &loads{max: lb.max, kLo: append([]int(nil), lb.kLo...), kHi: append([]int(nil), lb.kHi...), floor: lb.floor}
	out.kLo[i] = max(0, out.kLo[i]-1)
	out.kHi[i]--
	return out, true
}

// withCount returns lb with M_i's count range intersected with [lo, hi]; rem is the
// number of suffix messages (the range of a machine without one).
func (lb *loads) withCount(i, lo, hi, rem int, m int) *loads {
	out := &loads{kLo: make([]int, m), kHi: make([]int, m)}
	if lb != nil {
		out.max, out.floor = lb.max, lb.floor
	}
	for k := range m {
		out.kLo[k], out.kHi[k] = lb.countRange(k)
		out.kHi[k] = min(out.kHi[k], rem)
	}
	out.kLo[i] = max(out.kLo[i], lo)
	out.kHi[i] = min(out.kHi[i], hi)
	return out
}

// pickSplit returns the machine (plus one) whose message count in the node LP's
// solution x (the node with prefix seq and load bounds lb) the pseudo-costs rank
// first (splitCosts), and its value, or 0 when every count is within
// minSplitFraction of an integer (or count branching is off).
func (s *search) pickSplit(seq []int, ms *machineSet, lb *loads, x []float64) (int, float64) {
	r := s.rx
	if x == nil || len(seq) >= r.n || s.opt.NoCountSplit || !ms.complete(r.m) {
		return 0, 0
	}
	forced := r.nodeForced(ms, lb)
	betaMax := r.nodeBetaMax(lb)
	p := len(seq)
	nt := p + 1
	beta := 2*p + nt + 1 // the column of β_0 (buildWith)
	_, kCol, _ := r.suffixColumns(seq, forced, betaMax, beta+r.m)
	best, at, score := 0, 0.0, 0.0
	for i := range r.m {
		var k float64
		if c, ok := kCol[i]; ok && c < len(x) {
			k = x[c]
		} else if r.splitsUse(seq, forced, lb, betaMax, i) {
			k = math.Min(1, x[beta+i]/betaMax[i])
		} else {
			continue
		}
		down, up := k-math.Floor(k), math.Ceil(k)-k
		if math.Min(down, up) <= minSplitFraction {
			continue
		}
		if sc := s.costs.score(i, down, up); sc > score {
			best, at, score = i+1, k, sc
		}
	}
	return best, at
}

// splitCosts are the pseudo-costs of the count splits, as MIP solvers keep them for
// their branching variables: for every machine M_i and side (0, down: k_i <= ⌊k⌋;
// 1, up: k_i >= ⌈k⌉), the mean relative rise of the node bound per unit of the
// distance the split moved k_i, over the splits made so far (a pruned side rises to
// the target). pickSplit takes the machine whose predicted rises have the largest
// product. A machine without a history on a side is predicted by the mean of the
// others, and by 1 when there is none: the first splits go to the most fractional
// count, as before the pseudo-costs. Each search (each worker of the parallel tree)
// keeps its own.
//
// Measured on the §6.4 generator (m = 10, n = 12, 0.2 %, one thread): over seeds
// 1-90 the 88 proven within 120 s of CPU took 3.6 % fewer LPs (4.80 against 4.98
// million); run to the end, seed 50 is proven in 1.55 million LPs and 161 s of CPU
// instead of 212 s, seed 63 in the same 150 s. (Gaps after a CPU budget were
// compared too, but they move with the load of the other core.) Strong branching on
// the first splits of each machine (up to four candidates, each with both sides
// solved, until a machine has four splits per side) was tried on top: seeds 37 and
// 41 took 13-22 % more LPs, and the open seeds gained nothing; not kept.
type splitCosts struct {
	sum [2][]float64
	n   [2][]int
}

// score is the product of the predicted relative rises of M_i's split, whose sides
// move k_i by down and up.
func (c *splitCosts) score(i int, down, up float64) float64 {
	return math.Max(c.rate(0, i)*down, splitScoreEps) * math.Max(c.rate(1, i)*up, splitScoreEps)
}

// splitScoreEps keeps a side that never rose from zeroing its machine's product, so
// that the other side still ranks it.
const splitScoreEps = 1e-6

// rate is the pseudo-cost of side d of M_i.
func (c *splitCosts) rate(d, i int) float64 {
	if c.n[d] == nil {
		return 1
	}
	if c.n[d][i] > 0 {
		return c.sum[d][i] / float64(c.n[d][i])
	}
	var sum float64
	var n int
	for k := range c.n[d] {
		if c.n[d][k] > 0 {
			sum += c.sum[d][k] / float64(c.n[d][k])
			n++
		}
	}
	if n == 0 {
		return 1
	}
	return sum / float64(n)
}

// add records the relative rise of side d of a split on M_i (of m machines) that
// moved k_i by dist; a fall (the side's LP stopped short) counts as no rise.
func (c *splitCosts) add(m, d, i int, rise, dist float64) {
	if c.n[d] == nil {
		c.sum[d], c.n[d] = make([]float64, m), make([]int, m)
	}
	c.sum[d][i] += math.Max(0, rise) / dist
	c.n[d][i]++
}

// splitsUse reports whether a node may be split on whether M_i, which has no count
// column, takes a suffix message at all (k_i = 0 against k_i >= 1), at its count
// β_i/β̄_i in the LP (min-time). On the side k_i >= 1 an unserved machine becomes
// forced (nodeForced) and a served one counts as a whole suffix message (buildWith).
//
//   - Unserved machines only with more machines than messages: there the bound misses
//     which machines are used, and the LP spreads the suffix load over more machines
//     than it has messages. (With m = 10 such splits were tried on every node:
//     generator seed 5 took 33.1 s instead of 19.9 s.)
//   - Served machines only with at most as many machines as messages: deep in the
//     tree the LP moves load from a served machine's prefix chunk to a fraction of
//     a suffix message on it (at the same rate, for a fraction of the message), so
//     that a few suffix messages are spread over many machines. Along generator
//     seed 50's best sequence (m = 10) at depth 9, three messages were shared out
//     among six machines. With m > n they made the searches slower (120 s of CPU:
//     m = 20 seed 2 at 1.88 % instead of 1.51 %, m = 15 seed 2 1.30 % against 1.25 %).
func (r *relax) splitsUse(seq []int, forced []bool, lb *loads, betaMax []float64, i int) bool {
	if r.energy != nil || r.noUseSplit || forced[i] || betaMax[i] <= minBetaMax {
		return false
	}
	if r.served(seq, i) != (r.m <= r.n) {
		return false
	}
	_, hi := lb.countRange(i)
	return hi > 0
}

// split replaces the open node it by its two count children (k_i <= ⌊k⌋ and
// k_i >= ⌈k⌉ for the machine and value that it.splitOn and it.splitAt record), each
// with its LP solved, and returns those that stay open below the target. When both
// stay open and one of them does not raise the bound by minSplitGain, it returns it
// itself, to be branched on its next message.
func (s *search) split(it item) []item {
	i, k := it.splitOn-1, it.splitAt
	rem := s.in.N - len(it.seq)
	var out []item
	gained := true
	for d, side := range [2][2]int{{0, int(math.Floor(k))}, {int(math.Ceil(k)), rem}} {
		lb := it.lb.withFloor(it.bound).withCount(i, side[0], side[1], rem, s.rx.m)
		x, b, cuts, ok, lps, err := s.solveNode(it.seq, it.cuts, it.ms, lb, s.target(), nil)
		s.res.LPs += lps
		child := item{seq: it.seq, bound: it.bound, cuts: it.cuts, ms: it.ms, lb: lb, tight: true, splits: it.splits + 1}
		dist := [2]float64{k - math.Floor(k), math.Ceil(k) - k}[d]
		switch {
		case err != nil:
			s.res.Failed++ // the parent's bound and cuts still hold
		case !ok || b >= s.target():
			s.costs.add(s.rx.m, d, i, (s.target()-it.bound)/math.Abs(it.bound), dist)
			s.res.Pruned++
			continue
		default:
			s.costs.add(s.rx.m, d, i, (b-it.bound)/math.Abs(it.bound), dist)
			gained = gained && b > it.bound+minSplitGain*math.Abs(it.bound)
			child.bound, child.cuts = math.Max(b, it.bound), cuts
			if child.splits < maxSplits {
				child.splitOn, child.splitAt = s.pickSplit(it.seq, it.ms, lb, x)
			}
		}
		out = append(out, child)
	}
	if len(out) == 2 && !gained {
		// A side kept the node's bound: the split would only double the nodes.
		// Branch on the next message instead (the two LPs are lost).
		it.splitOn = 0
		return []item{it}
	}
	s.res.Splits++
	return out
}

// minSplitGain is the relative rise of the node bound that both sides of a split must
// reach (or be pruned) for the split to be kept. Splits that raise neither side
// only double the nodes: on generator seed 2 (60 s of CPU, one thread) splitting
// always left a gap of 2.43 %, a rise of 1e-4 required 1.94 %, 1e-3 1.62 %, against
// 1.49 % without count branching; seeds 1, 4, 5 and 9 were proven in the same time
// with 1e-4, 1e-3 or 3e-3 (6-38 s).
const minSplitGain = 1e-3
