package partition

import (
	"math"
	"sort"
)

// parallelTol is the relative size below which a determinant or a line's slope along
// an edge counts as zero (parallel lines, an edge lying along a line).
const parallelTol = 1e-13

// buildGroups sorts the divisible portions by the angle of (f_j, b_j), from pure
// compute to pure memory (decreasing intensity), and merges portions of equal
// intensity, which any optimum can treat as one (reference 002 §2.3 item 3).
func (s *solver) buildGroups() {
	idx := append([]int(nil), s.div...)
	ang := func(j int) float64 { q := s.in.Portions[j]; return math.Atan2(q.Bytes, q.Flops) }
	sort.SliceStable(idx, func(a, b int) bool { return ang(idx[a]) < ang(idx[b]) })
	for _, j := range idx {
		q := s.in.Portions[j]
		s.dnf += q.Flops
		s.dnb += q.Bytes
		if n := len(s.groups); n > 0 {
			g := &s.groups[n-1]
			a, b := g.f*q.Bytes, q.Flops*g.b
			if math.Abs(a-b) <= collinearTol*(a+b) {
				g.f += q.Flops
				g.b += q.Bytes
				g.members = append(g.members, j)
				continue
			}
		}
		s.groups = append(s.groups, group{f: q.Flops, b: q.Bytes, members: []int{j}})
	}
}

// line is the set a·F + b·B = c in the plane of processor 0's divisible flops F and
// bytes B.
type line struct{ a, b, c float64 }

// candidate is a point of the zonotope: on a chain (a threshold partition: the first
// pos groups of the chain on processor 0, group pos at fraction frac), or interior.
type candidate struct {
	chain    int // 0: ascending angle (lower chain), 1: descending (upper chain); −1: interior
	pos      int
	frac     float64
	F, B     float64
	value, T float64
}

// zonotope solves the divisible portions of several intensities on two processors
// for the placed loads: it returns processor 0's fraction of each divisible portion
// (in the order of s.div), or ok = false when the deadline cannot be met.
//
// Processor 0 receives (F, B) = Σ_j x_j·(f_j, b_j), a point of the zonotope Z = Σ_j
// [0, 1]·(f_j, b_j). With the four roofline terms
//
//	p0 = t_f0(F0_0 + F), p1 = t_b0(B0_0 + B), p2 = t_f1(F0_1 + N_f − F), p3 = t_b1(B0_1 + N_b − B)
//
// the objective max_i p_i (min-time) or P_s·max_i p_i + dynamic energy (min-energy,
// affine in F and B) is convex and piecewise linear, affine on each cell of Z cut by
// the lines p_i = p_j and p_i = D. Its minimum over the feasible cells is therefore at
// a vertex of that subdivision: a vertex of Z, a crossing of an edge of Z with a line,
// or a crossing of two lines inside Z. The boundary of Z is traced by the threshold
// partitions in the two orders of intensity.
func (s *solver) zonotope() ([]float64, bool) {
	in := s.in
	p0, p1 := in.Processors[0], in.Processors[1]
	// Terms as affine functions α·F + β·B + γ.
	terms := [4][3]float64{
		{p0.TimePerFlop, 0, p0.TimePerFlop * s.F0[0]},
		{0, p0.TimePerByte, p0.TimePerByte * s.B0[0]},
		{-p1.TimePerFlop, 0, p1.TimePerFlop * (s.F0[1] + s.dnf)},
		{0, -p1.TimePerByte, p1.TimePerByte * (s.B0[1] + s.dnb)},
	}
	dynConst := s.dyn0 + p1.Dynamic(s.dnf, s.dnb)
	dynF := p0.EnergyPerFlop - p1.EnergyPerFlop
	dynB := p0.EnergyPerByte - p1.EnergyPerByte
	eval := func(F, B float64) (T, v float64) {
		for _, t := range terms {
			T = math.Max(T, t[0]*F+t[1]*B+t[2])
		}
		if s.minTime {
			return T, T
		}
		return T, s.ps*T + dynConst + dynF*F + dynB*B
	}
	var lines []line
	for i := 0; i < 4; i++ {
		for j := i + 1; j < 4; j++ {
			lines = append(lines, line{terms[i][0] - terms[j][0], terms[i][1] - terms[j][1], terms[j][2] - terms[i][2]})
		}
		if !math.IsInf(s.deadline, 1) {
			lines = append(lines, line{terms[i][0], terms[i][1], s.deadline - terms[i][2]})
		}
	}
	best := candidate{value: math.Inf(1)}
	consider := func(c candidate) {
		c.T, c.value = eval(c.F, c.B)
		if c.T > s.deadline*(1+deadlineSlack) {
			return
		}
		if c.value < best.value {
			best = c
		}
	}
	n := len(s.groups)
	for chain := 0; chain < 2; chain++ {
		var F, B float64
		for i := 0; i < n; i++ {
			g := s.groups[s.chainIndex(chain, i)]
			consider(candidate{chain: chain, pos: i, F: F, B: B})
			for _, l := range lines {
				den := l.a*g.f + l.b*g.b
				if math.Abs(den) <= parallelTol*(math.Abs(l.a*g.f)+math.Abs(l.b*g.b)) {
					continue
				}
				if t := (l.c - l.a*F - l.b*B) / den; t > 0 && t < 1 {
					consider(candidate{chain: chain, pos: i, frac: t, F: F + t*g.f, B: B + t*g.b})
				}
			}
			F += g.f
			B += g.b
		}
		consider(candidate{chain: chain, pos: n, F: F, B: B})
	}
	if s.interior {
		for i := range lines {
			for j := i + 1; j < len(lines); j++ {
				l1, l2 := lines[i], lines[j]
				det := l1.a*l2.b - l2.a*l1.b
				if math.Abs(det) <= parallelTol*(math.Abs(l1.a*l2.b)+math.Abs(l2.a*l1.b)) {
					continue
				}
				F := (l1.c*l2.b - l2.c*l1.b) / det
				B := (l1.a*l2.c - l2.a*l1.c) / det
				if F <= 0 || F >= s.dnf {
					continue // vertical boundary points are edge crossings
				}
				lo, _ := s.chainAt(0, F)
				hi, _ := s.chainAt(1, F)
				if B < lo || B > hi {
					continue
				}
				consider(candidate{chain: -1, F: F, B: B})
			}
		}
	}
	if math.IsInf(best.value, 1) {
		return nil, false
	}
	return s.realise(best), true
}

