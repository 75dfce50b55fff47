package isoline

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/schedopt/schedopt/maps/energy"
)

// TraceTol is the largest relative difference between the model's energy at a traced
// point and the point's level. Points the search cannot bring this close (where the
// energy jumps, or is so steep that neighbouring floats straddle the level by more) are
// left out.
const TraceTol = 1e-11

// ErrBadSpec is wrapped by the errors of Spec.Check.
var ErrBadSpec = errors.New("isoline: bad map specification")

// Defaults of a Spec's sampling.
const (
	DefaultSamples = 400  // samples of a continuous independent axis
	DefaultScan    = 256  // scan points of the root search
	maxIntegers    = 5000 // a discrete axis is traced at every integer up to this many
)

// Axis is one axis of a map: which parameter, its range and scale.
type Axis struct {
	Param  int     // index into the model's Params
	Lo, Hi float64 // range, Lo < Hi
	Log    bool    // logarithmic scale (sampling and drawing)
}

// Spec describes a map: a model, the fixed parameter values, two axes and the energy
// levels of the isolines.
type Spec struct {
	Model   energy.Model
	Base    []float64 // every parameter's value; the axes' entries are overwritten
	X, Y    Axis
	Levels  []float64
	Samples int // samples of the independent axis (DefaultSamples when 0)
	Scan    int // scan points of a root search (DefaultScan when 0)
}

// Check reports whether the specification can be traced.
func (s *Spec) Check() error {
	ps := s.Model.Params()
	if len(s.Base) != len(ps) {
		return fmt.Errorf("%w: %d parameter values for %d parameters", ErrBadSpec, len(s.Base), len(ps))
	}
	if s.X.Param == s.Y.Param {
		return fmt.Errorf("%w: x and y are both %s", ErrBadSpec, ps[s.X.Param].Name)
	}
	for _, ax := range []Axis{s.X, s.Y} {
		if ax.Param < 0 || ax.Param >= len(ps) {
			return fmt.Errorf("%w: no parameter %d", ErrBadSpec, ax.Param)
		}
		p := ps[ax.Param]
		if !(ax.Lo < ax.Hi) || math.IsInf(ax.Hi, 0) || math.IsInf(ax.Lo, 0) {
			return fmt.Errorf("%w: %s range [%g, %g] is empty or unbounded", ErrBadSpec, p.Name, ax.Lo, ax.Hi)
		}
		if ax.Log && ax.Lo <= 0 {
			return fmt.Errorf("%w: %s range starts at %g on a log axis", ErrBadSpec, p.Name, ax.Lo)
		}
		if ax.Lo < p.Min || ax.Hi > p.Max {
			return fmt.Errorf("%w: %s range [%g, %g] leaves [%g, %g]", ErrBadSpec, p.Name, ax.Lo, ax.Hi, p.Min, p.Max)
		}
		if p.Discrete && math.Floor(ax.Hi) < math.Ceil(ax.Lo) {
			return fmt.Errorf("%w: %s range [%g, %g] holds no integer", ErrBadSpec, p.Name, ax.Lo, ax.Hi)
		}
	}
	if ps[s.X.Param].Discrete && ps[s.Y.Param].Discrete {
		return fmt.Errorf("%w: both axes are discrete", ErrBadSpec)
	}
	for _, l := range s.Levels {
		if !(l > 0) || math.IsInf(l, 0) {
			return fmt.Errorf("%w: level %g is not a positive energy", ErrBadSpec, l)
		}
	}
	return nil
}

// Point is one traced point: the level it lies on and its coordinates, in the units of
// the model's parameters.
type Point struct {
	Level, X, Y float64
}

// Line is one connected branch of an isoline, ordered along the independent axis.
type Line struct {
	Level  float64
	Points []Point
}

// Map is the result of Trace: every traced point, and the points joined into lines.
type Map struct {
	Points []Point
	Lines  []Line
}

