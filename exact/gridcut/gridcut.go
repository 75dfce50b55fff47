package gridcut

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
)

// Axis is one axis of a block grid: Len blocks, a path or (Periodic) a cycle, and the
// weight of each edge between neighbours along it (for example the cells of the
// face they share, or round quanta per face).
type Axis struct {
	Len      int
	Periodic bool
	Weight   int64
}

// links returns the weight between consecutive layers along a and whether the last
// layer is also linked to the first. As in domain/stencil.BlockGrid, a periodic axis
// of length 2 links its two layers twice (both faces reach the same neighbour) and a
// periodic axis of length 1 links nothing.
func (a Axis) links() (w int64, cyclic bool) {
	switch {
	case a.Len <= 1:
		return 0, false
	case a.Periodic && a.Len == 2:
		return 2 * a.Weight, false
	default:
		return a.Weight, a.Periodic
	}
}

// Grid is a block grid of three axes (a 2-D grid has an axis of length 1); block
// (i, j, k) has index i + j·N1 + k·N1·N2, as in domain/stencil.
type Grid [3]Axis

// Cells returns the number of blocks.
func (g Grid) Cells() int { return g[0].Len * g[1].Len * g[2].Len }

// Edge is an edge of the grid graph with its weight.
type Edge struct {
	U, V   int
	Weight int64
}

// Edges lists the edges of the grid graph (parallel faces of a periodic axis of
// length 2 merged into one edge of twice the weight).
func (g Grid) Edges() []Edge {
	var out []Edge
	n := [3]int{g[0].Len, g[1].Len, g[2].Len}
	id := func(c [3]int) int { return c[0] + c[1]*n[0] + c[2]*n[0]*n[1] }
	for k := 0; k < n[2]; k++ {
		for j := 0; j < n[1]; j++ {
			for i := 0; i < n[0]; i++ {
				c := [3]int{i, j, k}
				for a := 0; a < 3; a++ {
					w, cyclic := g[a].links()
					if w == 0 {
						continue
					}
					d := c
					d[a]++
					if d[a] == n[a] {
						if !cyclic {
							continue
						}
						d[a] = 0
					}
					out = append(out, Edge{U: id(c), V: id(d), Weight: w})
				}
			}
		}
	}
	return out
}

// Result is an isoperimetric profile: Min[k] ≤ the least boundary weight of a set of
// k blocks, for k = 0..Cells. Exact says that every entry is attained.
type Result struct {
	Min    []int64
	Exact  bool
	Method string
}

// limits bound the exact dynamic program.
type limits struct {
	// sliceCells bounds the cells of a slice (the DP has 2^cells states per count).
	sliceCells int
	// wrapCells bounds the slice of a periodic slicing axis, whose first slice is
	// fixed in turn (2^cells runs of the DP).
	wrapCells int
	// work bounds the elementary steps of the DP (about a second per 10⁹ on the
	// machines we use).
	work float64
}

// defaultLimits are Profile's.
var defaultLimits = limits{sliceCells: 16, wrapCells: 8, work: 2e9}

// maxBruteCells bounds the grids Brute enumerates.
const maxBruteCells = 24

// ErrTooLarge is returned by Brute for grids of more than 24 blocks, and by Profile
// for grids whose total edge weight does not fit the int64 sums of the DP.
var ErrTooLarge = errors.New("gridcut: grid too large")

// maxTotalWeight bounds the total edge weight Profile accepts: every sum it forms is
// at most that, far from the int64 limit and from its own infinity.
const maxTotalWeight = 1 << 58

// Brute returns the exact profile by enumerating all subsets (tests, tiny grids).
func Brute(g Grid) ([]int64, error) {
	n := g.Cells()
	if n > maxBruteCells {
		return nil, fmt.Errorf("%w: %d blocks", ErrTooLarge, n)
	}
	edges := g.Edges()
	best := make([]int64, n+1)
	for k := range best {
		best[k] = math.MaxInt64
	}
	for s := uint32(0); s < 1<<n; s++ {
		var b int64
		for _, e := range edges {
			if (s>>e.U)&1 != (s>>e.V)&1 {
				b += e.Weight
			}
		}
		k := bits.OnesCount32(s)
		best[k] = min(best[k], b)
	}
	return best, nil
}

// Profile returns the isoperimetric profile of g: exact by the slice DP when some
// axis has small enough slices, otherwise the layer bound. It stops when ctx is done.
func Profile(ctx context.Context, g Grid) (Result, error) {
	return profile(ctx, g, defaultLimits)
}

