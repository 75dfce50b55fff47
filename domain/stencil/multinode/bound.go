package multinode

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/schedopt/schedopt/domain/stencil"
)

// Bound is a lower bound on the energy of every mapping that meets the instance's
// deadline, and its parts.
type Bound struct {
	E float64 // Load + Comm

	// Load bounds computation and idle energy: the LP over fractional loads
	// c_p ≤ ts/t_p, Σ c_p = all cells, of Σ_p c_p(e_p − P^idle_p t_p) + ts Σ_p P^idle_p,
	// minimised over ts between the fluid computation bound and the deadline.
	Load float64
	TS   float64 // the ts at which Load is attained

	// Comm bounds communication energy level by level: an arc between processors
	// at level L costs at least ê(L), the least arc energy at level ≥ L, which is the
	// sum of the increments ê(j+1) − ê(j) over the levels j < L whose groups it leaves
	// (level 0: processors, 1: nodes, then the network's groups); at least Cut arcs
	// leave groups of level j, so Comm = Σ_j increment_j · Cut_j.
	Comm   float64
	Levels []LevelCut
}

// LevelCut is one level of the communication bound.
type LevelCut struct {
	Level    int     // 0 processors, 1 nodes, ≥ 2 network groups
	Capacity int64   // most tasks one group of the level can hold by the deadline
	Cut      int64   // arcs that must leave the groups of the level
	Energy   float64 // J each such arc costs beyond the lower levels
}

// groupCapacity returns the largest total capacity of a group of level j: a maximal
// set of processors whose pairs are all at level ≤ j.
func groupCapacity(s *System, capOf []int64, j int) int64 {
	m := len(s.Procs)
	seen := make([]bool, m)
	var best int64
	for p := 0; p < m; p++ {
		if seen[p] {
			continue
		}
		var c int64
		for k := 0; k < m; k++ {
			if k == p || s.Level[p][k] <= j {
				seen[k] = true
				c += capOf[k]
			}
		}
		best = max(best, c)
	}
	return best
}

// LowerBound returns a lower bound on the energy of any mapping of in (built by
// s.Instance on grid g, equal tasks, non-periodic) that meets in.Deadline. It is a
// decomposition bound: computation and idle energy by an LP over loads alone; the
// communication energy by counting the arcs any partition of the grid into node-sized
// (processor-sized) parts must cut. A part of s blocks has at least h(s) boundary
// adjacencies (h1, from compression and Loomis-Whitney, applied to the part and to its
// complement); the cut arcs of a partition are Σ_parts ∂S_i (each cut adjacency is two
// arcs and lies on two parts' boundaries), at least the least Σ h(s_i) over part sizes
// within the capacity (minCut). ctx stops the enumeration (checked every 16 sizes).
func LowerBound(ctx context.Context, s *System, in *stencil.Instance, g stencil.Grid) (Bound, error) {
	if g.Periodic != [3]bool{} {
		return Bound{}, fmt.Errorf("multinode: lower bound: periodic grids are not supported")
	}
	n := len(in.Tasks)
	if n == 0 || len(in.Arcs) == 0 {
		return Bound{}, fmt.Errorf("multinode: lower bound: the instance has %d tasks and %d arcs", n, len(in.Arcs))
	}
	if g.NX*g.NY*g.NZ != n || len(in.Processors) != len(s.Procs) {
		return Bound{}, fmt.Errorf("multinode: lower bound: instance does not match the grid and system")
	}
	var b Bound
	b.Load, b.TS = loadBound(in)
	if math.IsInf(b.Load, 1) {
		return b, fmt.Errorf("multinode: lower bound: the deadline %g s is below the computation bound", in.Deadline)
	}
	// Capacities in tasks (equal tasks).
	cells := in.Tasks[0].Cells
	capOf := make([]int64, len(in.Processors))
	for p, pr := range in.Processors {
		capOf[p] = int64(math.Floor(in.Deadline*(1+stencil.TimeTol)/(pr.TimePerCell*cells) + 1e-9))
	}
	// ê(L) = least arc energy between processors at level ≥ L (nondecreasing).
	maxL := 0
	for p := range s.Level {
		maxL = max(maxL, slices.Max(s.Level[p]))
	}
	arcCells := in.Arcs[0].Cells
	eAt := make([]float64, maxL+2)
	for L := range eAt {
		eAt[L] = math.Inf(1)
	}
	for p := range in.Processors {
		for k := range in.Processors {
			if p != k {
				L := s.Level[p][k]
				eAt[L] = math.Min(eAt[L], arcCells*in.LinkEnergy[p][k])
			}
		}
	}
	eAt[0], eAt[maxL+1] = 0, math.Inf(1)
	for L := maxL; L >= 1; L-- {
		eAt[L] = math.Min(eAt[L], eAt[L+1])
	}
	prof := newProfile(g)
	prev := 0.0
	for j := 0; j < maxL; j++ {
		// Groups of level j: processors whose pairs are all at level ≤ j (j = 0: one
		// processor each). An arc at level L > j leaves its level-j group.
		inc := eAt[j+1] - prev
		prev = eAt[j+1]
		if math.IsInf(inc, 1) || inc <= 0 {
			continue
		}
		gc := groupCapacity(s, capOf, j)
		cut, err := prof.minCut(ctx, gc)
		if err != nil {
			return b, err
		}
		b.Levels = append(b.Levels, LevelCut{Level: j, Capacity: gc, Cut: cut, Energy: inc})
		b.Comm += inc * float64(cut)
	}
	b.E = b.Load + b.Comm
	return b, nil
}

