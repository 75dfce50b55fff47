package plot

import (
	"errors"
	"fmt"
	"github.com/schedopt/schedopt/figure"
	"math"
	"path/filepath"
	"sort"
	"strings"

	"github.com/schedopt/schedopt/bench"
	"github.com/schedopt/schedopt/solve"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// minSeconds is the smallest run time drawn on log axes (faster runs are drawn at it).
const minSeconds = 1e-6

// SweepPlots draws the figures of a sweep into dir: runtime_vs_m (when the records
// span more than one m) and quality_vs_runtime (when some method has a ratio to the
// best known objective), each as SVG and PNG. It returns the files written, or
// figure.ErrNoData when there is nothing to draw.
func SweepPlots(recs []*bench.Record, dir string) ([]string, error) {
	var files []string
	byKind := map[string][]*bench.Record{}
	for _, r := range recs {
		byKind[r.Kind] = append(byKind[r.Kind], r)
	}
	for kind, rs := range byKind {
		base := "runtime_vs_m"
		if len(byKind) > 1 {
			base += "_" + kind
		}
		f, err := RuntimeVsM(rs, filepath.Join(dir, base))
		if err != nil && !errors.Is(err, figure.ErrNoData) {
			return files, err
		}
		files = append(files, f...)
	}
	sort.Strings(files)
	f, err := QualityVsRuntime(recs, filepath.Join(dir, "quality_vs_runtime"))
	if err != nil && !errors.Is(err, figure.ErrNoData) {
		return files, err
	}
	files = append(files, f...)
	if len(files) == 0 {
		return nil, figure.ErrNoData
	}
	return files, nil
}

// methodLabel is the record's label in plots: the backend, with the gap for MILP
// backends run at several gaps.
func methodLabels(recs []*bench.Record) func(*bench.Record) string {
	gaps := map[string]map[float64]bool{}
	for _, r := range recs {
		if r.RelGap == nil {
			continue
		}
		if gaps[r.Backend] == nil {
			gaps[r.Backend] = map[float64]bool{}
		}
		gaps[r.Backend][*r.RelGap] = true
	}
	return func(r *bench.Record) string {
		if r.RelGap != nil && len(gaps[r.Backend]) > 1 {
			return fmt.Sprintf("%s gap %g%%", r.Backend, 100**r.RelGap)
		}
		return r.Backend
	}
}

// RuntimeVsM plots, for records of one kind, per method, the median run time against the number of machines
// m on log–log axes, with bars from the first to the third quartile (seed 004, Fig.
// 6.9). Runs stopped by the time limit count as the limit; failed jobs are left out.
// Heuristic rule families are pooled as in QualityVsRuntime.
func RuntimeVsM(recs []*bench.Record, base string) ([]string, error) {
	label := familyLabels(recs)
	type key struct {
		method string
		m      int
	}
	times := map[key][]float64{}
	ms := map[int]bool{}
	methods := map[string]bool{}
	for _, r := range recs {
		if r.Failed() || r.Status == bench.StatusUnsupported || r.Size.M <= 0 {
			continue
		}
		t := r.SolveSeconds()
		if r.RelGap != nil && (r.Status == solve.StatusFeasible || r.Status == solve.StatusTimeLimit) && r.TimeLimit > 0 {
			t = r.TimeLimit
		}
		k := key{label(r), r.Size.M}
		times[k] = append(times[k], math.Max(t, minSeconds))
		ms[r.Size.M] = true
		methods[k.method] = true
	}
	if len(ms) < 2 {
		return nil, figure.ErrNoData
	}
	title := "Run time vs number of machines"
	if k := recs[0].Kind; k != "" {
		title += " (" + k + ")"
	}
	p := figure.New(title, "machines m", "run time [s] (median, Q1–Q3)")
	p.X.Scale = plot.LogScale{}
	p.Y.Scale = plot.LogScale{}
	p.X.Tick.Marker = figure.LogTicks{}
	p.Y.Tick.Marker = figure.LogTicks{}
	// The legend goes right of the data: the x axis runs on past the largest m.
	p.Legend.Left = false
	names := sortedKeys(methods)
	for i, meth := range names {
		var pts plotter.XYs
		var errs plotter.YErrors
		for _, m := range sortedInts(ms) {
			ts := times[key{meth, m}]
			if len(ts) == 0 {
				continue
			}
			sort.Float64s(ts)
			med := bench.Quantile(ts, 0.5)
			pts = append(pts, plotter.XY{X: float64(m), Y: med})
			errs = append(errs, struct{ Low, High float64 }{med - bench.Quantile(ts, 0.25), bench.Quantile(ts, 0.75) - med})
		}
		if len(pts) == 0 {
			continue
		}
		l, s, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, err
		}
		l.Color, s.Color, s.Shape = figure.Style(i), figure.Style(i), plotutil.Shape(i)
		l.Width = vg.Points(1.5)
		l.Dashes = plotutil.Dashes(i)
		eb, err := plotter.NewYErrorBars(errPoints{pts, errs})
		if err != nil {
			return nil, err
		}
		eb.Color = figure.Style(i)
		p.Add(l, s, eb)
		p.Legend.Add(meth, l, s)
	}
	ms0 := sortedInts(ms)
	p.X.Min = float64(ms0[0])
	p.X.Max = float64(ms0[len(ms0)-1]) * math.Pow(float64(ms0[len(ms0)-1])/float64(ms0[0]), 0.6)
	p.Add(figure.Grid())
	return figure.Save(p, base, figure.Width, figure.Height)
}