func profile(ctx context.Context, g Grid, lim limits) (Result, error) {
	for a := range g {
		if g[a].Len < 1 || g[a].Weight < 0 {
			return Result{}, fmt.Errorf("gridcut: axis %d: length %d and weight %d must be ≥ 1 and ≥ 0", a, g[a].Len, g[a].Weight)
		}
	}
	n := g.Cells()
	total := 0.0
	for a := range g {
		total += float64(g[a].Weight) * 2 * float64(n)
	}
	if total > maxTotalWeight {
		return Result{}, fmt.Errorf("%w: total edge weight about %g", ErrTooLarge, total)
	}
	if n == 1 {
		return Result{Min: []int64{0, 0}, Exact: true, Method: "single block"}, nil
	}
	bestAxis, bestWork := -1, math.Inf(1)
	for a := range g {
		if g[a].Len == 1 {
			continue
		}
		if w, ok := exactWork(g, a, lim); ok && w < bestWork && dpFits(g) {
			bestAxis, bestWork = a, w
		}
	}
	if bestAxis >= 0 && bestWork <= lim.work {
		m, err := sliceDP(ctx, g, bestAxis)
		if err != nil {
			return Result{}, err
		}
		return Result{Min: m, Exact: true, Method: fmt.Sprintf("slice DP along axis %d", bestAxis)}, nil
	}
	out := make([]int64, n+1)
	method := "layer bound (best over axes)"
	for a := range g {
		if g[a].Len == 1 {
			continue
		}
		if layerWork(g, a) > lim.work {
			// Too slow for this axis; the others, or the zero bound, remain valid.
			method = "layer bound (best over the affordable axes)"
			continue
		}
		lb, err := layerBound(ctx, g, a, lim)
		if err != nil {
			return Result{}, err
		}
		for k := range out {
			out[k] = max(out[k], lb[k])
		}
	}
	for k := range out {
		out[k] = max(out[k], out[n-k])
	}
	return Result{Min: out, Method: method}, nil
}

// layerWork estimates the steps of the layer bound along a (its own part, without the
// layer's profile).
func layerWork(g Grid, a int) float64 {
	c := float64(cross(g, a).Cells() + 1)
	work := float64(g[a].Len) * float64(g.Cells()+1) * c * c
	if _, cyclic := g[a].links(); cyclic {
		work *= c
	}
	return work
}

// cross returns the grid of one slice across axis a (axis a of length 1).
func cross(g Grid, a int) Grid {
	c := g
	c[a] = Axis{Len: 1, Weight: 0}
	return c
}

// exactWork estimates the steps of the slice DP along a; ok is false when the slices
// are too large.
func exactWork(g Grid, a int, lim limits) (float64, bool) {
	w := cross(g, a).Cells()
	_, cyclic := g[a].links()
	if w > lim.sliceCells || cyclic && w > lim.wrapCells {
		return 0, false
	}
	work := float64(g[a].Len) * float64(g.Cells()/2+1) * float64(w+1) * math.Exp2(float64(w))
	if cyclic {
		work *= math.Exp2(float64(w))
	}
	return work, true
}

const inf = math.MaxInt64 / 4

// sliceDP computes the exact profile by dynamic programming over the slices along a.
// Values are held as int32 (half the memory traffic of int64); sliceDP is only called
// when they fit (dpFits).
func sliceDP(ctx context.Context, g Grid, a int) ([]int64, error) {
	cg := cross(g, a)
	w := cg.Cells()
	size := 1 << w
	// Boundary of each slice mask inside the slice.
	inner := make([]int32, size)
	for _, e := range cg.Edges() {
		for s := 0; s < size; s++ {
			if (s>>e.U)&1 != (s>>e.V)&1 {
				inner[s] += int32(e.Weight)
			}
		}
	}
	link64, cyclic := g[a].links()
	link := int32(link64)
	n := g.Cells()
	half := n / 2
	pop := make([]int, size)
	for s := range pop {
		pop[s] = bits.OnesCount(uint(s))
	}
	best := make([]int64, n+1)
	for k := range best {
		best[k] = inf
	}
	cur := make([][]int32, half+1)
	next := make([][]int32, half+1)
	for c := range cur {
		cur[c] = make([]int32, size)
		next[c] = make([]int32, size)
	}
	tmp := make([]int32, size)
	firsts := []int{-1}
	if cyclic {
		firsts = firsts[:0]
		for s := 0; s < size; s++ {
			if pop[s] <= half {
				firsts = append(firsts, s)
			}
		}
	}
	for _, first := range firsts {
		for c := range cur {
			fill(cur[c], inf32)
		}
		for s := 0; s < size; s++ {
			if (first < 0 || s == first) && pop[s] <= half {
				cur[pop[s]][s] = inner[s]
			}
		}
		for layer := 1; layer < g[a].Len; layer++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			for c := range next {
				fill(next[c], inf32)
			}
			// Counts above layer·w are unreachable after layer slices.
			for c := 0; c <= min(half, layer*w); c++ {
				copy(tmp, cur[c])
				distanceTransform(tmp, w, link)
				for s, v := range tmp {
					nc := c + pop[s]
					if v >= inf32 || nc > half {
						continue
					}
					if x := v + inner[s]; x < next[nc][s] {
						next[nc][s] = x
					}
				}
			}
			cur, next = next, cur
		}
		for c := 0; c <= half; c++ {
			for s, v := range cur[c] {
				if v >= inf32 {
					continue
				}
				if cyclic {
					v += link * int32(pop[s^first])
				}
				best[c] = min(best[c], int64(v))
			}
		}
	}
	for k := half + 1; k <= n; k++ {
		best[k] = best[n-k]
	}
	return best, nil
}