// loadBound returns min over ts of ts·ΣP^idle + K(ts), K(ts) the fractional knapsack
// of all cells into capacities ts/t_p at cost e_p − P^idle_p t_p per cell. K is the
// value of an LP whose right-hand side is linear in ts, hence convex and piecewise
// linear: the minimum is at the fluid bound, the deadline, or a breakpoint where the
// cheapest processors alone just hold every cell.
func loadBound(in *stencil.Instance) (float64, float64) {
	total := in.TotalCells()
	m := len(in.Processors)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	cost := func(p int) float64 {
		pr := in.Processors[p]
		return pr.EnergyPerCell - pr.IdlePower*pr.TimePerCell
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := cost(a) - cost(b); c != 0 {
			return int(math.Copysign(1, c))
		}
		return a - b
	})
	sumIdle := 0.0
	for _, pr := range in.Processors {
		sumIdle += pr.IdlePower
	}
	lo := in.ComputationLowerBound()
	hi := in.Deadline
	F := func(ts float64) float64 {
		left := total
		v := ts * sumIdle
		for _, p := range order {
			c := math.Min(left, ts/in.Processors[p].TimePerCell)
			v += c * cost(p)
			if left -= c; left <= 0 {
				return v
			}
		}
		return math.Inf(1)
	}
	cands := []float64{lo, hi}
	rate := 0.0
	for _, p := range order {
		rate += 1 / in.Processors[p].TimePerCell
		if t := total / rate; t > lo && t < hi {
			cands = append(cands, t)
		}
	}
	best, at := math.Inf(1), 0.0
	for _, t := range cands {
		// the fluid bound is attained only in the limit: nudge by the time tolerance
		if v := F(t * (1 + 1e-12)); v < best {
			best, at = v, t
		}
	}
	return best, at
}

// profile computes the boundary bound h(s) of a box grid.
type profile struct {
	n [3]int
	N int
	h []int64 // h[s] = max(h1(s), h1(N−s)), computed on demand
}

func newProfile(g stencil.Grid) *profile {
	return &profile{n: [3]int{g.NX, g.NY, g.NZ}, N: g.NX * g.NY * g.NZ}
}

