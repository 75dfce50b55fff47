package figure

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// ErrNoData is returned when there is nothing to plot.
var ErrNoData = errors.New("figure: nothing to plot")

// Width and Height are the size of every figure but the Gantt charts (which grow
// with the number of machines).
const (
	Width  = 16 * vg.Centimeter
	Height = 11 * vg.Centimeter
)

// fontSize is the base font size of titles, labels and legends.
var fontSize = font.Length(11)

// New returns a plot with title and axis labels (each label naming its unit).
func New(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = fontSize + 2
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.X.Label.TextStyle.Font.Size = fontSize
	p.Y.Label.TextStyle.Font.Size = fontSize
	p.X.Tick.Label.Font.Size = fontSize - 1
	p.Y.Tick.Label.Font.Size = fontSize - 1
	p.Legend.TextStyle.Font.Size = fontSize - 1
	p.Legend.Top = true
	p.BackgroundColor = color.White
	return p
}

// Files returns the image files a figure named base is written to: base.svg and
// base.png when base has no extension, else base itself when its extension is .svg,
// .png or .pdf. Every figure of schedopt (single results, sweeps, maps) follows it.
func Files(base string) ([]string, error) {
	switch ext := strings.ToLower(filepath.Ext(base)); ext {
	case ".svg", ".png", ".pdf":
		return []string{base}, nil
	case "":
		return []string{base + ".svg", base + ".png"}, nil
	default:
		return nil, fmt.Errorf("figure: %s: unknown image format %q (use .svg or .png)", base, ext)
	}
}

// Save writes p, w by h, to the files Files names for base and returns them.
func Save(p *plot.Plot, base string, w, h vg.Length) ([]string, error) {
	files, err := Files(base)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := p.Save(w, h, f); err != nil {
			return nil, fmt.Errorf("figure: save %s: %w", f, err)
		}
	}
	return files, nil
}

// Style returns the color of series i, the same in every figure.
func Style(i int) color.Color { return plotutil.Color(i) }

// LogTicks labels a logarithmic axis. Over three decades or more it is gonum's LogTicks
// (labels at powers of ten); over a shorter range, where that leaves one label or none,
// it labels 1, 2 and 5 × 10^k so that the axis can be read (m = 2..16 gets 2, 5, 10), and
// when max/min ≤ 5 every k × 10^e (m = 2..4 gets 2, 3, 4).
type LogTicks struct{}

// Ticks returns the ticks between min and max.
func (LogTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max > min) || math.Log10(max/min) >= 3 {
		return plot.LogTicks{Prec: -1}.Ticks(min, max)
	}
	all := max/min <= 5 // on a short axis every k·10^e gets a label
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(min)); e <= math.Ceil(math.Log10(max)); e++ {
		dec := math.Pow(10, e)
		for k := 1; k <= 9; k++ {
			v := float64(k) * dec
			if v < min*(1-1e-9) || v > max*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if all || k == 1 || k == 2 || k == 5 {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}
