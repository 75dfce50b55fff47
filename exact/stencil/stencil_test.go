package stencil

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	dom "github.com/schedopt/schedopt/domain/stencil"
)

// bruteProfile returns the least boundary weight (in s's units) of k blocks by
// enumeration: the test's own isoperimetric profile, independent of exact/gridcut.
func bruteProfile(in *dom.Instance, s GridShape) []int64 {
	n := len(in.Tasks)
	out := make([]int64, n+1)
	for k := range out {
		out[k] = math.MaxInt64
	}
	for set := 0; set < 1<<n; set++ {
		var cells float64
		for _, a := range in.Arcs {
			if (set>>a.From)&1 == 1 && (set>>a.To)&1 == 0 {
				cells += a.Cells // each boundary face once, from inside out
			}
		}
		k := 0
		for u := 0; u < n; u++ {
			k += (set >> u) & 1
		}
		out[k] = min(out[k], int64(math.Round(cells/s.Unit)))
	}
	return out
}

// energyWithDelta prices a mapping with Δ(M) rounds, a lower bound on its true
// rounds χ'(M): the energy is then at most the evaluator's.
func energyWithDelta(in *dom.Instance, assign []int) (float64, bool) {
	mu, err := in.Bundles(assign)
	if err != nil {
		panic(err)
	}
	var delta int64
	for p := range mu {
		var d int64
		for _, x := range mu[p] {
			d += x
		}
		delta = max(delta, d)
	}
	m := len(in.Processors)
	cells := make([]float64, m)
	for u, p := range assign {
		cells[p] += in.Tasks[u].Cells
	}
	maxBusy, e := 0.0, 0.0
	for p, pr := range in.Processors {
		maxBusy = math.Max(maxBusy, cells[p]*pr.TimePerCell)
		e += cells[p] * pr.EnergyPerCell
		if cells[p] > pr.MemoryCells {
			return 0, false
		}
	}
	ts := math.Max(maxBusy, float64(delta)*in.RoundTime)
	for p, pr := range in.Processors {
		e += pr.IdlePower * (ts - cells[p]*pr.TimePerCell)
	}
	for _, a := range in.Arcs {
		if p, k := assign[a.From], assign[a.To]; p != k {
			e += a.Cells * in.LinkEnergy[p][k]
		}
	}
	return e, ts <= in.Deadline*(1+dom.TimeTol)
}

// randomGridInstance is a block grid of at most 8 blocks on 2-4 thesis processors,
// with random round time, deadline and (sometimes) non-uniform links.
func randomGridInstance(r *rand.Rand) *dom.Instance {
	dims := [][3]int{{2, 2, 1}, {3, 2, 1}, {2, 2, 2}, {4, 2, 1}, {3, 1, 1}, {4, 1, 1}, {5, 1, 1}}
	d := dims[r.IntN(len(dims))]
	g := dom.Grid{NX: d[0], NY: d[1], NZ: d[2]}
	for a := range g.Periodic {
		g.Periodic[a] = r.IntN(3) == 0
	}
	var procs []dom.ThesisProc
	m := 2 + r.IntN(3)
	if m == 4 && d[0]*d[1]*d[2] > 6 {
		m = 3 // keep 4^n mappings small
	}
	for i := 0; i < m; i++ {
		if r.IntN(2) == 0 {
			procs = append(procs, dom.ThesisCPU())
		} else {
			procs = append(procs, dom.ThesisGPU())
		}
	}
	in := dom.NewThesisInstance("random", g, procs, 0)
	in.RoundTime = []float64{4e-6, 20e-6, 60e-6}[r.IntN(3)]
	n := float64(len(in.Tasks))
	lb := in.ComputationLowerBound()
	in.Deadline = lb * (1 + r.Float64()*n/2)
	if r.IntN(3) == 0 {
		for p := range in.LinkTime {
			for k := range in.LinkTime[p] {
				if p != k {
					in.LinkTime[p][k] = float64(1+r.IntN(2)) / 4096
					in.LinkEnergy[p][k] *= 0.5 + r.Float64()
				}
			}
		}
	}
	return in
}

