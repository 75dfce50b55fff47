package mapplot

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/schedopt/schedopt/figure"
	"github.com/schedopt/schedopt/maps/isoline"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// ErrNoData is returned when a figure has neither a grid nor a line.
var ErrNoData = errors.New("mapplot: nothing to draw")

// Figure size, and the width of the colour bar at its right.
const (
	width    = 17 * vg.Centimeter
	height   = 12 * vg.Centimeter
	barWidth = 2.6 * vg.Centimeter
)

// Colours of what is not on the energy scale.
var (
	infeasibleColor = color.Gray{Y: 150}
	lineColor       = color.Black
)

// Figure is one isoenergy map.
type Figure struct {
	Title          string // first line of the title
	Subtitle       string // second line (the fixed parameters)
	XLabel, YLabel string
	XLog, YLog     bool
	// Steps draws every line as steps along x (x is the discrete m).
	Steps bool
	// Grid is drawn as the heat map when it has at least 2×2 nodes.
	Grid isoline.Grid
	// Lines are the traced isolines.
	Lines []isoline.Line
	// EnergyUnit labels the colour bar ("J", or "" for relative units).
	EnergyUnit string
	// Infeasible names what grey cells mean in the legend.
	Infeasible string
}

// Save writes the figure to base: base.svg and base.png when base has no extension,
// else the one format (.svg or .png) it names. It returns the files written.
func Save(f Figure, base string) ([]string, error) {
	files, err := figure.Files(base)
	if err != nil {
		return nil, err
	}
	main, bar, err := f.plots()
	if err != nil {
		return nil, err
	}
	for _, name := range files {
		if err := write(name, main, bar); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// write draws the map and its colour bar side by side into one SVG or PNG file.
func write(name string, main, bar *plot.Plot) error {
	var cv vg.CanvasWriterTo
	if strings.EqualFold(filepath.Ext(name), ".svg") {
		cv = vgsvg.New(width, height)
	} else {
		cv = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(150))}
	}
	dc := draw.New(cv)
	main.Draw(draw.Crop(dc, 0, -barWidth, 0, 0))
	if bar != nil {
		bar.Draw(draw.Crop(dc, width-barWidth, 0, 0, 0))
	}
	fh, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("mapplot: %w", err)
	}
	if _, err := cv.WriteTo(fh); err != nil {
		fh.Close()
		return fmt.Errorf("mapplot: writing %s: %w", name, err)
	}
	if err := fh.Close(); err != nil {
		return fmt.Errorf("mapplot: writing %s: %w", name, err)
	}
	return nil
}

// coord maps a value to plot coordinates: log10 on log axes.
func coord(v float64, log bool) float64 {
	if log {
		return math.Log10(v)
	}
	return v
}

// heatGrid is the grid as a plotter.GridXYZ of log10 energy in plot coordinates.
type heatGrid struct {
	g          isoline.Grid
	xlog, ylog bool
}

func (h heatGrid) Dims() (c, r int) { return len(h.g.X), len(h.g.Y) }
func (h heatGrid) Z(c, r int) float64 {
	e := h.g.E[r][c]
	if !(e > 0) {
		return math.NaN()
	}
	return math.Log10(e)
}
func (h heatGrid) X(c int) float64 { return coord(h.g.X[c], h.xlog) }
func (h heatGrid) Y(r int) float64 { return coord(h.g.Y[r], h.ylog) }

