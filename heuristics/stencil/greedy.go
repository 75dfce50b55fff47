package stencil

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	dom "github.com/schedopt/schedopt/domain/stencil"
)

// speedTol absorbs float error in t_max/t_p before the integer division of the speeds.
const speedTol = 1e-9

// Order is a task order of Load Balancing.
type Order int

// Task orders: IJK lets i vary fastest (block id order), JIK j, KIJ k; Random is a
// seeded random permutation (the thesis's RD). KJI lets k vary fastest and i slowest,
// so that consecutive processors get slabs across the I axis, the longest of the
// chapter 7 grids (the author's code has it; the thesis's tables do not use it).
const (
	IJK Order = iota
	JIK
	KIJ
	Random
	KJI
)

// String returns the order's name as in the thesis's tables.
func (o Order) String() string {
	switch o {
	case IJK:
		return "IJK"
	case JIK:
		return "JIK"
	case KIJ:
		return "KIJ"
	case Random:
		return "RD"
	case KJI:
		return "KJI"
	}
	return fmt.Sprintf("Order(%d)", int(o))
}

// Speeds returns the integer speeds r_p = ⌊t_max / t_p⌋ of the simulator (per-cell
// times; with the thesis's 218 and 28 µs blocks: CPU 1, GPU 7).
func Speeds(in *dom.Instance) []int64 {
	tmax := 0.0
	for _, p := range in.Processors {
		tmax = math.Max(tmax, p.TimePerCell)
	}
	r := make([]int64, len(in.Processors))
	for i, p := range in.Processors {
		r[i] = int64(math.Floor(tmax/p.TimePerCell + speedTol))
	}
	return r
}

// Quotas returns the perfect heterogeneous shares q_i = w_V·r_i/Σ r_p in cells.
func Quotas(in *dom.Instance) []float64 {
	r := Speeds(in)
	var sum int64
	for _, x := range r {
		sum += x
	}
	w := in.TotalCells()
	q := make([]float64, len(r))
	for i, x := range r {
		q[i] = w * float64(x) / float64(sum)
	}
	return q
}

// TaskOrder returns the tasks in the given order. IJK, JIK and KIJ need the instance's
// block grid (the id order is IJK); Random uses seed.
func TaskOrder(in *dom.Instance, o Order, seed uint64) ([]int, error) {
	n := len(in.Tasks)
	order := make([]int, 0, n)
	if o == Random {
		order = rand.New(rand.NewPCG(seed, 0x5eed)).Perm(n)
		return order, nil
	}
	g := in.Grid
	if g == nil {
		if o == IJK {
			for u := 0; u < n; u++ {
				order = append(order, u)
			}
			return order, nil
		}
		return nil, fmt.Errorf("stencil: order %s needs the instance's block grid", o)
	}
	id := func(i, j, k int) int { return i + j*g.NX + k*g.NX*g.NY }
	switch o {
	case IJK:
		for k := 0; k < g.NZ; k++ {
			for j := 0; j < g.NY; j++ {
				for i := 0; i < g.NX; i++ {
					order = append(order, id(i, j, k))
				}
			}
		}
	case JIK:
		for k := 0; k < g.NZ; k++ {
			for i := 0; i < g.NX; i++ {
				for j := 0; j < g.NY; j++ {
					order = append(order, id(i, j, k))
				}
			}
		}
	case KIJ:
		for j := 0; j < g.NY; j++ {
			for i := 0; i < g.NX; i++ {
				for k := 0; k < g.NZ; k++ {
					order = append(order, id(i, j, k))
				}
			}
		}
	case KJI:
		for i := 0; i < g.NX; i++ {
			for j := 0; j < g.NY; j++ {
				for k := 0; k < g.NZ; k++ {
					order = append(order, id(i, j, k))
				}
			}
		}
	default:
		return nil, fmt.Errorf("stencil: unknown order %d", int(o))
	}
	return order, nil
}

// filler runs the common frame of the greedy heuristics: processors in order, each
// filled while its load is strictly below its quota, with next choosing the task.
type filler struct {
	in     *dom.Instance
	assign []int
	left   int
	quota  []float64
}

func newFiller(in *dom.Instance) *filler {
	return newFillerQuotas(in, Quotas(in))
}

func newFillerQuotas(in *dom.Instance, quota []float64) *filler {
	f := &filler{in: in, assign: make([]int, len(in.Tasks)), left: len(in.Tasks), quota: quota}
	for u := range f.assign {
		f.assign[u] = -1
	}
	return f
}

