package dltbb

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"sync"
	"time"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
)

// Options control a search.
type Options struct {
	// Gap is the relative gap (UB − LB)/UB at which the search stops with a proof; 0
	// searches to optimality (up to the LP tolerances).
	Gap float64
	// Starts are machine sequences (n entries each) whose LP schedules seed the
	// incumbent; the local search improves the best of them.
	Starts [][]int
	// NoLocalSearch skips the improvement of the starts.
	NoLocalSearch bool
	// Threads is the number of goroutines of the search (<= 1: one). On one thread
	// the tree is explored best-first with dives, in a fixed order. With more, they
	// share out the LPs of the starts' local search and of the root's dive, and then
	// explore the tree in parallel (tree.go): each takes the open node with the
	// smallest bound from a shared queue and expands it alone, with a shared
	// incumbent. The optimum, within Gap, and the validity of Bound do not depend on
	// the threads; the tree, the node and LP counts and, among schedules within the
	// gap, the schedule found do (they vary from run to run).
	Threads int
	// NoCuts leaves out the sequencing cuts of the node LPs (for comparison).
	NoCuts bool
	// NoTighten leaves out the node load bounds of tightenLoads (for comparison).
	NoTighten bool
	// NoLinkTail leaves out the link-and-tail cuts of linktail.go (for comparison).
	NoLinkTail bool
	// NoExcessCut leaves out the excess chord of min-energy's node LPs (for
	// comparison): X_i <= β_i x̄_i/(ρ_i + x̄_i) for the out-of-core excess X_i of a
	// machine with a concave g_i (energy.go, excessMax).
	NoExcessCut bool
	// NoCountSplit leaves out the count branching of counts.go (for comparison).
	NoCountSplit bool
	// NoUseRows leaves out the used-machine rows of the node LPs (relax.useRows, for
	// comparison).
	NoUseRows bool
	// NoUseSplit leaves out the count splits on whether a machine without a count
	// column takes a suffix message at all (relax.splitsUse: unserved machines when
	// there are more machines than messages, served ones otherwise), for comparison.
	NoUseSplit bool
	// MaxNodes, when positive, stops the search after that many node expansions,
	// as a time limit does (best schedule and bound so far): a fixed amount of work
	// for benchmarks, which a time limit on a shared machine is not.
	MaxNodes int
	// Log, when set, receives one progress line every LogEvery.
	Log      io.Writer
	LogEvery time.Duration
}

// Result is the outcome of a search.
type Result struct {
	Feasible bool // a schedule was found
	Optimal  bool // the search finished: Objective is within Gap of the optimum
	// Objective is the best schedule's objective by the evaluator: its length T for
	// min-time, its energy E for min-energy.
	Objective float64
	T         float64     // the best schedule's length (the makespan, or the fixed length)
	E         float64     // the best schedule's energy, by the evaluator
	Bound     float64     // a proven lower bound on the optimal objective (Objective·(1 − Gap) when the tree is exhausted)
	Schedule  dm.Schedule // the best schedule (n messages)
	Sequence  []int       // its machine sequence
	Nodes     int         // nodes expanded
	LPs       int         // linear programs solved
	Pruned    int         // children pruned by bound, count or symmetry
	Failed    int         // node LPs the solver failed on (kept open with the parent's bound)
	Splits    int         // nodes split on a message count (counts.go)
	// Uncertified counts leaves whose LP point the solver could not certify optimal
	// (its bound lies below the point's value); the final bound is capped at theirs.
	Uncertified int
}

// Errors of Solve.
var (
	ErrUnsupported = errors.New("dltbb: only min-time without an energy limit or fixed length, and min-energy without an energy limit")
)

// Solve searches the message sequences of a min-time instance, or of a min-energy
// instance (length fixed to, or bounded by, the deadline; see energy.go). It returns
// when the tree is exhausted (Optimal), or when ctx is done with the best schedule and
// bound so far (not an error). Infeasibility (a deadline no sequence meets) is
// Feasible = false with Optimal = true.
func Solve(ctx context.Context, in *dm.Instance, solver LPSolver, opt Options) (*Result, error) {
	if !Applies(in) {
		return nil, ErrUnsupported
	}
	if err := in.Validate(); err != nil {
		return nil, fmt.Errorf("dltbb: %w", err)
	}
	rx := opt.relax(in)
	s := &search{in: in, solver: solver, rx: rx, res: &Result{Objective: math.Inf(1), T: math.Inf(1), E: math.Inf(1), Bound: rx.lowerBound()},
		opt: opt, failedBound: math.Inf(1), tails: &tailStore{}}
	if rx.energy != nil {
		rx.setTarget(rx.deadline) // forced machines and load bounds of T <= deadline
	}
	for _, seq := range opt.Starts {
		if len(seq) != in.N {
			continue
		}
		if _, err := s.leaf(seq); err != nil {
			return nil, err
		}
	}
	// The starts' best bounds the time columns of every later node LP (LP.U), which
	// their dual bounds need.
	s.retarget()
	if !opt.NoLocalSearch && s.res.Feasible {
		if err := s.improve(ctx); err != nil {
			return nil, err
		}
	}
	s.retarget()
	if err := s.run(ctx); err != nil {
		return nil, err
	}
	return s.res, nil
}