// errPoints pairs points with their asymmetric Y errors.
type errPoints struct {
	plotter.XYs
	errs plotter.YErrors
}

func (e errPoints) YError(i int) (float64, float64) { return e.errs[i].Low, e.errs[i].High }

type xyErrPoints struct {
	plotter.XYs
	xerr plotter.XErrors
	yerr plotter.YErrors
}

func (e xyErrPoints) XError(i int) (float64, float64) { return e.xerr[i].Low, e.xerr[i].High }
func (e xyErrPoints) YError(i int) (float64, float64) { return e.yerr[i].Low, e.yerr[i].High }

// QualityVsRuntime plots, per method, the median ratio of its objective to the best
// known one against its median run time (log axis), with quartile bars in both
// directions (seed 004, Fig. 6.10). Heuristics that differ only in a rule suffix
// ("ssc-a1", "ssc-k1", ...) are pooled into one family ("ssc (all rules)"), as the
// thesis pools its processor sorting rules.
func QualityVsRuntime(recs []*bench.Record, base string) ([]string, error) {
	qs := bench.Quality(recs, familyLabels(recs))
	if len(qs) == 0 {
		return nil, figure.ErrNoData
	}
	p := figure.New("Solution quality vs run time", "run time [s] (median, Q1–Q3)", "objective / best known (median, Q1–Q3)")
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = figure.LogTicks{}
	tmax := 0.0
	for i, q := range qs {
		tmax = math.Max(tmax, math.Max(q.Q3Sec, minSeconds))
		t := math.Max(q.MedianSeconds, minSeconds)
		pts := plotter.XYs{{X: t, Y: q.Median}}
		e := xyErrPoints{XYs: pts,
			xerr: plotter.XErrors{{Low: t - math.Max(q.Q1Sec, minSeconds), High: math.Max(q.Q3Sec, minSeconds) - t}},
			yerr: plotter.YErrors{{Low: q.Median - q.Q1, High: q.Q3 - q.Median}}}
		s, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		s.Color, s.Shape, s.Radius = figure.Style(i), plotutil.Shape(i), vg.Points(4)
		xb, err := plotter.NewXErrorBars(e)
		if err != nil {
			return nil, err
		}
		yb, err := plotter.NewYErrorBars(e)
		if err != nil {
			return nil, err
		}
		xb.Color, yb.Color = figure.Style(i), figure.Style(i)
		p.Add(xb, yb, s)
		p.Legend.Add(fmt.Sprintf("%s (n=%d)", q.Label, q.Count), s)
	}
	// Keep the ratio axis starting at 1 (the best), with some head room, and leave room
	// right of the data for the legend.
	p.Y.Min = math.Min(p.Y.Min, 1)
	p.Y.Max = math.Max(p.Y.Max*1.05, 1.05)
	p.X.Max = math.Max(p.X.Max, tmax) * 300
	p.Legend.Left = false
	p.Add(figure.Grid())
	return figure.Save(p, base, figure.Width, figure.Height)
}

// familyLabels labels records by method, pooling heuristics named FAMILY-RULE when a
// family has at least three rules.
func familyLabels(recs []*bench.Record) func(*bench.Record) string {
	base := methodLabels(recs)
	members := map[string]map[string]bool{}
	for _, r := range recs {
		if fam, ok := heuristicFamily(r.Backend); ok {
			if members[fam] == nil {
				members[fam] = map[string]bool{}
			}
			members[fam][r.Backend] = true
		}
	}
	return func(r *bench.Record) string {
		if fam, ok := heuristicFamily(r.Backend); ok && len(members[fam]) >= 3 {
			return strings.ToUpper(fam) + " (all rules)"
		}
		return strings.TrimPrefix(base(r), solve.HeuristicPrefix)
	}
}

func heuristicFamily(backend string) (string, bool) {
	h, ok := strings.CutPrefix(backend, solve.HeuristicPrefix)
	if !ok {
		return "", false
	}
	fam, _, ok := strings.Cut(h, "-")
	if !ok || fam == "super" {
		return "", false
	}
	return fam, true
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sortedInts(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}
