package stencil

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	dom "github.com/schedopt/schedopt/domain/stencil"
)

// randomInstance returns a random block-grid instance with m processors, random
// integer link quanta and energies, and a deadline that some mappings miss.
func randomInstance(r *rand.Rand, m int) *dom.Instance {
	g := dom.Grid{NX: 2 + r.IntN(4), NY: 1 + r.IntN(4), NZ: 1 + r.IntN(3)}
	g.Periodic = [3]bool{r.IntN(3) == 0, false, r.IntN(4) == 0}
	tasks, arcs := dom.BlockGrid(g, dom.BlockDims{1, 1, 1})
	for i := range tasks {
		tasks[i].Cells = float64(1 + r.IntN(3))
	}
	in := &dom.Instance{Kind: "stencil", Tasks: tasks, Arcs: arcs, RoundTime: 1, Objective: "min-energy", Grid: &g,
		LinkTime: make([][]float64, m), LinkEnergy: make([][]float64, m)}
	for p := 0; p < m; p++ {
		in.Processors = append(in.Processors, dom.Processor{TimePerCell: float64(1 + r.IntN(5)),
			EnergyPerCell: float64(1 + r.IntN(9)), IdlePower: float64(r.IntN(4)), MemoryCells: float64(4 + r.IntN(20))})
		in.LinkTime[p], in.LinkEnergy[p] = make([]float64, m), make([]float64, m)
		for k := 0; k < m; k++ {
			if k != p {
				in.LinkTime[p][k] = float64(r.IntN(4))
				in.LinkEnergy[p][k] = float64(r.IntN(7)) / 2
			}
		}
	}
	in.Deadline = float64(5 + r.IntN(40))
	return in
}

// reference scores a mapping from scratch with the domain evaluator and the bundles.
func reference(t *testing.T, in *dom.Instance, assign []int) tmScore {
	t.Helper()
	ev, err := in.Evaluate(assign, nil)
	if err != nil {
		t.Fatal(err)
	}
	var delta, mu int64
	for p := range ev.Mult {
		var d int64
		for k, x := range ev.Mult[p] {
			if k != p {
				d += x
				mu = max(mu, x)
			}
		}
		delta = max(delta, d)
	}
	busy := 0.0
	sc := tmScore{}
	for p, pr := range in.Processors {
		busy = math.Max(busy, ev.Busy[p])
		if ev.Cells[p] > pr.MemoryCells {
			sc.viol += (ev.Cells[p] - pr.MemoryCells) / math.Max(1, pr.MemoryCells)
		}
	}
	ts := math.Max(busy, float64(min(delta+mu, 3*delta/2))*in.RoundTime)
	if ts > in.Deadline*(1+dom.TimeTol) {
		sc.viol += (ts - in.Deadline) / in.Deadline
	}
	sc.energy = ev.CompEnergy + ev.CommEnergy
	for p, pr := range in.Processors {
		sc.energy += pr.IdlePower * (ts - ev.Busy[p])
	}
	return sc
}

func near(a, b tmScore) bool {
	tol := func(x, y float64) bool { return math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(y)) }
	return tol(a.viol, b.viol) && tol(a.energy, b.energy)
}

// Property: after random sequences of moves, swaps and arc moves, the incremental
// score of a candidate equals the full re-evaluation of the mapping it leads to, and
// the state after applying it equals the full re-evaluation too.
func TestIncrementalScoreMatchesFullEvaluation(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 2))
	for trial := 0; trial < 60; trial++ {
		m := 2 + r.IntN(19) // up to 20 processors: 190 pairs, more than the top lists hold
		in := randomInstance(r, m)
		n := len(in.Tasks)
		start := make([]int, n)
		for u := range start {
			start[u] = r.IntN(m)
		}
		s, err := newTMState(in, start)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := s.current(), reference(t, in, s.assign); !near(got, want) {
			t.Fatalf("trial %d: start scores %+v, full evaluation %+v", trial, got, want)
		}
		for step := 0; step < 200; step++ {
			var rel []reloc
			u := r.IntN(n)
			switch r.IntN(3) {
			case 0:
				rel = []reloc{{u, s.assign[u], r.IntN(m)}}
			case 1:
				v := r.IntN(n)
				if v == u {
					continue
				}
				rel = []reloc{{u, s.assign[u], s.assign[v]}, {v, s.assign[v], s.assign[u]}}
			default:
				adj := s.adj[u]
				if len(adj) == 0 {
					continue
				}
				v := int(adj[r.IntN(len(adj))].other)
				rel = []reloc{{u, s.assign[u], r.IntN(m)}, {v, s.assign[v], r.IntN(m)}}
			}
			after := slices.Clone(s.assign)
			for _, x := range rel {
				after[x.u] = x.to
			}
			want := reference(t, in, after)
			if got := s.score(rel); !near(got, want) {
				t.Fatalf("trial %d step %d: candidate %v scores %+v, full evaluation %+v", trial, step, rel, got, want)
			}
			s.apply(rel)
			if got := s.current(); !near(got, want) {
				t.Fatalf("trial %d step %d: state after %v scores %+v, full evaluation %+v", trial, step, rel, got, want)
			}
			for u := range s.cut {
				var c int32
				for _, a := range s.adj[u] {
					if s.assign[a.other] != s.assign[u] {
						c++
					}
				}
				if c != s.cut[u] || (c > 0) != (s.bpos[u] >= 0) {
					t.Fatalf("trial %d step %d: task %d has %d cut arcs, state says %d (boundary %v)", trial, step, u, c, s.cut[u], s.bpos[u] >= 0)
				}
			}
		}
	}
}

