package energy

import (
	"math"

	ddlt "github.com/schedopt/schedopt/domain/dlt"
)

// Positions of the divisible-load model's parameters in its vectors (Table A.1).
const (
	M  = iota // number of workers m
	A         // computing rate a [s/unit]
	C         // communication rate C [s/unit]
	S         // startup time S [s]
	V         // load size V [units]
	K         // idle-power reduction factor k
	PC        // active processor power P^C [W]
	PN        // active network power P^N [W]
)

// seriesMax is the largest m·q for which κ^m − 1 − mq is summed as its binomial
// series: the terms then shrink at least 6-fold each, and every term is positive, so
// the sum is accurate to a few ulps. Above it, expm1(m·log1p(q)) − mq loses at most a
// factor 4 to cancellation.
const seriesMax = 0.5

// DLT is the chapter 4 divisible-load energy model (§4.2.1): an originator sends V
// units in one installment to m identical workers over a star, each after a startup S,
// all finishing together (4.5)-(4.6); the schedule length is (4.9)-(4.11) and the
// energy (4.16) = E^I + E^RN + E^RC (4.12)-(4.15). Memory is unlimited.
type DLT struct{}

// Name is "dlt".
func (DLT) Name() string { return "dlt" }

// EnergyUnit is joules.
func (DLT) EnergyUnit() string { return "J" }

// Params are m, a, C, S, V, k, PC, PN with the axis ranges of the §4.3 maps.
func (DLT) Params() []Param {
	inf := math.Inf(1)
	return []Param{
		M:  {Name: "m", Desc: "processor number", Discrete: true, Min: 1, Max: 1e9, Range: [2]float64{1, 2000}},
		A:  {Name: "a", Unit: "s/unit", Desc: "computing rate", Min: 0, MinOpen: true, Max: inf, Range: [2]float64{1e-6, 1e2}, Log: true},
		C:  {Name: "C", Unit: "s/unit", Desc: "communication rate", Min: 0, Max: inf, Range: [2]float64{1e-12, 1e-2}, Log: true},
		S:  {Name: "S", Unit: "s", Desc: "startup time", Min: 0, Max: inf, Range: [2]float64{1e-2, 1e6}, Log: true},
		V:  {Name: "V", Unit: "unit", Desc: "load size", Min: 0, MinOpen: true, Max: inf, Range: [2]float64{1e6, 1e15}, Log: true},
		K:  {Name: "k", Desc: "idle power reduction factor", Min: 1, Max: inf, Range: [2]float64{1, 1e3}, Log: true},
		PC: {Name: "PC", Unit: "W", Desc: "processor power", Min: 0, Max: inf, Range: [2]float64{1e-1, 1e4}, Log: true},
		PN: {Name: "PN", Unit: "W", Desc: "network power", Min: 0, Max: inf, Range: [2]float64{1e-1, 1e9}, Log: true},
	}
}

// Reference is the §4.3 reference instance (L489-491): m = 1000, a = 1E-3, C = 1E-8,
// S = 100, V = 1E11, k = 3, P^C = 200 W, P^N = 50 W (T ≈ 1.51E5 s, E ≈ 2.34E10 J).
func (DLT) Reference() []float64 { return []float64{1000, 1e-3, 1e-8, 100, 1e11, 3, 200, 50} }

// System converts a parameter vector to the domain's chapter 4 system.
func System(p []float64) ddlt.Ch4System {
	return ddlt.Ch4System{M: int(p[M]), A: p[A], C: p[C], S: p[S], V: p[V], K: p[K], PC: p[PC], PN: p[PN]}
}

// Schedule holds the schedule quantities of (4.8)-(4.11) for one (m, a, C, S, V).
type Schedule struct {
	Z1, Z2   float64 // (4.10), (4.11): T = S·z1 + V·z2
	T        float64 // (4.9)
	AlphaM   float64 // (4.8), the last worker's chunk
	Feasible bool    // α_m ≥ 0
}

// Chain evaluates (4.8)-(4.11) stably. With q = C/a, κ = 1 + q, G = (κ^m − 1)/q and
// D = (κ^m − 1 − mq)/q², the thesis's formulas reduce to
//
//	z1 = m − D/G,   z2 = a·κ^m/G,   α_m = (V·a − S·D)/(a·G)
//
// (substitute 1 − κ = −q and 1 − κ^m = −qG in (4.8), (4.10), (4.11)), which hold at
// C = 0 as well (G = m, D = m(m−1)/2). For mq ≤ seriesMax, D is the binomial series
// Σ_{j≥2} C(m,j) q^{j−2} and G = m + qD; above it, z1 = m − 1/q + m/(κ^m − 1) and
// z2 = a·q/(1 − κ^{−m}) with κ^m − 1 = expm1(m·log1p q), which neither overflows nor
// cancels. Feasibility is V·a·q² ≥ S·(κ^m − 1 − mq) there.
func Chain(m int, a, c, s, v float64) Schedule {
	n := float64(m)
	q := c / a
	var sc Schedule
	if n*q <= seriesMax {
		d := 0.0
		term := n * (n - 1) / 2
		for j := 2; j <= m && term != 0; j++ {
			d += term
			if term <= 1e-18*d {
				break
			}
			term *= (n - float64(j)) / float64(j+1) * q
		}
		g := n + q*d
		sc.Z1 = n - d/g
		sc.Z2 = a * (1 + q*g) / g
		sc.AlphaM = (v*a - s*d) / (a * g)
		sc.Feasible = v*a >= s*d
	} else {
		x := n * math.Log1p(q)
		em := math.Expm1(x)             // κ^m − 1, +Inf when κ^m overflows
		sc.Z1 = n - 1/q + n/em          // m − D/G with D/G = 1/q − m/(κ^m − 1)
		sc.Z2 = a * q / -math.Expm1(-x) // a·κ^m·q/(κ^m − 1)
		dq := em - n*q                  // κ^m − 1 − mq
		sc.AlphaM = (v*a*q*q - s*dq) / (a * q * em)
		sc.Feasible = s == 0 || v*a*q*q >= s*dq
		if math.IsInf(em, 1) && s == 0 {
			sc.AlphaM = 0 // V·q/(κ^m − 1) underflows; the chunk is positive but below the smallest float
		}
	}
	sc.T = s*sc.Z1 + v*sc.Z2
	return sc
}

// Eval returns the energy (4.16) and length (4.9) of the reference schedule at p.
// Configurations with α_m < 0 (4.8), or with a parameter outside its range, are
// infeasible; their E and T are still computed where the formulas are defined.
func (d DLT) Eval(p []float64) Point {
	ps := d.Params()
	for i, v := range p {
		if !ps[i].Admits(v) {
			return Point{E: math.NaN(), T: math.NaN()}
		}
	}
	sc := Chain(int(p[M]), p[A], p[C], p[S], p[V])
	e := ddlt.EnergyCh4(System(p), sc.T)
	return Point{E: e.E, T: sc.T, Feasible: sc.Feasible}
}

// Solve inverts (4.16) for k (4.17), P^C (4.18), P^N (4.19), V (4.20) and S (4.21),
// the inversions of §4.2.2; there is no closed form for m, a or C.
func (d DLT) Solve(i int, level float64, p []float64) (float64, bool) {
	sys := System(p)
	switch i {
	case K, PC, PN:
		sc := Chain(sys.M, sys.A, sys.C, sys.S, sys.V) // T depends on neither k, P^C nor P^N
		switch i {
		case K:
			return sys.InvertK(level, sc.T), true
		case PC:
			return sys.InvertPC(level, sc.T), true
		default:
			return sys.InvertPN(level, sc.T), true
		}
	case V, S:
		sc := Chain(sys.M, sys.A, sys.C, sys.S, sys.V) // z1, z2 depend on neither V nor S
		if i == V {
			return sys.InvertV(level, sc.Z1, sc.Z2), true
		}
		return sys.InvertS(level, sc.Z1, sc.Z2), true
	}
	return 0, false
}
