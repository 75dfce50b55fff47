package workload

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// The seeds give their profiles only as figures (ref §3), so schedopt generates
// synthetic ones with the documented shapes. All generators are deterministic in their
// seed.

// GenLinear returns processors with t_i(x) = a_i·x and e_i(x) = b_i·x for x = 1..max
// (seed 000 §10.2, ref §4).
func GenLinear(n, max int, a, b []float64) (*Instance, error) {
	if len(a) != len(b) || len(a) == 0 {
		return nil, fmt.Errorf("linear profile: %d time slopes and %d energy slopes", len(a), len(b))
	}
	in := &Instance{Kind: "workload", Name: fmt.Sprintf("linear-p%d-n%d", len(a), n), N: n, Objective: ObjPareto}
	for i := range a {
		p := Processor{Name: fmt.Sprintf("P%d", i)}
		for x := 1; x <= max; x++ {
			p.Points = append(p.Points, Point{Size: x, Time: a[i] * float64(x), Energy: b[i] * float64(x)})
		}
		in.Processors = append(in.Processors, p)
	}
	return in, nil
}

// character describes an abstract processor of seed 000's platforms.
type character struct {
	name  string
	peak  float64 // asymptotic speed, GFLOP/s
	ramp  float64 // size (granules) at which 63% of the peak is reached
	power float64 // dynamic power at full speed, W
	noise float64 // relative speed noise amplitude
	drop  float64 // relative speed loss past half the range (out-of-card effects)
}

// dgemmCharacters are p = 5 abstract processors in the spirit of HCLServer01/02
// (ref §3.1): two CPUs, two GPUs and a Xeon Phi. The GPUs are fastest but draw much
// more power, so the CPUs are the most energy-efficient per flop; the Phi is slow and
// hungry. The trade-off between them is what makes the fronts large (seed 000 reports
// 1 to 96 points for DGEMM).
var dgemmCharacters = []character{
	{"CPU_1", 420, 20, 48, 0.01, 0},
	{"GPU_1", 1150, 80, 230, 0.015, 0.08},
	{"PHI_1", 520, 120, 185, 0.03, 0.05},
	{"CPU_2", 610, 25, 62, 0.01, 0},
	{"GPU_2", 3100, 110, 420, 0.015, 0.06},
}

// GenDGEMM returns smooth DGEMM-like profiles: points m = step, 2·step, …, points·step
// rows of an m×N by N×N product (N = 10112, seed 000 §5.1: 450 points, step 64),
// speed 2·m·N²/t rising smoothly to a plateau, dynamic energy = power × time with a
// power that grows with utilisation. p ≤ 5 uses the first p of CPU_1, GPU_1, PHI_1,
// CPU_2, GPU_2; larger p repeats them with small perturbations. n is in rows.
func GenDGEMM(seed int64, p, points, step, n int) (*Instance, error) {
	if p < 1 || points < 1 || step < 1 {
		return nil, fmt.Errorf("dgemm profile: p, points and step must be positive")
	}
	r := rand.New(rand.NewPCG(uint64(seed), 0xd9e))
	const N = 10112.0
	in := &Instance{Kind: "workload", Name: fmt.Sprintf("dgemm-p%d-m%d-n%d-s%d", p, points, n, seed), N: n, Objective: ObjPareto}
	for i := 0; i < p; i++ {
		c := dgemmCharacters[i%len(dgemmCharacters)]
		scaleS := 1 + 0.1*float64(i/len(dgemmCharacters))*(r.Float64()-0.5)
		proc := Processor{Name: fmt.Sprintf("%s#%d", c.name, i)}
		for k := 1; k <= points; k++ {
			g := float64(k)
			m := float64(k * step)
			frac := 1 - math.Exp(-g/c.ramp)
			s := c.peak * scaleS * frac * (1 + c.noise*(2*r.Float64()-1))
			if g > float64(points)/2 {
				s *= 1 - c.drop*(g-float64(points)/2)/float64(points)
			}
			t := 2 * m * N * N / (s * 1e9)
			pw := c.power * (0.55 + 0.45*frac) * (1 + 0.01*(2*r.Float64()-1))
			proc.Points = append(proc.Points, Point{Size: k * step, Time: round6(t), Energy: round6(pw * t)})
		}
		in.Processors = append(in.Processors, proc)
	}
	return in, nil
}

// smooth127 reports whether m has no prime factor above 127 (CUFFT's restriction in
// seed 000 §5.2).
func smooth127(m int) bool {
	for q := 2; q <= 127 && m > 1; q++ {
		for m%q == 0 {
			m /= q
		}
	}
	return m == 1
}