// inf32 is the int32 DP's infinity: far above any boundary it holds (dpFits), and
// inf32 + w does not overflow.
const inf32 = math.MaxInt32 / 4

// dpFits reports whether every boundary of g fits the int32 DP below inf32.
func dpFits(g Grid) bool {
	var total int64
	for _, e := range g.Edges() {
		total += e.Weight
	}
	return total < inf32/4
}

func fill(f []int32, v int32) {
	for i := range f {
		f[i] = v
	}
}

// distanceTransform replaces f by T ↦ min_S f(S) + w·|S ⊕ T| over the masks of w bits.
func distanceTransform(f []int32, nbits int, w int32) {
	for b := 0; b < nbits; b++ {
		bit := 1 << b
		for base := 0; base < len(f); base += 2 * bit {
			lo, hi := f[base:base+bit], f[base+bit:base+2*bit]
			for i, x := range lo {
				y := hi[i]
				if y+w < x {
					lo[i] = y + w
				} else if x+w < y {
					hi[i] = x + w
				}
			}
		}
	}
}

// layerBound returns, for every k, the least Σ_i P(m_i) + w·Σ|m_i − m_j| over layer
// counts along axis a that sum to k, P the profile of one layer.
func layerBound(ctx context.Context, g Grid, a int, lim limits) ([]int64, error) {
	sub, err := profile(ctx, cross(g, a), lim)
	if err != nil {
		return nil, err
	}
	p := sub.Min
	c := len(p) - 1 // cells per layer
	n := g.Cells()
	link, cyclic := g[a].links()
	L := g[a].Len
	best := make([]int64, n+1)
	for k := range best {
		best[k] = inf
	}
	cur := make([][]int64, n+1) // [total][last layer's count]
	next := make([][]int64, n+1)
	for t := range cur {
		cur[t] = make([]int64, c+1)
		next[t] = make([]int64, c+1)
	}
	firsts := []int{-1}
	if cyclic {
		firsts = firsts[:0]
		for m := 0; m <= c; m++ {
			firsts = append(firsts, m)
		}
	}
	abs := func(x int) int64 {
		if x < 0 {
			return int64(-x)
		}
		return int64(x)
	}
	for _, first := range firsts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for t := range cur {
			for m := range cur[t] {
				cur[t][m] = inf
			}
		}
		for m := 0; m <= c; m++ {
			if first < 0 || m == first {
				cur[m][m] = p[m]
			}
		}
		for layer := 1; layer < L; layer++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			for t := range next {
				for m := range next[t] {
					next[t][m] = inf
				}
			}
			for t := 0; t <= n; t++ {
				for m, v := range cur[t] {
					if v >= inf {
						continue
					}
					for m2 := 0; m2 <= c && t+m2 <= n; m2++ {
						if x := v + link*abs(m-m2) + p[m2]; x < next[t+m2][m2] {
							next[t+m2][m2] = x
						}
					}
				}
			}
			cur, next = next, cur
		}
		for t := 0; t <= n; t++ {
			for m, v := range cur[t] {
				if v >= inf {
					continue
				}
				if cyclic {
					v += link * abs(m-first)
				}
				best[t] = min(best[t], v)
			}
		}
	}
	return best, nil
}