type search struct {
	// failedBound is the smallest parent bound of a leaf whose LP failed.
	failedBound float64
	in          *dm.Instance
	solver      LPSolver
	rx          *relax
	res         *Result
	opt         Options
	seq         []int // the incumbent's symbol sequence
	// sh is set on the workers of the parallel tree search (tree.go): the queue and
	// the incumbent they share. res then holds the worker's counters (added to the
	// shared result under its lock) and a copy of the shared incumbent's objective as
	// of the worker's last look, which is never below the shared one (so its target
	// prunes less, never wrongly). nil on one thread.
	sh *shared
	// tails are the link-and-tail cuts of the solved nodes (linktail.go), shared by
	// the workers of the parallel tree search; nil: none are passed on.
	tails *tailStore
	// diveAt is the first node number at which the next dive may run, diveStride the
	// interval that set it (dived); zero before the first dive.
	diveAt, diveStride int
	// costs are the pseudo-costs of the count splits (counts.go), the search's own.
	costs splitCosts
	// tightens counts, per depth, the nodes offered their load bounds and those
	// that got them and were pruned by them (tightenPays), the search's own.
	tightens []tightenCount
}

// retarget tightens the forced machines and load bounds to the target (min-time; for
// min-energy they follow from the deadline, set once).
func (s *search) retarget() {
	if s.rx.energy == nil {
		s.rx.setTarget(s.target())
	}
}

// target is UB·(1 − gap): only schedules shorter than it still matter.
func (s *search) target() float64 {
	if !s.res.Feasible {
		return math.Inf(1)
	}
	return s.res.Objective * (1 - s.opt.Gap)
}

// relax returns the relaxation of in with the switches of opt that it reads.
func (opt Options) relax(in *dm.Instance) *relax {
	rx := newRelax(in)
	rx.noExcessCut = opt.NoExcessCut
	rx.noUseRows = opt.NoUseRows
	rx.noUseSplit = opt.NoUseSplit
	return rx
}

// lpBoundSlack is the relative amount taken off every node LP's optimum before it is
// used as a bound: a safety margin against a simplex that stops a little short of the
// optimum (Simplex has been seen 1.8e-5 above the Bland's-rule reference on a tiny
// instance with identical machines). It costs 0.01 % of T in pruning power.
const lpBoundSlack = 1e-4

// maxCutRounds bounds the separation rounds of one node LP.
const maxCutRounds = 10

// solve runs one node LP with the sequencing cuts inherited from the parent (those
// whose machines are all still unserved), then separates new ones: the unserved forced
// machines sorted by their first-message start in the LP solution, each leading
// subset of that order, and of the machines with S_i >= θ for every θ. ok is false
// when the LP is infeasible. cuts are the subsets the final LP holds.
func (s *search) solve(seq []int, inherited [][]int, ms *machineSet) (x []float64, bound float64, cuts [][]int, ok bool, err error) {
	x, bound, cuts, ok, lps, err := s.solveCounted(seq, inherited, ms, nil)
	s.res.LPs += lps
	return x, bound, cuts, ok, err
}

// solveCounted is solve without touching the result: it also returns the number of
// LPs it ran, and is safe to call from several goroutines.
// lb are the node's load bounds (tightenLoads; nil: the search's).
func (s *search) solveCounted(seq []int, inherited [][]int, ms *machineSet, lb *loads) (x []float64, bound float64, cuts [][]int, ok bool, lps int, err error) {
	return s.solveNode(seq, inherited, ms, lb, math.Inf(1), nil)
}

// nodeFinal is what solveNode hands over of an open node when asked: its last LP,
// the warm start that holds that LP's optimal tableau, and the loads the LP was
// built with. The receiver releases it.
type nodeFinal struct {
	nl   *nodeLP
	warm *warmStart
	lb   *loads
}

// release hands f's LP rows and tableau back for reuse.
func (f *nodeFinal) release() {
	if f.nl != nil {
		f.nl.release()
		f.warm.release()
		f.nl, f.warm = nil, nil
	}
}

