package stencil

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/highs"
	"github.com/schedopt/schedopt/backends/lpsolve"
	"github.com/schedopt/schedopt/domain"
	dst "github.com/schedopt/schedopt/domain/stencil"
	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/solve"
)

func stencilProblem(t testing.TB, in *dst.Instance) *Problem {
	t.Helper()
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	p, err := testKinds().Load(data, in.Name)
	if err != nil {
		t.Fatal(err)
	}
	return p.(*Problem)
}

func solveStencil(t testing.TB, p *Problem, solver backends.Solver, name string) *solve.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := p.Solve(ctx, solve.Request{Backend: name, Solver: solver, Options: backends.Options{}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// tinyGrid is a 2×2×1 grid (4 tasks, 8 arcs) on one CPU and two GPUs with the thesis's
// rates and a round quantum long enough that rounds can bind.
func tinyGrid(deadline float64) *dst.Instance {
	in := dst.NewThesisInstance("tiny", dst.Grid{NX: 2, NY: 2, NZ: 1}, []dst.ThesisProc{dst.ThesisCPU(), dst.ThesisGPU(), dst.ThesisGPU()}, deadline)
	in.RoundTime = 20e-6
	return in
}

func TestStencilTinyGridEndToEndWithHiGHS(t *testing.T) {
	for _, deadline := range []float64{112e-6, 90e-6, 80e-6} {
		for _, form := range []string{"compact", "arc-slot"} {
			t.Run(fmt.Sprintf("%s at %.0f µs", form, deadline*1e6), func(t *testing.T) {
				p := stencilProblem(t, tinyGrid(deadline))
				p.Formulation = form
				res := solveStencil(t, p, highs.New(), "highs")
				if res.Status != solve.StatusOptimal {
					t.Fatalf("status %s: %s", res.Status, res.Message)
				}
				if res.Check.Evaluator == nil || !res.Check.Evaluator.OK {
					t.Fatalf("evaluator: %+v", res.Check.Evaluator)
				}
				if math.Abs(res.Check.Evaluator.Objective-*res.Objective) > 1e-9 {
					t.Fatalf("model %g, evaluator %g", *res.Objective, res.Check.Evaluator.Objective)
				}
				ex := res.Check.Exact
				if ex == nil || !ex.Agree || !strings.HasPrefix(ex.Algorithm, "enumeration") {
					t.Fatalf("exact check %+v", ex)
				}
			})
		}
	}
}

func TestStencilTinyGridWithLPSolve(t *testing.T) {
	p := stencilProblem(t, tinyGrid(80e-6))
	res := solveStencil(t, p, lpsolve.New(), "lpsolve")
	if res.Status != solve.StatusOptimal || res.Check.Exact == nil || !res.Check.Exact.Agree {
		t.Fatalf("status %s, exact %+v: %s", res.Status, res.Check.Exact, res.Message)
	}
}

// triangle returns three one-task processors whose tasks exchange a quanta on every
// pair, with rounds long enough to set the makespan: χ'(M) = 3a while Δ(M) = 2a.
func triangle(a int) *dst.Instance {
	in := &dst.Instance{Kind: "stencil", Name: fmt.Sprintf("triangle-%d", a), Objective: "min-energy", RoundTime: 1}
	for u := 0; u < 3; u++ {
		in.Tasks = append(in.Tasks, dst.Task{Cells: 1})
		in.Processors = append(in.Processors, dst.Processor{Name: fmt.Sprintf("p%d", u), TimePerCell: 1, EnergyPerCell: 1, IdlePower: 1, MemoryCells: 1})
	}
	in.Arcs = []dst.Arc{{From: 0, To: 1, Cells: float64(a)}, {From: 1, To: 2, Cells: float64(a)}, {From: 2, To: 0, Cells: float64(a)}}
	in.LinkTime = [][]float64{{0, 1, 1}, {1, 0, 1}, {1, 1, 0}}
	in.LinkEnergy = [][]float64{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}
	in.Deadline = float64(4 * a)
	return in
}

func TestProcessorTriangleNeedsThreeTimesAColours(t *testing.T) {
	for _, a := range []int{1, 2, 3} {
		for _, form := range []string{"compact", "arc-slot"} {
			t.Run(fmt.Sprintf("corrected %s a=%d", form, a), func(t *testing.T) {
				p := stencilProblem(t, triangle(a))
				p.Formulation = form
				p.Colouring = ColouringClasses
				res := solveStencil(t, p, highs.New(), "highs")
				sol := res.Solution.(*dst.Solution)
				if res.Status != solve.StatusOptimal || sol.ModelRounds == nil || *sol.ModelRounds != 3*a || sol.Rounds != 3*a {
					t.Fatalf("status %s, model rounds %v, rounds %d; want 3a = %d", res.Status, sol.ModelRounds, sol.Rounds, 3*a)
				}
				// ts = 3a rounds of 1 s; E = 3 cells + idle 3·3a − 3.
				if want := 3 + 3*float64(3*a) - 3; math.Abs(*res.Objective-want) > 1e-6 {
					t.Fatalf("energy %g, want %g", *res.Objective, want)
				}
				if res.Check.Exact == nil || !res.Check.Exact.Agree {
					t.Fatalf("exact check %+v", res.Check.Exact)
				}
			})
		}
		t.Run(fmt.Sprintf("literal a=%d", a), func(t *testing.T) {
			p := stencilProblem(t, triangle(a))
			p.Formulation = "arc-slot-literal"
			res := solveStencil(t, p, highs.New(), "highs")
			sol, _ := res.Solution.(*dst.Solution)
			if sol == nil || sol.ModelRounds == nil || *sol.ModelRounds != 2*a {
				t.Fatalf("the literal model should count Δ = %d rounds, got %+v", 2*a, sol)
			}
			// Its schedule is no proper colouring and its energy undercuts the truth.
			if res.Status != solve.StatusError || res.Check.Evaluator.OK {
				t.Fatalf("status %s: the evaluator accepted the literal model's rounds", res.Status)
			}
		})
	}
}

// randomStencil is a small random instance: a random connected task graph with both
// arc directions, 2-3 processors with random rates, random integer link times.
func randomStencil(r *rand.Rand) *dst.Instance {
	n, m := 3+r.IntN(3), 2+r.IntN(2)
	in := &dst.Instance{Kind: "stencil", Name: "random", Objective: "min-energy", RoundTime: 0.5 + r.Float64()}
	for u := 0; u < n; u++ {
		in.Tasks = append(in.Tasks, dst.Task{Cells: float64(1 + r.IntN(3))})
	}
	addPair := func(u, v int) {
		c := float64(1 + r.IntN(2))
		in.Arcs = append(in.Arcs, dst.Arc{From: u, To: v, Cells: c}, dst.Arc{From: v, To: u, Cells: c})
	}
	for u := 1; u < n; u++ {
		addPair(r.IntN(u), u)
	}
	if n > 3 {
		addPair(0, n-1)
	}
	for p := 0; p < m; p++ {
		in.Processors = append(in.Processors, dst.Processor{Name: fmt.Sprintf("p%d", p), TimePerCell: float64(1 + r.IntN(4)),
			EnergyPerCell: float64(1 + r.IntN(5)), IdlePower: float64(r.IntN(3)), MemoryCells: 100})
	}
	in.LinkTime = make([][]float64, m)
	in.LinkEnergy = make([][]float64, m)
	for p := 0; p < m; p++ {
		in.LinkTime[p] = make([]float64, m)
		in.LinkEnergy[p] = make([]float64, m)
		for k := 0; k < m; k++ {
			if p != k {
				in.LinkTime[p][k] = float64(r.IntN(3))
				in.LinkEnergy[p][k] = float64(r.IntN(3)) / 2
			}
		}
	}
	lb := in.ComputationLowerBound()
	in.Deadline = lb * (1.2 + 2*r.Float64())
	return in
}

func TestCompactAndArcSlotAgreeOnRandomInstances(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for trial := 0; trial < 25; trial++ {
		in := randomStencil(r)
		if err := in.Validate(); err != nil {
			t.Fatal(err)
		}
		var objs []string
		var vals []float64
		var statuses []string
		for _, form := range []string{"compact", "arc-slot", "compact-classes"} {
			p := stencilProblem(t, in)
			p.Formulation = form
			if form == "compact-classes" {
				p.Formulation, p.Colouring = "compact", ColouringClasses
			}
			res := solveStencil(t, p, highs.New(), "highs")
			statuses = append(statuses, res.Status)
			if res.Status == solve.StatusOptimal {
				vals = append(vals, *res.Objective)
				objs = append(objs, fmt.Sprintf("%s %.9g", form, *res.Objective))
				if ex := res.Check.Exact; ex == nil || !ex.Agree {
					t.Fatalf("trial %d %s: exact check %+v", trial, form, ex)
				}
			}
		}
		if statuses[0] != statuses[1] || statuses[0] != statuses[2] {
			t.Fatalf("trial %d: statuses differ: %v", trial, statuses)
		}
		for _, v := range vals {
			if math.Abs(v-vals[0]) > 1e-6*math.Max(1, math.Abs(vals[0])) {
				t.Fatalf("trial %d: optima differ: %v", trial, objs)
			}
		}
	}
}

func TestStencilHeuristicsRunOnTheSeedGrid(t *testing.T) {
	g, _ := dst.ThesisGrid("cuboid")
	procs, _ := dst.ThesisConfig("cpu-gpu")
	p := stencilProblem(t, dst.NewThesisInstance("cuboid-cpu-gpu", g, procs, 3.6e-3))
	res, err := p.RunHeuristic(context.Background(), "Alg_1-JIK")
	if err != nil {
		t.Fatal(err)
	}
	sol := res.Solution.(*dst.Solution)
	// Table 6.7: Alg_1-JIK cuts 40 arcs (#Col 40), 3.06 J, 3.48 ms.
	if res.Status != solve.StatusFeasible || sol.Rounds != 40 || sol.CutArcs != 40 || math.Floor(sol.E*100)/100 != 3.06 {
		t.Fatalf("status %s rounds %d cut %d E %g", res.Status, sol.Rounds, sol.CutArcs, sol.E)
	}
	p2 := stencilProblem(t, dst.NewThesisInstance("cuboid-cpu-gpu", g, procs, 3.3e-3))
	res, err = p2.RunHeuristic(context.Background(), "Alg_1-JIK")
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != solve.StatusError || !strings.HasPrefix(res.Message, kinds.NoScheduleMessage) {
		t.Fatalf("a 3.48 ms mapping under a 3.3 ms deadline: status %s (%s); want a heuristic's no-schedule answer, never a claim of infeasibility", res.Status, res.Message)
	}
}

func TestStencilGeneratorWritesTheSeedInstances(t *testing.T) {
	gens := generators()
	if len(gens) != 1 {
		t.Fatalf("%d generators", len(gens))
	}
	for _, c := range []struct {
		args []string
		arcs int
	}{
		{[]string{"--grid", "cuboid", "--config", "cpu-gpu"}, 608},
		{[]string{"--grid", "sphere", "--config", "2cpu-2gpu", "--deadline", "2.66e-3"}, 704},
		{[]string{"--nx", "3", "--ny", "2", "--nz", "2", "--periodic", "i", "--config", "cpu,gpu,gpu", "--block", "8"}, 2 * (3*2*2 + 3*1*2 + 3*2*1)},
	} {
		fs := pflag.NewFlagSet("gen", pflag.ContinueOnError)
		build := gens[0].Flags(fs)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		v, err := build(1)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := json.Marshal(v)
		p, err := testKinds().Load(data, "gen")
		if err != nil {
			t.Fatalf("%v: generated instance does not load: %v", c.args, err)
		}
		if got := len(p.(*Problem).Inst.Arcs); got != c.arcs {
			t.Fatalf("%v: %d arcs, want %d", c.args, got, c.arcs)
		}
	}
	fs := pflag.NewFlagSet("gen", pflag.ContinueOnError)
	build := gens[0].Flags(fs)
	_ = fs.Parse([]string{"--grid", "cuboid", "--config", "cpu-gpu", "--deadline", "1e-3"})
	_, err := build(1)
	var fe *domain.FieldError
	if !errors.As(err, &fe) || fe.Field != "deadline" || !strings.Contains(fe.Reason, "infeasible") {
		t.Fatalf("a deadline below the computation bound: %v", err)
	}
}

// testKinds is a registry of this package's kinds, for the tests that load JSON.
func testKinds() *kinds.Registry { return kinds.NewRegistry(Kind()) }