// run fills every processor; next(p, s) returns the next task for processor p whose
// load is s, and placed(u, p) is told about each placement.
func (f *filler) run(start func(p int), next func(p int, s float64) int, placed func(u, p int)) []int {
	m := len(f.in.Processors)
	for p := 0; p < m && f.left > 0; p++ {
		if start != nil {
			start(p)
		}
		s := 0.0
		for s < f.quota[p] && f.left > 0 {
			u := next(p, s)
			f.assign[u] = p
			f.left--
			s += f.in.Tasks[u].Cells
			if placed != nil {
				placed(u, p)
			}
		}
	}
	// Quotas cover the total load, so nothing is left for equal tasks; unequal ones
	// could leave some behind: they go to the last processor.
	for u, p := range f.assign {
		if p < 0 {
			f.assign[u] = m - 1
		}
	}
	return f.assign
}

// LoadBalancing is Alg_1 (Algorithm 2): take the tasks in the given order and fill the
// processors up to their shares, ignoring communication.
func LoadBalancing(in *dom.Instance, o Order, seed uint64) ([]int, error) {
	order, err := TaskOrder(in, o, seed)
	if err != nil {
		return nil, err
	}
	f := newFiller(in)
	i := 0
	return f.run(nil, func(int, float64) int { i++; return order[i-1] }, nil), nil
}

// adjacency returns, per task, its distinct neighbours and the number of arcs (both
// directions, parallel ones counted) to each.
func adjacency(in *dom.Instance) (nbrs [][]int, arcs []map[int]int) {
	n := len(in.Tasks)
	arcs = make([]map[int]int, n)
	for u := range arcs {
		arcs[u] = map[int]int{}
	}
	for _, a := range in.Arcs {
		arcs[a.From][a.To]++
		arcs[a.To][a.From]++
	}
	nbrs = make([][]int, n)
	for u := range arcs {
		for v := range arcs[u] {
			nbrs[u] = append(nbrs[u], v)
		}
		slices.Sort(nbrs[u]) // map order is random; keep the heuristics deterministic
	}
	return nbrs, arcs
}

// DegreeMinimisation is Alg_2 (Algorithm 3): take the unmapped task with the fewest
// arcs to unmapped tasks (ties: the last such task); mapping a task lowers its unmapped
// neighbours' degrees by the arcs between them. With published set, only task 0 starts
// with its true degree and all others with 0, as in the code behind Tables 6.6-6.11.
func DegreeMinimisation(in *dom.Instance, published bool) []int {
	return minDegree(in, published, true)
}

// MulticutMinimisation is Alg_3 (Algorithm 4): as DegreeMinimisation, counting
// distinct unmapped neighbours instead of arcs.
func MulticutMinimisation(in *dom.Instance, published bool) []int {
	return minDegree(in, published, false)
}

func minDegree(in *dom.Instance, published, countArcs bool) []int {
	nbrs, arcs := adjacency(in)
	n := len(in.Tasks)
	deg := make([]int, n)
	weight := func(u, v int) int {
		if countArcs {
			return arcs[u][v]
		}
		return 1
	}
	for u := 0; u < n; u++ {
		if published && u != 0 {
			continue
		}
		for _, v := range nbrs[u] {
			deg[u] += weight(u, v)
		}
	}
	f := newFiller(in)
	next := func(int, float64) int {
		best := -1
		for u := 0; u < n; u++ {
			if f.assign[u] < 0 && (best < 0 || deg[u] <= deg[best]) {
				best = u
			}
		}
		return best
	}
	placed := func(u, _ int) {
		for _, v := range nbrs[u] {
			if f.assign[v] < 0 {
				deg[v] -= weight(u, v)
			}
		}
	}
	return f.run(nil, next, placed)
}

// NeighboursAccumulation is Alg_4 (Algorithm 5) with load factor f: while the
// processor's load s is at most f·q, take the unmapped task with the most neighbours
// already on it (none adjacent: the task of largest degree); above f·q take the task
// minimising deg − N, the neighbours it would leave elsewhere. Ties go to the first
// task. f is rounded to float32 as in the thesis's code.
func NeighboursAccumulation(in *dom.Instance, f float64) []int {
	return NeighboursAccumulationQuotas(in, f, Quotas(in))
}