// chainIndex returns the group at position i of a chain: ascending angle for chain 0,
// descending for chain 1.
func (s *solver) chainIndex(chain, i int) int {
	if chain == 0 {
		return i
	}
	return len(s.groups) - 1 - i
}

// chainAt returns the point of a chain with flops F (for 0 < F < N_f): its bytes and
// the group fractions that reach it.
func (s *solver) chainAt(chain int, F float64) (float64, []float64) {
	n := len(s.groups)
	x := make([]float64, n)
	var pf, pb float64
	for i := 0; i < n; i++ {
		gi := s.chainIndex(chain, i)
		g := s.groups[gi]
		if g.f > 0 && pf+g.f >= F {
			t := math.Min(1, math.Max(0, (F-pf)/g.f))
			x[gi] = t
			return pb + t*g.b, x
		}
		x[gi] = 1
		pf += g.f
		pb += g.b
	}
	return pb, x
}

// realise turns a candidate into processor 0's fraction of each divisible portion.
func (s *solver) realise(c candidate) []float64 {
	n := len(s.groups)
	gx := make([]float64, n)
	if c.chain >= 0 {
		for i := 0; i < n; i++ {
			gi := s.chainIndex(c.chain, i)
			switch {
			case i < c.pos:
				gx[gi] = 1
			case i == c.pos:
				gx[gi] = c.frac
			}
		}
	} else {
		lo, xl := s.chainAt(0, c.F)
		hi, xh := s.chainAt(1, c.F)
		mu := 0.0
		if hi > lo {
			mu = math.Min(1, math.Max(0, (c.B-lo)/(hi-lo)))
		}
		for i := range gx {
			gx[i] = (1-mu)*xl[i] + mu*xh[i]
		}
	}
	pos := make(map[int]int, len(s.div))
	for r, j := range s.div {
		pos[j] = r
	}
	x := make([]float64, len(s.div))
	for gi, g := range s.groups {
		for _, j := range g.members {
			x[pos[j]] = gx[gi]
		}
	}
	return x
}
