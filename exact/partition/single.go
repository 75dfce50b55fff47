package partition

import (
	"math"
	"sort"
)

// PDP returns the perfect dataset partition of one divisible portion with f flops and
// b bytes over processors with roofline times w_k = max{t_fk·f, t_bk·b} for the whole
// portion: every processor finishes together, so x_k = (1/w_k)/Σ_i(1/w_i) and
// T = 1/Σ_k(1/w_k). With two processors this is Eq. (19): P_pDP = P_CO + P_GO.
func PDP(w []float64) (T float64, x []float64) {
	sum := 0.0
	for _, wk := range w {
		sum += 1 / wk
	}
	x = make([]float64, len(w))
	for k, wk := range w {
		x[k] = (1 / wk) / sum
	}
	return 1 / sum, x
}

// capacity returns the largest fraction of the merged divisible portion processor k
// can take within makespan T on top of its placed loads, clipped to [0, 1], or −1 when
// the placed loads alone exceed T.
func (s *solver) capacity(k int, T float64) float64 {
	p := s.in.Processors[k]
	if p.Work(s.F0[k], s.B0[k]) > T {
		return -1
	}
	c := math.Inf(1)
	if s.mf > 0 {
		c = math.Min(c, (T/p.TimePerFlop-s.F0[k])/s.mf)
	}
	if s.mb > 0 {
		c = math.Min(c, (T/p.TimePerByte-s.B0[k])/s.mb)
	}
	return math.Min(1, math.Max(0, c))
}

// kinks returns the makespans at which some processor's capacity changes slope: where
// its placed loads alone fill T, where its compute and memory limits cross, and where
// it can take the whole portion. Between them every capacity is affine in T.
func (s *solver) kinks() []float64 {
	var ts []float64
	for k, p := range s.in.Processors {
		ts = append(ts, p.Work(s.F0[k], s.B0[k]), p.Work(s.F0[k]+s.mf, s.B0[k]+s.mb))
		if s.mf > 0 && s.mb > 0 {
			den := 1/(p.TimePerFlop*s.mf) - 1/(p.TimePerByte*s.mb)
			if den != 0 {
				if t := (s.F0[k]/s.mf - s.B0[k]/s.mb) / den; t > 0 && !math.IsInf(t, 0) {
					ts = append(ts, t)
				}
			}
		}
	}
	sort.Float64s(ts)
	return ts
}

// root returns the smallest T >= t0 at which the processors in set together can take
// the whole portion, Σ_{k∈set} capacity_k(T) >= 1, interpolating between kinks (the sum
// is affine between them); ok is false when they cannot even at the last kink.
func (s *solver) root(set []int, t0 float64, ts []float64) (float64, bool) {
	sum := func(T float64) float64 {
		v := 0.0
		for _, k := range set {
			if c := s.capacity(k, T); c > 0 {
				v += c
			}
		}
		return v
	}
	prevT, prevS := t0, sum(t0)
	if prevS >= 1 {
		return t0, true
	}
	for _, t := range ts {
		if t <= prevT {
			continue
		}
		v := sum(t)
		if v >= 1 {
			return prevT + (1-prevS)*(t-prevT)/(v-prevS), true
		}
		prevT, prevS = t, v
	}
	return 0, false
}

// single solves the merged divisible portion of one intensity exactly for the placed
// loads F0, B0: min-time at the smallest makespan T* where the capacities sum to 1;
// min-energy at the best of the breakpoints of the convex piecewise-linear function
// P_s·T + V(T), where V(T) fills the cheapest processors first up to their capacities.
// It returns the fractions per processor, or ok = false when the deadline cannot be
// met.
func (s *solver) single() ([]float64, bool) {
	ts := s.kinks()
	t0 := 0.0
	for k, p := range s.in.Processors {
		t0 = math.Max(t0, p.Work(s.F0[k], s.B0[k]))
	}
	all := make([]int, s.K)
	for k := range all {
		all[k] = k
	}
	tStar, ok := s.root(all, t0, ts)
	if !ok || tStar > s.deadline*(1+deadlineSlack) {
		return nil, false
	}
	cands := []float64{tStar}
	if !s.minTime {
		for m := 1; m < s.K; m++ {
			if t, ok := s.root(s.order[:m], t0, ts); ok {
				cands = append(cands, t)
			}
		}
		cands = append(cands, ts...)
		if !math.IsInf(s.deadline, 1) {
			cands = append(cands, s.deadline)
		}
	}
	var best []float64
	bestV := math.Inf(1)
	for _, T := range cands {
		if T < tStar || T > s.deadline*(1+deadlineSlack) {
			continue
		}
		x, ok := s.fill(T)
		if !ok {
			continue
		}
		if v := s.value1D(x); v < bestV {
			best, bestV = x, v
		}
	}
	return best, best != nil
}

// fill gives the portion to the processors in increasing order of dynamic energy, each
// up to its capacity at makespan T.
func (s *solver) fill(T float64) ([]float64, bool) {
	x := make([]float64, s.K)
	rem := 1.0
	last := -1
	for _, k := range s.order {
		if rem <= 0 {
			break
		}
		c := s.capacity(k, T)
		if c <= 0 {
			continue
		}
		x[k] = math.Min(c, rem)
		rem -= x[k]
		last = k
	}
	if rem > fillTol || last < 0 {
		return nil, false
	}
	x[last] += math.Max(rem, 0)
	return x, true
}

// value1D returns the objective of the placed loads plus fractions x of the merged
// portion.
func (s *solver) value1D(x []float64) float64 {
	T, dyn := 0.0, s.dyn0
	for k, p := range s.in.Processors {
		f, b := s.F0[k]+x[k]*s.mf, s.B0[k]+x[k]*s.mb
		T = math.Max(T, p.Work(f, b))
		dyn += x[k] * s.md[k]
	}
	if T > s.deadline*(1+deadlineSlack) {
		return math.Inf(1)
	}
	if s.minTime {
		return T
	}
	return s.ps*T + dyn
}