// solveNode is solveCounted with a cutoff (+Inf for none): a value at or above the
// target such that the caller drops the node, and reads no point, once its bound
// reaches it. Its LPs get it as their LP.Cutoff, and a node whose bound reaches it
// may come back without x (with the bound and ok set). The search gives its inner
// children the target (not the leaves, whose point is an incumbent, nor the dives,
// which follow the smallest bound, pruned or not), and the local search's
// neighbours the length they must beat. With final, a node that stays open hands
// its last LP over to it (nodeFinal) instead of releasing it.
func (s *search) solveNode(seq []int, inherited [][]int, ms *machineSet, lb *loads, cutoff float64, final *nodeFinal) (x []float64, bound float64, cuts [][]int, ok bool, lps int, err error) {
	for _, A := range inherited {
		keep := true
		for _, i := range A {
			keep = keep && !s.rx.served(seq, i)
		}
		if keep {
			cuts = append(cuts, A)
		}
	}
	var tails []tailCut
	link := !s.opt.NoLinkTail && s.rx.energy == nil && len(seq) < s.in.N
	if link && len(seq) > 0 {
		// The parent's binding cuts, clipped: the rounds append to them, and the
		// siblings (on other goroutines) share the stored array.
		tails = slices.Clip(s.storedTails(seq, len(seq)-1, lb))
	}
	sepTails, prev := link, math.Inf(-1)
	warm := &warmStart{}
	// The last round's LP, the loads it was built with and the cuts it holds: a round
	// that only adds cuts appends their rows to it instead of building the LP again.
	var nl *nodeLP
	var builtWith *loads
	defer func() {
		if nl != nil {
			nl.release() // only its point, bound and cuts leave
			warm.release()
		}
	}()
	nCuts, nTails := 0, 0
	for round := 0; ; round++ {
		if nl != nil && builtWith == lb {
			nl = s.rx.extended(nl, seq, cuts, cuts[nCuts:], tails[nTails:])
		} else {
			nl = s.rx.buildWith(seq, cuts, ms, lb)
			s.rx.addTails(nl, seq, tails)
		}
		builtWith, nCuts, nTails = lb, len(cuts), len(tails)
		nl.lp.warm = warm
		if !math.IsInf(cutoff, 1) {
			// A little above, so that the bound still reaches it after lpBoundSlack
			// is taken off.
			nl.lp.Cutoff, nl.lp.HasCutoff = cutoff+2*lpBoundSlack*math.Abs(cutoff)-nl.konst, true
		}
		lps++
		var obj float64
		x, obj, err = s.solver(nl.lp)
		if errors.Is(err, ErrInfeasible) {
			return nil, 0, nil, false, lps, nil
		}
		if err != nil {
			return nil, 0, nil, false, lps, fmt.Errorf("dltbb: node LP %v: %w", seq, err)
		}
		// The solver's objective, not x's: a certifying solver returns the certified
		// lower bound, which may lie a little below x's value.
		bound := obj + nl.konst
		bound -= lpBoundSlack * math.Abs(bound)
		target := s.target()
		if bound >= target || x == nil && bound >= cutoff {
			// Pruned whatever more cuts would add: every caller drops a node
			// whose bound reaches the target (and a full sequence has no cuts).
			return x, bound, cuts, true, lps, nil
		}
		if x == nil {
			return nil, 0, nil, false, lps, fmt.Errorf("dltbb: node LP %v: no point, and a bound %g below the target %g", seq, bound, target)
		}
		added := false
		// A round that raised the bound by less than 1/roundHope of the way left to
		// the target: more rounds are unlikely to prune the node (see roundHope).
		// Without a target (no schedule yet) the rounds go on as before.
		hopeless := round >= 1 && !math.IsInf(target, 1) && target-bound > roundHope*(bound-prev)
		if round < maxCutRounds && !hopeless {
			added = len(nl.s) >= 2 && !s.opt.NoCuts && s.separate(seq, nl, x, &cuts)
			// The tangents of the link-and-tail bound converge slowly: stop adding
			// them after maxTailRounds, or once a round raises the bound by less
			// than tailProgress.
			sepTails = sepTails && round < maxTailRounds && bound > prev+tailProgress*math.Abs(bound)
			prev = bound
			if sepTails {
				if more := s.rx.separateTails(seq, nl, x); len(more) > 0 {
					tails, added = append(tails, more...), true
				}
			}
		}
		if !added && !hopeless && round < maxCutRounds && s.rx.raisesFloor(seq, lb, bound) {
			// The root's used-machine rows hold with its own bound as their floor:
			// solve again with it (a higher floor tightens them).
			lb, added = lb.withFloor(bound), true
		}
		if !added {
			if link {
				s.tails.put(seq, tailEntry{forced: s.rx.countForced(s.rx.forced, lb), tails: s.rx.bindingTails(nl, seq, tails, x)})
			}
			if final != nil {
				final.nl, final.warm, final.lb = nl, warm, builtWith
				nl = nil // the receiver releases it
			}
			return x, bound, cuts, true, lps, nil
		}
	}
}

// roundHope: the cut rounds of a node stop once the last one raised its bound by
// less than 1/roundHope of the way left to the target. On generator seed 24's
// first 3,000 nodes the rounds raised the node bounds by 0.5-1.2 % on average, but
// of the 19,149 nodes whose first LP was 2-5 % below the target only 723 reached it,
// after 6.7 LPs each; this rule would have saved 49 % of all node LPs and lost 504
// of 10,441 prunes (those nodes are pruned later, after their load bounds).
const roundHope = 8

