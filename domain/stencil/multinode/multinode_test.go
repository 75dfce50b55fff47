package multinode

import (
	"context"
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/schedopt/schedopt/domain/stencil"
)

func TestSystemsHaveTheChaptersSizesAndLevels(t *testing.T) {
	cases := []struct {
		sys              *System
		procs, cpus, nds int
		levels           []int
	}{
		{FatTree(), 64, 16, 8, []int{1, 2, 3, 4}},
		{Dragonfly(), 148, 74, 74, []int{1, 2, 3, 4}},
		{Torus(), 141, 141, 141, []int{2, 3, 4, 5}},
	}
	for _, c := range cases {
		s := c.sys
		cpus := 0
		for _, p := range s.Procs {
			if p.Kind == CPU {
				cpus++
			}
		}
		if len(s.Procs) != c.procs || cpus != c.cpus || s.Nodes != c.nds {
			t.Fatalf("%s: %d processors (%d CPUs) on %d nodes, want %d (%d) on %d", s.Name, len(s.Procs), cpus, s.Nodes, c.procs, c.cpus, c.nds)
		}
		if got := s.Levels(); len(got) != len(c.levels) || got[0] != c.levels[0] || got[len(got)-1] != c.levels[len(c.levels)-1] {
			t.Fatalf("%s: levels %v, want %v", s.Name, got, c.levels)
		}
		for p := range s.Procs {
			for k := range s.Procs {
				if s.Quanta[p][k] != s.Quanta[k][p] || s.Energy[p][k] != s.Energy[k][p] {
					t.Fatalf("%s: links %d-%d are not symmetric", s.Name, p, k)
				}
				if p != k && (s.Level[p][k] == 1) == s.Inter(p, k) {
					t.Fatalf("%s: level %d between %d and %d, inter-node %v", s.Name, s.Level[p][k], p, k, s.Inter(p, k))
				}
			}
		}
		// The simulator's order: names sorted as strings.
		for i := 1; i < len(s.Procs); i++ {
			if s.Procs[i-1].Name >= s.Procs[i].Name {
				t.Fatalf("%s: processor %q before %q", s.Name, s.Procs[i-1].Name, s.Procs[i].Name)
			}
		}
		for _, g := range []struct {
			grid        stencil.Grid
			tasks, arcs int
		}{{ThesisGrid(), 8192, 46592}, {PublishedGrid(), 1024, 5504}} {
			in := s.Instance(g.grid, 1)
			if len(in.Tasks) != g.tasks || len(in.Arcs) != g.arcs {
				t.Fatalf("%s: %d tasks and %d arcs, want %d and %d", s.Name, len(in.Tasks), len(in.Arcs), g.tasks, g.arcs)
			}
			if err := in.Validate(); err != nil {
				t.Fatalf("%s: %v", s.Name, err)
			}
			// One task and one arc cost the per-task and per-arc figures.
			pr := in.Processors[0]
			if d := pr.TimePerCell*BlockCells - float64(s.Procs[0].Time)*Unit; math.Abs(d) > 1e-15 {
				t.Fatalf("%s: task time off by %g s", s.Name, d)
			}
			if q := in.Multiplicity(in.Arcs[0], 0, 1); q != s.Quanta[0][1] {
				t.Fatalf("%s: an arc takes %d quanta between processors 0 and 1, want %d", s.Name, q, s.Quanta[0][1])
			}
		}
	}
}

func TestEvaluateAgreesWithTheDomainEvaluator(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, s := range []*System{FatTree(), Dragonfly(), Torus()} {
		in := s.Instance(PublishedGrid(), 1)
		for trial := 0; trial < 5; trial++ {
			a := make([]int, len(in.Tasks))
			used := 1 + r.IntN(len(s.Procs))
			for u := range a {
				a[u] = r.IntN(used)
			}
			rep, err := Evaluate(s, in, a, false)
			if err != nil {
				t.Fatal(err)
			}
			ev, err := in.Evaluate(a, nil)
			if err != nil {
				t.Fatal(err)
			}
			near := func(x, y float64) bool { return math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(y)) }
			if rep.CutArcs != ev.CutArcs || rep.Edges != ev.Edges() || rep.Delta != ev.MaxDegree() ||
				!near(rep.CommEnergy, ev.CommEnergy) || !near(rep.CompEnergy, ev.CompEnergy) {
				t.Fatalf("%s: report %+v disagrees with the domain evaluator (cut %d, edges %d, Δ %d, comm %g, comp %g)",
					s.Name, rep, ev.CutArcs, ev.Edges(), ev.MaxDegree(), ev.CommEnergy, ev.CompEnergy)
			}
			if rep.IntraEdges+rep.InterEdges != rep.Edges || rep.CPUs+rep.GPUs != rep.Used || rep.InterArcs > rep.CutArcs {
				t.Fatalf("%s: inconsistent splits %+v", s.Name, rep)
			}
			// With the round count fixed, the total must be the domain's formula.
			e := ev.CompEnergy + ev.CommEnergy
			for p, pr := range in.Processors {
				e += pr.IdlePower * (rep.TS - ev.Busy[p])
			}
			if !near(rep.E, e) || rep.Rounds != min(rep.Delta+rep.Mu, 3*rep.Delta/2) {
				t.Fatalf("%s: E %g, want %g (rounds %d)", s.Name, rep.E, e, rep.Rounds)
			}
		}
	}
}

