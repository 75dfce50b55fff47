package stencil

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/highs"
	dst "github.com/schedopt/schedopt/domain/stencil"
	"github.com/schedopt/schedopt/solve"
)

// randomGrid is a block grid of 4-8 blocks on 2-4 of the thesis's processors, with
// at most 50,000 mappings (so that Enumerate is the oracle), a random round time
// (rounds bind or not) and a random deadline.
func randomGrid(r *rand.Rand) *dst.Instance {
	dims := [][3]int{{2, 2, 1}, {3, 2, 1}, {2, 2, 2}, {4, 2, 1}, {5, 1, 1}}
	for {
		d := dims[r.IntN(len(dims))]
		g := dst.Grid{NX: d[0], NY: d[1], NZ: d[2]}
		for a := range g.Periodic {
			g.Periodic[a] = r.IntN(3) == 0
		}
		m := 2 + r.IntN(3)
		if math.Pow(float64(m), float64(d[0]*d[1]*d[2])) > maxEnumeration {
			continue
		}
		var procs []dst.ThesisProc
		for i := 0; i < m; i++ {
			if i == 0 || r.IntN(2) == 0 {
				procs = append(procs, dst.ThesisGPU())
			} else {
				procs = append(procs, dst.ThesisCPU())
			}
		}
		in := dst.NewThesisInstance(fmt.Sprintf("random-%dx%dx%d-%d", d[0], d[1], d[2], m), g, procs, 0)
		in.RoundTime = []float64{4e-6, 20e-6, 60e-6}[r.IntN(3)]
		in.Deadline = in.ComputationLowerBound() * (1 + r.Float64()*float64(len(in.Tasks))/2)
		return in
	}
}

func TestLoadSearchSolvesTinyGridsToTheEnumeratedOptimum(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 3))
	viaLoads := 0
	for trial := 0; trial < 20; trial++ {
		in := randomGrid(r)
		t.Run(fmt.Sprintf("%d-%s", trial, in.Name), func(t *testing.T) {
			ex, err := stencilProblem(t, in).Enumerate(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			p := stencilProblem(t, in)
			res := solveStencil(t, p, highs.New(), "highs")
			if !ex.Feasible {
				// The deadline admits no mapping: the heuristics find none and the
				// whole model proves it.
				if res.Status != solve.StatusInfeasible {
					t.Fatalf("enumeration: infeasible; solve: %s (%s)", res.Status, res.Message)
				}
				return
			}
			if !strings.Contains(res.Message, "load-vector search") {
				t.Fatalf("the load-vector search was not used: %s", res.Message)
			}
			viaLoads++
			if res.Status != solve.StatusOptimal || math.Abs(*res.Objective-ex.Objective) > 1e-6*ex.Objective {
				t.Fatalf("status %s, energy %v; enumeration %.9g (%s)", res.Status, fmtPtr(res.Objective), ex.Objective, res.Message)
			}
			if res.Bound == nil || *res.Bound > ex.Objective*(1+1e-9) {
				t.Fatalf("bound %v above the optimum %.9g", fmtPtr(res.Bound), ex.Objective)
			}
			if res.Check.Evaluator == nil || !res.Check.Evaluator.OK || res.Check.Exact == nil || !res.Check.Exact.Agree {
				t.Fatalf("checks: evaluator %+v exact %+v", res.Check.Evaluator, res.Check.Exact)
			}
		})
	}
	if viaLoads < 10 {
		t.Fatalf("only %d of 20 instances went through the load-vector search", viaLoads)
	}
}

