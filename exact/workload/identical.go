package workload

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

	dw "github.com/schedopt/schedopt/domain/workload"
)

// ErrNotIdentical is returned by the identical-processor algorithms when the tables
// differ.
var ErrNotIdentical = errors.New("workload: the processors' tables are not identical")

// power is one min-plus power f^{⊕k} of the single-processor table: for every w the
// lexicographically smallest (energy, active count) over k processors, each idle or on
// one point, with the split (workload of the first operand) that attains it.
type power struct {
	e     []float64
	a     []int32
	split []int32
	l, r  *power // operands; nil for the base table
}

// IdenticalMinEnergy solves E*(tau) for p identical processors (seed 003's BOPPE, ref
// §1.6) by min-plus doubling: with f(w) the cheapest single processor on w (idle
// included), the optimum over p processors is f^{⊕p}(N), built from O(log p)
// convolutions of O(N²) each instead of the O(p·N·m) of MinEnergy. It is
// lexicographic in (energy, active count) like MinEnergy.
func IdenticalMinEnergy(ctx context.Context, ts *dw.Tables, tau float64) (Point, bool, error) {
	if !ts.Identical() {
		return Point{}, false, ErrNotIdentical
	}
	N, t := ts.N, ts.Procs[0]
	inf := math.Inf(1)
	base := &power{e: make([]float64, N+1), a: make([]int32, N+1)}
	for w := 1; w <= N; w++ {
		base.e[w] = inf
	}
	for j, x := range t.Size {
		if x <= N && t.Time[j] <= tau && t.Energy[j] < base.e[x] {
			base.e[x], base.a[x] = t.Energy[j], 1
		}
	}
	var acc *power
	sq := base
	for k := ts.P(); k > 0; k >>= 1 {
		if k&1 == 1 {
			if acc == nil {
				acc = sq
			} else {
				var err error
				if acc, err = convolve(ctx, acc, sq, N); err != nil {
					return Point{}, false, err
				}
			}
		}
		if k > 1 {
			var err error
			if sq, err = convolve(ctx, sq, sq, N); err != nil {
				return Point{}, false, err
			}
		}
	}
	if acc.e[N] == inf {
		return Point{}, false, nil
	}
	var sizes []int
	var unfold func(pw *power, w int)
	unfold = func(pw *power, w int) {
		if pw.l == nil {
			sizes = append(sizes, w)
			return
		}
		s := int(pw.split[w])
		unfold(pw.l, s)
		unfold(pw.r, w-s)
	}
	unfold(acc, N)
	if len(sizes) != ts.P() {
		return Point{}, false, fmt.Errorf("workload: doubling rebuilt %d sizes for %d processors", len(sizes), ts.P())
	}
	// Identical processors: list the active ones first, largest first.
	sort.Sort(sort.Reverse(sort.IntSlice(sizes)))
	pt, ok := pointOf(ts, sizes)
	if !ok {
		return Point{}, false, fmt.Errorf("workload: doubling rebuilt an invalid distribution %v", sizes)
	}
	return pt, true, nil
}

// convolve returns the min-plus convolution of a and b on 0..N. A squaring (a == b)
// scans only the splits s ≤ w/2, the others being mirror images.
func convolve(ctx context.Context, a, b *power, N int) (*power, error) {
	inf := math.Inf(1)
	c := &power{e: make([]float64, N+1), a: make([]int32, N+1), split: make([]int32, N+1), l: a, r: b}
	ae, be := a.e, b.e
	for w := 0; w <= N; w++ {
		if w%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		hi := w
		if a == b {
			hi = w / 2
		}
		best, bestA, bestS := inf, int32(0), int32(0)
		thr := inf // energies above thr cannot win, even on the active-count tie-break
		for s := 0; s <= hi; s++ {
			ea := ae[s]
			if ea == inf {
				continue
			}
			e := ea + be[w-s]
			if e > thr {
				continue
			}
			act := a.a[s] + b.a[w-s]
			if best == inf || lexLess(e, act, best, bestA) {
				best, bestA, bestS = e, act, int32(s)
				thr = best + energyTolAbs(best)
			}
		}
		c.e[w], c.a[w], c.split[w] = best, bestA, bestS
	}
	return c, nil
}

// energyTolAbs is the absolute energy tolerance at value v.
func energyTolAbs(v float64) float64 { return dw.EnergyTol * math.Max(1, math.Abs(v)) }

// IdenticalSweep computes the front for identical processors with Sweep over
// IdenticalMinEnergy; its points carry the fewest-active representatives already.
func IdenticalSweep(ctx context.Context, ts *dw.Tables) (Front, error) {
	if !ts.Identical() {
		return nil, ErrNotIdentical
	}
	return sweepFromMinMakespan(ctx, ts, IdenticalMinEnergy)
}