// h1 is a lower bound on the edge boundary of every set of each size: checked against
// all subsets of small boxes.
func TestBoundaryBoundHoldsForEverySubsetOfSmallBoxes(t *testing.T) {
	for _, g := range []stencil.Grid{{NX: 4, NY: 2, NZ: 2}, {NX: 3, NY: 3, NZ: 2}, {NX: 5, NY: 3, NZ: 1}, {NX: 2, NY: 2, NZ: 4}} {
		pf := newProfile(g)
		n := pf.N
		_, arcs := stencil.BlockGrid(g, stencil.BlockDims{1, 1, 1})
		best := make([]int, n+1)
		for i := range best {
			best[i] = math.MaxInt
		}
		for set := 0; set < 1<<n; set++ {
			cut := 0
			for _, a := range arcs {
				if (set>>a.From)&1 != (set>>a.To)&1 {
					cut++
				}
			}
			s := bits.OnesCount(uint(set))
			best[s] = min(best[s], cut/2) // two arcs per adjacency
		}
		for s := 0; s <= n; s++ {
			if h := max(pf.h1(s), pf.h1(n-s)); h > int64(best[s]) {
				t.Fatalf("%dx%dx%d: bound %d for %d blocks, but a set has boundary %d", g.NX, g.NY, g.NZ, h, s, best[s])
			}
		}
	}
}

// The load bound is the LP optimum: never above any mapping's computation and idle
// energy at its own makespan within the deadline, and equal to the best split found by
// scanning fractional loads on a two-processor instance.
func TestLoadBoundIsBelowEveryMapping(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for _, s := range []*System{FatTree(), Dragonfly(), Torus()} {
		in := s.Instance(PublishedGrid(), 1)
		load, ts := loadBound(in)
		if ts < in.ComputationLowerBound()*(1-1e-9) || ts > in.Deadline {
			t.Fatalf("%s: load bound attained at ts %g outside [%g, %g]", s.Name, ts, in.ComputationLowerBound(), in.Deadline)
		}
		for trial := 0; trial < 20; trial++ {
			a := make([]int, len(in.Tasks))
			for u := range a {
				a[u] = r.IntN(len(s.Procs))
			}
			rep, err := Evaluate(s, in, a, true)
			if err != nil {
				t.Fatal(err)
			}
			if rep.CompTime > in.Deadline {
				continue
			}
			if e := rep.CompEnergy + rep.IdleEnergy; e < load*(1-1e-9) {
				t.Fatalf("%s: a mapping has computation and idle energy %g J below the bound %g J", s.Name, e, load)
			}
		}
	}
}

func TestLowerBoundHonoursItsContext(t *testing.T) {
	s := Dragonfly()
	in := s.Instance(ThesisGrid(), 1e-2)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := LowerBound(ctx, s, in, ThesisGrid()); err == nil {
		t.Fatal("a cancelled lower bound returned no error")
	}
}

func TestLowerBoundRejectsMismatchedInput(t *testing.T) {
	s := Torus()
	in := s.Instance(stencil.Grid{NX: 1, NY: 1, NZ: 1}, 1)
	if _, err := LowerBound(context.Background(), s, in, stencil.Grid{NX: 1, NY: 1, NZ: 1}); err == nil {
		t.Fatal("an instance without arcs: no error")
	}
	in = s.Instance(PublishedGrid(), 1)
	if _, err := LowerBound(context.Background(), FatTree(), in, PublishedGrid()); err == nil {
		t.Fatal("the torus instance on the fat-tree: no error")
	}
	if _, err := Evaluate(FatTree(), in, make([]int, len(in.Tasks)), true); err == nil {
		t.Fatal("evaluating the torus instance on the fat-tree: no error")
	}
}
