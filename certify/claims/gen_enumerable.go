package claims

import (
	"math"
	"math/rand/v2"

	"github.com/schedopt/schedopt/backends/backendtest"
	"github.com/schedopt/schedopt/model"
)

// impliedFactor is how much implied-free columns may multiply the enumeration of an
// enumerable case beyond GenConfig.EnumLimit.
const impliedFactor = 8

// genEnumerable returns a FamilyEnumerable case. A draw whose enumeration would be
// too large is discarded and drawn again (still deterministically), at the latest
// without implied-free columns.
func genEnumerable(rng *rand.Rand, n, limit int) Case {
	for attempt := 0; ; attempt++ {
		if c, ok := tryEnumerable(rng, n, limit, attempt < 4); ok {
			return c
		}
	}
}

// implied is an implied-free column: z = Σ a_j x_j + b0 over box columns, with the
// range that equality implies.
type implied struct {
	col        int
	lo, hi     float64 // the twin's bounds: z's bounds intersected with the implied range
	definition row
}

// tryEnumerable draws one enumerable case; ok is false when its enumeration would
// exceed impliedFactor·limit points.
func tryEnumerable(rng *rand.Rand, n, limit int, allowImplied bool) (Case, bool) {
	b := newBuilder(rng, "enumerable")
	eqShare := []float64{0.15, 0.4, 0.75}[rng.IntN(3)]
	if eqShare > 0.5 {
		b.trait("equality-heavy")
	}
	rangeShare := []float64{0, 0.2, 0.4}[rng.IntN(3)]
	tight := rng.IntN(4) == 0
	if tight {
		b.trait("tight-bounds")
	}
	tenths := rng.IntN(4) == 0

	// The box: binaries and small integer ranges, shrunk to keep the enumeration
	// within limit points.
	points := 1.0
	var x0 []float64
	for range n {
		if rng.IntN(3) == 0 && points*2 <= float64(limit) {
			b.col(model.Binary, 0, 1)
			points *= 2
			x0 = append(x0, float64(rng.IntN(2)))
			continue
		}
		lo := float64(rng.IntN(7) - 3)
		w := rng.IntN(5)
		if tight {
			w = rng.IntN(2)
		}
		for w > 0 && points*float64(w+1) > float64(limit) {
			w--
		}
		b.col(model.Integer, lo, lo+float64(w))
		points *= float64(w + 1)
		x0 = append(x0, lo+float64(rng.IntN(w+1)))
	}
	box := b.n()

	// Implied-free columns and their defining equalities.
	var imp []implied
	if allowImplied && box >= 2 && rng.IntN(4) == 0 {
		b.trait("implied-free")
		k := 1
		if rng.IntN(4) == 0 {
			k = 2
		}
		for range k {
			terms := rng.Perm(box)[:2+rng.IntN(min(2, box-1))]
			a := make([]float64, box)
			b0 := float64(rng.IntN(7) - 3)
			zmin, zmax := b0, b0
			for _, j := range terms {
				c := float64(1 + rng.IntN(3))
				if rng.IntN(2) == 0 {
					c = -c
				}
				a[j] = c
				zmin += math.Min(c*b.lo[j], c*b.hi[j])
				zmax += math.Max(c*b.lo[j], c*b.hi[j])
			}
			zval := dot(a, x0) + b0
			lo, hi := math.Inf(-1), math.Inf(1)
			switch rng.IntN(4) {
			case 2:
				lo = zmin - float64(rng.IntN(3))
				if rng.IntN(5) == 0 {
					lo = zmin + 1 // cuts into the implied range
				}
				b.trait("pl-bound")
			case 3:
				hi = zmax + float64(rng.IntN(3))
				if rng.IntN(5) == 0 {
					hi = zmax - 1
				}
				b.trait("mi-bound")
			default:
				b.trait("free")
			}
			z := b.col(model.Integer, lo, hi)
			x0 = append(x0, zval)
			// The definition z − Σ a_j x_j = b0, scaled by -1 or 2 at times.
			def := make([]float64, z+1)
			scale := []float64{1, 1, -1, 2}[rng.IntN(4)]
			for j, c := range a {
				def[j] = -c * scale
			}
			def[z] = scale
			imp = append(imp, implied{col: z, lo: math.Max(lo, zmin), hi: math.Min(hi, zmax),
				definition: row{a: def, lo: b0 * scale, hi: b0 * scale}})
			if w := math.Min(hi, zmax) - math.Max(lo, zmin); w > 0 {
				points *= w + 1
			}
		}
		if points > float64(impliedFactor*limit) {
			return Case{}, false
		}
	}

	// Rows: anchored at x0, some shifted off it, plus traps.
	st := b.pickStyle(tenths)
	fractions := st == styleQuarter || st == styleTenth
	shiftShare := 0.0
	if rng.IntN(5) < 2 {
		shiftShare = 0.4
	}
	density := 0.3 + 0.5*rng.Float64()
	var rows []row
	for _, im := range imp {
		rows = append(rows, im.definition)
	}
	for range 1 + rng.IntN(n+1) {
		a := b.randomRow(st, density, nil)
		r := b.anchoredRow(a, x0, eqShare, rangeShare, fractions)
		if rng.Float64() < shiftShare {
			b.trait("shifted")
			d := float64(1 + rng.IntN(3))
			if rng.IntN(2) == 0 {
				d = -d
			}
			r.lo += d
			r.hi += d
		}
		rows = append(rows, r)
	}
	if rng.IntN(6) == 0 {
		rows = append(rows, b.gcdTrap(x0))
	}
	if rng.IntN(6) == 0 {
		rows = append(rows, b.disjointRanges(st, density, x0)...)
	}
	b.addRows(rows)
	b.objective(randomSense(rng), b.randomObjective(b.pickStyle(tenths), 0.8), float64(rng.IntN(11)-5))

	c := Case{Model: b.m, Family: FamilyEnumerable, Variant: b.variant()}
	twin := b.m
	if len(imp) > 0 {
		twin = b.m.Clone()
		for _, im := range imp {
			if im.lo > im.hi {
				c.Truth = Truth{Status: Infeasible}
				return c, true
			}
			twin.SetBounds(model.Var(im.col), im.lo, im.hi)
		}
	}
	best, obj, feasible, err := backendtest.BruteForce(twin)
	if err != nil {
		return Case{}, false
	}
	if feasible {
		c.Truth = Truth{Status: Optimal, Objective: obj}
		c.Witness = best
	} else {
		c.Truth = Truth{Status: Infeasible}
	}
	return c, true
}

