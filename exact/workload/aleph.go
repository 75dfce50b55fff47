package workload

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

	dw "github.com/schedopt/schedopt/domain/workload"
)

// AlephObjective selects ALEPHCORE's single objective.
type AlephObjective int

// ALEPHCORE objectives (seed 003 Algorithm 2, "Obj").
const (
	AlephTime   AlephObjective = iota // minimise max_i t(x_i)
	AlephEnergy                       // minimise Σ_i e(x_i)
)

// alephMemo is one memo entry memo(⌊n/p⌋, p, n mod p) of ref §2.11 — the key is the
// pair (n, p) — holding the last point index examined and the best choice found: r
// processors on point L plus the optimum of the rest (n − r·x_L on p − r processors).
type alephMemo struct {
	end  int // last index of X examined; −1 before any
	f    float64
	L, r int // the choice; L = −1 for "all idle" (n = 0) or the p = 1 base case
}

// aleph runs ALEPHCORE on the sorted partial model X (sizes in granules) with times
// tt and energies ee.
type aleph struct {
	ctx    context.Context
	X      []int
	tt, ee []float64
	memo   [2]map[[2]int]*alephMemo
	steps  int
	cands  [][]int // top-level candidates (UPDATEPARETOSET's input), one per evaluation
}

func (a *aleph) value(obj AlephObjective, k int) float64 {
	if obj == AlephTime {
		return a.tt[k]
	}
	return a.ee[k]
}

func (a *aleph) combine(obj AlephObjective, r int, k int, rest float64) float64 {
	if obj == AlephTime {
		return math.Max(a.tt[k], rest)
	}
	return float64(r)*a.ee[k] + rest
}

// index returns the index of size x in X, or −1.
func (a *aleph) index(x int) int {
	k := sort.SearchInts(a.X, x)
	if k < len(a.X) && a.X[k] == x {
		return k
	}
	return -1
}

// core is ALEPHCORE(Obj, n, p, F): the optimum of sharing n among p identical
// processors using points of index ≤ F, corrected as in ref §2.11: the largest size
// of a distribution is at least n/p, so L runs from the first index with p·X[L] ≥ n up
// to F; r processors take X[L] and the rest n − r·X[L] is solved recursively on p − r
// processors with indices ≤ L (the recursion level is incremented; below the top level
// r = 1 suffices, which keeps the work at O(n·p·|X|)); a memo entry
// examined up to a larger index is reused (its optimum is a feasible, no worse value)
// and one examined less far is resumed from its ending index with its best value
// kept, not reset to the balanced one; infeasible remainders (a size missing from the
// partial model) count as +Inf instead of reading S[n] out of range; processors may
// stay idle.
func (a *aleph) core(obj AlephObjective, n, p, F, level int) (float64, error) {
	if n == 0 {
		return 0, nil
	}
	if p == 1 {
		k := a.index(n)
		if k < 0 || k > F {
			return math.Inf(1), nil
		}
		return a.value(obj, k), nil
	}
	key := [2]int{n, p}
	m := a.memo[obj][key]
	if m == nil {
		m = &alephMemo{end: -1, f: math.Inf(1), L: -1}
		a.memo[obj][key] = m
	}
	if m.end >= F && level > 1 {
		return m.f, nil
	}
	a.steps++
	if a.steps%4096 == 0 {
		if err := a.ctx.Err(); err != nil {
			return 0, err
		}
	}
	start := sort.Search(len(a.X), func(i int) bool { return a.X[i]*p >= n })
	if m.end+1 > start && level > 1 {
		start = m.end + 1
	}
	rmax := p
	if level > 1 {
		// Below the top level one processor per step suffices: the rest may take X[L]
		// again (indices ≤ L), so r copies arise from r levels. The top level keeps the
		// r loop because UPDATEPARETOSET sees its candidates.
		rmax = 1
	}
	for L := start; L <= F && L < len(a.X); L++ {
		for r := 1; r <= rmax; r++ {
			nl := n - r*a.X[L]
			if nl < 0 {
				break
			}
			if r == p && nl != 0 {
				break
			}
			if p-r == 0 && nl != 0 {
				continue
			}
			rest, err := a.core(obj, nl, p-r, L, level+1)
			if err != nil {
				return 0, err
			}
			f := a.combine(obj, r, L, rest)
			if level == 1 && !math.IsInf(f, 1) {
				a.cands = append(a.cands, a.unfold(obj, n, p, L, r))
			}
			if f < m.f {
				m.f, m.L, m.r = f, L, r
			}
			if nl == 0 {
				break
			}
		}
	}
	if F > m.end {
		m.end = F
	}
	return m.f, nil
}

// unfold rebuilds the distribution "r × X[L] + the memoised optimum of the rest".
func (a *aleph) unfold(obj AlephObjective, n, p, L, r int) []int {
	var out []int
	for i := 0; i < r; i++ {
		out = append(out, a.X[L])
	}
	n -= r * a.X[L]
	p -= r
	for n > 0 && p > 0 {
		if p == 1 {
			out = append(out, n)
			n, p = 0, 0
			break
		}
		m := a.memo[obj][[2]int{n, p}]
		if m == nil || m.L < 0 || math.IsInf(m.f, 1) {
			return nil
		}
		for i := 0; i < m.r; i++ {
			out = append(out, a.X[m.L])
		}
		n -= m.r * a.X[m.L]
		p -= m.r
	}
	if n != 0 {
		return nil
	}
	for ; p > 0; p-- {
		out = append(out, 0)
	}
	return out
}

// ErrNoBalanced is returned by AdaptAleph when it must fall back to the load-balanced
// distribution and that distribution uses sizes missing from the tables.
var ErrNoBalanced = errors.New("workload: the load-balanced distribution uses sizes missing from the tables")

// AlephResult is ADAPTALEPH's output.
type AlephResult struct {
	Front      Front // the locally Pareto-optimal set, sorted by T
	Balanced   Point // the load-balanced distribution (ok only if BalancedOK)
	BalancedOK bool
	Fallback   bool  // heterogeneity was detected: only the balanced solution is returned
	Points     int   // points in the partial model
	TimeOpt    Point // ALEPHCORE(TIME)'s optimum over the partial model
	EnergyOpt  Point // ALEPHCORE(ENERGY)'s optimum over the partial model
}

// AlephVariationTol is ADAPTALEPH's default ε: the largest relative spread (max−min)/min
// of time or energy across processors at a neighbourhood size before the processors
// are deemed heterogeneous (seed 003 uses 0.05).
const AlephVariationTol = 0.05

// AdaptAleph is seed 003's Algorithm 1 over the given tables: it builds the partial
// model of the 2T+1 sizes ⌊N/p⌋ − T .. ⌊N/p⌋ + T granules (clipped at 1 granule and at
// the table), falls back to the load-balanced distribution (⌊N/p⌋, +1 on the first N
// mod p processors) when the processors' times or energies differ by more than
// AlephVariationTol there, and otherwise runs ALEPHCORE for TIME and for ENERGY,
// keeping the non-dominated set of the top-level candidates (UPDATEPARETOSET) and the
// load-balanced distribution. With T covering the whole table the two optima are
// exact; the front is locally Pareto-optimal, not guaranteed global (ref §2.11).
func AdaptAleph(ctx context.Context, ts *dw.Tables, T int) (*AlephResult, error) {
	p, N := ts.P(), ts.N
	res := &AlephResult{}
	// Load-balanced distribution (seed 003 [L241, L253]).
	bal := dw.Balanced(N, p)
	if pt, ok := pointOf(ts, bal); ok {
		res.Balanced, res.BalancedOK = pt, true
	}
	// Partial model around N/p.
	c := N / p
	var X []int
	var tt, ee []float64
	t0 := ts.Procs[0]
	for x := max(1, c-T); x <= c+T; x++ {
		k := ts.Index(0, x)
		if k < 0 {
			continue
		}
		lo, hi := [2]float64{t0.Time[k], t0.Energy[k]}, [2]float64{t0.Time[k], t0.Energy[k]}
		present := true
		for i := 1; i < p; i++ {
			ki := ts.Index(i, x)
			if ki < 0 {
				present = false
				break
			}
			v := [2]float64{ts.Procs[i].Time[ki], ts.Procs[i].Energy[ki]}
			for d := 0; d < 2; d++ {
				lo[d], hi[d] = math.Min(lo[d], v[d]), math.Max(hi[d], v[d])
			}
		}
		if !present || spread(lo[0], hi[0]) > AlephVariationTol || spread(lo[1], hi[1]) > AlephVariationTol {
			res.Fallback = true
			break
		}
		X = append(X, x)
		tt = append(tt, t0.Time[k])
		ee = append(ee, t0.Energy[k])
	}
	res.Points = len(X)
	if res.Fallback || len(X) == 0 {
		res.Fallback = true
		if !res.BalancedOK {
			return nil, fmt.Errorf("%w: ADAPTALEPH fell back to %v", ErrNoBalanced, scale(bal, ts.Granule))
		}
		res.Front = Front{res.Balanced}
		return res, nil
	}
	a := &aleph{ctx: ctx, X: X, tt: tt, ee: ee}
	a.memo[0] = map[[2]int]*alephMemo{}
	a.memo[1] = map[[2]int]*alephMemo{}
	var pts []Point
	if res.BalancedOK {
		pts = append(pts, res.Balanced)
	}
	for _, obj := range []AlephObjective{AlephTime, AlephEnergy} {
		a.cands = a.cands[:0]
		if _, err := a.core(obj, N, p, len(X)-1, 1); err != nil {
			return nil, err
		}
		var best Point
		found := false
		for _, x := range a.cands {
			if len(x) != p {
				continue
			}
			pt, ok := pointOf(ts, x)
			if !ok {
				continue
			}
			pts = append(pts, pt)
			v, bv := pt.T, best.T
			if obj == AlephEnergy {
				v, bv = pt.E, best.E
			}
			if !found || v < bv {
				best, found = pt, true
			}
		}
		if obj == AlephTime {
			res.TimeOpt = best
		} else {
			res.EnergyOpt = best
		}
	}
	if len(pts) == 0 {
		return nil, ErrInfeasible
	}
	res.Front = NonDominated(pts)
	return res, nil
}

func spread(lo, hi float64) float64 {
	if lo <= 0 {
		if hi <= 0 {
			return 0
		}
		return math.Inf(1)
	}
	return (hi - lo) / lo
}