// Samples returns the values of the axis at which a map samples it: n values evenly
// spread on the axis's scale, or, for a discrete parameter, every integer in the range
// (an even spread of integers when there are more than max).
func Samples(ax Axis, discrete bool, n, max int) []float64 {
	if discrete {
		lo, hi := math.Ceil(ax.Lo), math.Floor(ax.Hi)
		if hi-lo+1 <= float64(max) {
			out := make([]float64, 0, int(hi-lo)+1)
			for v := lo; v <= hi; v++ {
				out = append(out, v)
			}
			return out
		}
		n = max
		var out []float64
		for _, v := range Samples(Axis{Lo: lo, Hi: hi, Log: ax.Log}, false, n, 0) {
			v = math.Round(v)
			if len(out) == 0 || v > out[len(out)-1] {
				out = append(out, v)
			}
		}
		return out
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = ax.at(float64(i) / float64(n-1))
	}
	return out
}

// at maps u ∈ [0, 1] to the axis.
func (ax Axis) at(u float64) float64 {
	if u <= 0 {
		return ax.Lo
	}
	if u >= 1 {
		return ax.Hi
	}
	if ax.Log {
		return math.Exp(math.Log(ax.Lo) + u*(math.Log(ax.Hi)-math.Log(ax.Lo)))
	}
	return ax.Lo + u*(ax.Hi-ax.Lo)
}

// Trace traces every level of s. When both parameters are continuous it traces each
// level twice, along X solving for Y and along Y solving for X, so that the steep parts
// of a line (nearly parallel to one axis) are sampled as densely as its flat parts;
// Map.Points holds the points of both passes and Map.Lines the branches of both. When
// one parameter is discrete (m) the line is traced at every integer of it, solving for
// the other.
func Trace(ctx context.Context, s Spec) (Map, error) {
	if err := s.Check(); err != nil {
		return Map{}, err
	}
	ps := s.Model.Params()
	var out Map
	switch {
	case ps[s.Y.Param].Discrete:
		return out, s.pass(ctx, &out, s.Y, s.X, true)
	case ps[s.X.Param].Discrete:
		return out, s.pass(ctx, &out, s.X, s.Y, false)
	}
	if err := s.pass(ctx, &out, s.X, s.Y, false); err != nil {
		return Map{}, err
	}
	if err := s.pass(ctx, &out, s.Y, s.X, true); err != nil {
		return Map{}, err
	}
	return out, nil
}

// pass traces every level along one axis, solving for the other (free), and appends
// the points and branches to out. swapped is true when along is the Y axis.
func (s Spec) pass(ctx context.Context, out *Map, along, free Axis, swapped bool) error {
	ps := s.Model.Params()
	n := s.Samples
	if n <= 1 {
		n = DefaultSamples
	}
	scan := s.Scan
	if scan <= 1 {
		scan = DefaultScan
	}
	xs := Samples(along, ps[along.Param].Discrete, n, maxIntegers)
	r := rooter{model: s.Model, axis: free, scan: scan}
	for _, level := range s.Levels {
		var active []int // indices in out.Lines of the branches the previous sample extended
		for _, a := range xs {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("isoline: tracing level %g: %w", level, err)
			}
			p := append([]float64(nil), s.Base...)
			p[along.Param] = a
			roots := r.roots(p, level)
			pts := make([]Point, len(roots))
			for i, v := range roots {
				if swapped {
					pts[i] = Point{Level: level, X: v, Y: a}
				} else {
					pts[i] = Point{Level: level, X: a, Y: v}
				}
			}
			out.Points = append(out.Points, pts...)
			if len(pts) != len(active) {
				active = active[:0]
				for _, pt := range pts {
					out.Lines = append(out.Lines, Line{Level: level, Points: []Point{pt}})
					active = append(active, len(out.Lines)-1)
				}
				continue
			}
			for i, pt := range pts {
				out.Lines[active[i]].Points = append(out.Lines[active[i]].Points, pt)
			}
		}
	}
	return nil
}

// rooter finds the values of one parameter at which the energy equals a level.
type rooter struct {
	model energy.Model
	axis  Axis
	scan  int
}

// eval returns E(v) − level, NaN when v is infeasible or not admissible.
func (r *rooter) eval(p []float64, v, level float64) float64 {
	p[r.axis.Param] = v
	pt := r.model.Eval(p)
	if !pt.Feasible || math.IsNaN(pt.E) {
		return math.NaN()
	}
	return pt.E - level
}

// onLevel reports whether the energy at v is within TraceTol of level.
func (r *rooter) onLevel(p []float64, v, level float64) bool {
	f := r.eval(p, v, level)
	return !math.IsNaN(f) && math.Abs(f) <= TraceTol*level
}

