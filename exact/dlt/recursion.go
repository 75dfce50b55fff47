package dlt

import (
	"errors"
	"fmt"
	"math"
)

// ErrInfeasible is returned when the load is too small to give every machine a
// nonnegative chunk with all machines finishing together ((2.3) gives α_m < 0).
var ErrInfeasible = errors.New("dlt: the load is too small to activate every machine (alpha_m < 0)")

// ErrNotApplicable is returned by an oracle for instances outside the cases where it is
// proved exact (for example when memory limits bind).
var ErrNotApplicable = errors.New("dlt: no exact algorithm for this instance")

// Star is a single-level tree with a fixed communication order: machine i has
// computing rate A[i], communication rate C[i] and startup S[i].
type Star struct {
	A, C, S []float64
}

// Split is a single-installment load distribution and its length.
type Split struct {
	Alpha []float64
	T     float64
}

// Recursion solves (2.1)-(2.3) in O(m): every machine of the star computes until the
// same moment, α_i·a_i = S_{i+1} + α_{i+1}(a_{i+1} + C_{i+1}) (2.1), Σα_i = V (2.2).
// Writing α_i = k_i·α_m + l_i with k_m = 1, l_m = 0,
//
//	k_i = k_{i+1}(a_{i+1} + C_{i+1})/a_i,  l_i = S_{i+1}/a_i + l_{i+1}(a_{i+1} + C_{i+1})/a_i,
//
// gives α_m = (V − Σl_i)/Σk_i (2.3). The length is T = S_1 + α_1(C_1 + a_1) (the same
// as (4.9)). It returns ErrInfeasible when α_m < 0. With memory that does not bind,
// this is the optimum of the LP (2.5)-(2.9).
func Recursion(s Star, V float64) (Split, error) {
	m := len(s.A)
	if m == 0 || len(s.C) != m || len(s.S) != m {
		return Split{}, fmt.Errorf("dlt: recursion: %d, %d, %d rates", len(s.A), len(s.C), len(s.S))
	}
	k := make([]float64, m)
	l := make([]float64, m)
	k[m-1] = 1
	sumK, sumL := 1.0, 0.0
	for i := m - 2; i >= 0; i-- {
		r := (s.A[i+1] + s.C[i+1]) / s.A[i]
		k[i] = k[i+1] * r
		l[i] = s.S[i+1]/s.A[i] + l[i+1]*r
		sumK += k[i]
		sumL += l[i]
	}
	am := (V - sumL) / sumK
	if am < 0 {
		return Split{}, ErrInfeasible
	}
	alpha := make([]float64, m)
	for i := range alpha {
		alpha[i] = k[i]*am + l[i]
	}
	return Split{Alpha: alpha, T: s.S[0] + alpha[0]*(s.C[0]+s.A[0])}, nil
}

// NoStartup is the closed form (2.4) for S_i = 0:
//
//	α_i = V·k_i / Σ_h k_h,   k_h = Π_{j=h}^{m−1} (a_{j+1} + C_{j+1})/a_j
//
// (the thesis prints the product from j = 1 and, for the homogeneous case, κ^{m−1};
// both are typos for j = i and κ^{m−i}). The startups in s are ignored.
func NoStartup(s Star, V float64) Split {
	m := len(s.A)
	k := make([]float64, m)
	k[m-1] = 1
	sum := 1.0
	for i := m - 2; i >= 0; i-- {
		k[i] = k[i+1] * (s.A[i+1] + s.C[i+1]) / s.A[i]
		sum += k[i]
	}
	alpha := make([]float64, m)
	for i := range alpha {
		alpha[i] = V * k[i] / sum
	}
	return Split{Alpha: alpha, T: alpha[0] * (s.C[0] + s.A[0])}
}

// Homogeneous is the chapter 4 closed form (4.7)-(4.11) for m identical machines with
// startup S. With κ = 1 + C/a,
//
//	α_m = V(1−κ)/(1−κ^m) − S(m(1−κ) − 1 + κ^m)/(a(1−κ^m)(1−κ))     (4.8)
//	α_i = S(1−κ^{m−i})/(a(1−κ)) + κ^{m−i}·α_m                        (4.7)
//	T   = S + (C+a)α_1 = S·z1 + V·z2                                  (4.9)-(4.11)
//
// Powers of κ, which is within 1e-5 of 1 in the chapter 4 reference instance, are
// evaluated as κ^n − 1 = expm1(n·log1p(C/a)) to avoid cancellation. It returns
// ErrInfeasible when α_m < 0, and z1, z2 of (4.10)-(4.11).
func Homogeneous(a, C, S, V float64, m int) (split Split, z1, z2 float64, err error) {
	n := float64(m)
	alpha := make([]float64, m)
	var am float64
	if C == 0 { // κ = 1: the limits of (4.7)-(4.8)
		am = V/n - S*(n-1)/(2*a)
		if am < 0 {
			return Split{}, 0, 0, ErrInfeasible
		}
		for i := range alpha {
			alpha[i] = S*float64(m-1-i)/a + am
		}
		T := S + a*alpha[0]
		return Split{Alpha: alpha, T: T}, 1 + (n-1)/2, a / n, nil
	}
	q := C / a
	lq := math.Log1p(q)
	e := func(j int) float64 { return math.Expm1(float64(j) * lq) } // κ^j − 1
	em := e(m)
	am = V*q/em - S*(em-n*q)/(a*em*q)
	if am < 0 {
		return Split{}, 0, 0, ErrInfeasible
	}
	for i := range alpha {
		j := m - 1 - i // m − i in the thesis's 1-based indices
		alpha[i] = S*e(j)/(a*q) + (1+e(j))*am
	}
	T := S + (C+a)*alpha[0]
	kap := 1 + q
	km1 := 1 + e(m-1)
	// (4.10) with κ/(1−κ) = −κ/q, 1 − κ^{m−1} = −e(m−1), 1 − κ^m = −em, m(1−κ) − 1 + κ^m = em − mq.
	z1 = 1 + kap/q*(e(m-1)-km1*(em-n*q)/em)
	// (4.11) with (1−κ)/(1−κ^m) = q/em.
	z2 = (C + a) * q * km1 / em
	return Split{Alpha: alpha, T: T}, z1, z2, nil
}

// MaxMachines returns the largest m <= limit for which the chapter 4 system (a, C, S,
// V) is feasible, that is α_m >= 0 in (4.8) (§4.3: m > 1411 is infeasible for the
// reference instance). It returns 0 when even m = 1 is infeasible.
func MaxMachines(a, C, S, V float64, limit int) int {
	lo, hi := 0, limit // feasibility is monotone: α_m decreases with m
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if _, _, _, err := Homogeneous(a, C, S, V, mid); err == nil {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}
