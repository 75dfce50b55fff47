package stencil

import (
	"context"
	"math"
	"strings"
	"testing"

	dom "github.com/schedopt/schedopt/domain/stencil"
	"github.com/schedopt/schedopt/exact/edgecolour"
	hs "github.com/schedopt/schedopt/heuristics/stencil"
	"github.com/schedopt/schedopt/model"
)

func thesis(t testing.TB, grid, config string, deadline float64) *dom.Instance {
	t.Helper()
	g, err := dom.ThesisGrid(grid)
	if err != nil {
		t.Fatal(err)
	}
	procs, err := dom.ThesisConfig(config)
	if err != nil {
		t.Fatal(err)
	}
	return dom.NewThesisInstance(grid, g, procs, deadline)
}

// schedule colours the multigraph of a mapping optimally.
func schedule(t testing.TB, in *dom.Instance, assign []int) [][]dom.Pair {
	t.Helper()
	mu, err := in.Bundles(assign)
	if err != nil {
		t.Fatal(err)
	}
	res, err := edgecolour.ChromaticIndex(context.Background(), edgecolour.Bundles(mu), 0)
	if err != nil {
		t.Fatal(err)
	}
	var s [][]dom.Pair
	for _, class := range res.Colouring {
		var r []dom.Pair
		for _, e := range class {
			r = append(r, dom.Pair{e[0], e[1]})
		}
		s = append(s, r)
	}
	return s
}

func TestMaximalMatchingsOfCompleteGraphs(t *testing.T) {
	for m, want := range map[int]int{1: 1, 2: 1, 3: 3, 4: 3, 5: 15, 6: 15, 7: 105} {
		got := MaximalMatchings(m)
		if len(got) != want {
			t.Fatalf("K%d: %d maximal matchings, want %d", m, len(got), want)
		}
		for _, mt := range got {
			used := make([]bool, m)
			for _, e := range mt {
				if used[e[0]] || used[e[1]] {
					t.Fatalf("K%d: %v is not a matching", m, mt)
				}
				used[e[0]], used[e[1]] = true, true
			}
			free := 0
			for _, u := range used {
				if !u {
					free++
				}
			}
			if free > 1 {
				t.Fatalf("K%d: %v is not maximal", m, mt)
			}
		}
	}
}

func TestColourBoundHoldsForHeuristicMappings(t *testing.T) {
	for _, config := range []string{"cpu-gpu", "2cpu-2gpu"} {
		in := thesis(t, "sphere", config, 3.6e-3)
		K := ColourBound(in)
		for _, f := range []float64{0.1, 0.5, 0.9} {
			a := hs.NeighboursAccumulation(in, f)
			mu, _ := in.Bundles(a)
			if chi := edgecolour.Bundles(mu).LowerBound(); chi > int64(K) {
				t.Fatalf("%s NA-%g: χ' ≥ %d above the colour bound %d", config, f, chi, K)
			}
		}
	}
	// Cuboid CPU-GPU at 3.22 ms: the CPU holds at most 14 blocks of ≤ 12 arcs, so
	// Δ ≤ 168 and Shannon gives 252 colours, far below the deadline's 805 rounds.
	if K := ColourBound(thesis(t, "cuboid", "cpu-gpu", 3.22e-3)); K != 252 {
		t.Fatalf("colour bound %d, want 252", K)
	}
}

func TestArcSlotHasTheReferenceSize(t *testing.T) {
	in := thesis(t, "cuboid", "2cpu-2gpu", 3.22e-3)
	f, err := ArcSlot(in, Options{Colours: 13})
	if err != nil {
		t.Fatal(err)
	}
	// x: |E|·m² = 9,728 binaries; restrict rows m·(Σdeg² − 2|E|) = 4·(11,904 − 1,216)
	// (the reference's 47,616 includes the trivial rows f = a).
	rows := 0
	for r := 0; r < f.Model.NumRows(); r++ {
		name := f.Model.RowName(modelRow(r))
		if len(name) > 2 && name[0] == 'r' && name[1] >= '2' && name[1] <= '5' {
			rows++
		}
	}
	if rows != 42752 {
		t.Fatalf("%d restrict rows, want 42752", rows)
	}
	xs := 0
	for v := 0; v < f.Model.NumVars(); v++ {
		if n := f.Model.VarName(modelVar(v)); n[0] == 'x' {
			xs++
		}
	}
	if xs != 9728 {
		t.Fatalf("%d x binaries, want 9728", xs)
	}
}

