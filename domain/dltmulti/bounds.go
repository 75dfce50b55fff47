package dltmulti

import (
	"math"
	"sort"
)

// LowerBoundTime returns LB(T) of (6.29) as printed in the thesis:
//
//	LB(T) = S_min + O_min + ρ_min·C_min + V / Σ_i (1/a_1i)
//
// It is NOT a valid bound for every instance: with one machine and V < ρ the single
// message schedule has T = S + O + C·V + a_1·V < LB(T), and with several machines small
// first chunks can start all computations earlier than ρ_min·C_min. It holds whenever
// the first message carries at least ρ_min, which the thesis's instances (V ≫ ρ)
// satisfy in practice. Use ValidLowerBoundTime for pruning and cuts.
func LowerBoundTime(in *Instance) float64 {
	sMin, oMin, rhoMin, cMin := math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1)
	inv := 0.0
	for _, mc := range in.Machines {
		sMin = math.Min(sMin, mc.S)
		oMin = math.Min(oMin, mc.O)
		rhoMin = math.Min(rhoMin, mc.Rho)
		cMin = math.Min(cMin, mc.C)
		inv += 1 / mc.A1
	}
	return sMin + oMin + rhoMin*cMin + in.V/inv
}

// LowerBoundEnergy returns LB(E) of (6.30) as printed, with LB(T) of (6.29):
//
//	LB(E) = S_min·P^S_min + (O_min + V·C_min)·P^N_min + V·k_1min + P_0^N·LB(T)
//
// (minima taken separately over the machines). It inherits the caveat of
// LowerBoundTime through its last term; ValidLowerBoundEnergy is always valid.
func LowerBoundEnergy(in *Instance) float64 {
	return lbEnergy(in, LowerBoundTime(in), false)
}

func lbEnergy(in *Instance, lbT float64, paired bool) float64 {
	sMin, psMin, oMin, cMin, pnMin, k1Min := math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1)
	sps, opn, cpn := math.Inf(1), math.Inf(1), math.Inf(1)
	for _, mc := range in.Machines {
		sMin = math.Min(sMin, mc.S)
		psMin = math.Min(psMin, mc.PS)
		oMin = math.Min(oMin, mc.O)
		cMin = math.Min(cMin, mc.C)
		pnMin = math.Min(pnMin, mc.PN)
		k1Min = math.Min(k1Min, mc.K1)
		sps = math.Min(sps, mc.S*mc.PS)
		opn = math.Min(opn, mc.O*mc.PN)
		cpn = math.Min(cpn, mc.C*mc.PN)
	}
	if paired {
		return sps + float64(in.N)*opn + in.V*cpn + in.V*k1Min + in.P0N*lbT
	}
	return sMin*psMin + (oMin+in.V*cMin)*pnMin + in.V*k1Min + in.P0N*lbT
}

// ValidLowerBoundTime returns a lower bound on T that holds for every feasible
// schedule of the instance (exactly n messages). It is the larger of
//
//   - the water-filling bound: the smallest T with Σ_i max(0, T − S_i − O_i)/a_1i >= V,
//     because M_i computes only after its startup and first message, at best at its
//     on-core rate (τ_i(α) >= a_1i·α); it is never below S_min + O_min + V/Σ 1/a_1i,
//     the part of (6.29) that is valid;
//   - the link bound S_min + n·O_min + C_min·V: all n messages cross the one link after
//     the first receiver has started.
func ValidLowerBoundTime(in *Instance) float64 {
	type rel struct{ r, w float64 }
	rs := make([]rel, len(in.Machines))
	sMin, oMin, cMin := math.Inf(1), math.Inf(1), math.Inf(1)
	for i, mc := range in.Machines {
		rs[i] = rel{mc.S + mc.O, 1 / mc.A1}
		sMin = math.Min(sMin, mc.S)
		oMin = math.Min(oMin, mc.O)
		cMin = math.Min(cMin, mc.C)
	}
	sort.Slice(rs, func(a, b int) bool { return rs[a].r < rs[b].r })
	// Capacity at T is Σ_{r_i < T} (T − r_i)·w_i, piecewise linear and increasing.
	water := math.Inf(1)
	sumW, sumRW := 0.0, 0.0
	for k := range rs {
		sumW += rs[k].w
		sumRW += rs[k].r * rs[k].w
		T := (in.V + sumRW) / sumW // capacity(T) = V with machines 0..k active
		next := math.Inf(1)
		if k+1 < len(rs) {
			next = rs[k+1].r
		}
		if T <= next {
			water = T
			break
		}
	}
	link := sMin + float64(in.N)*oMin + cMin*in.V
	return math.Max(water, link)
}

// ValidLowerBoundEnergy returns a lower bound on E valid for every feasible schedule:
// (6.30) with the minima paired per machine (min_i S_i·P^S_i instead of S_min·P^S_min,
// and likewise for the networking terms), all n messages' overheads counted, and
// ValidLowerBoundTime in place of LB(T). Each term bounds one energy component of
// (6.4): a started machine, the n messages, the computation ε_i(α) >= k_1i·α, E_0.
func ValidLowerBoundEnergy(in *Instance) float64 {
	return lbEnergy(in, ValidLowerBoundTime(in), true)
}