func TestSearchIsDeterministicAndNeverWorsensItsStart(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for trial := 0; trial < 10; trial++ {
		in := randomInstance(r, 2+r.IntN(6))
		start := make([]int, len(in.Tasks))
		for u := range start {
			start[u] = r.IntN(len(in.Processors))
		}
		for _, nb := range []Neighbourhood{MoveTask, SwapTasks, MoveArc, AllNeighbourhoods} {
			opt := TMOptions{Iterations: 150, Seed: uint64(trial), Neighbourhoods: nb, Sample: 8}
			a, sa, err := Search(context.Background(), in, start, opt)
			if err != nil {
				t.Fatal(err)
			}
			b, _, err := Search(context.Background(), in, start, opt)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(a, b) {
				t.Fatalf("trial %d, neighbourhoods %b: two runs with one seed differ", trial, nb)
			}
			s0, s1 := reference(t, in, start), reference(t, in, a)
			if s0.less(s1) {
				t.Fatalf("trial %d, neighbourhoods %b: best %+v is worse than the start %+v", trial, nb, s1, s0)
			}
			if got := (tmScore{sa.Best.Violation, sa.Best.Energy}); !near(got, s1) {
				t.Fatalf("trial %d: reported best %+v, re-evaluated %+v", trial, got, s1)
			}
		}
	}
}

// With the full move neighbourhood and enough iterations the search reaches the
// optimum of tiny instances (checked by enumeration) from most starts; it must at
// least never report a score better than the optimum.
func TestSearchFindsTheOptimumOfTinyInstances(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	hits := 0
	const trials = 12
	for trial := 0; trial < trials; trial++ {
		in := randomInstance(r, 2+r.IntN(2))
		for len(in.Tasks) > 8 {
			in = randomInstance(r, 2+r.IntN(2))
		}
		n, m := len(in.Tasks), len(in.Processors)
		opt := tmScore{math.Inf(1), math.Inf(1)}
		a := make([]int, n)
		for {
			if sc := reference(t, in, a); sc.less(opt) {
				opt = sc
			}
			i := 0
			for i < n && a[i] == m-1 {
				a[i] = 0
				i++
			}
			if i == n {
				break
			}
			a[i]++
		}
		got, _, err := Search(context.Background(), in, make([]int, n), TMOptions{Iterations: 300, FullMoves: true})
		if err != nil {
			t.Fatal(err)
		}
		sc := reference(t, in, got)
		if sc.less(opt) && !near(sc, opt) {
			t.Fatalf("trial %d: search reports %+v, better than the enumerated optimum %+v", trial, sc, opt)
		}
		if near(sc, opt) {
			hits++
		}
	}
	if hits < trials*2/3 {
		t.Fatalf("the search found the optimum of %d of %d tiny instances", hits, trials)
	}
}

func TestSearchHonoursCancellationAndTimeLimit(t *testing.T) {
	in, _ := thesisInstance(t, "cuboid", "2cpu-2gpu")
	in.Deadline = 3.6e-3
	start, err := LoadBalancing(in, IJK, 0)
	must(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got, st, err := Search(ctx, in, start, TMOptions{Iterations: 1 << 30})
	if err == nil || st.Stopped != "context" || !slices.Equal(got, start) {
		t.Fatalf("cancelled search: err %v, stopped %q", err, st.Stopped)
	}
	t0 := time.Now()
	_, st, err = Search(context.Background(), in, start, TMOptions{Iterations: 1 << 30, TimeLimit: 200 * time.Millisecond})
	if err != nil || st.Stopped != "time" || time.Since(t0) > 2*time.Second {
		t.Fatalf("time-limited search: err %v, stopped %q after %v", err, st.Stopped, time.Since(t0))
	}
}

// Degenerate inputs: one processor, or no tasks, return the start unchanged.
func TestSearchOnDegenerateInstances(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	in := randomInstance(r, 1)
	start := make([]int, len(in.Tasks))
	got, st, err := Search(context.Background(), in, start, TMOptions{Iterations: 10})
	if err != nil || !slices.Equal(got, start) || st.Stopped != "no-move" {
		t.Fatalf("one processor: %v, %v, %q", got, err, st.Stopped)
	}
	empty := *randomInstance(r, 3)
	empty.Tasks, empty.Arcs = nil, nil
	if got, _, err := Search(context.Background(), &empty, nil, TMOptions{Iterations: 10}); err != nil || len(got) != 0 {
		t.Fatalf("no tasks: %v, %v", got, err)
	}
	if _, _, err := Search(context.Background(), in, []int{5}, TMOptions{}); err == nil {
		t.Fatal("a start of the wrong length: no error")
	}
}
