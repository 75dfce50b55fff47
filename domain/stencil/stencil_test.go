package stencil

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/domain"
)

func seed(t testing.TB, grid, config string) (*Instance, []ThesisProc) {
	t.Helper()
	g, err := ThesisGrid(grid)
	if err != nil {
		t.Fatal(err)
	}
	procs, err := ThesisConfig(config)
	if err != nil {
		t.Fatal(err)
	}
	return NewThesisInstance(grid, g, procs, 0), procs
}

func TestSeedGridsHaveThePublishedArcCounts(t *testing.T) {
	for _, c := range []struct {
		grid       string
		arcs       int
		sumDegSq   int
		degreeHist map[int]int
	}{
		{"cuboid", 608, 11904, map[int]int{6: 8, 8: 40, 10: 56, 12: 24}},
		{"sphere", 704, 15616, map[int]int{10: 64, 12: 64}},
	} {
		in, _ := seed(t, c.grid, "cpu-cpu")
		if len(in.Tasks) != 128 || len(in.Arcs) != c.arcs {
			t.Fatalf("%s: %d tasks, %d arcs", c.grid, len(in.Tasks), len(in.Arcs))
		}
		deg := make([]int, len(in.Tasks))
		for _, a := range in.Arcs {
			deg[a.From]++
			deg[a.To]++
			if a.Cells != 4096 {
				t.Fatalf("arc cells %g", a.Cells)
			}
		}
		hist, sq := map[int]int{}, 0
		for _, d := range deg {
			hist[d]++
			sq += d * d
		}
		if sq != c.sumDegSq {
			t.Fatalf("%s: Σdeg² = %d, want %d", c.grid, sq, c.sumDegSq)
		}
		for d, k := range c.degreeHist {
			if hist[d] != k {
				t.Fatalf("%s: degree histogram %v, want %v", c.grid, hist, c.degreeHist)
			}
		}
	}
	// Chapter 7's 32×16×16 grid has 46,592 arcs.
	if _, arcs := BlockGrid(Grid{NX: 32, NY: 16, NZ: 16}, BlockDims{1, 1, 1}); len(arcs) != 46592 {
		t.Fatalf("32×16×16: %d arcs", len(arcs))
	}
}

func TestThesisSimulatorMatchesReferenceValues(t *testing.T) {
	half := func(n int) []int { // the I-halving: blocks with i ≥ 4 on the second CPU, 32 cut arcs
		a := make([]int, n)
		for u := range a {
			if u%8 >= 4 {
				a[u] = 1
			}
		}
		return a
	}
	cases := []struct {
		name, grid, config string
		assign             func(n int) []int
		micros, microJ     int64
		joules             float64
	}{
		{"Cuboid CPU-CPU all on one CPU", "cuboid", "cpu-cpu", func(n int) []int { return make([]int, n) }, 27904, 3768960, 3.76},
		{"Cuboid CPU-CPU 64/64 halving I", "cuboid", "cpu-cpu", half, 13952, 5272512, 5.27},
		{"Cuboid CPU-GPU on the GPU", "cuboid", "cpu-gpu", func(n int) []int { a := make([]int, n); fill(a, 1); return a }, 3584, 485760, 0.48},
		{"Cuboid 2xCPU-2xGPU on one GPU", "cuboid", "2cpu-2gpu", func(n int) []int { a := make([]int, n); fill(a, 2); return a }, 3584, 629120, 0.62},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, procs := seed(t, c.grid, c.config)
			r, err := SimulateThesis(procs, in.Arcs, c.assign(len(in.Tasks)))
			if err != nil {
				t.Fatal(err)
			}
			if r.Micros != c.micros || r.Energy != c.microJ || Joules2(r.Energy) != c.joules {
				t.Fatalf("got %d µs %d µJ (%.2f J), want %d µs %d µJ (%.2f J)", r.Micros, r.Energy, Joules2(r.Energy), c.micros, c.microJ, c.joules)
			}
		})
	}
}

func fill(a []int, p int) {
	for i := range a {
		a[i] = p
	}
}