// roots returns the values of the free parameter in the axis range at which the
// energy equals level, in increasing order. p is modified.
func (r *rooter) roots(p []float64, level float64) []float64 {
	if v, ok := r.model.Solve(r.axis.Param, level, p); ok {
		lo, hi := r.axis.Lo, r.axis.Hi
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0) || v < lo || v > hi:
			// The root is unique (E is monotone or affine in every parameter that
			// has a closed form); outside the range there is nothing to draw,
			// unless the closed form itself broke down: check by scanning.
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				return nil
			}
		case r.onLevel(p, v, level):
			return []float64{v}
		case math.IsNaN(r.eval(p, v, level)):
			return nil // infeasible or inadmissible where the only root lies
		}
	}
	return r.scanRoots(p, level)
}

type sample struct{ v, f float64 }

// scanRoots samples the axis, inserts the feasibility boundaries between feasible and
// infeasible samples, and bisects every sign change between feasible neighbours.
func (r *rooter) scanRoots(p []float64, level float64) []float64 {
	var ss []sample
	prev := sample{v: math.NaN(), f: math.NaN()}
	for i := 0; i < r.scan; i++ {
		s := sample{v: r.axis.at(float64(i) / float64(r.scan-1))}
		s.f = r.eval(p, s.v, level)
		if i > 0 && math.IsNaN(prev.f) != math.IsNaN(s.f) {
			if b, ok := r.boundary(p, level, prev, s); ok {
				ss = append(ss, b)
			}
		}
		ss = append(ss, s)
		prev = s
	}
	var roots []float64
	for i, s := range ss {
		if s.f == 0 {
			roots = append(roots, s.v)
			continue
		}
		if i == 0 {
			continue
		}
		q := ss[i-1]
		if math.IsNaN(q.f) || math.IsNaN(s.f) || q.f == 0 || (q.f < 0) == (s.f < 0) {
			continue
		}
		if v, ok := r.bisect(p, level, q, s); ok {
			roots = append(roots, v)
		}
	}
	return roots
}

// mid is the midpoint of u and w on the axis's scale.
func (r *rooter) mid(u, w float64) float64 {
	if r.axis.Log {
		return math.Sqrt(u) * math.Sqrt(w)
	}
	return u + (w-u)/2
}

// boundary finds, by bisection, the feasible value next to the feasibility boundary
// between a and b (one feasible, one not).
func (r *rooter) boundary(p []float64, level float64, a, b sample) (sample, bool) {
	good, bad := a, b
	if math.IsNaN(a.f) {
		good, bad = b, a
	}
	for i := 0; i < 200; i++ {
		v := r.mid(good.v, bad.v)
		if v == good.v || v == bad.v {
			break
		}
		f := r.eval(p, v, level)
		if math.IsNaN(f) {
			bad.v = v
		} else {
			good = sample{v, f}
		}
	}
	if good.v == a.v || good.v == b.v {
		return sample{}, false
	}
	return good, true
}

// bisect narrows a sign change of E − level to adjacent floats and returns the end
// closer to the level, if it is on the level within TraceTol.
func (r *rooter) bisect(p []float64, level float64, a, b sample) (float64, bool) {
	for i := 0; i < 400; i++ {
		v := r.mid(a.v, b.v)
		if v == a.v || v == b.v {
			break
		}
		f := r.eval(p, v, level)
		if math.IsNaN(f) {
			return 0, false // an infeasible hole inside a feasible bracket
		}
		if f == 0 {
			return v, true
		}
		if (f < 0) == (a.f < 0) {
			a = sample{v, f}
		} else {
			b = sample{v, f}
		}
	}
	best := a
	if math.Abs(b.f) < math.Abs(a.f) {
		best = b
	}
	if math.Abs(best.f) > TraceTol*level {
		return 0, false
	}
	return best.v, true
}

// SortPoints orders points by level, then x, then y (the CSV's order).
func SortPoints(pts []Point) {
	sort.SliceStable(pts, func(i, j int) bool {
		if pts[i].Level != pts[j].Level {
			return pts[i].Level < pts[j].Level
		}
		if pts[i].X != pts[j].X {
			return pts[i].X < pts[j].X
		}
		return pts[i].Y < pts[j].Y
	})
}