// gcdTrap returns an equality over two to four integer columns whose coefficients
// share a divisor g ≥ 2 that the right-hand side lacks: infeasible over the
// integers, whatever the bounds, yet its LP relaxation is feasible.
func (b *builder) gcdTrap(x0 []float64) row {
	b.trait("gcd-trap")
	var ints []int
	for j, k := range b.kind {
		if k == model.Integer && b.lo[j] < b.hi[j] {
			ints = append(ints, j)
		}
	}
	if len(ints) < 2 {
		for j, k := range b.kind {
			if k.IsInteger() {
				ints = append(ints, j)
			}
		}
	}
	b.rng.Shuffle(len(ints), func(i, j int) { ints[i], ints[j] = ints[j], ints[i] })
	ints = ints[:min(len(ints), 2+b.rng.IntN(3))]
	g := float64(2 + b.rng.IntN(5))
	a := make([]float64, b.n())
	for _, j := range ints {
		w := float64(1 + b.rng.IntN(3))
		if b.rng.IntN(2) == 0 {
			w = -w
		}
		a[j] = g * w
	}
	q := math.Round(dot(a, x0) / g)
	rhs := g*q + float64(1+b.rng.IntN(int(g)-1))
	return row{a: a, lo: rhs, hi: rhs}
}

// disjointRanges returns two rows on multiples of one expression e whose ranges for
// e meet at most in one point: e ∈ [act−s, act+s'] and, written as k·e, e ∈ [act+s'+δ,
// act+s'+δ+w] with δ ∈ {0, 1}. With δ = 1 the pair is infeasible; with δ = 0 it
// forces e = act+s', which the box may or may not allow.
func (b *builder) disjointRanges(st style, density float64, x0 []float64) []row {
	b.trait("disjoint-ranges")
	a := b.randomRow(st, density, nil)
	act := dot(a, x0)
	top := act + float64(b.rng.IntN(3))
	first := row{a: a, lo: act - float64(b.rng.IntN(3)), hi: top}
	lo := top + float64(b.rng.IntN(2))
	hi := lo + float64(b.rng.IntN(3))
	if b.rng.IntN(2) == 0 {
		hi = math.Inf(1)
	}
	k := []float64{2, -3, 0.5, -1}[b.rng.IntN(4)]
	ka := make([]float64, len(a))
	for j, c := range a {
		ka[j] = k * c
	}
	second := row{a: ka, lo: k * lo, hi: k * hi}
	if k < 0 {
		second.lo, second.hi = k*hi, k*lo
	}
	return []row{first, second}
}