func TestEvaluatorAgreesWithTheSimulator(t *testing.T) {
	in, procs := seed(t, "cuboid", "cpu-gpu")
	in.Deadline = 1
	// CPU gets the first 13 blocks (Table 6.4's t^d = 3.22 ms shape is different,
	// any mapping will do for the agreement).
	a := make([]int, len(in.Tasks))
	for u := 13; u < len(a); u++ {
		a[u] = 1
	}
	sim, err := SimulateThesis(procs, in.Arcs, a)
	if err != nil {
		t.Fatal(err)
	}
	mu, err := in.Bundles(a)
	if err != nil {
		t.Fatal(err)
	}
	sched := make([][]Pair, mu[0][1])
	for r := range sched {
		sched[r] = []Pair{{0, 1}}
	}
	ev, err := in.Evaluate(a, sched)
	if err != nil {
		t.Fatal(err)
	}
	if !ev.OK() {
		t.Fatalf("problems: %v", ev.Problems)
	}
	if int64(ev.Rounds) != sim.Colours || ev.MaxDegree() != sim.Colours {
		t.Fatalf("rounds %d, Δ %d, simulator colours %d", ev.Rounds, ev.MaxDegree(), sim.Colours)
	}
	if math.Abs(ev.TS-float64(sim.Micros)*1e-6) > 1e-12 || math.Abs(ev.E-float64(sim.Energy)*1e-6) > 1e-9 {
		t.Fatalf("evaluator ts %g E %g, simulator %d µs %d µJ", ev.TS, ev.E, sim.Micros, sim.Energy)
	}
}

func TestEvaluatorFlagsViolations(t *testing.T) {
	in, _ := seed(t, "cuboid", "2cpu-2gpu")
	a := make([]int, len(in.Tasks))
	for u := range a {
		a[u] = u % 4
	}
	mu, _ := in.Bundles(a)
	t.Run("a round that is not a matching", func(t *testing.T) {
		ev, _ := in.Evaluate(a, [][]Pair{{{0, 1}, {1, 2}}})
		if ev.OK() || !strings.Contains(strings.Join(ev.Problems, ";"), "two partners") {
			t.Fatalf("problems %v", ev.Problems)
		}
	})
	t.Run("uncovered bundles", func(t *testing.T) {
		ev, _ := in.Evaluate(a, nil)
		if ev.OK() || mu[0][1] == 0 {
			t.Fatalf("problems %v", ev.Problems)
		}
	})
	t.Run("a missed deadline", func(t *testing.T) {
		b := make([]int, len(in.Tasks)) // all on cpu0: 27.9 ms > 3.584 ms
		ev, _ := in.Evaluate(b, nil)
		if ev.OK() || !strings.Contains(ev.Problems[0], "deadline") {
			t.Fatalf("problems %v", ev.Problems)
		}
	})
}

func TestValidateRejectsBadInput(t *testing.T) {
	good := func() *Instance { in, _ := seed(t, "cuboid", "cpu-gpu"); return in }
	cases := []struct {
		name, field, reason string
		edit                func(in *Instance)
	}{
		{"an arc naming a missing task", "arcs[3].to", "names task 500", func(in *Instance) { in.Arcs[3].To = 500 }},
		{"a self-loop", "arcs[2]", "self-loop", func(in *Instance) { in.Arcs[2].To = in.Arcs[2].From }},
		{"negative cells", "tasks[7].cells", "whole number >= 0", func(in *Instance) { in.Tasks[7].Cells = -1 }},
		{"negative arc cells", "arcs[0].cells", "whole number >= 0", func(in *Instance) { in.Arcs[0].Cells = -4 }},
		{"a non-square link matrix", "link_time[1]", "square", func(in *Instance) { in.LinkTime[1] = in.LinkTime[1][:1] }},
		{"a missing link row", "link_energy", "2×2", func(in *Instance) { in.LinkEnergy = in.LinkEnergy[:1] }},
		{"a fractional multiplicity", "link_time[0][1]", "whole number", func(in *Instance) { in.LinkTime[0][1] = 0.3 / 4096 }},
		{"a deadline below the best computation time", "deadline", "infeasible", func(in *Instance) { in.Deadline = 1e-3 }},
		{"too little memory", "processors", "infeasible", func(in *Instance) { in.Processors[0].MemoryCells = 0; in.Processors[1].MemoryCells = 1 }},
		{"a zero round time", "round_time", "> 0", func(in *Instance) { in.RoundTime = 0 }},
		{"cells beyond 2^53", "tasks[7].cells", "2^53", func(in *Instance) { in.Tasks[7].Cells = 1e20 }},
		{"arc cells beyond 2^53", "arcs[0].cells", "2^53", func(in *Instance) { in.Arcs[0].Cells = 1e20 }},
		{"a multiplicity beyond 2^53", "link_time[0][1]", "2^53", func(in *Instance) { in.LinkTime[0][1] = 1e18 }},
		{"a wrong objective", "objective", "min-energy", func(in *Instance) { in.Objective = "min-time" }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := good()
			c.edit(in)
			err := in.Validate()
			var fe *domain.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("got %v, want a FieldError", err)
			}
			if fe.Field != c.field || !strings.Contains(fe.Reason, c.reason) {
				t.Fatalf("got %q: %q, want %q containing %q", fe.Field, fe.Reason, c.field, c.reason)
			}
		})
	}
	if err := good().Validate(); err != nil {
		t.Fatalf("the seed instance is rejected: %v", err)
	}
}

