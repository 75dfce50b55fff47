package dlt

import (
	"context"
	"math"

	ddlt "github.com/schedopt/schedopt/domain/dlt"
)

// MaxEnumMachines is the largest m for which the vertex enumeration of SingleVertices
// runs (8^m state vectors per machine count).
const MaxEnumMachines = 6

// bisectIters bounds the bisection on T; 200 halvings reach adjacent floats.
const bisectIters = 200

// Outcome is an exact oracle's answer for a "dlt-single" instance.
type Outcome struct {
	Algorithm string
	Feasible  bool
	Objective float64
	Solution  *ddlt.SingleSolution
}

// SingleMinTime returns the shortest schedule of a "dlt-single" instance without an
// energy limit. In a shortest schedule the used machines can be taken to be
// M_1..M_K (the machines are identical and unused ones contribute nothing to (5.8)).
// For a fixed K with every chunk positive, every row (5.8) is tight at the optimum:
// if machine j finished early, giving it δ more load would delay the later machines
// by C·δ, and they lose less than δ in total (the delay shrinks by τ'/(C+τ') from one
// machine to the next, and the losses telescope to less than δ); so the load that fits
// in T would exceed V and T could shrink. With all rows tight, the chunks follow from T
// one after the other, α_j = h(T − jS − CΣ_{i<j}α_i) with h the inverse of Cα + τ(α),
// and their sum grows with T; bisection finds T_K with Σα = V. The optimum is
// min_K T_K (K is skipped when the K-th machine cannot get a positive chunk).
func SingleMinTime(ctx context.Context, in *ddlt.SingleInstance) (Outcome, error) {
	if in.EnergyLimit != nil {
		return SingleVertices(ctx, in)
	}
	out := Outcome{Algorithm: "dlt-single all-tight bisection over the number of machines"}
	best := math.Inf(1)
	var bestAlpha []float64
	for K := 1; K <= in.M; K++ {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		T, alpha, ok := allTight(in, K)
		if ok && T < best*(1-1e-12) {
			best, bestAlpha = T, alpha
		}
	}
	if bestAlpha == nil || (in.Deadline != nil && best > *in.Deadline*(1+ddlt.RelTol)) {
		return out, nil // infeasible
	}
	if in.FixedLength {
		best = *in.Deadline
	}
	out.Feasible = true
	out.Solution = completeSolution(in, best, bestAlpha)
	out.Objective = best
	return out, nil
}

// completeSolution pads alpha to m machines, marks the first len(alpha) as used and
// fills E from the evaluator.
func completeSolution(in *ddlt.SingleInstance, T float64, alpha []float64) *ddlt.SingleSolution {
	sol := &ddlt.SingleSolution{T: T, Alpha: make([]float64, in.M), Used: make([]bool, in.M)}
	copy(sol.Alpha, alpha)
	for i := range alpha {
		sol.Used[i] = true
	}
	_, en := ddlt.EvaluateSingle(in, sol)
	sol.E = en.E
	return sol
}

// chain computes the all-tight chunks of K machines for length T. ok is false when
// some machine would have to start after T.
func chain(in *ddlt.SingleInstance, K int, T float64, alpha []float64) (sum float64, ok bool) {
	mem := in.Memory()
	kink := (in.C + mem.A1) * mem.Rho // Cα + τ(α) at α = ρ
	r := T
	for j := 0; j < K; j++ {
		r -= in.S
		if r < 0 {
			return sum, false
		}
		var a float64
		if r <= kink {
			a = r / (in.C + mem.A1)
		} else {
			a = (r - mem.B2()) / (in.C + mem.A2)
		}
		alpha[j] = a
		sum += a
		r -= in.C * a
	}
	return sum, true
}

