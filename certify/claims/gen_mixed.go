package claims

import (
	"math"
	"math/rand/v2"

	"github.com/schedopt/schedopt/model"
)

// genMixed returns a FamilyMixed case: a bounded mixed-integer model whose answer
// (optimal or infeasible) is left to the other backends. Every column is bounded
// except the free epigraph columns t ≥ |e·x − o|, which the objective pushes down.
func genMixed(rng *rand.Rand, n int) Case {
	b := newBuilder(rng, "mixed")
	x0 := make([]float64, n)
	var conts, bins []int
	for j := range n {
		switch rng.IntN(3) {
		case 0:
			lo := float64(rng.IntN(13)-6) / 2
			if rng.IntN(2) == 0 {
				lo = float64(rng.IntN(25)-12) / 4
			}
			hi := lo + float64(1+rng.IntN(16))/4
			b.col(model.Continuous, lo, hi)
			x0[j] = lo + (hi-lo)*float64(rng.IntN(9))/8
			conts = append(conts, j)
		case 1:
			b.col(model.Binary, 0, 1)
			x0[j] = float64(rng.IntN(2))
			bins = append(bins, j)
		default:
			lo := float64(rng.IntN(7) - 3)
			w := rng.IntN(7)
			b.col(model.Integer, lo, lo+float64(w))
			x0[j] = lo + float64(rng.IntN(w+1))
		}
	}

	var rows []row
	// Big-M links: a continuous column may be positive only when its binary is 1.
	if len(conts) > 0 && len(bins) > 0 && rng.IntN(5) < 2 {
		b.trait("big-m")
		for _, c := range conts {
			if rng.IntN(2) == 0 {
				continue
			}
			y := bins[rng.IntN(len(bins))]
			if x0[c] > 0 {
				x0[y] = 1
			}
			bigM := []float64{10, 100, 1000, 1e4}[rng.IntN(4)]
			a := make([]float64, n)
			a[c], a[y] = 1, -bigM
			rows = append(rows, row{a: a, lo: math.Inf(-1), hi: 0})
		}
	}

	eqShare := []float64{0.15, 0.4, 0.7}[rng.IntN(3)]
	if eqShare > 0.5 {
		b.trait("equality-heavy")
	}
	st := b.pickStyle(true)
	density := 0.3 + 0.5*rng.Float64()
	shiftShare := 0.0
	if rng.IntN(4) == 0 {
		shiftShare = 0.5
	}
	// Half the models centre their rows on the box's midpoint instead of x0, as
	// backendtest.RandomMixed does (whose models have caught HiGHS 1.10's MIP presolve
	// in wrong optima and false infeasibility): whether they are feasible is anyone's
	// guess.
	centre := x0
	if rng.IntN(2) == 0 {
		b.trait("midpoint")
		centre = make([]float64, n)
		for j := range centre {
			centre[j] = (b.lo[j] + b.hi[j]) / 2
		}
	}
	for range 1 + rng.IntN(n+1) {
		r := b.anchoredRow(b.randomRow(st, density, nil), centre, eqShare, 0.25, true)
		if rng.Float64() < shiftShare {
			b.trait("shifted")
			d := float64(1+rng.IntN(6)) / 2
			r.lo, r.hi = r.lo+d, r.hi+d
		}
		rows = append(rows, r)
	}

	sense := randomSense(rng)
	var epi []int
	if rng.IntN(10) < 3 {
		b.trait("free-epigraph")
		for range 1 + rng.IntN(2) {
			e := b.randomRow(styleSmall, 0.5, nil)
			off := float64(rng.IntN(9)-4) / 2
			t := b.col(model.Continuous, math.Inf(-1), math.Inf(1))
			x0 = append(x0, math.Abs(dot(e, x0)-off)+float64(rng.IntN(3)))
			up, down := make([]float64, t+1), make([]float64, t+1)
			for j, c := range e {
				up[j], down[j] = -c, c
			}
			up[t], down[t] = 1, 1
			// t − e·x ≥ −off and t + e·x ≥ off: t ≥ |e·x − off|.
			rows = append(rows, row{a: up, lo: -off, hi: math.Inf(1)}, row{a: down, lo: off, hi: math.Inf(1)})
			epi = append(epi, t)
		}
	}
	b.addRows(rows)
	c := b.randomObjective(b.pickStyle(true), 0.8)
	for _, t := range epi {
		c[t] = float64(sense) * float64(1+rng.IntN(5)) // a cost on t for min, a reward of −t for max
	}
	b.objective(sense, c, float64(rng.IntN(11)-5))
	return Case{Model: b.m, Truth: Truth{Status: Unknown}, Family: FamilyMixed, Variant: b.variant()}
}