// TestStartsAreFeasibleAndPriced builds every formulation, installs a heuristic's
// mapping with an optimal colouring as the start, and checks with model.Verify that
// the start satisfies every row and that the model's objective is the evaluator's
// energy: the formulations price a mapping exactly as the domain does.
func TestStartsAreFeasibleAndPriced(t *testing.T) {
	small := dom.NewThesisInstance("small", dom.Grid{NX: 3, NY: 2, NZ: 2, Periodic: [3]bool{true}},
		[]dom.ThesisProc{dom.ThesisCPU(), dom.ThesisGPU(), dom.ThesisGPU()}, 0.5e-3)
	builds := map[string]func(*dom.Instance) (*Formulation, error){
		"compact with colour classes": func(in *dom.Instance) (*Formulation, error) { return Compact(in, Options{}) },
		"compact with matchings":      func(in *dom.Instance) (*Formulation, error) { return Compact(in, Options{Colouring: Matchings}) },
		"arc-slot":                    func(in *dom.Instance) (*Formulation, error) { return ArcSlot(in, Options{}) },
		"arc-slot literal":            func(in *dom.Instance) (*Formulation, error) { return ArcSlot(in, Options{Literal: true}) },
	}
	for name, build := range builds {
		t.Run(name, func(t *testing.T) {
			f, err := build(small)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Model.Validate(); err != nil {
				t.Fatal(err)
			}
			a := hs.NeighboursAccumulation(small, 0.9)
			s := schedule(t, small, a)
			ev, _ := small.Evaluate(a, s)
			if !ev.OK() {
				t.Fatalf("heuristic mapping infeasible: %v", ev.Problems)
			}
			if err := f.SetStart(a, s); err != nil {
				t.Fatal(err)
			}
			x := f.Model.Start()
			for j, v := range x {
				if math.IsNaN(v) {
					t.Fatalf("column %s has no start value", f.Model.VarName(modelVar(j)))
				}
			}
			rep, err := f.Model.Verify(x)
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Feasible() {
				t.Fatalf("start infeasible: %s", rep.Worst)
			}
			if math.Abs(rep.Objective-ev.E) > 1e-9*math.Max(1, ev.E) {
				t.Fatalf("model objective %.12g, evaluator %.12g", rep.Objective, ev.E)
			}
			got, sched, rounds, err := f.Decode(x)
			if err != nil {
				t.Fatal(err)
			}
			for u := range a {
				if got[u] != a[u] {
					t.Fatalf("decoded task %d on %d, started on %d", u, got[u], a[u])
				}
			}
			if rounds != len(s) || len(sched) != len(s) {
				t.Fatalf("decoded %d rounds (model %d), started with %d", len(sched), rounds, len(s))
			}
		})
	}
}

func TestStartIsRelabelledForTheSymmetryRows(t *testing.T) {
	in := dom.NewThesisInstance("sym", dom.Grid{NX: 3, NY: 2, NZ: 2}, []dom.ThesisProc{dom.ThesisCPU(), dom.ThesisCPU(), dom.ThesisGPU(), dom.ThesisGPU()}, 0)
	f, err := Compact(in, Options{Colouring: Matchings})
	if err != nil {
		t.Fatal(err)
	}
	a := make([]int, len(in.Tasks))
	for u := range a {
		a[u] = 3 // everything on the second GPU, against gpu0 ≥ gpu1
	}
	a[0] = 2
	if err := f.SetStart(a, schedule(t, in, a)); err != nil {
		t.Fatal(err)
	}
	rep, err := f.Model.Verify(f.Model.Start())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Feasible() {
		t.Fatalf("relabelled start infeasible: %s", rep.Worst)
	}
	got, _, _, err := f.Decode(f.Model.Start())
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != 3 || got[1] != 2 {
		t.Fatalf("start not relabelled: %v", got)
	}
}

