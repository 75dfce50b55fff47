package dltbb

import (
	"container/heap"
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
)

// The parallel tree search (Options.Threads > 1). After the root is solved and dived
// from, Threads workers share the queue of open nodes: each takes the node with the
// smallest bound, expands it alone (its children's LPs, or its load bounds, on its own
// goroutine) and puts the children that stay open back. The incumbent is shared; the
// counters are the workers' own and are added to the result under the lock.
//
// Why the bounds stay valid. Every worker tightens its own copy of the relaxation
// (forced machines, load bounds, column bounds) to the target of the incumbent as of
// its last look at the shared one, which is never below the current target: a node
// bound it computes holds for every completion shorter than that target, and so for
// every completion shorter than any later target (targets only fall). A node is
// pruned, or left unexpanded at the end, only when its bound is at or above the
// target of its time. When the search ends, every node in progress has been settled
// (its children are in the queue), so, as on one thread, the reported bound is the
// target when no open node lies below it, and otherwise the smallest open bound (with
// the capacity bound, the incumbent and the failed leaves' bounds).
//
// The tree depends on the timing of the workers (which node each takes when), so
// node and LP counts vary from run to run; the optimum, within the gap, does not.

// shared is what the workers of a parallel tree search share, guarded by mu.
type shared struct {
	mu   sync.Mutex
	cond *sync.Cond // signalled when nodes are pushed, a worker goes idle, or the search stops
	main *search    // the search: its res holds the incumbent and the counters
	q    *queue
	// active counts the workers expanding a node (which may still push children);
	// working holds each worker's node bound (+Inf when it has none).
	active  int
	working []float64
	stop    bool  // time or node limit: every worker leaves after its node
	err     error // the first worker's error
	last    time.Time
}

// runParallel runs the tree search from the open nodes q on Options.Threads workers
// and sets the result as run does on one thread.
func (s *search) runParallel(ctx context.Context, q *queue) error {
	threads := s.opt.Threads
	sh := &shared{main: s, q: q, working: make([]float64, threads), last: time.Now()}
	sh.cond = sync.NewCond(&sh.mu)
	for k := range sh.working {
		sh.working[k] = math.Inf(1)
	}
	// Wake the idle workers when ctx is done, so that they stop at once.
	defer context.AfterFunc(ctx, func() {
		sh.mu.Lock()
		sh.cond.Broadcast()
		sh.mu.Unlock()
	})()
	// The workers are made before any starts: they copy s, which the first to run
	// writes (under mu).
	workers := make([]*search, threads)
	for id := range workers {
		w := &search{in: s.in, solver: s.solver, rx: s.rx.clone(), res: &Result{}, opt: s.opt, failedBound: math.Inf(1), sh: sh, tails: s.tails}
		w.opt.Threads = 1 // the worker solves its node's LPs itself
		w.mirror(s)
		workers[id] = w
	}
	var wg sync.WaitGroup
	for id, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sh.work(ctx, id, w)
		}()
	}
	wg.Wait()
	if sh.err != nil {
		return sh.err
	}
	if q.Len() > 0 && (*q)[0].bound < s.target() {
		// Stopped by ctx or the node limit with nodes left below the target.
		s.stopped((*q)[0].bound)
		return nil
	}
	s.exhausted()
	return nil
}