// separate appends the violated sequencing cuts at x to cuts.
func (s *search) separate(seq []int, nl *nodeLP, x []float64, cuts *[][]int) bool {
	in := s.in
	alphaMin := nl.alphaMin
	var ms []int
	for i := range nl.s {
		ms = append(ms, i)
	}
	sort.Slice(ms, func(a, b int) bool {
		return x[nl.s[ms[a]]] < x[nl.s[ms[b]]] || x[nl.s[ms[a]]] == x[nl.s[ms[b]]] && ms[a] < ms[b]
	})
	spare := nl.spare
	violated := func(A []int) bool {
		lam, rhs, ok := s.rx.seqCut(A, spare, alphaMin)
		if !ok {
			return false
		}
		sum, lhsT, lhsR, rel := 0.0, 0.0, 0.0, math.Inf(1)
		for k, i := range A {
			sum += lam[k]
			rel = math.Min(rel, in.Machines[i].S)
		}
		for k, i := range A {
			lhsT += lam[k] * (x[nl.s[i]] - x[nl.tp])
			lhsR += lam[k] * (x[nl.s[i]] - rel)
		}
		tol := cutTol * math.Max(1, rhs)
		return lhsT < rhs-tol || lhsR < rhs-tol
	}
	seen := map[string]bool{}
	for _, A := range *cuts {
		seen[fmt.Sprint(A)] = true
	}
	added := false
	try := func(A []int) {
		key := fmt.Sprint(A)
		if seen[key] || !violated(A) {
			return
		}
		seen[key] = true
		*cuts = append(*cuts, append([]int(nil), A...))
		added = true
	}
	thresholds := []float64{math.Inf(-1)}
	for _, i := range ms {
		thresholds = append(thresholds, in.Machines[i].S)
	}
	for _, th := range thresholds {
		var A []int
		for _, i := range ms {
			if in.Machines[i].S >= th {
				A = append(A, i)
				if len(A) >= 2 {
					try(sortedCopy(A))
				}
			}
		}
	}
	return added
}

// cutTol is the relative violation below which a sequencing cut is not added.
const cutTol = 1e-6

func sortedCopy(A []int) []int {
	c := append([]int(nil), A...)
	sort.Ints(c)
	return c
}

// leaf solves a full sequence and offers its schedule as an incumbent (accept). It
// returns the schedule's objective (+Inf when infeasible or rejected).
func (s *search) leaf(seq []int) (float64, error) {
	x, _, _, ok, err := s.solve(seq, nil, nil)
	if err != nil || !ok {
		return math.Inf(1), nil // a start whose LP fails is only not used
	}
	v, _ := s.accept(seq, x)
	return v, nil
}

// accept makes the LP schedule of the full sequence seq the incumbent when the
// evaluator accepts it and its objective is lower. It returns the evaluator's
// objective of the schedule (+Inf if rejected) and whether it became the incumbent.
//
// On a worker of the parallel tree search (tree.go) the incumbent is the shared one,
// offered under its lock.
func (s *search) accept(seq []int, x []float64) (float64, bool) {
	sch := s.rx.schedule(seq, x)
	r := dm.Evaluate(s.in, sch, dm.EvalOptions{})
	if !r.OK() {
		return math.Inf(1), false
	}
	if s.sh != nil {
		return r.Objective, s.sh.offer(s, seq, sch, r)
	}
	return r.Objective, s.record(seq, sch, r)
}

// record makes sch (the schedule of seq, with the evaluator's report r) the incumbent
// when its objective is lower, and reports whether it did.
func (s *search) record(seq []int, sch dm.Schedule, r *dm.Report) bool {
	if r.Objective >= s.res.Objective {
		return false
	}
	s.res.Feasible, s.res.Objective, s.res.Schedule = true, r.Objective, sch
	s.res.T, s.res.E = r.T, r.E
	s.res.Sequence = s.rx.machines(seq)
	s.seq = append([]int(nil), seq...)
	return true
}

// checkLeaf caps the final bound at a leaf's bound when the LP solver could not
// certify its point: the sequence's LP optimum is then only known to be at least
// bound, and may lie below v, the value of the schedule x gives (which the search
// used). With a certified point, bound is v less lpBoundSlack and nothing happens.
//
// Min-time only: a min-energy leaf LP bounds the energy from below (the evaluator's E
// of its schedule may lie above it), so the comparison would not mean anything there.
func (s *search) checkLeaf(v, bound float64) {
	if s.rx.energy != nil || bound >= s.target() {
		return
	}
	if bound < v*(1-2*lpBoundSlack) {
		s.res.Uncertified++
		s.failedBound = math.Min(s.failedBound, bound)
	}
}

