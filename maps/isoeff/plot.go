package isoeff

import (
	"fmt"
	"github.com/schedopt/schedopt/figure"
	"image/color"
	"sort"
	"strings"

	"github.com/schedopt/schedopt/maps/mapplot"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Figure size of the map.
const (
	figWidth  = 17 * vg.Centimeter
	figHeight = 13 * vg.Centimeter
)

// Line colours: isolines black, MAX red, the bounds grey.
var (
	isoColor   = color.Black
	maxColor   = color.RGBA{R: 200, A: 255}
	boundColor = color.Gray{Y: 120}
)

// Save draws the map to base (base.svg and base.png without an extension, else the
// one format it names): m along x, V along a log y axis, the isolines of both sides of
// V_max as steps labelled with their level, the MAX line, and the bounds (dashed: the
// (5.27) band below V_max; dotted: the (5.29) estimate above it). It returns the files
// written.
func Save(r *Result, bounds []BoundLine, title, base string) ([]string, error) {
	p, err := mapPlot(r, bounds, title)
	if err != nil {
		return nil, err
	}
	return figure.Save(p, base, figWidth, figHeight)
}

func mapPlot(r *Result, bounds []BoundLine, title string) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = font.Length(11)
	p.X.Label.Text, p.Y.Label.Text = "m (machines)", "V [MB]"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.BackgroundColor = color.White
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = font.Length(8)
	addLine := func(xy plotter.XYs, c color.Color, w vg.Length, dash []vg.Length) (*plotter.Line, error) {
		// Every m is a step of width 1 centred on m (m is discrete).
		ext := append(plotter.XYs{{X: xy[0].X - 0.5, Y: xy[0].Y}}, xy...)
		xy = append(ext, plotter.XY{X: xy[len(xy)-1].X + 0.5, Y: xy[len(xy)-1].Y})
		ln, err := plotter.NewLine(xy)
		if err != nil {
			return nil, fmt.Errorf("isoeff: plot: %w", err)
		}
		ln.StepStyle = plotter.MidStep
		ln.LineStyle.Color, ln.LineStyle.Width, ln.LineStyle.Dashes = c, w, dash
		p.Add(ln)
		return ln, nil
	}
	var lab plotter.XYLabels
	lines := map[string]plotter.XYs{}
	var keys []string
	for _, mr := range r.PerM {
		for _, pt := range mr.Points {
			k := fmt.Sprintf("%s|%g", pt.Side, pt.Level)
			if _, ok := lines[k]; !ok {
				keys = append(keys, k)
			}
			lines[k] = append(lines[k], plotter.XY{X: float64(pt.M), Y: pt.V})
		}
	}
	sort.Strings(keys)
	first := true
	for _, k := range keys {
		xy := lines[k]
		ln, err := addLine(xy, isoColor, vg.Points(1), nil)
		if err != nil {
			return nil, err
		}
		if first {
			p.Legend.Add("isoefficiency (MIP)", ln)
			first = false
		}
		var level float64
		fmt.Sscanf(k[strings.Index(k, "|")+1:], "%g", &level)
		mid := xy[len(xy)/2]
		lab.XYs = append(lab.XYs, mid)
		lab.Labels = append(lab.Labels, mapplot.LevelLabel(level, ""))
	}
	var mx plotter.XYs
	for _, mr := range r.PerM {
		mx = append(mx, plotter.XY{X: float64(mr.M), Y: mr.VMax})
	}
	if len(mx) > 0 {
		ln, err := addLine(mx, maxColor, vg.Points(1.5), nil)
		if err != nil {
			return nil, err
		}
		p.Legend.Add("MAX", ln)
	}
	seen := map[string]bool{}
	for _, b := range bounds {
		xy := make(plotter.XYs, len(b.M))
		for i := range b.M {
			xy[i] = plotter.XY{X: float64(b.M[i]), Y: b.V[i]}
		}
		dash := []vg.Length{vg.Points(4), vg.Points(2)}
		if b.Name == "(5.29)" {
			dash = []vg.Length{vg.Points(1), vg.Points(2)}
		}
		ln, err := addLine(xy, boundColor, vg.Points(0.8), dash)
		if err != nil {
			return nil, err
		}
		name := strings.TrimSuffix(strings.TrimSuffix(b.Name, " upper"), " lower")
		if !seen[name] {
			seen[name] = true
			if name == "(5.29)" {
				p.Legend.Add("(5.29) estimate above V_max", ln)
			} else {
				p.Legend.Add("(5.27) bounds below V_max", ln)
			}
		}
	}
	if len(lab.XYs) > 0 {
		labels, err := plotter.NewLabels(lab)
		if err != nil {
			return nil, fmt.Errorf("isoeff: plot: %w", err)
		}
		for i := range labels.TextStyle {
			labels.TextStyle[i].Font.Size = font.Length(8)
			labels.TextStyle[i].XAlign = draw.XCenter
			labels.TextStyle[i].YAlign = draw.YBottom
		}
		p.Add(labels)
	}
	if len(keys) == 0 && len(mx) == 0 {
		return nil, mapplot.ErrNoData
	}
	lo, hi := r.PerM[0].M, r.PerM[0].M
	for _, mr := range r.PerM {
		lo, hi = min(lo, mr.M), max(hi, mr.M)
	}
	p.X.Min, p.X.Max = float64(lo)-0.5, float64(hi)+0.5
	var ticks []plot.Tick
	step := max(1, (hi-lo+1)/10)
	for m := lo; m <= hi; m += step {
		ticks = append(ticks, plot.Tick{Value: float64(m), Label: fmt.Sprint(m)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	return p, nil
}