// work is the loop of one worker (id) until the tree is exhausted, the search stops
// or a worker fails.
func (sh *shared) work(ctx context.Context, id int, w *search) {
	s := sh.main
	sh.mu.Lock()
	defer sh.mu.Unlock()
	defer sh.flush(w)
	for {
		if sh.err != nil || sh.stop {
			return
		}
		if ctx.Err() != nil || s.opt.MaxNodes > 0 && s.res.Nodes >= s.opt.MaxNodes {
			sh.stop = true
			sh.cond.Broadcast()
			return
		}
		if sh.q.Len() == 0 || (*sh.q)[0].bound >= s.target() {
			if sh.active == 0 {
				// Nothing below the target and nobody left to push: exhausted.
				sh.cond.Broadcast()
				return
			}
			sh.cond.Wait()
			continue
		}
		top := heap.Pop(sh.q).(item)
		node := 0 // 0: the node's load bounds or a count split are due, it is not expanded yet
		if !w.needsTighten(top) && !w.needsSplit(top) {
			s.res.Nodes++
			node = s.res.Nodes
			sh.log(top)
		}
		sh.active++
		sh.working[id] = top.bound
		w.mirror(s)
		sh.mu.Unlock()

		w.retarget()
		var open []item
		improved, err := false, error(nil)
		if node == 0 && !w.needsTighten(top) {
			open = w.split(top)
		} else if node == 0 {
			if t, pruned := w.tighten(top); pruned {
				w.res.Pruned++
			} else {
				open = append(open, t)
			}
		} else {
			improved, err = w.expand(ctx, top, node, func(it item) { open = append(open, it) })
		}

		sh.mu.Lock()
		for _, it := range open {
			heap.Push(sh.q, it)
		}
		sh.active--
		sh.working[id] = math.Inf(1)
		sh.flush(w)
		sh.cond.Broadcast()
		if err != nil {
			sh.fail(err)
			return
		}
		if improved && !w.opt.NoLocalSearch {
			// The local search from the new incumbent, outside the lock (its
			// neighbours are offered one by one).
			w.mirror(s)
			sh.mu.Unlock()
			err := w.improve(ctx)
			sh.mu.Lock()
			sh.flush(w)
			if err != nil {
				sh.fail(err)
				return
			}
		}
	}
}

// fail records the first error of a worker and stops the others; under mu.
func (sh *shared) fail(err error) {
	if sh.err == nil {
		sh.err = err
	}
	sh.stop = true
	sh.cond.Broadcast()
}

// offer makes the schedule sch of the full sequence seq (report r) the shared
// incumbent when it is better, and refreshes the worker's copy of it. It reports
// whether sch became the incumbent.
func (sh *shared) offer(w *search, seq []int, sch dm.Schedule, r *dm.Report) bool {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	better := sh.main.record(seq, sch, r)
	w.mirror(sh.main)
	return better
}

// flush adds the worker's counters to the result and clears them; under mu.
func (sh *shared) flush(w *search) {
	res := sh.main.res
	res.LPs += w.res.LPs
	res.Pruned += w.res.Pruned
	res.Failed += w.res.Failed
	res.Uncertified += w.res.Uncertified
	res.Splits += w.res.Splits
	w.res.LPs, w.res.Pruned, w.res.Failed, w.res.Uncertified, w.res.Splits = 0, 0, 0, 0, 0
	sh.main.failedBound = math.Min(sh.main.failedBound, w.failedBound)
}

// bound is the smallest bound of the open nodes and of the nodes in progress; under
// mu. (The result's bound is set when the workers are done, from the queue alone.)
func (sh *shared) bound() float64 {
	b := math.Inf(1)
	if sh.q.Len() > 0 {
		b = (*sh.q)[0].bound
	}
	for _, w := range sh.working {
		b = math.Min(b, w)
	}
	return b
}

// log writes a progress line every Options.LogEvery; under mu, with top the node just
// taken.
func (sh *shared) log(top item) {
	s := sh.main
	if s.opt.Log == nil || s.opt.LogEvery <= 0 || time.Since(sh.last) < s.opt.LogEvery {
		return
	}
	sh.last = time.Now()
	fmt.Fprintf(s.opt.Log, "dltbb: %d nodes, %d open, %d busy, %d LPs, bound %.4f, best %.4f, depth %d\n",
		s.res.Nodes, sh.q.Len(), sh.active, s.res.LPs, math.Min(sh.bound(), top.bound), s.res.Objective, len(top.seq))
}

// mirror copies the incumbent of s (its objective and sequence) into the worker w,
// for its target and its local search. Under mu when s is shared.
func (w *search) mirror(s *search) {
	w.res.Feasible, w.res.Objective, w.res.T, w.res.E = s.res.Feasible, s.res.Objective, s.res.T, s.res.E
	w.seq = s.seq
}
