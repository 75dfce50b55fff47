package workload

import (
	"context"
	"math"
	"sort"

	dw "github.com/schedopt/schedopt/domain/workload"
)

// entry is one point of a partial Pareto set: the time rank of its makespan and its
// energy.
type entry struct {
	r int32
	e float64
}

// level holds the Pareto sets of all remaining workloads w at one processor level, in
// CSR form: the set of w is ent[off[w]:off[w+1]], sorted by increasing time rank and
// strictly decreasing energy.
type level struct {
	off []int32
	ent []entry
}

func (l *level) set(w int) []entry { return l.ent[l.off[w]:l.off[w+1]] }

// ParetoDP computes the (makespan, dynamic energy) front with the bi-objective dynamic
// program of ref §2.8:
//
//	Pareto(c, w) = ND( ∪_{x ∈ {0} ∪ pts_c, x ≤ w} { (max(t_c(x), τ'), e_c(x) + e') : (τ', e') ∈ Pareto(c+1, w−x) } )
//
// with Pareto(p, 0) = {(0, 0)} and Pareto(p, w>0) = ∅, computed from the last processor
// backwards. It uses no pruning, so it is the plain oracle the other methods are
// checked against. The representatives come from the lexicographic MinEnergy DP (fewest
// active processors). Cost O(N·Σm·|front|) time and O(N·|front|) memory.
func ParetoDP(ctx context.Context, ts *dw.Tables) (Front, error) {
	vals, err := ParetoValues(ctx, ts)
	if err != nil {
		return nil, err
	}
	return Representatives(ctx, ts, vals, func(ctx context.Context, tau float64) (Point, bool, error) {
		return MinEnergy(ctx, ts, tau)
	})
}

// ParetoValues is ParetoDP without the representatives: the front's (T, E) values
// only, with nil Sizes.
func ParetoValues(ctx context.Context, ts *dw.Tables) (Front, error) {
	th := append([]float64{0}, Thetas(ts)...)
	if len(th) > 1 && th[1] == 0 {
		th = th[1:]
	}
	rank := func(t float64) int32 { return int32(sort.SearchFloat64s(th, t)) }
	p, N := ts.P(), ts.N
	// Precompute the time rank of every point.
	ranks := make([][]int32, p)
	for i, t := range ts.Procs {
		ranks[i] = make([]int32, t.Len())
		for j, v := range t.Time {
			ranks[i][j] = rank(v)
		}
	}
	// Level p: only w = 0 is possible, with the empty distribution.
	next := &level{off: make([]int32, N+2)}
	next.ent = []entry{{0, 0}}
	for w := 1; w <= N+1; w++ {
		next.off[w] = 1
	}
	inf := math.Inf(1)
	best := make([]float64, len(th))
	for r := range best {
		best[r] = inf
	}
	var touched []int32
	add := func(r int32, e float64) {
		if best[r] == inf {
			touched = append(touched, r)
		}
		if e < best[r] {
			best[r] = e
		}
	}
	for c := p - 1; c >= 0; c-- {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t := ts.Procs[c]
		cur := &level{off: make([]int32, N+2)}
		wFrom, wTo := 0, N
		if c == 0 {
			wFrom = N // only the whole workload matters at the root
		}
		for w := 0; w <= N+1; w++ {
			if w < wFrom || w > wTo {
				cur.off[w] = int32(len(cur.ent))
				continue
			}
			cur.off[w] = int32(len(cur.ent))
			if w%256 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			touched = touched[:0]
			// Idle: the child set unchanged.
			for _, q := range next.set(w) {
				add(q.r, q.e)
			}
			for j, x := range t.Size {
				if x > w {
					break
				}
				sub := next.set(w - x)
				if len(sub) == 0 {
					continue
				}
				rx, ex := ranks[c][j], t.Energy[j]
				// Children faster than t_c(x) collapse onto rank rx; the cheapest of them is
				// the last one with rank ≤ rx (energies decrease with rank).
				k := sort.Search(len(sub), func(i int) bool { return sub[i].r > rx })
				if k > 0 {
					add(rx, ex+sub[k-1].e)
				}
				for _, q := range sub[k:] {
					add(q.r, ex+q.e)
				}
			}
			if len(touched) > 0 {
				sort.Slice(touched, func(a, b int) bool { return touched[a] < touched[b] })
				run := inf
				for _, r := range touched {
					if e := best[r]; run == inf || less(e, run) {
						cur.ent = append(cur.ent, entry{r, e})
						run = e
					}
					best[r] = inf
				}
			}
		}
		cur.off[N+1] = int32(len(cur.ent))
		next = cur
	}
	root := next.set(N)
	if len(root) == 0 {
		return nil, ErrInfeasible
	}
	f := make(Front, len(root))
	for k, q := range root {
		f[k] = Point{T: th[q.r], E: q.e}
	}
	return f, nil
}