// h1 returns a lower bound on the edge boundary of any set of s blocks. By compression
// (pushing every line of the set to an initial segment never increases the boundary of
// a set in a product of paths) the least boundary is attained by a down-set, whose
// boundary is exactly Σ_axes (A_i − F_i): A_i lines along axis i meet the set and
// F_i of them lie inside it. For a down-set of size s these satisfy
// A_x·A_y·A_z ≥ s² (Loomis-Whitney), ⌈s/n_i⌉ ≤ A_i ≤ min(s, N/n_i),
// F_i·n_i + (A_i − F_i) ≤ s, and F_x ≤ A_y·A_z/n_x² (the full x-lines form a
// rectangle-bounded set whose y and z extents each spread over n_x-cell rows of the
// other two projections); h1 minimises Σ (A_i − F_i) under these constraints over
// integer A, taking each F_i as large as they allow.
func (pf *profile) h1(s int) int64 {
	if s <= 0 || s >= pf.N {
		return 0
	}
	n := pf.n
	S := int64(s)
	var lo, hi, nn [3]int64
	for i := 0; i < 3; i++ {
		nn[i] = int64(n[i])
		lo[i] = (S + nn[i] - 1) / nn[i]
		hi[i] = min(S, int64(pf.N/n[i]))
	}
	ss := S * S
	fx, fy, fz := float64(nn[0]), float64(nn[1]), float64(nn[2])
	best := math.Inf(1)
	for ax := lo[0]; ax <= hi[0]; ax++ {
		// every term is at least A_i − ⌊s/n_i⌋ (the others are ≥ 0): prune
		lbx := float64(ax - min(S/nn[0], ax))
		if lbx >= best {
			break
		}
		for ay := lo[1]; ay <= hi[1]; ay++ {
			if lbx+float64(ay-min(S/nn[1], ay)) >= best {
				break
			}
			az0 := max(lo[2], (ss+ax*ay-1)/(ax*ay))
			if az0 > hi[2] {
				continue
			}
			// For fixed A_x, A_y the F caps of x and y lines grow with A_z, that of z
			// lines falls: without the floors the cost is a continuous piecewise-linear
			// lower bound of the integer cost, minimal at an end or a breakpoint.
			k0 := min(float64(S/nn[0]), float64(ax))
			if nn[0] > 1 {
				k0 = min(k0, float64((S-ax)/(nn[0]-1)))
			}
			k1 := min(float64(S/nn[1]), float64(ay))
			if nn[1] > 1 {
				k1 = min(k1, float64((S-ay)/(nn[1]-1)))
			}
			cz := min(float64(S/nn[2]), float64(ax*ay)/(fz*fz))
			X, Y := float64(ax), float64(ay)
			g := func(az float64) float64 {
				f2 := min(cz, az)
				if nn[2] > 1 {
					f2 = min(f2, (float64(S)-az)/(fz-1))
				}
				return X - min(k0, Y*az/(fx*fx)) + Y - min(k1, X*az/(fy*fy)) + az - max(0, f2)
			}
			a0, a1 := float64(az0), float64(hi[2])
			cands := [...]float64{a0, a1, cz, float64(S) - cz*(fz-1), float64(S) / fz, float64(S),
				k0 * fx * fx / Y, k1 * fy * fy / X}
			for _, az := range cands {
				if az >= a0 && az <= a1 {
					best = math.Min(best, g(az))
				}
			}
		}
	}
	if math.IsInf(best, 1) {
		return 0
	}
	return int64(math.Ceil(best - 1e-9))
}

// minCut returns the least Σ_i h(s_i) over sizes 0 ≤ s_i ≤ capacity with Σ s_i = N
// (an unbounded knapsack over the part sizes, h(s) = max(h1(s), h1(N−s))): a lower
// bound on the arcs cut by any partition of the grid into parts of at most capacity
// blocks. It returns ctx's error soon after ctx is done.
func (pf *profile) minCut(ctx context.Context, capacity int64) (int64, error) {
	c := int(min(capacity, int64(pf.N)))
	if c >= pf.N {
		return 0, nil
	}
	if c <= 0 {
		return 0, fmt.Errorf("multinode: lower bound: no processor can hold a task by the deadline")
	}
	for s := len(pf.h); s <= c; s++ {
		if s%16 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
		pf.h = append(pf.h, max(pf.h1(s), pf.h1(pf.N-s)))
	}
	h := pf.h
	best := make([]int64, pf.N+1)
	for t := 1; t <= pf.N; t++ {
		b := int64(math.MaxInt64)
		for s := 1; s <= min(t, c); s++ {
			b = min(b, best[t-s]+h[s])
		}
		best[t] = b
	}
	return best[pf.N], nil
}
