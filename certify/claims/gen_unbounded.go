package claims

import (
	"math"
	"math/rand/v2"

	"github.com/schedopt/schedopt/model"
)

// genUnbounded returns a FamilyUnbounded case: a planted feasible point x0 and an
// integer ray d along which every row stays satisfied and the objective improves.
//
// d has one to three nonzero entries, one of them ±1 (the pivot), so that a row's
// coefficient on the pivot can be adjusted to give a·d = 0 with integral data. The
// columns d moves have an infinite bound in d's direction; the others are free,
// one-sided (MI or PL) or boxed around x0, tight at times.
func genUnbounded(rng *rand.Rand, n int) Case {
	b := newBuilder(rng, "unbounded")
	kinds := make([]model.Kind, n)
	var movable []int
	for j := range kinds {
		switch r := rng.IntN(20); {
		case r < 3:
			kinds[j] = model.Binary
		case r < 8:
			kinds[j] = model.Continuous
		default:
			kinds[j] = model.Integer
		}
		if kinds[j] != model.Binary {
			movable = append(movable, j)
		}
	}
	if len(movable) == 0 {
		kinds[0] = model.Integer
		movable = []int{0}
	}
	rng.Shuffle(len(movable), func(i, j int) { movable[i], movable[j] = movable[j], movable[i] })
	d := make([]float64, n)
	pivot := movable[0]
	d[pivot] = sign(rng)
	for _, j := range movable[1 : 1+rng.IntN(min(3, len(movable)))] {
		d[j] = sign(rng) * float64(1+rng.IntN(3))
	}

	x0 := make([]float64, n)
	for j, k := range kinds {
		switch k {
		case model.Binary:
			x0[j] = float64(rng.IntN(2))
			b.col(k, 0, 1)
			continue
		case model.Continuous:
			x0[j] = float64(rng.IntN(21)-10) / 2
		default:
			x0[j] = float64(rng.IntN(11) - 5)
		}
		frac := 0.0 // fractional bounds for continuous columns
		if k == model.Continuous && rng.IntN(2) == 0 {
			frac = 0.5
		}
		below := x0[j] - float64(rng.IntN(4)) - frac
		above := x0[j] + float64(rng.IntN(4)) + frac
		lo, hi := math.Inf(-1), math.Inf(1)
		switch {
		case d[j] > 0:
			if rng.IntN(3) > 0 {
				lo = below
				b.trait("pl-bound")
			} else {
				b.trait("free")
			}
		case d[j] < 0:
			if rng.IntN(3) > 0 {
				hi = above
				b.trait("mi-bound")
			} else {
				b.trait("free")
			}
		default:
			switch r := rng.IntN(10); {
			case r < 2:
				b.trait("free")
			case r < 4:
				lo = below
				b.trait("pl-bound")
			case r < 6:
				hi = above
				b.trait("mi-bound")
			default:
				lo, hi = below, above
			}
		}
		b.col(k, lo, hi)
	}

	// Rows: equality and ranged rows get a·d = 0 through the pivot's coefficient,
	// one-sided rows open in d's direction.
	eqShare := []float64{0.2, 0.5, 0.8}[rng.IntN(3)]
	if eqShare > 0.5 {
		b.trait("equality-heavy")
	}
	st := b.pickStyle(false)
	density := 0.3 + 0.5*rng.Float64()
	var rows []row
	for range 1 + rng.IntN(n+2) {
		a := b.randomRow(st, density, nil)
		act := func() float64 { return dot(a, x0) }
		switch r := rng.Float64(); {
		case r < eqShare+0.15:
			a[pivot] -= dot(a, d) * d[pivot]
			if allZero(a) {
				continue
			}
			if r < eqShare {
				rows = append(rows, row{a: a, lo: act(), hi: act()})
			} else {
				b.trait("ranged")
				rows = append(rows, row{a: a, lo: act() - b.slack(true), hi: act() + b.slack(true)})
			}
		default:
			s := dot(a, d)
			if s > 0 || s == 0 && rng.IntN(2) == 0 {
				rows = append(rows, row{a: a, lo: act() - b.slack(true), hi: math.Inf(1)})
			} else {
				rows = append(rows, row{a: a, lo: math.Inf(-1), hi: act() + b.slack(true)})
			}
		}
	}
	b.addRows(rows)

	// The objective improves along d: sense·(c·d) = −(1, 2 or 3).
	sense := randomSense(rng)
	c := b.randomObjective(b.pickStyle(false), 0.7)
	target := -float64(sense) * float64(1+rng.IntN(3))
	c[pivot] += (target - dot(c, d)) * d[pivot]
	b.objective(sense, c, float64(rng.IntN(11)-5))

	return Case{Model: b.m, Truth: Truth{Status: Unbounded}, Family: FamilyUnbounded,
		Variant: b.variant(), Ray: &Ray{Point: x0, Dir: d}}
}

// sign returns +1 or −1 with equal probability.
func sign(rng *rand.Rand) float64 {
	if rng.IntN(2) == 0 {
		return -1
	}
	return 1
}

// allZero reports whether every entry of a is zero.
func allZero(a []float64) bool {
	for _, v := range a {
		if v != 0 {
			return false
		}
	}
	return true
}