// child is one child of an expanded node and the outcome of its LP.
type child struct {
	seq   []int
	ms    *machineSet // the machine set (min-energy), nil for min-time
	x     []float64
	bound float64
	cuts  [][]int
	lb    *loads // the parent's load bounds (tightenLoads), nil for none
	// cut: the node is dropped, and its point not read, once its bound reaches
	// cutoff (solveNode).
	cut    bool
	cutoff float64
	// tightened holds the load bounds of an open child (tightenOpen), nil when
	// it did not get them with its LP.
	tightened *tightened
	ok        bool
	err       error
}

// tightened is the outcome of tightenOpen on a child: its load bounds and its min-T
// point, or ok false when no completion is below the target.
type tightened struct {
	lb *loads
	at *nodePoint
	ok bool
}

// tightensOpen reports whether the children of an expanded node get their load bounds
// with their LPs (tightenOpen): min-time, with load bounds (min-energy picks the
// nodes that get them when they come off the queue, tightenPays).
func (s *search) tightensOpen() bool {
	return s.rx.energy == nil && !s.opt.NoTighten
}

// evaluate solves the children's LPs on up to Options.Threads goroutines, and the
// load bounds of the inner ones their LPs leave open (tightenOpen). The relax and the
// solver are only read meanwhile; the LP count is summed afterwards.
func (s *search) evaluate(kids []child, cuts [][]int) {
	counts := make([]int, len(kids))
	s.parallel(len(kids), func(k int) {
		c := &kids[k]
		var final *nodeFinal
		cutoff := math.Inf(1)
		if c.cut {
			cutoff = c.cutoff
			// An inner child (expand's; the local search's neighbours are
			// leaves) gets its load bounds with its LP.
			if len(c.seq) < s.in.N && s.tightensOpen() {
				final = &nodeFinal{}
			}
		}
		c.x, c.bound, c.cuts, c.ok, counts[k], c.err = s.solveNode(c.seq, cuts, c.ms, c.lb, cutoff, final)
		if final != nil && final.nl != nil {
			lb, at, lps, ok := s.tightenOpen(final)
			final.release()
			counts[k] += lps
			c.tightened = &tightened{lb: lb, at: at, ok: ok}
		}
	})
	for _, c := range counts {
		s.res.LPs += c
	}
}

// parallel runs do(0), ..., do(count−1) on up to Options.Threads goroutines and
// returns when all are done. Each do(k) may write only its own results; the search
// reads them afterwards in index order, so that what it does with them does not
// depend on the threads. (It shares out the LPs of the starts' local search and the
// root's dive; the workers of the parallel tree search run with one thread each.)
func (s *search) parallel(count int, do func(k int)) {
	threads := min(max(1, s.opt.Threads), count)
	if threads <= 1 {
		for k := range count {
			do(k)
		}
		return
	}
	work := make(chan int)
	var wg sync.WaitGroup
	for range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range work {
				do(k)
			}
		}()
	}
	for k := range count {
		work <- k
	}
	close(work)
	wg.Wait()
}

// improve is a best-improvement local search from the incumbent's sequence over its
// neighbours (one message to another machine, two messages swapped, one message
// moved), each solved by its LP, until no neighbour is shorter or ctx is done.
func (s *search) improve(ctx context.Context) error {
	_, err := s.descend(ctx, s.seq, s.res.Objective)
	return err
}

// descend is the local search of improve from any sequence cur of length curT: it
// moves to the best neighbour while that is shorter, offering every neighbour as an
// incumbent, and returns the local optimum's length.
func (s *search) descend(ctx context.Context, start []int, curT float64) (float64, error) {
	n, syms := s.in.N, s.rx.symbols()
	cur := append([]int(nil), start...)
	for ctx.Err() == nil {
		var kids []child
		// Only a neighbour shorter than cur matters: the others' LPs stop there.
		add := func(c []int) { kids = append(kids, child{seq: c, cut: true, cutoff: curT}) }
		for j := range n {
			for _, i := range syms {
				if i != cur[j] {
					c := append([]int(nil), cur...)
					c[j] = i
					add(c)
				}
			}
		}
		for a := range n {
			for b := a + 1; b < n; b++ {
				if cur[a] != cur[b] {
					c := append([]int(nil), cur...)
					c[a], c[b] = c[b], c[a]
					add(c)
				}
			}
		}
		for a := range n {
			for b := range n {
				if a != b && a != b+1 {
					c := append(append([]int(nil), cur[:a]...), cur[a+1:]...)
					c = append(c[:b], append([]int{cur[a]}, c[b:]...)...)
					add(c)
				}
			}
		}
		s.evaluate(kids, nil)
		next, nextT := []int(nil), curT*(1-1e-9)
		for _, k := range kids {
			if k.err != nil || !k.ok || k.x == nil {
				continue // a neighbour whose LP failed is only not tried (nor one cut off)
			}
			if t, _ := s.accept(k.seq, k.x); t < nextT {
				next, nextT = k.seq, t
			}
		}
		if next == nil {
			return curT, nil
		}
		cur, curT = next, nextT
	}
	return curT, nil
}