func TestDeadlineBoundIsTheFluidBound(t *testing.T) {
	in, _ := seed(t, "cuboid", "cpu-gpu")
	// 128 blocks at speeds 1/218 and 1/28 per µs: T = 128 / (1/218 + 1/28) µs.
	want := 128 / (1.0/218 + 1.0/28) * 1e-6
	if got := in.ComputationLowerBound(); math.Abs(got-want) > 1e-12 {
		t.Fatalf("bound %g, want %g", got, want)
	}
	in.Deadline = want * 0.99
	var fe *domain.FieldError
	if err := in.Validate(); !errors.As(err, &fe) || !strings.Contains(fe.Reason, "best possible computation time") {
		t.Fatalf("got %v", err)
	}
}

func TestParseRoundTripsTheSeedInstance(t *testing.T) {
	in, _ := seed(t, "sphere", "2cpu-2gpu")
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Arcs) != 704 || back.Grid == nil || !back.Grid.Periodic[0] {
		t.Fatalf("round trip lost data: %d arcs, grid %+v", len(back.Arcs), back.Grid)
	}
	if _, err := Parse([]byte(`{"kind":"stencil","tasks":[{"cells":-1}],"extra":1}`)); err == nil {
		t.Fatal("negative cells were accepted")
	}
}

func FuzzParse(f *testing.F) {
	in, _ := seed(f, "cuboid", "cpu-gpu")
	data, _ := json.Marshal(in)
	f.Add(data)
	f.Add([]byte(`{"kind":"stencil","tasks":[{"cells":2}],"arcs":[],"processors":[{"name":"a","time_per_cell":1,"energy_per_cell":1,"idle_power":0,"memory_cells":5}],"link_time":[[0]],"link_energy":[[0]],"round_time":1,"deadline":3}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := Parse(data)
		if err != nil {
			var fe *domain.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a FieldError", err)
			}
			return
		}
		// A valid instance evaluates without error for the all-on-0 mapping.
		if _, err := in.Evaluate(make([]int, len(in.Tasks)), nil); err != nil {
			t.Fatalf("evaluate: %v", err)
		}
	})
}

func TestInterchangeableProcessors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(in *Instance)
		p, q   int
		want   bool
	}{
		{"the two CPUs of 2cpu-2gpu", func(*Instance) {}, 0, 1, true},
		{"the two GPUs", func(*Instance) {}, 2, 3, true},
		{"a CPU and a GPU", func(*Instance) {}, 0, 2, false},
		{"a CPU with a slower idle power", func(in *Instance) { in.Processors[1].IdlePower *= 2 }, 0, 1, false},
		{"a CPU with a slower link to one GPU", func(in *Instance) { in.LinkTime[1][3] *= 2 }, 0, 1, false},
		{"an asymmetric link between the two", func(in *Instance) { in.LinkEnergy[0][1] *= 2 }, 0, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, _ := seed(t, "cuboid", "2cpu-2gpu")
			tc.change(in)
			if got := in.Interchangeable(tc.p, tc.q); got != tc.want {
				t.Errorf("Interchangeable(%d, %d) = %v, want %v", tc.p, tc.q, got, tc.want)
			}
		})
	}
}