// Hubs whose degrees are the primes up to 59 have lcm ≈ 1.9e21, past int64: (6.6) must
// then fall back to L = 1 instead of scaling its rows by a wrapped product, and a
// feasible mapping must still be a feasible start.
func TestArcSlotCellRowsStaySmallWithCoprimeDegrees(t *testing.T) {
	in := &dom.Instance{Kind: "stencil", Objective: "min-energy", RoundTime: 1, Deadline: 1e6}
	for _, p := range []int{2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59} {
		hub := len(in.Tasks)
		in.Tasks = append(in.Tasks, dom.Task{Cells: 1})
		for range p {
			in.Arcs = append(in.Arcs, dom.Arc{From: hub, To: len(in.Tasks), Cells: 1})
			in.Tasks = append(in.Tasks, dom.Task{Cells: 1})
		}
	}
	total := float64(len(in.Tasks))
	for range 2 {
		in.Processors = append(in.Processors, dom.Processor{Name: "P", TimePerCell: 1, EnergyPerCell: 1, IdlePower: 0.5, MemoryCells: total})
	}
	in.LinkTime = [][]float64{{0, 1}, {1, 0}}
	in.LinkEnergy = [][]float64{{0, 1}, {1, 0}}
	if err := in.Validate(); err != nil {
		t.Fatal(err)
	}
	f, err := ArcSlot(in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for r := 0; r < f.Model.NumRows(); r++ {
		_, vals := f.Model.RowTerms(modelRow(r))
		for _, v := range vals {
			if math.Abs(v) > maxDegreeLCM*total || v == 0 || math.IsNaN(v) {
				t.Fatalf("row %s has coefficient %g", f.Model.RowName(modelRow(r)), v)
			}
		}
	}
	assign := make([]int, len(in.Tasks)) // everything on processor 0: no cut arcs
	if err := f.SetStart(assign, nil); err != nil {
		t.Fatal(err)
	}
	rep, err := f.Model.Verify(f.Model.Start())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Feasible() {
		t.Fatalf("start infeasible: %s", rep.Worst)
	}
}

func TestCompactRestrictedToALoadVector(t *testing.T) {
	in := thesis(t, "cuboid", "2cpu-2gpu", 3.22e-3)
	cells := in.Tasks[0].Cells
	loads := []float64{0, 0, 64 * cells, 64 * cells}
	// Two 64-block halves of the Cuboid share 16 faces: 32 arcs of 4096 cells each way.
	cut := []float64{0, 0, 32 * 4096, 32 * 4096}
	f, err := Compact(in, Options{Colouring: Matchings, Loads: loads, MinCutCells: cut, NoSymmetry: true})
	if err != nil {
		t.Fatal(err)
	}
	m := f.Model
	found := map[string]bool{}
	for r := 0; r < m.NumRows(); r++ {
		name := m.RowName(model.Row(r))
		if strings.HasPrefix(name, "load[") || strings.HasPrefix(name, "isoperimetry[") {
			found[name] = true
		}
		if name == "isoperimetry[2]" {
			lo, _ := m.RowBounds(model.Row(r))
			idx, val := m.RowTerms(model.Row(r))
			// Every cut indicator with processor 2 at one end, in units of one face
			// exchange (both arcs, 8192 cells): coefficient 1, right-hand side 16 faces.
			if math.Abs(lo-16) > 1e-6 || len(idx) == 0 {
				t.Fatalf("isoperimetry[2]: lower %g, %d terms", lo, len(idx))
			}
			for _, v := range val {
				if v != 1 {
					t.Fatalf("isoperimetry[2]: coefficient %g", v)
				}
			}
		}
	}
	for _, want := range []string{"load[0]", "load[1]", "load[2]", "load[3]", "isoperimetry[2]", "isoperimetry[3]"} {
		if !found[want] {
			t.Fatalf("row %s missing (rows found: %v)", want, found)
		}
	}
	if found["isoperimetry[0]"] {
		t.Fatal("a cut row for an idle processor")
	}
	// The halving mapping (I < 4 on gpu0) satisfies every row.
	assign := make([]int, len(in.Tasks))
	for u := range assign {
		assign[u] = 2
		if u%8 >= 4 {
			assign[u] = 3
		}
	}
	if err := f.SetStart(assign, schedule(t, in, assign)); err != nil {
		t.Fatal(err)
	}
	rep, err := m.Verify(m.Start())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Feasible() {
		t.Fatalf("the halving violates the restricted model: %s", rep.Worst)
	}
	for _, bad := range []Options{{Loads: []float64{1}}, {MinCutCells: []float64{1, 2}}} {
		if _, err := Compact(in, bad); err == nil {
			t.Fatalf("%+v accepted", bad)
		}
	}
}