// item is an open node: a prefix and its bound.
type item struct {
	seq   []int
	bound float64
	cuts  [][]int
	ms    *machineSet // min-energy: the machines decided used or not; nil for min-time
	lb    *loads      // load bounds of the subtree (tightenLoads), nil for none yet
	// tight: the node's load bounds are settled: tightenLoads ran on it, or it was
	// not worth it at its depth (tightenPays) and its parent's stand.
	tight bool
	// splitOn is the machine (plus one) whose message count the node is split on
	// before its children are solved (counts.go), at the LP's value splitAt; 0 for
	// none. splits counts the splits in a row that led to the node.
	splitOn int
	splitAt float64
	splits  int
}

type queue []item

func (q queue) Len() int { return len(q) }
func (q queue) Less(a, b int) bool {
	return q[a].bound < q[b].bound || q[a].bound == q[b].bound && len(q[a].seq) > len(q[b].seq)
}
func (q queue) Swap(a, b int) { q[a], q[b] = q[b], q[a] }
func (q *queue) Push(x any)   { *q = append(*q, x.(item)) }
func (q *queue) Pop() any     { old := *q; it := old[len(old)-1]; *q = old[:len(old)-1]; return it }

// run is the best-first search: on one goroutine, or on Options.Threads workers
// sharing the queue (runParallel) once the root is solved and dived from.
func (s *search) run(ctx context.Context) error {
	var ms0 *machineSet
	if s.rx.energy != nil {
		ms0 = s.rx.rootSet()
	}
	_, b0, cuts0, ok, err := s.solve(nil, nil, ms0)
	if err != nil {
		// The root LP gave neither a point nor a proof (every solver failed on it):
		// the root keeps the trivial bound, as any node keeps its parent's, and its
		// children are tried. (Table 6.1 at n = 4, T = 640 s, min-energy: both solvers
		// failed on the root LP and the whole solve ended in an error.)
		s.res.Failed++
		b0, cuts0, ok = s.rx.lowerBound(), nil, true
	}
	q := &queue{}
	if ok {
		heap.Push(q, item{seq: nil, bound: b0, cuts: cuts0, ms: ms0})
	}
	if s.opt.Log != nil {
		fmt.Fprintf(s.opt.Log, "dltbb: root bound %.4f (%d sequencing cuts), best %.4f, forced %v\n", b0, len(cuts0), s.res.Objective, s.rx.forced)
	}
	if ok && s.res.Objective > b0*(1+diveGap) {
		if d, err := s.dive(ctx, item{seq: nil, bound: b0, cuts: cuts0, ms: ms0}); err != nil {
			return err
		} else if d {
			s.retarget()
		}
	}
	if s.opt.Threads > 1 {
		return s.runParallel(ctx, q)
	}
	last := time.Now()
	for q.Len() > 0 {
		top := (*q)[0]
		if top.bound >= s.target() {
			break
		}
		if ctx.Err() != nil || s.opt.MaxNodes > 0 && s.res.Nodes >= s.opt.MaxNodes {
			s.stopped(top.bound)
			return nil
		}
		heap.Pop(q)
		if s.needsTighten(top) {
			// Tighten the node's load bounds and re-bound it before its children are
			// solved; it goes back to the queue with its new bound (or is pruned).
			t, pruned := s.tighten(top)
			if pruned {
				s.res.Pruned++
			} else {
				heap.Push(q, t)
			}
			continue
		}
		if s.needsSplit(top) {
			// Split the node on a fractional message count (counts.go); both halves
			// go back to the queue with their own bounds.
			for _, it := range s.split(top) {
				heap.Push(q, it)
			}
			continue
		}
		s.res.Nodes++
		if s.opt.Log != nil && s.opt.LogEvery > 0 && time.Since(last) >= s.opt.LogEvery {
			last = time.Now()
			fmt.Fprintf(s.opt.Log, "dltbb: %d nodes, %d open, %d LPs, bound %.4f, best %.4f, depth %d\n",
				s.res.Nodes, q.Len(), s.res.LPs, top.bound, s.res.Objective, len(top.seq))
		}
		improved, err := s.expand(ctx, top, s.res.Nodes, func(it item) { heap.Push(q, it) })
		if err != nil {
			return err
		}
		if improved {
			if !s.opt.NoLocalSearch {
				if err := s.improve(ctx); err != nil {
					return err
				}
			}
			s.retarget()
		}
	}
	s.exhausted()
	return nil
}

// needsTighten reports whether the open node it is due for its load bounds
// (tightenLoads) before its children are solved: a node other than the root, with
// its machine set decided (min-energy), that has not had them.
func (s *search) needsTighten(it item) bool {
	return it.ms.complete(s.in.M()) && !it.tight && !s.opt.NoTighten && len(it.seq) > 0
}

