package isoeff

import (
	"fmt"
	"math"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
	"github.com/schedopt/schedopt/exact/dltbb"
)

// ChainLowerBound returns a lower bound on T(m, n, V) of (5.17)-(5.26) for any m: the
// smallest T for which n messages sent one after the other, each computed on-core by a
// machine of its own right after it arrives, can carry V. In any schedule, with the
// messages in link order, message j starts at t_j >= S + (j − 1)O + C Σ_{k<j} α_k
// ((5.18), (5.21)) and its chunk is done at t_j + O + C α_j + τ(α_j) <= T (5.19), and
// τ(α) >= a_1 α (5.16), so
//
//	T >= S + jO + C Σ_{k<j} α_k + (C + a_1) α_j   for j = 1..n,   Σ_j α_j = V.
//
// It drops only the rule that a machine computes one chunk at a time, so it is tight
// when every machine gets at most one message (m >= n, V in core) and weak for small m.
// For a given T the largest load is the greedy one (each α_j as large as its row
// allows: one more MB early costs only C/(C + a_1) of an MB later), so T is found by
// bisection to a relative 1e-12.
func ChainLowerBound(mc dm.Machine, n int, V float64) float64 {
	load := func(T float64) float64 {
		sum := 0.0
		for j := 1; j <= n; j++ {
			a := (T - mc.S - float64(j)*mc.O - mc.C*sum) / (mc.C + mc.A1)
			if a > 0 {
				sum += a
			}
		}
		return sum
	}
	lo, hi := 0.0, mc.S+float64(n)*mc.O+(mc.C+mc.A1)*V // one message carrying V meets its row
	for hi-lo > 1e-12*hi {
		mid := (lo + hi) / 2
		if load(mid) >= V {
			hi = mid
		} else {
			lo = mid
		}
	}
	return lo
}

// CapacityLowerBound returns S + O + (C + a_1)V/m, a lower bound on T(m, n, V): every
// machine receives and computes its share of V at no less than C + a_1 per MB
// ((5.19), (5.20), τ >= a_1 α), after its first message starts (>= S) and one O (the
// homogeneous case of exact/dltbb.CapacityLowerBoundTime).
func CapacityLowerBound(mc dm.Machine, m int, V float64) float64 {
	return mc.S + mc.O + (mc.C+mc.A1)*V/float64(m)
}

// SuffixLowerBound returns a lower bound on T(m, n, V) of (5.17)-(5.26), the optimum
// of a linear program in the chunk sizes α_1..α_n (in link order) and T. With
// t_j = S + (j − 1)O + C Σ_{k<j} α_k, a lower bound on the start of message j ((5.18),
// (5.21)), its rows are, for j = 1..n:
//
//	chain:  t_j + O + (C + a_1)α_j <= T  and  t_j + O + (C + a_2)α_j + b_2 <= T
//	suffix: (C + a)Σ_{k>=j} α_k + (n − j + 1)(O + b) <= Σ_{r<c_j} (T − t_{j+r}),
//	        c_j = min(m, n − j + 1), (a, b) = (a_1, 0) and (a_2, b_2),
//
// and Σ α_j >= V. The chain rows are those of ChainLowerBound with both pieces of τ
// (5.16). The suffix rows say that the messages j..n go to at most c_j machines; a
// machine whose first message among them is at position q receives and computes all
// of its suffix chunks in [t_q, T] ((5.19), (5.20)), each chunk taking at least O + Cα
// + τ(α) with τ(α) >= a α + b; the r-th earliest such first message is at position
// >= j + r, so it starts at or after t_{j+r}; and every term T − t_{j+r} is >= 0, so
// c_j terms bound any smaller machine count. The program is solved by the simplex of
// exact/dltbb, and the value returned is the safe dual bound of its multipliers
// (dltbb.DualBound), not the simplex's objective: a simplex that stops short cannot
// make a probe "optimal". The box DualBound needs holds an optimum: every α and t
// coefficient of the rows is >= 0, so an optimum with Σα > V can give load back until
// Σα = V (each α_j <= V), and T is at most that of the feasible point α_j = V/n.
// −Inf when the multipliers prove nothing.
func SuffixLowerBound(mc dm.Machine, m, n int, V float64) (float64, error) {
	nv := n + 1 // α_1..α_n, T
	tcol := n
	lp := &dltbb.LP{C: make([]float64, nv)}
	lp.C[tcol] = 1
	add := func(row []float64, rel int, b float64) {
		lp.Rows, lp.Rel, lp.B = append(lp.Rows, row), append(lp.Rel, rel), append(lp.B, b)
	}
	// start adds the α part of t_q (q 0-based: C·Σ_{k<q} α_k) times w to row and
	// returns the constant part S + qO times w.
	start := func(row []float64, q int, w float64) float64 {
		for k := range q {
			row[k] += w * mc.C
		}
		return w * (mc.S + float64(q)*mc.O)
	}
	sum := make([]float64, nv)
	for j := range n {
		sum[j] = 1
	}
	add(sum, 1, V)
	b2 := mc.B2()
	for _, pc := range [][2]float64{{mc.A1, 0}, {mc.A2, b2}} {
		a, b := pc[0], pc[1]
		for j := range n {
			row := make([]float64, nv)
			cst := start(row, j, 1) + mc.O + b
			row[j] += mc.C + a
			row[tcol] = -1
			add(row, -1, -cst)
			row = make([]float64, nv)
			c := min(m, n-j)
			cst = float64(n-j) * (mc.O + b)
			for k := j; k < n; k++ {
				row[k] += mc.C + a
			}
			for r := range c {
				cst += start(row, j+r, 1)
			}
			row[tcol] -= float64(c)
			add(row, -1, -cst)
		}
	}
	lp.U = make([]float64, nv)
	for j := range n {
		lp.U[j] = V
	}
	// The rows read coef·α + row[tcol]·T <= B with row[tcol] < 0 (the sum row aside):
	// at α_j = V/n each asks T >= (coef·α − B)/(−row[tcol]).
	for r, row := range lp.Rows {
		if lp.Rel[r] >= 0 || row[tcol] >= 0 {
			continue
		}
		act := 0.0
		for j := range n {
			act += row[j] * V / float64(n)
		}
		lp.U[tcol] = math.Max(lp.U[tcol], (act-lp.B[r])/-row[tcol])
	}
	lp.U[tcol] = lp.U[tcol]*(1+1e-9) + 1e-9
	sol, err := dltbb.SimplexDual(lp)
	if err != nil {
		return 0, fmt.Errorf("isoeff: suffix lower bound m = %d, n = %d, V = %g: %w", m, n, V, err)
	}
	return math.Min(dltbb.DualBound(lp, sol.Y), sol.Obj), nil
}

// HomogeneousLowerBound is the largest of ChainLowerBound, CapacityLowerBound and
// SuffixLowerBound: a proven lower bound on T(m, n, V).
func HomogeneousLowerBound(mc dm.Machine, m, n int, V float64) (float64, error) {
	lb, err := SuffixLowerBound(mc, m, n, V)
	if err != nil {
		return 0, err
	}
	return math.Max(lb, math.Max(ChainLowerBound(mc, n, V), CapacityLowerBound(mc, m, V))), nil
}