// NeighboursAccumulationQuotas is NeighboursAccumulation with given quotas (cells per
// processor, filled in instance order) instead of the speed shares. With a quota that
// leaves the last processor the rest, it grows compact regions on the others: the
// shapes of the ILP optima of Tables 6.4/6.5, useful as MIP starts.
func NeighboursAccumulationQuotas(in *dom.Instance, f float64, quota []float64) []int {
	nbrs, _ := adjacency(in)
	n := len(in.Tasks)
	deg := make([]int, n)
	for u := range deg {
		deg[u] = len(nbrs[u])
	}
	N := make([]int, n)
	ff := float64(float32(f))
	fl := newFillerQuotas(in, quota)
	start := func(int) {
		for u := range N {
			N[u] = 0
		}
	}
	next := func(p int, s float64) int {
		best := -1
		if s <= ff*fl.quota[p] {
			for u, bestN := 0, 0; u < n; u++ {
				if fl.assign[u] < 0 && N[u] > bestN {
					best, bestN = u, N[u]
				}
			}
			if best < 0 {
				for u, bestD := 0, -1; u < n; u++ {
					if fl.assign[u] < 0 && deg[u] > bestD {
						best, bestD = u, deg[u]
					}
				}
			}
			return best
		}
		for u, bestX := 0, math.MaxInt; u < n; u++ {
			if fl.assign[u] < 0 && deg[u]-N[u] < bestX {
				best, bestX = u, deg[u]-N[u]
			}
		}
		return best
	}
	placed := func(u, _ int) {
		for _, v := range nbrs[u] {
			if fl.assign[v] < 0 {
				N[v]++
			}
		}
	}
	return fl.run(start, next, placed)
}

// RegionGrowing is a start heuristic of ours (not in the thesis): each processor in
// turn grows one region from the unmapped task of fewest neighbours, adding the task
// that increases the region's cut the least (distinct neighbours outside minus those
// inside), ties to the task that comes first in order (nil: id order); the quotas are
// filled as in the other heuristics. With packing quotas and the grid orders it finds
// compact boundary regions like those of the ILP optima.
func RegionGrowing(in *dom.Instance, quota []float64, order []int) []int {
	nbrs, _ := adjacency(in)
	n := len(in.Tasks)
	if order == nil {
		order = make([]int, n)
		for u := range order {
			order[u] = u
		}
	}
	N := make([]int, n)
	fl := newFillerQuotas(in, quota)
	start := func(int) {
		for u := range N {
			N[u] = 0
		}
	}
	next := func(int, float64) int {
		best, bestX := -1, math.MaxInt
		for _, u := range order {
			if fl.assign[u] >= 0 {
				continue
			}
			if x := len(nbrs[u]) - 2*N[u]; x < bestX {
				best, bestX = u, x
			}
		}
		return best
	}
	placed := func(u, _ int) {
		for _, v := range nbrs[u] {
			if fl.assign[v] < 0 {
				N[v]++
			}
		}
	}
	return fl.run(start, next, placed)
}

// PackingStart fills the processors in the order procs, each with tasks taken in the
// order order while its load stays within frac of the cells it can process by the
// instance's deadline; tasks left over when the capacities fall short go to the last
// processor of procs. It is a start of ours for Task Movement, not the thesis's: with
// the processors grouped by node and the tasks in slabs (KJI), it maps the grid onto as
// few nodes as the deadline allows, leaving the search to repair the rounds.
func PackingStart(in *dom.Instance, procs, order []int, frac float64) ([]int, error) {
	if len(procs) == 0 || len(order) != len(in.Tasks) {
		return nil, fmt.Errorf("stencil: packing start: %d processors, %d of %d tasks ordered", len(procs), len(order), len(in.Tasks))
	}
	a := make([]int, len(in.Tasks))
	i := 0
	for _, p := range procs {
		if p < 0 || p >= len(in.Processors) {
			return nil, fmt.Errorf("stencil: packing start: no processor %d", p)
		}
		capacity := frac * in.Deadline / in.Processors[p].TimePerCell
		load := 0.0
		for i < len(order) && load+in.Tasks[order[i]].Cells <= capacity*(1+dom.TimeTol) {
			load += in.Tasks[order[i]].Cells
			a[order[i]] = p
			i++
		}
	}
	for ; i < len(order); i++ {
		a[order[i]] = procs[len(procs)-1]
	}
	return a, nil
}
