package plot

import (
	"fmt"
	"math"

	"github.com/schedopt/schedopt/benchstats"
	"github.com/schedopt/schedopt/figure"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// PerformanceProfile draws the Dolan–Moré performance profiles of p (one step line
// per backend: the share of problems solved within a factor τ of the fastest
// backend, τ on a log axis) to base (.svg and .png). Backends that solved nothing
// stay at 0. It returns figure.ErrNoData when there is no problem.
func PerformanceProfile(p benchstats.Profile, base string) ([]string, error) {
	if p.Problems == 0 || len(p.Backends) == 0 {
		return nil, figure.ErrNoData
	}
	tauMax := math.Max(2, 1.5*p.MaxFinite())
	pl := figure.New(fmt.Sprintf("Performance profile (%d problems)", p.Problems),
		"τ: time within a factor τ of the fastest", "share of problems solved ρ(τ)")
	pl.X.Scale = plot.LogScale{}
	pl.X.Tick.Marker = figure.LogTicks{}
	pl.X.Min, pl.X.Max = 1, tauMax
	pl.Y.Min, pl.Y.Max = 0, 1.05
	pl.Legend.Top, pl.Legend.Left = false, false
	pl.Legend.YOffs = vg.Points(10)
	for i, b := range p.Backends {
		pts := plotter.XYs{{X: 1, Y: p.Rho(b, 1)}}
		for _, r := range p.Ratios[b] {
			if math.IsInf(r, 1) || r <= 1 {
				continue
			}
			pts = append(pts, plotter.XY{X: r, Y: pts[len(pts)-1].Y}, plotter.XY{X: r, Y: p.Rho(b, r)})
		}
		pts = append(pts, plotter.XY{X: tauMax, Y: p.Rho(b, tauMax)})
		if err := addStep(pl, i, b, pts); err != nil {
			return nil, err
		}
	}
	pl.Add(figure.Grid())
	return figure.Save(pl, base, figure.Width, figure.Height)
}

// SolvedWithin draws the cumulative "solved within t" curves (the number of problems
// each backend solved within t seconds, t on a log axis) to base (.svg and .png).
// limit, when > 0, sets the right end of the axis. It returns figure.ErrNoData when
// no backend solved anything.
func SolvedWithin(curves []benchstats.Curve, problems int, limit float64, base string) ([]string, error) {
	lo, hi := math.Inf(1), 0.0
	for _, c := range curves {
		for _, t := range c.Times {
			lo, hi = math.Min(lo, math.Max(t, minSeconds)), math.Max(hi, t)
		}
	}
	if hi == 0 {
		return nil, figure.ErrNoData
	}
	if limit > hi {
		hi = limit
	}
	pl := figure.New(fmt.Sprintf("Problems solved within t (of %d)", problems), "time t [s]", "problems solved")
	pl.X.Scale = plot.LogScale{}
	pl.X.Tick.Marker = figure.LogTicks{}
	pl.X.Min, pl.X.Max = lo, hi*1.05
	pl.Y.Min, pl.Y.Max = 0, float64(problems)*1.05
	pl.Legend.Top, pl.Legend.Left = false, false
	pl.Legend.YOffs = vg.Points(10)
	for i, c := range curves {
		pts := plotter.XYs{{X: lo, Y: 0}}
		for k, t := range c.Times {
			t = math.Max(t, minSeconds)
			pts = append(pts, plotter.XY{X: t, Y: float64(k)}, plotter.XY{X: t, Y: float64(k + 1)})
		}
		pts = append(pts, plotter.XY{X: hi * 1.05, Y: float64(len(c.Times))})
		if err := addStep(pl, i, c.Backend, pts); err != nil {
			return nil, err
		}
	}
	pl.Add(figure.Grid())
	return figure.Save(pl, base, figure.Width, figure.Height)
}

// addStep adds one backend's step line in the house style (colour and dashes by
// index) with its legend entry.
func addStep(pl *plot.Plot, i int, label string, pts plotter.XYs) error {
	l, err := plotter.NewLine(pts)
	if err != nil {
		return fmt.Errorf("plot: %s: %w", label, err)
	}
	l.Color = figure.Style(i)
	l.Width = vg.Points(1.5)
	l.Dashes = plotutil.Dashes(i)
	pl.Add(l)
	pl.Legend.Add(label, l)
	return nil
}