// needsSplit reports whether the open node it is due for a count split (counts.go)
// before its children are solved.
func (s *search) needsSplit(it item) bool {
	return it.splitOn > 0 && !s.opt.NoCountSplit
}

// stopped sets the bound of a search stopped early (time or node limit) with top the
// smallest bound of the open nodes, below the target.
func (s *search) stopped(top float64) {
	s.res.Bound = math.Min(math.Min(math.Max(top, s.rx.lowerBound()), s.res.Objective), s.failedBound)
}

// exhausted sets the outcome of a search whose open nodes are all at or above the
// target (or none is left): Optimal, with the target as the bound.
func (s *search) exhausted() {
	s.res.Optimal = true
	if s.res.Feasible {
		// Every node ever pruned had a bound >= the target of its time, and the target
		// only decreases: the optimum is >= the current target, and no more is
		// known. A node bound above the target is not a bound on its subtree: its
		// forced machines and load bounds (min-time and min-energy), cut lengths and
		// column bounds hold only for schedules below the target, and a completion
		// between the target and that bound is not ruled out. (Min-energy once
		// reported the smallest open bound above the target; a node pruned with a
		// smaller one could hide a better schedule than that claim.)
		s.res.Bound = s.target()
	}
	if s.res.Bound > s.failedBound {
		s.res.Bound = s.failedBound
		s.res.Optimal = s.res.Feasible && s.res.Bound >= s.target()
	}
}

// expand solves the children of the open node top (node: its expansion number, which
// times the dives), offers the leaves among them as incumbents and hands the children
// that stay open to push, in order. It reports whether the incumbent improved.
func (s *search) expand(ctx context.Context, top item, node int, push func(item)) (bool, error) {
	in := s.in
	p := len(top.seq)
	if !top.ms.complete(in.M()) {
		// Decide the next machine: used or not.
		var kids []child
		for _, c := range s.rx.children(top.ms) {
			kids = append(kids, child{seq: top.seq, ms: c})
		}
		s.evaluate(kids, top.cuts)
		for _, k := range kids {
			switch {
			case k.err != nil:
				s.res.Failed++
				push(item{seq: k.seq, bound: top.bound, cuts: top.cuts, ms: k.ms})
			case !k.ok || k.bound >= s.target():
				s.res.Pruned++
			default:
				push(item{seq: k.seq, bound: math.Max(k.bound, top.bound), cuts: k.cuts, ms: k.ms})
			}
		}
		return false, nil
	}
	var kids []child
	for _, i := range s.symbolsOf(top.ms) {
		if s.skip(top.seq, i) {
			s.res.Pruned++
			continue
		}
		seq := append(append(make([]int, 0, p+1), top.seq...), i)
		if p+1 < in.N && s.rx.unservedForced(seq, top.ms) > in.N-p-1 {
			s.res.Pruned++
			continue
		}
		lb, ok := top.lb.child(s.rx.mach(i))
		if !ok {
			s.res.Pruned++ // the node's count range leaves M_i no message
			continue
		}
		lb = lb.withFloor(top.bound) // the parent's bound holds in the child
		kids = append(kids, child{seq: seq, ms: top.ms, lb: lb, cut: p+1 < in.N, cutoff: s.target()})
	}
	s.evaluate(kids, top.cuts)
	improved := false
	if node%diveEvery == 0 && node >= s.diveAt && s.res.Objective > top.bound*(1+diveGap) {
		d, err := s.dive(ctx, top)
		if err != nil {
			return false, err
		}
		s.dived(node, d)
		improved = improved || d
	}
	for _, k := range kids {
		if k.err != nil {
			// The LP failed numerically: the parent's bound still holds for
			// the child. An inner child is kept open with it; a leaf cannot be
			// evaluated, so its bound caps the final bound.
			s.res.Failed++
			if p+1 == in.N {
				s.failedBound = math.Min(s.failedBound, top.bound)
			} else {
				push(item{seq: k.seq, bound: top.bound, cuts: top.cuts, ms: top.ms, lb: k.lb})
			}
			continue
		}
		if !k.ok {
			s.res.Pruned++
			continue
		}
		if p+1 == in.N {
			v, better := s.accept(k.seq, k.x)
			improved = improved || better
			s.checkLeaf(v, k.bound)
			continue
		}
		if k.bound >= s.target() {
			s.res.Pruned++
			continue
		}
		it := item{seq: k.seq, bound: math.Max(k.bound, top.bound), cuts: k.cuts, ms: top.ms, lb: k.lb}
		if tt := k.tightened; tt != nil {
			switch {
			case !tt.ok:
				s.res.Pruned++
				continue
			case tt.at != nil:
				// Below the target: the min-T LP has the row T <= target.
				it.lb, it.tight = tt.lb, true
				it.bound = math.Max(it.bound, tt.at.bound)
				it.splitOn, it.splitAt = s.pickSplit(k.seq, top.ms, tt.at.lb, tt.at.x)
				push(it)
				continue
			}
			// No min-T point: the node gets its load bounds off the queue.
		}
		due := s.needsTighten(it)
		if due && !s.tightenPays(len(it.seq)) {
			it.tight, due = true, false // its parent's load bounds stand
		}
		if !due {
			// A node due for its load bounds picks its split after them (tighten).
			it.splitOn, it.splitAt = s.pickSplit(k.seq, top.ms, k.lb, k.x)
		}
		push(it)
	}
	return improved, nil
}