// GenFFT returns FFT-like profiles with sharp variations: m = 1024..10000 rows in steps
// of 16 restricted to 127-smooth m (426 values), N = 51200, speed 2.5·m·N·log2(m·N)/t
// with drops that depend on m's factorisation (powers of two fast, large prime factors
// slow) and random dips; the Phi uses about ten times the others' energy (seed 000
// §5.2). n is in rows.
func GenFFT(seed int64, p, n int) (*Instance, error) {
	if p < 1 {
		return nil, fmt.Errorf("fft profile: p must be positive")
	}
	r := rand.New(rand.NewPCG(uint64(seed), 0xff7))
	const N = 51200.0
	in := &Instance{Kind: "workload", Name: fmt.Sprintf("fft-p%d-n%d-s%d", p, n, seed), N: n, Objective: ObjPareto}
	for i := 0; i < p; i++ {
		c := dgemmCharacters[i%len(dgemmCharacters)]
		power := c.power
		if c.name == "PHI_1" {
			power *= 10
		}
		proc := Processor{Name: fmt.Sprintf("%s#%d", c.name, i)}
		for m := 1024; m <= 10000; m += 16 {
			if !smooth127(m) {
				continue
			}
			f := 1.0
			largest := largestPrime(m)
			switch {
			case m&(m-1) == 0:
				f = 1.25
			case largest > 31:
				f = 0.35 + 0.3*r.Float64()
			case largest > 7:
				f = 0.7 + 0.2*r.Float64()
			}
			if r.IntN(20) == 0 {
				f *= 0.4 // a sharp dip
			}
			s := c.peak * 0.12 * f
			flops := 2.5 * float64(m) * N * math.Log2(float64(m)*N)
			t := flops / (s * 1e9)
			pw := power * (0.6 + 0.4*f) * (1 + 0.02*(2*r.Float64()-1))
			proc.Points = append(proc.Points, Point{Size: m, Time: round6(t), Energy: round6(pw * t)})
		}
		in.Processors = append(in.Processors, proc)
	}
	return in, nil
}

func largestPrime(m int) int {
	big := 1
	for q := 2; q*q <= m; q++ {
		for m%q == 0 {
			big, m = q, m/q
		}
	}
	if m > 1 {
		big = max(big, m)
	}
	return big
}

// GenIdentical returns p identical processors sharing one table of points sizes
// 1..points granules (seed 003: 485 points for FFT, 1250 for DGEMM). shape "dgemm"
// gives a smooth speed with variations up to about 20% in speed and 25% in energy;
// "fft" gives speed drops up to about 300% and energy variations up to 400% (seed 003
// [L163-L166]). n is in granules.
func GenIdentical(seed int64, shape string, p, points, n int) (*Instance, error) {
	if p < 1 || points < 1 {
		return nil, fmt.Errorf("identical profile: p and points must be positive")
	}
	r := rand.New(rand.NewPCG(uint64(seed), 0x1de))
	var sv, ev float64
	switch shape {
	case "dgemm":
		sv, ev = 0.2, 0.25
	case "fft":
		sv, ev = 3, 4
	default:
		return nil, fmt.Errorf("identical profile: unknown shape %q (dgemm or fft)", shape)
	}
	proc := Processor{Name: "P"}
	for k := 1; k <= points; k++ {
		g := float64(k)
		base := 10 * (1 - math.Exp(-g/40)) // GFLOP/s per granule of work
		s := base / (1 + sv*r.Float64()*bump(r))
		t := g / s
		pw := 40 * (1 + ev*r.Float64()*bump(r)) * (0.7 + 0.3*(1-math.Exp(-g/60)))
		proc.Points = append(proc.Points, Point{Size: k, Time: round6(t), Energy: round6(pw * t)})
	}
	in := &Instance{Kind: "workload", Name: fmt.Sprintf("identical-%s-p%d-m%d-n%d-s%d", shape, p, points, n, seed), N: n, Objective: ObjPareto}
	for i := 0; i < p; i++ {
		q := proc
		q.Name = fmt.Sprintf("P%d", i)
		in.Processors = append(in.Processors, q)
	}
	return in, nil
}

// bump is 1 for about one point in six and small otherwise, so variations come in
// isolated spikes rather than uniform noise.
func bump(r *rand.Rand) float64 {
	if r.IntN(6) == 0 {
		return 1
	}
	return 0.05
}

func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }
