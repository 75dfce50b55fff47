package figure

import (
	"fmt"
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Curve is one series of a trade-off plot: points (X[i], Y[i]) in order.
type Curve struct {
	Label string
	X, Y  []float64
	// Steps draws the curve as a staircase (Pareto fronts of discrete problems).
	Steps bool
}

// TradeOff plots curves, for example energy vs schedule length for several instances
// or the Pareto fronts of workload instances, and saves the figure to base. xLabel and
// yLabel must name their units, e.g. "schedule length T [s]".
func TradeOff(curves []Curve, title, xLabel, yLabel, base string) ([]string, error) {
	p := New(title, xLabel, yLabel)
	n := 0
	for i, c := range curves {
		pts := make(plotter.XYs, 0, len(c.X))
		for k := range c.X {
			if k < len(c.Y) && finite(c.X[k]) && finite(c.Y[k]) {
				pts = append(pts, plotter.XY{X: c.X[k], Y: c.Y[k]})
			}
		}
		if len(pts) == 0 {
			continue
		}
		n++
		line := pts
		if c.Steps {
			line = staircase(pts)
		}
		l, err := plotter.NewLine(line)
		if err != nil {
			return nil, fmt.Errorf("plot: %s: %w", c.Label, err)
		}
		l.Color = Style(i)
		l.Width = vg.Points(1.5)
		s, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, fmt.Errorf("plot: %s: %w", c.Label, err)
		}
		s.Color = Style(i)
		s.Shape = plotutil.Shape(i)
		s.Radius = vg.Points(2.5)
		p.Add(l, s)
		if c.Label != "" {
			p.Legend.Add(c.Label, l, s)
		}
	}
	if n == 0 {
		return nil, ErrNoData
	}
	// Head room above the data for the legend.
	p.Y.Max += 0.12 * (p.Y.Max - p.Y.Min)
	p.X.Max += 0.03 * (p.X.Max - p.X.Min)
	p.Add(Grid())
	return Save(p, base, Width, Height)
}

// staircase turns points sorted by X into a non-increasing step line: each point
// holds until the next one's X.
func staircase(pts plotter.XYs) plotter.XYs {
	out := make(plotter.XYs, 0, 2*len(pts))
	for i, q := range pts {
		if i > 0 {
			out = append(out, plotter.XY{X: q.X, Y: pts[i-1].Y})
		}
		out = append(out, q)
	}
	return out
}

// Grid returns the light background grid every figure draws under its data.
func Grid() *plotter.Grid {
	g := plotter.NewGrid()
	g.Vertical.Color = lightGray
	g.Horizontal.Color = lightGray
	return g
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