func (f Figure) plots() (main, bar *plot.Plot, err error) {
	if len(f.Lines) == 0 && (len(f.Grid.X) < 2 || len(f.Grid.Y) < 2) {
		return nil, nil, ErrNoData
	}
	p := plot.New()
	p.Title.Text = f.Title
	if f.Subtitle != "" {
		p.Title.Text += "\n" + f.Subtitle
	}
	p.Title.TextStyle.Font.Size = font.Length(11)
	p.X.Label.Text, p.Y.Label.Text = f.XLabel, f.YLabel
	p.BackgroundColor = color.White
	if f.XLog {
		p.X.Tick.Marker = logTicks{}
	}
	if f.YLog {
		p.Y.Tick.Marker = logTicks{}
	}
	cmap := moreland.SmoothBlueRed()
	haveGrid := len(f.Grid.X) >= 2 && len(f.Grid.Y) >= 2
	if haveGrid {
		hg := heatGrid{g: f.Grid, xlog: f.XLog, ylog: f.YLog}
		// The colour scale spans the 2nd-98th percentiles of log10 E, so that a corner
		// of extreme energies does not wash out the rest; beyond them the end colours.
		var zs []float64
		nan := false
		for r := range f.Grid.Y {
			for c := range f.Grid.X {
				if z := hg.Z(c, r); math.IsNaN(z) {
					nan = true
				} else {
					zs = append(zs, z)
				}
			}
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		if len(zs) > 0 {
			sort.Float64s(zs)
			lo, hi = zs[len(zs)*2/100], zs[(len(zs)-1)*98/100]
		}
		if lo <= hi {
			if hi-lo < 1e-9 {
				lo, hi = lo-0.5, hi+0.5
			}
			cmap.SetMin(lo)
			cmap.SetMax(hi)
			hm := plotter.NewHeatMap(hg, cmap.Palette(255))
			hm.Min, hm.Max = lo, hi
			hm.NaN = infeasibleColor
			hm.Underflow, _ = cmap.At(lo)
			hm.Overflow, _ = cmap.At(hi)
			// A short axis (m up to 10) is drawn as rectangles: rasterizing so few
			// cells would blur their edges.
			hm.Rasterized = len(f.Grid.X) >= 20 && len(f.Grid.Y) >= 20
			p.Add(hm)
			bar = plot.New()
			bar.BackgroundColor = color.White
			unit := f.EnergyUnit
			if unit == "" {
				unit = "rel."
			}
			bar.Title.Text = "E [" + unit + "]"
			bar.Title.TextStyle.Font.Size = font.Length(9)
			cb := &plotter.ColorBar{ColorMap: cmap, Vertical: true}
			bar.Add(cb)
			bar.HideX()
			bar.Y.Tick.Marker = energyTicks{unit: ""}
			bar.Y.Padding = 0
		} else {
			// Every node infeasible: a grey map.
			hm := plotter.NewHeatMap(hg, palette.Heat(2, 1))
			hm.NaN = infeasibleColor
			hm.Rasterized = true
			p.Add(hm)
		}
		if nan && f.Infeasible != "" {
			p.Title.Text += "\ngrey: " + f.Infeasible
		}
	}
	if err := f.addLines(p); err != nil {
		return nil, nil, err
	}
	if haveGrid { // the axes span the grid exactly
		p.X.Min, p.X.Max = coord(f.Grid.X[0], f.XLog), coord(f.Grid.X[len(f.Grid.X)-1], f.XLog)
		p.Y.Min, p.Y.Max = coord(f.Grid.Y[0], f.YLog), coord(f.Grid.Y[len(f.Grid.Y)-1], f.YLog)
	}
	return p, bar, nil
}

// addLines draws every branch and labels each level once, on its longest branch.
func (f Figure) addLines(p *plot.Plot) error {
	longest := map[float64]int{}
	for i, l := range f.Lines {
		j, ok := longest[l.Level]
		if !ok || len(l.Points) > len(f.Lines[j].Points) {
			longest[l.Level] = i
		}
		xy := make(plotter.XYs, len(l.Points))
		for k, pt := range l.Points {
			xy[k].X, xy[k].Y = coord(pt.X, f.XLog), coord(pt.Y, f.YLog)
		}
		if len(xy) == 1 {
			sc, err := plotter.NewScatter(xy)
			if err != nil {
				return fmt.Errorf("mapplot: %w", err)
			}
			sc.GlyphStyle.Color = lineColor
			sc.GlyphStyle.Radius = vg.Points(1)
			p.Add(sc)
			continue
		}
		ln, err := plotter.NewLine(xy)
		if err != nil {
			return fmt.Errorf("mapplot: %w", err)
		}
		ln.LineStyle.Color = lineColor
		ln.LineStyle.Width = vg.Points(1)
		if f.Steps {
			ln.StepStyle = plotter.MidStep
		}
		p.Add(ln)
	}
	levels := make([]float64, 0, len(longest))
	for l := range longest {
		levels = append(levels, l)
	}
	sort.Float64s(levels)
	var lab plotter.XYLabels
	for i, l := range levels {
		// Stagger the labels along their lines so neighbouring levels do not overlap.
		pts := f.Lines[longest[l]].Points
		frac := 0.5
		if len(levels) > 1 {
			frac = 0.2 + 0.6*float64(i)/float64(len(levels)-1)
		}
		pt := pts[int(frac*float64(len(pts)-1))]
		lab.XYs = append(lab.XYs, plotter.XY{X: coord(pt.X, f.XLog), Y: coord(pt.Y, f.YLog)})
		lab.Labels = append(lab.Labels, LevelLabel(l, f.EnergyUnit))
	}
	if len(lab.XYs) > 0 {
		labels, err := plotter.NewLabels(lab)
		if err != nil {
			return fmt.Errorf("mapplot: %w", err)
		}
		for i := range labels.TextStyle {
			labels.TextStyle[i].Font.Size = font.Length(8)
			labels.TextStyle[i].Color = lineColor
			labels.TextStyle[i].XAlign = draw.XCenter
			labels.TextStyle[i].YAlign = draw.YBottom
		}
		p.Add(labels)
	}
	return nil
}

// LevelLabel writes an energy level as the thesis does: "2.3E10 J".
func LevelLabel(l float64, unit string) string {
	s := strconv.FormatFloat(l, 'g', 3, 64)
	if strings.Contains(s, "e") {
		mant, exp, _ := strings.Cut(s, "e")
		n, _ := strconv.Atoi(exp)
		s = mant + "E" + strconv.Itoa(n)
	}
	if unit != "" {
		s += " " + unit
	}
	return s
}

// logTicks labels decades of a log10 axis: 1E-8, 1E-7, …, every second or fifth
// decade on long axes, with unlabelled minor ticks at 2..9 on short ones.
type logTicks struct{}

// Ticks returns the ticks between min and max (in log10 coordinates).
func (logTicks) Ticks(min, max float64) []plot.Tick {
	var ticks []plot.Tick
	span := max - min
	step := 1
	switch {
	case span > 24:
		step = 5
	case span > 10:
		step = 2
	}
	for k := int(math.Ceil(min)); float64(k) <= max; k++ {
		if k%step == 0 {
			ticks = append(ticks, plot.Tick{Value: float64(k), Label: decade(k)})
		} else {
			ticks = append(ticks, plot.Tick{Value: float64(k)})
		}
	}
	if span <= 4 {
		for k := int(math.Floor(min)); float64(k) <= max; k++ {
			for d := 2; d <= 9; d++ {
				v := float64(k) + math.Log10(float64(d))
				if v >= min && v <= max {
					ticks = append(ticks, plot.Tick{Value: v})
				}
			}
		}
	}
	if len(ticks) < 2 { // less than a decade: label the ends
		ticks = append(ticks, plot.Tick{Value: min, Label: LevelLabel(math.Pow(10, min), "")},
			plot.Tick{Value: max, Label: LevelLabel(math.Pow(10, max), "")})
	}
	return ticks
}

func decade(k int) string {
	if k == 0 {
		return "1"
	}
	return "1E" + strconv.Itoa(k)
}

// energyTicks labels a log10-energy axis with energies: decades on spans of more than
// two decades, otherwise round values of E itself.
type energyTicks struct{ unit string }

// Ticks returns the ticks between min and max (log10 E).
func (t energyTicks) Ticks(min, max float64) []plot.Tick {
	if max-min > 2 {
		return logTicks{}.Ticks(min, max)
	}
	var ticks []plot.Tick
	for _, tk := range (plot.DefaultTicks{}).Ticks(math.Pow(10, min), math.Pow(10, max)) {
		if tk.Value <= 0 {
			continue
		}
		lab := ""
		if tk.Label != "" {
			lab = LevelLabel(tk.Value, t.unit)
		}
		ticks = append(ticks, plot.Tick{Value: math.Log10(tk.Value), Label: lab})
	}
	return ticks
}
