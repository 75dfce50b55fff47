package workload

import (
	"context"
	"fmt"
	"math"
	"sort"

	dw "github.com/schedopt/schedopt/domain/workload"
)

// ctxEvery is how many inner DP rows run between two context checks.
const ctxEvery = 64

// Feasible reports whether some distribution with makespan at most tau sums to N: a
// subset-sum over bitsets restricted to the points with time ≤ tau.
func Feasible(ts *dw.Tables, tau float64) bool { return dw.ReachableWithin(ts, tau) }

// MinMakespan returns the optimal makespan T* (HPOPT, ref §1.2): a binary search over
// the distinct table times with the feasibility DP, O(N·Σm/64·log Σm).
func MinMakespan(ctx context.Context, ts *dw.Tables) (float64, error) {
	th := Thetas(ts)
	if len(th) == 0 || !Feasible(ts, th[len(th)-1]) {
		return 0, ErrInfeasible
	}
	var err error
	k := sort.Search(len(th), func(i int) bool {
		if err == nil {
			err = ctx.Err()
		}
		return err == nil && Feasible(ts, th[i])
	})
	if err != nil {
		return 0, err
	}
	return th[k], nil
}

// lexLess orders (energy, active count) lexicographically, energies within the
// energy tolerance counting as equal.
func lexLess(e1 float64, a1 int32, e2 float64, a2 int32) bool {
	if math.IsInf(e1, 1) || math.IsInf(e2, 1) {
		return e1 < e2
	}
	if less(e1, e2) {
		return true
	}
	if less(e2, e1) {
		return false
	}
	return a1 < a2
}

// MinEnergy solves E*(tau) = min Σ e_i(x_i) s.t. Σ x_i = N, t_i(x_i) ≤ tau (ref §1.9,
// the multiple-choice knapsack with an exact-sum row):
//
//	F_i[w] = min( F_{i-1}[w], min_j F_{i-1}[w − x_ij] + e_ij ),  t_ij ≤ tau,
//
// lexicographically in (energy, active processors), so the returned distribution has
// the fewest active processors among the minimum-energy ones. Use tau = +Inf for the
// unconstrained EOPT optimum. ok is false when no distribution meets tau. Cost
// O(N·Σm); memory O(p·N) for the choices.
func MinEnergy(ctx context.Context, ts *dw.Tables, tau float64) (pt Point, ok bool, err error) {
	p, N := ts.P(), ts.N
	inf := math.Inf(1)
	F := make([]float64, N+1)
	A := make([]int32, N+1)
	G := make([]float64, N+1)
	B := make([]int32, N+1)
	for w := 1; w <= N; w++ {
		F[w] = inf
	}
	choice := make([][]int32, p) // point index chosen by processor i at remaining w, -1 idle
	for i, t := range ts.Procs {
		if i%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return Point{}, false, err
			}
		}
		ch := make([]int32, N+1)
		copy(G, F)
		copy(B, A)
		for w := range ch {
			ch[w] = -1
		}
		for j, x := range t.Size {
			if x > N {
				break
			}
			if t.Time[j] > tau {
				continue
			}
			e := t.Energy[j]
			for w := x; w <= N; w++ {
				if f := F[w-x]; f != inf {
					if lexLess(f+e, A[w-x]+1, G[w], B[w]) {
						G[w], B[w], ch[w] = f+e, A[w-x]+1, int32(j)
					}
				}
			}
		}
		F, G = G, F
		A, B = B, A
		choice[i] = ch
	}
	if F[N] == inf {
		return Point{}, false, nil
	}
	x := make([]int, p)
	w := N
	for i := p - 1; i >= 0; i-- {
		if j := choice[i][w]; j >= 0 {
			x[i] = ts.Procs[i].Size[j]
			w -= x[i]
		}
	}
	pt, good := pointOf(ts, x)
	if !good || w != 0 {
		return Point{}, false, fmt.Errorf("workload: min-energy DP reconstructed an invalid distribution %v", x)
	}
	return pt, true, nil
}

// MinTotal returns the distribution minimising static·T + E over the front f
// (Prop. 10.11: the total-energy optimum lies on the dynamic front).
func MinTotal(f Front, static float64) (Point, bool) {
	best, ok := Point{}, false
	for _, q := range f {
		if !ok || less(static*q.T+q.E, static*best.T+best.E) {
			best, ok = q, true
		}
	}
	return best, ok
}
