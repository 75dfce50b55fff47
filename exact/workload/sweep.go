package workload

import (
	"context"
	"fmt"
	"sort"

	dw "github.com/schedopt/schedopt/domain/workload"
)

// Oracle returns a minimum-energy distribution among those with makespan at most tau
// (E*(τ) of ref §1.9), with its actual makespan in Point.T; ok is false when no
// distribution meets tau.
type Oracle func(ctx context.Context, tau float64) (pt Point, ok bool, err error)

// Sweep computes the (makespan, energy) front by the exact time-threshold
// ε-constraint of ref §1.9: every makespan is a table time, so E*(τ) is a step
// function of τ over thetas (sorted, distinct) and the front points are its strict
// decreases, each attained with makespan exactly τ. No δ step is needed.
//
// Instead of solving at every threshold, Sweep bisects: when E*(θ_lo) equals E*(θ_hi)
// no front point lies in between; a solution found at θ with actual makespan τ' < θ
// also fixes E*(τ') = E*(θ). This takes O(|front|·log|thetas|) oracle calls instead of
// |thetas|. equal reports whether two energies count as equal (the oracle's
// tolerance). Thresholds below the optimal makespan are skipped by the caller
// (thetas[0] must be feasible).
func Sweep(ctx context.Context, thetas []float64, oracle Oracle, equal func(a, b float64) bool) (Front, int, error) {
	if len(thetas) == 0 {
		return nil, 0, ErrInfeasible
	}
	known := make(map[int]Point)
	calls := 0
	eval := func(k int) (int, error) {
		if _, done := known[k]; done {
			return k, nil
		}
		calls++
		pt, ok, err := oracle(ctx, thetas[k])
		if err != nil {
			return 0, err
		}
		if !ok {
			return 0, fmt.Errorf("workload: sweep: threshold %g infeasible above the optimal makespan", thetas[k])
		}
		known[k] = pt
		// The solution's own makespan is a table time τ' ≤ θ_k with E*(τ') = E*(θ_k).
		k2 := sort.SearchFloat64s(thetas, pt.T)
		if k2 < len(thetas) && thetas[k2] == pt.T && k2 < k {
			if _, done := known[k2]; !done {
				known[k2] = pt
			}
			return k2, nil
		}
		return k, nil
	}
	var rec func(lo, hi int) error
	rec = func(lo, hi int) error {
		if hi-lo <= 1 || equal(known[lo].E, known[hi].E) {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		mid := (lo + hi) / 2
		k, err := eval(mid)
		if err != nil {
			return err
		}
		if k < lo {
			k = lo
		}
		if err := rec(lo, max(k, lo)); err != nil {
			return err
		}
		return rec(mid, hi)
	}
	if _, err := eval(0); err != nil {
		return nil, calls, err
	}
	last := len(thetas) - 1
	if _, err := eval(last); err != nil {
		return nil, calls, err
	}
	if err := rec(0, last); err != nil {
		return nil, calls, err
	}
	pts := make([]Point, 0, len(known))
	for _, p := range known {
		pts = append(pts, p)
	}
	return nonDominatedEq(pts, equal), calls, nil
}

// nonDominatedEq is NonDominated with a caller-chosen energy equality.
func nonDominatedEq(pts []Point, equal func(a, b float64) bool) Front {
	s := append([]Point(nil), pts...)
	sort.SliceStable(s, func(a, b int) bool {
		if s[a].T != s[b].T {
			return s[a].T < s[b].T
		}
		if s[a].E != s[b].E {
			return s[a].E < s[b].E
		}
		return s[a].Active < s[b].Active
	})
	var f Front
	for _, p := range s {
		if len(f) == 0 {
			f = append(f, p)
			continue
		}
		last := f[len(f)-1]
		if p.E < last.E && !equal(p.E, last.E) {
			f = append(f, p)
		}
	}
	return f
}

// EqualEnergy is the default energy equality of the exact algorithms.
func EqualEnergy(a, b float64) bool { return !less(a, b) && !less(b, a) }

// MCKPSweep computes the front with Sweep over the MinEnergy DP: the combinatorial
// twin of the MILP ε-constraint loop (ref §1.9).
func MCKPSweep(ctx context.Context, ts *dw.Tables) (Front, error) {
	return sweepFromMinMakespan(ctx, ts, MinEnergy)
}

// sweepFromMinMakespan runs Sweep over the table times from the minimum makespan up,
// with minEnergy solving each ε-constraint step E*(τ).
func sweepFromMinMakespan(ctx context.Context, ts *dw.Tables,
	minEnergy func(context.Context, *dw.Tables, float64) (Point, bool, error)) (Front, error) {
	tstar, err := MinMakespan(ctx, ts)
	if err != nil {
		return nil, err
	}
	th := Thetas(ts)
	th = th[sort.SearchFloat64s(th, tstar):]
	f, _, err := Sweep(ctx, th, func(ctx context.Context, tau float64) (Point, bool, error) {
		return minEnergy(ctx, ts, tau)
	}, EqualEnergy)
	return f, err
}

// Representatives replaces every point's distribution by one with the fewest active
// processors among those with makespan ≤ T and minimum energy under that threshold
// (the lexicographic MinEnergy DP). It fails if the DP disagrees with a point's
// energy, which would mean the front is wrong.
func Representatives(ctx context.Context, ts *dw.Tables, f Front, minEnergy Oracle) (Front, error) {
	out := make(Front, len(f))
	for k, q := range f {
		pt, ok, err := minEnergy(ctx, q.T)
		if err != nil {
			return nil, err
		}
		if !ok || !EqualEnergy(pt.E, q.E) || pt.T != q.T {
			return nil, fmt.Errorf("workload: front point (T=%g, E=%g) is not confirmed by the min-energy DP (got T=%g, E=%g, ok=%v)", q.T, q.E, pt.T, pt.E, ok)
		}
		out[k] = pt
	}
	return out, nil
}