// TestRestrictedModelsKeepTheirOptimum solves, for every load vector some mapping of
// a tiny grid meets, the compact model with those loads fixed and the isoperimetric
// cut rows, and compares it with the best mapping of those loads by enumeration.
func TestRestrictedModelsKeepTheirOptimum(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 4))
	checked := 0
	for trial := 0; trial < 16; trial++ {
		in := randomGrid(r)
		p := stencilProblem(t, in)
		lp, err := p.runLoadSearch(context.Background())
		if err != nil {
			continue // no heuristic mapping meets the deadline
		}
		best := map[string]float64{}
		n, m := len(in.Tasks), len(in.Processors)
		assign := make([]int, n)
		for {
			loads := make([]int, m)
			for _, q := range assign {
				loads[q]++
			}
			canon, _ := lp.bounder.Canonical(loads)
			if sched, err := p.colour(assign); err == nil {
				if ev, err := in.Evaluate(assign, sched); err == nil && ev.OK() {
					key := fmt.Sprint(canon)
					if v, ok := best[key]; !ok || ev.E < v {
						best[key] = ev.E
					}
				}
			}
			i := 0
			for ; i < n; i++ {
				if assign[i]++; assign[i] < m {
					break
				}
				assign[i] = 0
			}
			if i == n {
				break
			}
		}
		for key, want := range best {
			var loads []int
			for _, f := range strings.Fields(strings.Trim(key, "[]")) {
				var k int
				fmt.Sscan(f, &k)
				loads = append(loads, k)
			}
			res, err := solve.SolveModel(context.Background(), "stencil", in.Name, func() (*solve.Formulated, error) {
				return p.restricted(lp, loads, nil)
			}, solve.Request{Backend: "highs", Solver: highs.New(), Options: backends.Options{}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != solve.StatusOptimal || math.Abs(*res.Objective-want) > 1e-6*want {
				t.Fatalf("%s loads %v: status %s energy %v, enumeration %.9g", in.Name, loads, res.Status, fmtPtr(res.Objective), want)
			}
			checked++
		}
	}
	if checked < 15 {
		t.Fatalf("only %d load vectors checked", checked)
	}
}

// TestLoadSearchWithAPoorIncumbentSolvesTheOpenVectors gives the search a poor
// incumbent (a feasible mapping of about median energy), so that vectors stay open
// and get their own MILPs; the answer must still be the enumerated optimum.
func TestLoadSearchWithAPoorIncumbentSolvesTheOpenVectors(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 5))
	multi := 0
	for trial := 0; trial < 12; trial++ {
		in := randomGrid(r)
		p := stencilProblem(t, in)
		ex, err := p.Enumerate(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		lp, err := p.runLoadSearch(context.Background())
		if err != nil || !ex.Feasible {
			continue
		}
		// A feasible mapping of about median energy.
		var feasible []*dst.Solution
		n, m := len(in.Tasks), len(in.Processors)
		assign := make([]int, n)
		for {
			if sched, err := p.colour(assign); err == nil {
				if ev, err := in.Evaluate(assign, sched); err == nil && ev.OK() {
					feasible = append(feasible, ev.Solution(assign, sched))
				}
			}
			i := 0
			for ; i < n; i++ {
				if assign[i]++; assign[i] < m {
					break
				}
				assign[i] = 0
			}
			if i == n {
				break
			}
		}
		slices.SortFunc(feasible, func(a, b *dst.Solution) int { return cmp.Compare(a.E, b.E) })
		poor := feasible[len(feasible)/2]
		if poor.E <= ex.Objective*(1+1e-6) {
			continue
		}
		blocks := make([]int, m)
		for _, q := range poor.Assignment {
			blocks[q]++
		}
		lp.best = poor
		lp.loads, lp.perm = lp.bounder.Canonical(blocks)
		if lp.proof, err = lp.bounder.Search(context.Background(), poor.E); err != nil {
			t.Fatal(err)
		}
		if lp.proof.Proved() {
			t.Fatalf("%s: a mapping of %g J proved optimal; the optimum is %g", in.Name, poor.E, ex.Objective)
		}
		p.loads = lp
		res := solveStencil(t, p, highs.New(), "highs")
		if !strings.Contains(res.Message, "load-vector search") {
			continue // too many open vectors: the whole model was solved
		}
		multi++
		if res.Status != solve.StatusOptimal || math.Abs(*res.Objective-ex.Objective) > 1e-6*ex.Objective {
			t.Fatalf("%s: status %s energy %v, enumeration %.9g (%s)", in.Name, res.Status, fmtPtr(res.Objective), ex.Objective, res.Message)
		}
	}
	if multi < 4 {
		t.Fatalf("only %d instances solved open vectors", multi)
	}
}

func TestExactBackendProvesTinyGridsByLoads(t *testing.T) {
	// 3×2×2 blocks on a CPU and two GPUs: 3^12 mappings, too many to enumerate, so
	// --backend exact is the load-vector search.
	in := dst.NewThesisInstance("grid-3x2x2", dst.Grid{NX: 3, NY: 2, NZ: 2}, []dst.ThesisProc{dst.ThesisCPU(), dst.ThesisGPU(), dst.ThesisGPU()}, 200e-6)
	p := stencilProblem(t, in)
	res, err := p.Solve(context.Background(), solve.Request{Backend: solve.Exact})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != solve.StatusOptimal || !strings.HasPrefix(res.Solver, "load-vector search") {
		t.Fatalf("status %s solver %q", res.Status, res.Solver)
	}
	milp := solveStencil(t, stencilProblem(t, in), highs.New(), "highs")
	whole := stencilProblem(t, in)
	whole.NoLoadSearch = true
	plain := solveStencil(t, whole, highs.New(), "highs")
	for _, r := range []*solve.Result{milp, plain} {
		if r.Status != solve.StatusOptimal || math.Abs(*r.Objective-*res.Objective) > 1e-6**res.Objective {
			t.Fatalf("%s: status %s energy %v; exact %.9g", r.Solver, r.Status, fmtPtr(r.Objective), *res.Objective)
		}
	}
}

func fmtPtr(x *float64) string {
	if x == nil {
		return "null"
	}
	return fmt.Sprintf("%.9g", *x)
}
