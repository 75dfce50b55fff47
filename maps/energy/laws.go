package energy

import "math"

// Positions of the parameters of the Amdahl and Gustafson laws.
const (
	LawM = iota // number of cores m
	LawK        // idle-power reduction factor k
	LawF        // parallel fraction f
)

// lawParams are the parameters of both laws (§4.1): m cores, idle power reduced k
// times, a parallel fraction f ≤ 1. Fig. 4.1 draws (m, k) at f = 0.8, Fig. 4.2 (f, k)
// at m = 1000.
func lawParams() []Param {
	return []Param{
		LawM: {Name: "m", Desc: "core number", Discrete: true, Min: 1, Max: 1e9, Range: [2]float64{1, 100}},
		LawK: {Name: "k", Desc: "idle power reduction factor", Min: 0, MinOpen: true, Max: math.Inf(1), Range: [2]float64{1, 100}},
		LawF: {Name: "f", Desc: "parallel fraction", Min: 0, Max: 1, Range: [2]float64{0, 1}},
	}
}

func lawEval(p []float64, e, t float64) Point {
	ps := lawParams()
	for i, v := range p {
		if !ps[i].Admits(v) {
			return Point{E: math.NaN(), T: math.NaN()}
		}
	}
	return Point{E: e, T: t, Feasible: true}
}

// Amdahl is the energy of Amdahl's law (4.1) in units of one core running the whole
// application: the sequential part 1 − f runs on one core while m − 1 idle cores draw
// 1/k of the active power, the parallel part f/m on all m cores:
// E = 1 + (m − 1)(1 − f)/k, T = 1 − f + f/m.
type Amdahl struct{}

// Name is "amdahl".
func (Amdahl) Name() string { return "amdahl" }

// EnergyUnit is "" (relative units).
func (Amdahl) EnergyUnit() string { return "" }

// Params are m, k, f.
func (Amdahl) Params() []Param { return lawParams() }

// Reference is m = 1000, k = 3, f = 0.8.
func (Amdahl) Reference() []float64 { return []float64{1000, 3, 0.8} }

// Eval is (4.1).
func (Amdahl) Eval(p []float64) Point {
	m, k, f := p[LawM], p[LawK], p[LawF]
	return lawEval(p, 1+(m-1)*(1-f)/k, 1-f+f/m)
}

// Solve is (4.3) for k, and (4.1) solved for f.
func (Amdahl) Solve(i int, level float64, p []float64) (float64, bool) {
	m, k, f := p[LawM], p[LawK], p[LawF]
	switch i {
	case LawK:
		return (1 - f) * (m - 1) / (level - 1), true // (4.3)
	case LawF:
		return 1 - (level-1)*k/(m-1), true
	}
	return 0, false
}

// Gustafson is the energy of Gustafson's law (4.2): the sequential part 1 − f on one
// core with m − 1 cores idle, the parallel part taking time f on all m cores:
// E = (1 − f)(1 + (m − 1)/k) + m·f, T = 1.
type Gustafson struct{}

// Name is "gustafson".
func (Gustafson) Name() string { return "gustafson" }

// EnergyUnit is "" (relative units).
func (Gustafson) EnergyUnit() string { return "" }

// Params are m, k, f.
func (Gustafson) Params() []Param { return lawParams() }

// Reference is m = 1000, k = 3, f = 0.8.
func (Gustafson) Reference() []float64 { return []float64{1000, 3, 0.8} }

// Eval is (4.2).
func (Gustafson) Eval(p []float64) Point {
	m, k, f := p[LawM], p[LawK], p[LawF]
	return lawEval(p, (1-f)*(1+(m-1)/k)+m*f, 1)
}

// Solve is (4.4) for k, and (4.2) solved for f (E is affine in f).
func (Gustafson) Solve(i int, level float64, p []float64) (float64, bool) {
	m, k, f := p[LawM], p[LawK], p[LawF]
	switch i {
	case LawK:
		return (m - 1) / ((level-m*f)/(1-f) - 1), true // (4.4)
	case LawF:
		return (level - 1 - (m-1)/k) / (m - 1 - (m-1)/k), true
	}
	return 0, false
}