// allTight finds the T at which K all-tight machines take exactly V.
func allTight(in *ddlt.SingleInstance, K int) (float64, []float64, bool) {
	alpha := make([]float64, K)
	pred := func(T float64) bool {
		s, ok := chain(in, K, T, alpha)
		return ok && s >= in.V
	}
	lo, hi := float64(K)*in.S, math.Max(1, in.TimeUpperBound())
	for !pred(hi) {
		lo, hi = hi, 2*hi
		if math.IsInf(hi, 1) {
			return 0, nil, false
		}
	}
	for it := 0; it < bisectIters && hi-lo > 0; it++ {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if pred(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	s, _ := chain(in, K, hi, alpha)
	if s > in.V*(1+1e-9) || alpha[K-1] <= 0 {
		return 0, nil, false // the K-th machine cannot get a positive chunk
	}
	return hi, alpha, true
}

// Machine states of the vertex enumeration: the chunk is 0, exactly ρ, strictly
// in-core (a free unknown on the first pieces of (3.1)-(3.2)) or strictly out-of-core
// (a free unknown on the second pieces).
const (
	stZero = iota
	stRho
	stIn
	stOut
	numStates
)

// SingleVertices is an exact oracle for every "dlt-single" objective on small
// instances (m <= MaxEnumMachines). With K used machines (M_1..M_K, as in
// SingleMinTime) and a fixed in-core/out-of-core pattern, τ and ε are affine and the
// problem is an LP in (α, T) over the rows (5.7)-(5.9), T <= deadline (or T =
// deadline) and E <= energy_limit, with an objective linear in (α, T) (the energy (5.4)
// after substituting (5.9)). An optimum of each such LP lies at a vertex: every chunk is
// 0, exactly ρ, or a free unknown strictly inside one piece; T is free or at the
// deadline; and as many rows are tight as there are free unknowns, among (5.7), the
// rows (5.8) of the machines, the deadline and the energy limit. The oracle enumerates
// every such choice, solves the square linear system, keeps the solutions the domain
// evaluator accepts, and returns the best. This covers the vertices of every pattern
// LP, so it is exact whether or not the energy is convex in α.
func SingleVertices(ctx context.Context, in *ddlt.SingleInstance) (Outcome, error) {
	out := Outcome{Algorithm: "dlt-single vertex enumeration over machine counts and memory patterns"}
	if in.M > MaxEnumMachines {
		return out, ErrNotApplicable
	}
	minEnergy := in.Objective == ddlt.MinEnergy
	bestObj := math.Inf(1)
	var best *ddlt.SingleSolution
	for K := 1; K <= in.M; K++ {
		st := make([]int, K)
		tight := make([]bool, K)
		total := 1
		for i := 0; i < K; i++ {
			total *= 2 * numStates
		}
		for code := 0; code < total; code++ {
			if code&1023 == 0 {
				if err := ctx.Err(); err != nil {
					return out, err
				}
			}
			c := code
			free, nt := 0, 0
			for j := 0; j < K; j++ {
				st[j] = c % numStates
				c /= numStates
				tight[j] = c%2 == 1
				c /= 2
				if st[j] == stIn || st[j] == stOut {
					free++
				}
				if tight[j] {
					nt++
				}
			}
			for tMode := 0; tMode < 2; tMode++ { // 0: T free, 1: T = deadline
				if tMode == 1 && in.Deadline == nil {
					continue
				}
				if tMode == 0 && in.FixedLength {
					continue
				}
				for eMode := 0; eMode < 2; eMode++ { // 1: the energy limit is tight
					if eMode == 1 && in.EnergyLimit == nil {
						continue
					}
					unknowns := free
					if tMode == 0 {
						unknowns++
					}
					if unknowns != nt+1+eMode { // one equation per unknown
						continue
					}
					sol, ok := solveVertex(in, K, st, tight, tMode == 1, eMode == 1)
					if !ok {
						continue
					}
					rep, en := ddlt.EvaluateSingle(in, sol)
					if rep.MaxViolation > vertexTol {
						continue
					}
					obj := sol.T
					if minEnergy {
						obj = en.E
					}
					if obj < bestObj {
						bestObj, best = obj, sol
					}
				}
			}
		}
	}
	if best == nil {
		return out, nil
	}
	out.Feasible, out.Objective, out.Solution = true, bestObj, best
	return out, nil
}

// solveVertex builds and solves the square system of one state choice. Unknowns are
// the free chunks in machine order, then T when it is free.
func solveVertex(in *ddlt.SingleInstance, K int, st []int, tight []bool, tFixed, eTight bool) (*ddlt.SingleSolution, bool) {
	mem := in.Memory()
	idx := make([]int, K) // unknown index of each free chunk, -1 when fixed
	n := 0
	for j := 0; j < K; j++ {
		idx[j] = -1
		if st[j] == stIn || st[j] == stOut {
			idx[j] = n
			n++
		}
	}
	tIdx := -1
	if !tFixed {
		tIdx = n
		n++
	}
	fixedVal := func(j int) float64 {
		if st[j] == stRho {
			return mem.Rho
		}
		return 0
	}
	// piece of machine j: time slope/intercept and energy slope/intercept.
	piece := func(j int) (a, b, k, l float64) {
		if st[j] == stOut {
			return mem.A2, mem.B2(), mem.K2, mem.L2()
		}
		return mem.A1, 0, mem.K1, 0
	}
	A := make([][]float64, 0, n)
	rhs := make([]float64, 0, n)
	row := func() []float64 { return make([]float64, n) }
	// Σ α = V (5.7)
	r := row()
	c := in.V
	for j := 0; j < K; j++ {
		if idx[j] >= 0 {
			r[idx[j]] = 1
		} else {
			c -= fixedVal(j)
		}
	}
	A, rhs = append(A, r), append(rhs, c)
	// tight rows (5.8): (j+1)S + C Σ_{i<=j} α_i + τ_j(α_j) − T = 0
	for j := 0; j < K; j++ {
		if !tight[j] {
			continue
		}
		r := row()
		c := -float64(j+1) * in.S
		for i := 0; i <= j; i++ {
			coef := in.C
			cst := 0.0
			if i == j {
				a, b, _, _ := piece(j)
				coef += a
				cst = b
			}
			c -= cst
			if idx[i] >= 0 {
				r[idx[i]] += coef
			} else {
				c -= coef * fixedVal(i)
			}
		}
		if tIdx >= 0 {
			r[tIdx] = -1
		} else {
			c += *in.Deadline
		}
		A, rhs = append(A, r), append(rhs, c)
	}
	// E = energy_limit, with E = (m+1)P^I T + S(P^S + P^N − 2P^I)K + 2CV(P^N − P^I) + Σ (ε_j − P^I τ_j)
	if eTight {
		r := row()
		c := *in.EnergyLimit - in.S*(in.PS+in.PN-2*in.PI)*float64(K) - 2*in.C*in.V*(in.PN-in.PI)
		tc := float64(in.M+1) * in.PI
		if tIdx >= 0 {
			r[tIdx] = tc
		} else {
			c -= tc * *in.Deadline
		}
		for j := 0; j < K; j++ {
			a, b, k, l := piece(j)
			slope, cst := k-in.PI*a, l-in.PI*b
			if st[j] == stZero {
				continue
			}
			c -= cst
			if idx[j] >= 0 {
				r[idx[j]] += slope
			} else {
				c -= slope * fixedVal(j)
			}
		}
		A, rhs = append(A, r), append(rhs, c)
	}
	if len(A) != n {
		return nil, false
	}
	x, ok := gauss(A, rhs)
	if !ok {
		return nil, false
	}
	alpha := make([]float64, K)
	for j := 0; j < K; j++ {
		if idx[j] < 0 {
			alpha[j] = fixedVal(j)
			continue
		}
		v := x[idx[j]]
		switch {
		case st[j] == stIn && (v < -enumTol || v > mem.Rho+enumTol):
			return nil, false
		case st[j] == stOut && v < mem.Rho-enumTol:
			return nil, false
		}
		alpha[j] = math.Max(v, 0)
	}
	T := 0.0
	if tIdx >= 0 {
		T = x[tIdx]
	} else {
		T = *in.Deadline
	}
	if T < 0 {
		return nil, false
	}
	return completeSolution(in, T, alpha), true
}

// vertexTol is the largest scaled violation the enumeration accepts in a vertex: far
// below the evaluator's RelTol, so a slightly infeasible vertex cannot beat the optimum.
const vertexTol = 1e-9

// enumTol is how far (MB) a free chunk may leave its piece through rounding.
const enumTol = 1e-9

// gauss solves A x = b by Gaussian elimination with partial pivoting; ok is false for
// a (numerically) singular system.
func gauss(A [][]float64, b []float64) ([]float64, bool) {
	n := len(b)
	for col := 0; col < n; col++ {
		p, best := -1, 0.0
		for r := col; r < n; r++ {
			if v := math.Abs(A[r][col]); v > best {
				p, best = r, v
			}
		}
		if best < 1e-12 {
			return nil, false
		}
		A[col], A[p] = A[p], A[col]
		b[col], b[p] = b[p], b[col]
		for r := col + 1; r < n; r++ {
			f := A[r][col] / A[col][col]
			if f == 0 {
				continue
			}
			for c := col; c < n; c++ {
				A[r][c] -= f * A[col][c]
			}
			b[r] -= f * b[col]
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := b[r]
		for c := r + 1; c < n; c++ {
			s -= A[r][c] * x[c]
		}
		x[r] = s / A[r][r]
	}
	return x, true
}

// Single is the exact oracle of "dlt-single": SingleMinTime for min-time without an
// energy limit (any m), SingleVertices otherwise (m <= MaxEnumMachines; larger
// instances give ErrNotApplicable).
func Single(ctx context.Context, in *ddlt.SingleInstance) (Outcome, error) {
	if in.Objective == ddlt.MinTime && in.EnergyLimit == nil {
		return SingleMinTime(ctx, in)
	}
	return SingleVertices(ctx, in)
}
