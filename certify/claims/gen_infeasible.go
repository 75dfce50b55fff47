package claims

import (
	"math"
	"math/rand/v2"

	"github.com/schedopt/schedopt/model"
)

// genInfeasible returns a FamilyInfeasible case: columns mostly free or one-sided,
// filler rows satisfied at a planted point x0, and a planted certificate that no
// point satisfies — a Farkas combination of two to four rows, a congruence row, or a
// congruence hidden as the difference of two equalities.
func genInfeasible(rng *rand.Rand, n int) Case {
	b := newBuilder(rng, "infeasible")
	variant := rng.IntN(3) // 0 Farkas, 1 congruence, 2 hidden congruence
	x0 := make([]float64, n)
	for j := range n {
		k := model.Integer
		switch r := rng.IntN(10); {
		case variant > 0 && j < 2: // a congruence needs two integer columns
		case r < 1:
			k = model.Binary
		case r < 4:
			k = model.Continuous
		}
		if k == model.Binary {
			x0[j] = float64(rng.IntN(2))
			b.col(k, 0, 1)
			continue
		}
		x0[j] = float64(rng.IntN(11) - 5)
		lo, hi := math.Inf(-1), math.Inf(1)
		switch r := rng.IntN(10); {
		case r < 4:
			b.trait("free")
		case r < 6:
			lo = x0[j] - float64(rng.IntN(4))
			b.trait("pl-bound")
		case r < 8:
			hi = x0[j] + float64(rng.IntN(4))
			b.trait("mi-bound")
		default:
			lo, hi = x0[j]-float64(rng.IntN(6)), x0[j]+float64(rng.IntN(6))
		}
		b.col(k, lo, hi)
	}

	st := b.pickStyle(false)
	density := 0.3 + 0.5*rng.Float64()
	eqShare := []float64{0.2, 0.5}[rng.IntN(2)]
	var rows []row
	for range rng.IntN(n + 1) {
		rows = append(rows, b.anchoredRow(b.randomRow(st, density, nil), x0, eqShare, 0.2, true))
	}
	c := Case{Family: FamilyInfeasible, Truth: Truth{Status: Infeasible}, Proof: &Proof{}}
	switch variant {
	case 0:
		rows = append(rows, b.farkasRows(st, density, x0)...)
	case 1:
		r, g := b.congruenceRow(x0)
		r.proof, r.mult = true, 1
		rows = append(rows, r)
		c.Proof.Modulus = g
	default:
		r, g := b.congruenceRow(x0)
		u := b.randomRow(st, density, nil)
		mu := []float64{1, -1, 2, 3}[rng.IntN(4)]
		bu := dot(u, x0)
		v := make([]float64, b.n())
		for j := range v {
			v[j] = mu*u[j] + r.a[j]
		}
		rows = append(rows,
			row{a: u, lo: bu, hi: bu, proof: true, mult: -mu},
			row{a: v, lo: mu*bu + r.lo, hi: mu*bu + r.lo, proof: true, mult: 1})
		b.trait("hidden")
		c.Proof.Modulus = g
	}
	c.Proof.Rows, c.Proof.Mult = b.addRows(rows)
	b.objective(randomSense(rng), b.randomObjective(b.pickStyle(false), 0.7), float64(rng.IntN(11)-5))
	c.Model, c.Variant = b.m, b.variant()
	return c
}

// farkasRows returns k = 2..4 rows with multipliers λ (λ_k = ±1) such that
// Σ λ_i a_i = 0 while the bounds λ selects sum to −δ < 0. The first k−1 rows are
// satisfied at x0 with slacks; the last is placed δ beyond what they allow.
func (b *builder) farkasRows(st style, density float64, x0 []float64) []row {
	rng := b.rng
	k := 2 + rng.IntN(3)
	b.trait("farkas")
	rows := make([]row, k)
	for {
		sum := make([]float64, b.n()) // Σ_{i<k} λ_i a_i
		s := 0.0                      // Σ_{i<k} of the selected bounds times λ_i
		for i := range k - 1 {
			a := b.randomRow(st, density, nil)
			lam := sign(rng) * float64(1+rng.IntN(3))
			act := dot(a, x0)
			r := row{a: a, proof: true, mult: lam}
			if lam > 0 {
				r.hi = act + b.slack(true)
				r.lo = b.otherSide(r.hi, -1)
				s += lam * r.hi
			} else {
				r.lo = act - b.slack(true)
				r.hi = b.otherSide(r.lo, 1)
				s += lam * r.lo
			}
			for j, c := range a {
				sum[j] += lam * c
			}
			rows[i] = r
		}
		lamK := sign(rng)
		ak := make([]float64, b.n())
		for j, c := range sum {
			ak[j] = -lamK * c
		}
		if allZero(ak) {
			continue
		}
		delta := []float64{0.5, 1, 3}[rng.IntN(3)]
		last := row{a: ak, proof: true, mult: lamK}
		if lamK > 0 {
			last.hi = -delta - s
			last.lo = b.otherSide(last.hi, -1)
		} else {
			last.lo = s + delta
			last.hi = b.otherSide(last.lo, 1)
		}
		rows[k-1] = last
		return rows
	}
}

// otherSide returns the second bound of a row whose certificate bound is at: the
// same value (an equality), a range of width 1 to 3 in direction dir, or infinity.
func (b *builder) otherSide(at, dir float64) float64 {
	switch b.rng.IntN(4) {
	case 0:
		return at
	case 1:
		b.trait("ranged")
		return at + dir*float64(1+b.rng.IntN(3))
	}
	return math.Inf(int(dir))
}

// congruenceRow returns an equality over two to four integer, non-binary columns
// whose coefficients are multiples of g while the right-hand side is not, and g. A
// fifth of them use g = 1 with a right-hand side of a half-integer.
func (b *builder) congruenceRow(x0 []float64) (row, float64) {
	rng := b.rng
	var ints []int
	for j, k := range b.kind {
		if k == model.Integer {
			ints = append(ints, j)
		}
	}
	rng.Shuffle(len(ints), func(i, j int) { ints[i], ints[j] = ints[j], ints[i] })
	ints = ints[:min(len(ints), 2+rng.IntN(3))]
	g := float64(2 + rng.IntN(5))
	half := rng.IntN(5) == 0
	if half {
		g = 1
		b.trait("half-rhs")
	} else {
		b.trait("congruence")
	}
	a := make([]float64, b.n())
	for _, j := range ints {
		a[j] = g * sign(rng) * float64(1+rng.IntN(4))
	}
	q := math.Round(dot(a, x0) / g)
	rhs := g*q + float64(1+rng.IntN(max(1, int(g)-1)))
	if half {
		rhs = q + 0.5
	}
	return row{a: a, lo: rhs, hi: rhs}, g
}
