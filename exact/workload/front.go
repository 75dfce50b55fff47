package workload

import (
	"errors"
	"math"
	"sort"

	dw "github.com/schedopt/schedopt/domain/workload"
)

// ErrInfeasible is returned when no distribution sums to n.
var ErrInfeasible = errors.New("workload: no distribution sums to n")

// Point is one distribution with its makespan T, dynamic energy E and number of
// active processors. Sizes are in the instance's original units.
type Point struct {
	T      float64
	E      float64
	Active int
	Sizes  []int
}

// Front is a Pareto front sorted by increasing T with strictly decreasing E.
type Front []Point

// less reports whether energy a is below b by more than the energy tolerance.
func less(a, b float64) bool { return dw.EnergyLess(a, b) }

// Thetas returns the sorted distinct times of all table points: every makespan is
// one of them (ref §1.9).
func Thetas(ts *dw.Tables) []float64 {
	var th []float64
	for _, t := range ts.Procs {
		th = append(th, t.Time...)
	}
	sort.Float64s(th)
	out := th[:0]
	for i, v := range th {
		if i == 0 || v != out[len(out)-1] {
			out = append(out, v)
		}
	}
	return out
}

// NonDominated filters points to a front: sorted by T, then E, then active count, it
// keeps a point only when its energy is strictly below every earlier one's (by more
// than the energy tolerance). Among equal points the one with fewest active
// processors survives.
func NonDominated(pts []Point) Front { return nonDominatedEq(pts, EqualEnergy) }

// scale converts granule sizes to original units.
func scale(x []int, g int) []int {
	out := make([]int, len(x))
	for i, v := range x {
		out[i] = v * g
	}
	return out
}

// active counts the non-zero sizes.
func active(x []int) int {
	a := 0
	for _, v := range x {
		if v != 0 {
			a++
		}
	}
	return a
}

// evalGranules evaluates a distribution in granules against the tables; ok is false
// when a size is not a table point or the sum is not N.
func evalGranules(ts *dw.Tables, x []int) (T, E float64, ok bool) {
	sum := 0
	for i, v := range x {
		sum += v
		if v == 0 {
			continue
		}
		k := ts.Index(i, v)
		if k < 0 {
			return 0, 0, false
		}
		T = math.Max(T, ts.Procs[i].Time[k])
		E += ts.Procs[i].Energy[k]
	}
	return T, E, sum == ts.N
}

// pointOf builds a Point from a distribution in granules.
func pointOf(ts *dw.Tables, x []int) (Point, bool) {
	T, E, ok := evalGranules(ts, x)
	if !ok {
		return Point{}, false
	}
	return Point{T: T, E: E, Active: active(x), Sizes: scale(x, ts.Granule)}, true
}