func TestBoundNeverExceedsTheEnergyOfAMappingWithThoseLoads(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 1))
	tight := 0
	for trial := 0; trial < 60; trial++ {
		in := randomGridInstance(r)
		t.Run(fmt.Sprintf("%d", trial), func(t *testing.T) {
			s, err := Shape(in)
			if err != nil {
				t.Fatal(err)
			}
			prof := bruteProfile(in, s)
			b, err := NewBounder(in, s, prof)
			if err != nil {
				t.Fatal(err)
			}
			n, m := len(in.Tasks), len(in.Processors)
			best := map[string]float64{} // least energy per canonical load vector
			assign := make([]int, n)
			for {
				loads := make([]int, m)
				for _, p := range assign {
					loads[p]++
				}
				canon, _ := b.Canonical(loads)
				lb, ok := b.Bound(loads)
				lbc, okc := b.Bound(canon)
				if ok != okc || ok && math.Abs(lb-lbc) > 1e-12*math.Abs(lb) {
					t.Fatalf("loads %v: bound %g (%v), canonical %v: %g (%v)", loads, lb, ok, canon, lbc, okc)
				}
				e, feasible := energyWithDelta(in, assign)
				if feasible {
					if !ok {
						t.Fatalf("mapping %v meets the deadline, its loads %v are declared infeasible", assign, loads)
					}
					if lb > e*(1+1e-12) {
						t.Fatalf("mapping %v: energy %.12g with Δ rounds, bound %.12g", assign, e, lb)
					}
					key := fmt.Sprint(canon)
					if v, seen := best[key]; !seen || e < v {
						best[key] = e
					}
				}
				i := 0
				for ; i < n; i++ {
					assign[i]++
					if assign[i] < m {
						break
					}
					assign[i] = 0
				}
				if i == n {
					break
				}
			}
			// With two processors in use and uniform links the bound is attained: a
			// least-boundary set and its complement.
			uniform := true
			for p := range in.LinkTime {
				for k := range in.LinkTime[p] {
					uniform = uniform && (p == k || in.LinkTime[p][k] == in.LinkTime[0][1] && in.LinkEnergy[p][k] == in.LinkEnergy[0][1])
				}
			}
			pf, err := b.Search(context.Background(), math.Inf(1))
			if err != nil {
				t.Fatal(err)
			}
			// The bound may keep vectors no mapping meets (their cut is larger than the
			// profile), never drop one that some mapping meets.
			kept := map[string]bool{}
			for _, c := range pf.Open {
				kept[fmt.Sprint(c.Loads)] = true
			}
			for key := range best {
				if !kept[key] {
					t.Fatalf("search dropped %s, which a mapping meets", key)
				}
			}
			for _, c := range pf.Open {
				used := 0
				for _, k := range c.Loads {
					if k > 0 {
						used++
					}
				}
				e, ok := best[fmt.Sprint(c.Loads)]
				if ok && used == 2 && uniform {
					if math.Abs(c.Bound-e) > 1e-9*e {
						t.Fatalf("two processors %v: bound %.12g, least energy %.12g", c.Loads, c.Bound, e)
					}
					tight++
				}
			}
		})
	}
	if tight < 20 {
		t.Fatalf("only %d two-processor vectors checked for tightness", tight)
	}
}

func TestSearchProvesTheOptimumOfTinyGridsItCloses(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 2))
	proved := 0
	for trial := 0; trial < 40; trial++ {
		in := randomGridInstance(r)
		s, err := Shape(in)
		if err != nil {
			t.Fatal(err)
		}
		b, err := NewBounder(in, s, bruteProfile(in, s))
		if err != nil {
			t.Fatal(err)
		}
		// The optimum by enumeration (with Δ rounds, a lower bound on the true one).
		opt := math.Inf(1)
		n, m := len(in.Tasks), len(in.Processors)
		assign := make([]int, n)
		for {
			if e, ok := energyWithDelta(in, assign); ok {
				opt = math.Min(opt, e)
			}
			i := 0
			for ; i < n; i++ {
				assign[i]++
				if assign[i] < m {
					break
				}
				assign[i] = 0
			}
			if i == n {
				break
			}
		}
		pf, err := b.Search(context.Background(), opt)
		if err != nil {
			t.Fatal(err)
		}
		if pf.Bound > opt*(1+1e-12) {
			t.Fatalf("trial %d: bound %g above the optimum %g", trial, pf.Bound, opt)
		}
		// An incumbent above the optimum is never proved: the optimum's vector stays
		// open.
		high, err := b.Search(context.Background(), opt*(1+1e-6))
		if err != nil {
			t.Fatal(err)
		}
		if !math.IsInf(opt, 1) && high.Proved() {
			t.Fatalf("trial %d: %g, above the optimum %g, was proved optimal", trial, opt*(1+1e-6), opt)
		}
		if pf.Proved() {
			proved++
		}
	}
	if proved < 10 {
		t.Fatalf("the search closed only %d of 40 tiny instances", proved)
	}
}

func TestShapeRejectsWhatIsNotAGridStencil(t *testing.T) {
	base := func() *dom.Instance {
		return dom.NewThesisInstance("g", dom.Grid{NX: 3, NY: 2, NZ: 2, Periodic: [3]bool{true, false, false}}, []dom.ThesisProc{dom.ThesisCPU(), dom.ThesisGPU()}, 0)
	}
	if _, err := Shape(base()); err != nil {
		t.Fatalf("the generator's grid: %v", err)
	}
	for name, spoil := range map[string]func(*dom.Instance){
		"no grid":        func(in *dom.Instance) { in.Grid = nil },
		"unequal blocks": func(in *dom.Instance) { in.Tasks[1].Cells *= 2 },
		"missing arc":    func(in *dom.Instance) { in.Arcs = in.Arcs[1:] },
		"foreign arc":    func(in *dom.Instance) { in.Arcs[0].To = (in.Arcs[0].From + 5) % len(in.Tasks) },
		"uneven faces":   func(in *dom.Instance) { in.Arcs[0].Cells *= 2 },
	} {
		in := base()
		spoil(in)
		if _, err := Shape(in); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestCanonicalOrdersIdenticalProcessors(t *testing.T) {
	in := dom.NewThesisInstance("g", dom.Grid{NX: 2, NY: 2, NZ: 1}, []dom.ThesisProc{dom.ThesisCPU(), dom.ThesisCPU(), dom.ThesisGPU(), dom.ThesisGPU()}, 1)
	s, err := Shape(in)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewBounder(in, s, bruteProfile(in, s))
	if err != nil {
		t.Fatal(err)
	}
	canon, perm := b.Canonical([]int{0, 1, 1, 2})
	if fmt.Sprint(canon) != "[1 0 2 1]" {
		t.Fatalf("canonical %v", canon)
	}
	for p, q := range perm {
		if []int{0, 1, 1, 2}[p] != canon[q] {
			t.Fatalf("perm %v does not carry the loads", perm)
		}
	}
}
