package isoline

import "math"

// Contour returns the isolines of a grid by marching squares: on every edge between two
// feasible neighbouring nodes whose energies straddle a level, the crossing is placed by
// linear interpolation of log E along the edge (on the axes' scales), and the crossings
// of each cell are joined in pairs. Unlike Trace, the points are only as exact as the
// grid is fine; it serves models without a closed form, where every node is a solve
// (the flat-memory LP maps). Cells with an infeasible corner are skipped.
func Contour(g Grid, levels []float64, xlog, ylog bool) Map {
	tr := func(v float64, log bool) float64 {
		if log {
			return math.Log(v)
		}
		return v
	}
	un := func(u float64, log bool) float64 {
		if log {
			return math.Exp(u)
		}
		return u
	}
	var out Map
	for _, level := range levels {
		ll := math.Log(level)
		// crossing on the edge between nodes (i0, j0) and (i1, j1), if any.
		cross := func(i0, j0, i1, j1 int) (Point, bool) {
			e0, e1 := g.E[j0][i0], g.E[j1][i1]
			if !(e0 > 0) || !(e1 > 0) || (e0 < level) == (e1 < level) {
				return Point{}, false
			}
			t := (ll - math.Log(e0)) / (math.Log(e1) - math.Log(e0))
			x := un(tr(g.X[i0], xlog)+t*(tr(g.X[i1], xlog)-tr(g.X[i0], xlog)), xlog)
			y := un(tr(g.Y[j0], ylog)+t*(tr(g.Y[j1], ylog)-tr(g.Y[j0], ylog)), ylog)
			return Point{Level: level, X: x, Y: y}, true
		}
		for j := 0; j+1 < len(g.Y); j++ {
			for i := 0; i+1 < len(g.X); i++ {
				var pts []Point
				for _, e := range [4][4]int{{i, j, i + 1, j}, {i + 1, j, i + 1, j + 1}, {i, j + 1, i + 1, j + 1}, {i, j, i, j + 1}} {
					if p, ok := cross(e[0], e[1], e[2], e[3]); ok {
						pts = append(pts, p)
					}
				}
				for k := 0; k+1 < len(pts); k += 2 {
					out.Lines = append(out.Lines, Line{Level: level, Points: []Point{pts[k], pts[k+1]}})
				}
				out.Points = append(out.Points, pts...)
			}
		}
	}
	return out
}