// diveGap is the relative gap between the incumbent and the best bound above which
// the search dives for better incumbents (at the root and every diveEvery nodes);
// below it the incumbent is taken to be good and the LPs go to the proof. It was 5 %
// before the link-and-tail cuts: with them the root bound of generator seed 3 is
// within 3.8 % of the starts' best schedule (263.83 s), no dive ran, and the search
// stayed 1.4 % above the optimum (260.09 s) after 120 s of CPU.
const diveGap = 0.005

// diveEvery is the number of node expansions between two dives, as long as they
// find better schedules; after each dive that does not, the interval doubles.
const diveEvery = 256

// maxDiveStride caps the interval between two dives.
const maxDiveStride = 8 * diveEvery

// dived records a dive at node and whether it improved the incumbent: the next dive
// is diveEvery nodes later after a success, and twice the last interval later after
// a failure. Where the starts' schedule is already optimal, as on most generator
// seeds, every dive is wasted: on seed 24 (m = 10), proven in about 33,000 nodes,
// the dives and their local searches took 14 % of the CPU every 256 nodes; with the
// doubling about 18 dives run instead of 127 (without the cap 7: 165 s of CPU
// instead of 197 s, side by side).
func (s *search) dived(node int, improved bool) {
	if improved || s.diveStride == 0 {
		s.diveStride = diveEvery
	} else {
		s.diveStride = min(2*s.diveStride, maxDiveStride)
	}
	s.diveAt = node + s.diveStride
}

// dive follows the child with the smallest bound from node down to a full sequence
// and offers that leaf as an incumbent; it reports whether the incumbent improved.
func (s *search) dive(ctx context.Context, node item) (bool, error) {
	in := s.in
	seq, cuts, ms := node.seq, node.cuts, node.ms
	for len(seq) < in.N && ctx.Err() == nil {
		var kids []child
		for _, i := range s.symbolsOf(ms) {
			c := append(append(make([]int, 0, len(seq)+1), seq...), i)
			if s.skip(seq, i) || len(c) < in.N && s.rx.unservedForced(c, ms) > in.N-len(c) {
				continue
			}
			kids = append(kids, child{seq: c, ms: ms})
		}
		s.evaluate(kids, cuts)
		// The smallest bound among the children whose new message carries load in
		// the LP (the relaxation charges almost nothing for an empty message, so pure
		// bound-following wastes messages); the smallest bound when none does.
		best, loaded := -1, -1
		for k, c := range kids {
			if c.err != nil || !c.ok {
				continue
			}
			if best < 0 || c.bound < kids[best].bound {
				best = k
			}
			if c.x[len(seq)] > 1e-6*in.V && (loaded < 0 || c.bound < kids[loaded].bound) {
				loaded = k
			}
		}
		if loaded >= 0 {
			best = loaded
		}
		if best < 0 {
			return false, nil
		}
		if len(kids[best].seq) == in.N {
			before := s.res.Objective
			v, _ := s.accept(kids[best].seq, kids[best].x)
			if !s.opt.NoLocalSearch {
				if _, err := s.descend(ctx, kids[best].seq, v); err != nil {
					return false, err
				}
			}
			return s.res.Objective < before, nil
		}
		seq, cuts = kids[best].seq, kids[best].cuts
	}
	return false, nil
}

// symbolsOf returns the symbols of the machines the set allows (all without a set).
func (s *search) symbolsOf(ms *machineSet) []int {
	all := s.rx.symbols()
	if ms == nil {
		return all
	}
	out := all[:0:0]
	for _, sym := range all {
		if ms.allowed[s.rx.mach(sym)] {
			out = append(out, sym)
		}
	}
	return out
}

// skip applies the symmetry rule to the symbol sym: among identical machines, a later
// one receives its first message only after every earlier one has received one.
func (s *search) skip(seq []int, sym int) bool {
	in, i := s.in, s.rx.mach(sym)
	for k := 0; k < i; k++ {
		if dm.Identical(in.Machines[k], in.Machines[i]) && !s.rx.served(seq, k) {
			return true
		}
	}
	return false
}

// Applies reports whether Solve handles the instance: min-time without an energy
// limit or a fixed length, or min-energy (with its deadline) without an energy limit.
func Applies(in *dm.Instance) bool {
	switch in.Objective {
	case dm.MinTime:
		return in.EnergyLimit == nil && !in.FixedLength
	case dm.MinEnergy:
		return in.EnergyLimit == nil && in.Deadline != nil
	}
	return false
}
