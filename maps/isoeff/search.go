package isoeff

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// invPhi is 1/φ, the golden-section ratio of the maximum search.
var invPhi = (math.Sqrt(5) - 1) / 2

// ErrNoCrossing is returned by Bisect when the efficiency at the bracket's outer end is
// not below the level: the isoline does not cross that side of the V range.
var ErrNoCrossing = errors.New("isoeff: the level is not crossed in the bracket")

// EffFunc returns the efficiency at load V (for one fixed m and n).
type EffFunc func(ctx context.Context, V float64) (float64, error)

// Max is the result of MaxSearch: the probe of largest efficiency found and the final
// interval [Lo, Hi] around it.
type Max struct {
	V, E   float64
	Lo, Hi float64
	Probes int
}

// MaxSearch finds the maximum of a unimodal eff on [lo, hi] by golden-section search:
// two interior probes V1 < V2; the interval is narrowed to [lo, V2] when E(V1) >= E(V2)
// and to [V1, hi] otherwise (the end at the probe of smaller efficiency moves), until it
// is narrower than vtol. It returns the best probe seen.
func MaxSearch(ctx context.Context, eff EffFunc, lo, hi, vtol float64) (Max, error) {
	if !(lo < hi) || !(vtol > 0) {
		return Max{}, fmt.Errorf("isoeff: max search on [%g, %g] with tolerance %g", lo, hi, vtol)
	}
	res := Max{E: math.Inf(-1), Lo: lo, Hi: hi}
	probe := func(v float64) (float64, error) {
		e, err := eff(ctx, v)
		if err != nil {
			return 0, err
		}
		res.Probes++
		if e > res.E {
			res.V, res.E = v, e
		}
		return e, nil
	}
	v1, v2 := hi-invPhi*(hi-lo), lo+invPhi*(hi-lo)
	e1, err := probe(v1)
	if err != nil {
		return res, err
	}
	e2, err := probe(v2)
	if err != nil {
		return res, err
	}
	for hi-lo >= vtol {
		if e1 >= e2 {
			hi, v2, e2 = v2, v1, e1
			v1 = hi - invPhi*(hi-lo)
			if e1, err = probe(v1); err != nil {
				return res, err
			}
		} else {
			lo, v1, e1 = v1, v2, e2
			v2 = lo + invPhi*(hi-lo)
			if e2, err = probe(v2); err != nil {
				return res, err
			}
		}
	}
	res.Lo, res.Hi = lo, hi
	return res, nil
}

// Crossing is one isoline point found by Bisect: V is the probe whose efficiency E is
// nearest the level; the level lies between the efficiencies ELo at Lo and EHi at Hi.
type Crossing struct {
	Level    float64
	V, E     float64
	Lo, Hi   float64
	ELo, EHi float64
	Probes   int
}

// Bisect finds V in [below, above] with eff(V) = level, where eff(below) < level <=
// eff(above) (below may be larger than above: the bracket is oriented by efficiency, so
// one function serves both sides of V_max). eBelow and eAbove are the known
// efficiencies at the ends. It stops when |E − level| <= etol·level or the bracket is
// narrower than vtol. If eBelow >= level it returns ErrNoCrossing.
func Bisect(ctx context.Context, eff EffFunc, level, below, eBelow, above, eAbove, vtol, etol float64) (Crossing, error) {
	c := Crossing{Level: level}
	if !(eBelow < level) {
		return c, ErrNoCrossing
	}
	if eAbove < level {
		return c, fmt.Errorf("isoeff: bisect level %g: efficiency %g at V = %g is below it", level, eAbove, above)
	}
	for math.Abs(above-below) >= vtol && math.Abs(eAbove-level) > etol*level {
		mid := (below + above) / 2
		e, err := eff(ctx, mid)
		if err != nil {
			return c, err
		}
		c.Probes++
		if e < level {
			below, eBelow = mid, e
		} else {
			above, eAbove = mid, e
		}
	}
	c.V, c.E = above, eAbove
	if level-eBelow < eAbove-level {
		c.V, c.E = below, eBelow
	}
	c.Lo, c.Hi, c.ELo, c.EHi = below, above, eBelow, eAbove
	if c.Lo > c.Hi {
		c.Lo, c.Hi, c.ELo, c.EHi = c.Hi, c.Lo, c.EHi, c.ELo
	}
	return c, nil
}
