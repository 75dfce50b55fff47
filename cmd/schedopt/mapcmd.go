package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/schedopt/schedopt/maps/energy"
	"github.com/schedopt/schedopt/maps/flatmap"
	"github.com/schedopt/schedopt/maps/isoeff"
	"github.com/schedopt/schedopt/maps/isoline"
	"github.com/schedopt/schedopt/maps/mapplot"
	"github.com/schedopt/schedopt/solve"
	"github.com/spf13/cobra"
)

// verifyTol is the largest relative difference --verify accepts between a traced
// point's level and the big-float energy (4.16) there.
const verifyTol = 1e-9

func newMapCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "map",
		Short: "Isoenergy maps (seed 004 ch. 4) and isoefficiency maps (seed 004 §5.2.4)",
		Long: `map draws isoenergy maps: lines of equal energy in the plane of two system
parameters, the others fixed (seed 004 chapter 4); and isoefficiency maps: lines of equal
efficiency in the (m, V) plane of the multi-installment MIP (5.17)-(5.26) (§5.2.4).`,
		Example: `  schedopt map isoenergy --x V --y C --csv vc.csv --plot vc
  schedopt map isoenergy --x m --y PN --levels 2.2e10,2.4e10,3e10 --csv mpn.csv
  schedopt map isoefficiency --m-range 2,3 --n 2 --csv eff.csv --plot eff --table eff.md`,
		Args: argsOf(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return usagef("%s: name a map (isoenergy or isoefficiency); see %s --help", cmd.CommandPath(), cmd.CommandPath())
		},
	}
	cmd.AddCommand(newIsoenergyCmd(e))
	cmd.AddCommand(newIsoefficiencyCmd(e))
	return cmd
}

// isoenergyFlags are the flags of `map isoenergy`.
type isoenergyFlags struct {
	model          string
	x, y           string
	sets           []string
	levels         []float64
	nLevels        int
	xRange, yRange string
	xScale, yScale string
	samples        int
	csvPath        string
	plotPath       string
	grid           int
	gridCSV        string
	plotGrid       int
	verify         bool
	title          string
	backend        string
}

func newIsoenergyCmd(e *env) *cobra.Command {
	var f isoenergyFlags
	cmd := &cobra.Command{
		Use:   "isoenergy --x P --y Q --csv FILE",
		Short: "Trace isoenergy lines exactly in the plane of two parameters",
		Long: `isoenergy traces lines of equal energy in the plane (P, Q) of two parameters of
the chapter 4 divisible-load model of seed 004 (--model dlt, the default): m processors,
computing rate a [s/unit], communication rate C [s/unit], startup S [s], load V [units],
idle-power reduction factor k, processor power PC [W] and network power PN [W]. The other
parameters stay at the reference values of §4.3 (m=1000 a=1E-3 C=1E-8 S=100 V=1E11 k=3
PC=200 PN=50: T = 1.51E5 s, E = 2.34E10 J) unless --set changes them.

Energy is (4.16) with the schedule length (4.9)-(4.11), evaluated stably. Each isoline
point is exact: the closed-form inversions (4.17)-(4.21) give k, PC, PN, V and S; a, C
are found by a safe root search on (4.16) (a scan for sign changes, then bisection to
adjacent floats); m is discrete, so lines in m are traced at every integer m (step-wise).
Every point's energy is within 1e-11 of its level. Infeasible configurations (alpha_m < 0
in (4.8): too little load to start all m processors) are not traced and are grey in the
plot.

--model amdahl and --model gustafson draw the energy laws (4.1)-(4.4) instead, with
parameters m, k and f (parallel fraction; reference m=1000 k=3 f=0.8), energy in units of
one core running the whole application.

--model flat is the star with limited flat memory, LP (2.5)-(2.9), which the thesis does
not map: the dlt parameters plus the memory size B [units] of every worker (reference
m=100, B=1.002E9, the others as above). There is no closed form: every node of the
--grid N×N grid (default 40) is one certified LP solve (--backend, default highs), run on
all cores with progress on stderr, E is (4.16) with the LP's T, and the CSV's points are
the grid's contours (marching squares, linear in log E along grid edges), so they are
only as exact as the grid is fine. Only V > m·B is infeasible there.

Outputs: --csv FILE (required) gets "level,x,y", one row per traced point, in SI units;
--plot BASE writes BASE.svg and BASE.png (or the one format BASE's extension names): a
heat map of log10 E with the isolines and their levels over it; --grid N writes the energy
on an N×N grid as "x,y,energy,time" (NaN where infeasible) to --grid-csv, by default next
to the CSV as NAME-grid.csv. Without --levels, --nlevels levels are spread geometrically
over the 5th-95th percentiles of the energy on the plane. Ranges default to those of the
thesis's figures, on log axes except for m and f; --x-range lo,hi and --x-scale log|linear
change them. --verify re-evaluates every traced point with the thesis's formulas in
1024-bit arithmetic and fails if any is off its level by more than 1e-9.

scripts/isoenergy-maps.sh draws all maps of chapter 4 (docs/reproduction/isoenergy.md).`,
		Example: `  schedopt map isoenergy --x V --y C --csv vc.csv --plot vc
  schedopt map isoenergy --x m --y PN --x-range 1,1500 --levels 2.2e10,2.4e10,3e10,1e11 --csv mpn.csv --plot mpn.png
  schedopt map isoenergy --x m --y C --set a=1e-2 --grid 100 --csv mc.csv --verify
  schedopt map isoenergy --model gustafson --x m --y k --set f=0.8 --x-range 1,100 --csv g.csv --plot g
  schedopt map isoenergy --model flat --x B --y C --x-range 9e8,2e9 --grid 30 --csv bc.csv --plot bc`,
		Args: argsOf(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runIsoenergy(cmd.Context(), e, &f, cmd.Flags().Changed("x-scale"), cmd.Flags().Changed("y-scale"))
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.model, "model", "dlt", "energy model: dlt (4.16), amdahl (4.1) or gustafson (4.2)")
	fl.StringVar(&f.x, "x", "", "parameter on the x axis: m, a, C, S, V, k, PC, PN (m, k, f for the laws)")
	fl.StringVar(&f.y, "y", "", "parameter on the y axis")
	fl.StringArrayVar(&f.sets, "set", nil, "change a fixed parameter: name=value (repeatable)")
	fl.Float64SliceVar(&f.levels, "levels", nil, "energy levels of the isolines, comma-separated [J]")
	fl.IntVar(&f.nLevels, "nlevels", 8, "number of default levels when --levels is not given")
	fl.StringVar(&f.xRange, "x-range", "", "x range lo,hi (default: the thesis's range for the parameter)")
	fl.StringVar(&f.yRange, "y-range", "", "y range lo,hi")
	fl.StringVar(&f.xScale, "x-scale", "", "x scale: log or linear (default: log except for m and f)")
	fl.StringVar(&f.yScale, "y-scale", "", "y scale: log or linear")
	fl.IntVar(&f.samples, "samples", isoline.DefaultSamples, "samples along a continuous independent axis (m: every integer)")
	fl.StringVar(&f.csvPath, "csv", "", "write the traced points here (level,x,y)")
	fl.StringVar(&f.plotPath, "plot", "", "write the map here (.svg, .png, or no extension for both)")
	fl.IntVar(&f.grid, "grid", 0, "also write the energy on an N×N grid (x,y,energy,time)")
	fl.StringVar(&f.gridCSV, "grid-csv", "", "file of --grid (default: NAME-grid.csv next to --csv)")
	fl.IntVar(&f.plotGrid, "plot-grid", 160, "nodes per axis of the plot's heat map")
	fl.BoolVar(&f.verify, "verify", false, "check every traced point against a 1024-bit evaluation of (4.16)")
	fl.StringVar(&f.title, "title", "", "first line of the plot's title")
	fl.StringVar(&f.backend, "backend", "highs", "LP backend of --model flat")
	_ = cmd.MarkFlagRequired("x")
	_ = cmd.MarkFlagRequired("y")
	_ = cmd.MarkFlagRequired("csv")
	return cmd
}

// mapSpec turns the flags into a specification (bad input is a usage error naming the
// flag).
func (f *isoenergyFlags) mapSpec(xScaleSet, yScaleSet bool) (isoline.Spec, error) {
	models := energy.Models()
	models["flat"] = flatmap.Model{}
	model, ok := models[f.model]
	if !ok {
		return isoline.Spec{}, usagef("--model: unknown model %q (want dlt, amdahl, gustafson or flat)", f.model)
	}
	s := isoline.Spec{Model: model, Base: model.Reference(), Samples: f.samples}
	ps := model.Params()
	xi, err := energy.Index(model, f.x)
	if err != nil {
		return s, usagef("--x: %v", err)
	}
	yi, err := energy.Index(model, f.y)
	if err != nil {
		return s, usagef("--y: %v", err)
	}
	if xi == yi {
		return s, usagef("--y: must differ from --x (both are %s)", f.x)
	}
	for _, kv := range f.sets {
		name, val, found := strings.Cut(kv, "=")
		if !found {
			return s, usagef("--set %q: want name=value", kv)
		}
		i, err := energy.Index(model, strings.TrimSpace(name))
		if err != nil {
			return s, usagef("--set %s: %v", kv, err)
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return s, usagef("--set %s: %q is not a finite number", kv, val)
		}
		if !ps[i].Admits(v) {
			return s, usagef("--set %s: %s must be %s", kv, ps[i].Name, admissible(ps[i]))
		}
		s.Base[i] = v
	}
	if s.X, err = axis(ps[xi], xi, "--x", f.xRange, f.xScale, xScaleSet); err != nil {
		return s, err
	}
	if s.Y, err = axis(ps[yi], yi, "--y", f.yRange, f.yScale, yScaleSet); err != nil {
		return s, err
	}
	if ps[xi].Discrete && ps[yi].Discrete {
		return s, usagef("--y: %s and %s are both discrete", f.x, f.y)
	}
	for _, l := range f.levels {
		if !(l > 0) || math.IsInf(l, 0) {
			return s, usagef("--levels: %g is not a positive energy", l)
		}
	}
	if f.samples < 2 {
		return s, usagef("--samples: must be >= 2, got %d", f.samples)
	}
	if f.nLevels < 1 {
		return s, usagef("--nlevels: must be >= 1, got %d", f.nLevels)
	}
	if f.grid < 0 || f.grid == 1 || f.plotGrid < 2 {
		return s, usagef("--grid and --plot-grid: must be >= 2")
	}
	s.Levels = f.levels
	return s, nil
}

// admissible says what values a parameter takes.
func admissible(p energy.Param) string {
	var b strings.Builder
	if p.Discrete {
		b.WriteString("an integer ")
	}
	if p.MinOpen {
		fmt.Fprintf(&b, "> %g", p.Min)
	} else {
		fmt.Fprintf(&b, ">= %g", p.Min)
	}
	if !math.IsInf(p.Max, 1) {
		fmt.Fprintf(&b, " and <= %g", p.Max)
	}
	return b.String()
}

// axis builds one axis from its range and scale flags.
func axis(p energy.Param, i int, flag, rng, scale string, scaleSet bool) (isoline.Axis, error) {
	ax := isoline.Axis{Param: i, Lo: p.Range[0], Hi: p.Range[1], Log: p.Log}
	if rng != "" {
		los, his, ok := strings.Cut(strings.ReplaceAll(rng, ":", ","), ",")
		lo, err1 := strconv.ParseFloat(strings.TrimSpace(los), 64)
		hi, err2 := strconv.ParseFloat(strings.TrimSpace(his), 64)
		if !ok || err1 != nil || err2 != nil {
			return ax, usagef("%s-range %q: want lo,hi", flag, rng)
		}
		ax.Lo, ax.Hi = lo, hi
	}
	if scaleSet {
		switch scale {
		case "log":
			ax.Log = true
		case "linear", "lin":
			ax.Log = false
		default:
			return ax, usagef("%s-scale %q: want log or linear", flag, scale)
		}
	}
	switch {
	case !(ax.Lo < ax.Hi) || math.IsInf(ax.Lo, 0) || math.IsInf(ax.Hi, 0):
		return ax, usagef("%s-range %g,%g: want finite lo < hi", flag, ax.Lo, ax.Hi)
	case !p.Admits(ax.Lo) && !(p.Discrete && ax.Lo >= p.Min) || ax.Hi > p.Max:
		return ax, usagef("%s-range %g,%g: %s must be %s", flag, ax.Lo, ax.Hi, p.Name, admissible(p))
	case ax.Log && ax.Lo <= 0:
		return ax, usagef("%s-range %g,%g: a log axis needs lo > 0", flag, ax.Lo, ax.Hi)
	case p.Discrete && math.Floor(ax.Hi) < math.Ceil(ax.Lo):
		return ax, usagef("%s-range %g,%g: no integer %s in the range", flag, ax.Lo, ax.Hi, p.Name)
	}
	return ax, nil
}

func runIsoenergy(ctx context.Context, e *env, f *isoenergyFlags, xScaleSet, yScaleSet bool) error {
	s, err := f.mapSpec(xScaleSet, yScaleSet)
	if err != nil {
		return err
	}
	if err := checkPlotPath(f.plotPath); err != nil {
		return err
	}
	if f.model == "flat" {
		return runFlatMap(ctx, e, f, s)
	}
	ps := s.Model.Params()
	start := time.Now()
	var grid isoline.Grid
	gridN := f.grid
	if f.plotPath != "" || len(s.Levels) == 0 {
		gridN = max(gridN, f.plotGrid)
	}
	if gridN > 0 {
		grid, err = isoline.EvalGrid(ctx, s, isoline.ModelEvaluator(s.Model), gridN, runtime.NumCPU(), nil)
		if err != nil {
			return err
		}
	}
	if len(s.Levels) == 0 {
		s.Levels = isoline.DefaultLevels(grid, f.nLevels)
		if len(s.Levels) == 0 {
			return usagef("--x-range, --y-range: every configuration in the plane is infeasible; nothing to trace")
		}
	}
	mp, err := isoline.Trace(ctx, s)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "map: traced %d points on %d levels in %.2fs\n", len(mp.Points), len(s.Levels), time.Since(start).Seconds())
	if err := writeFileWith(f.csvPath, func(w *os.File) error { return isoline.WriteCSV(w, mp.Points) }); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s (%s, %s): %d points on %d levels -> %s\n", "isoenergy", f.x, f.y, len(mp.Points), len(s.Levels), f.csvPath)
	if f.grid > 0 {
		g := grid
		if len(g.X) != f.grid && !ps[s.X.Param].Discrete || len(g.Y) != f.grid && !ps[s.Y.Param].Discrete {
			if g, err = isoline.EvalGrid(ctx, s, isoline.ModelEvaluator(s.Model), f.grid, runtime.NumCPU(), nil); err != nil {
				return err
			}
		}
		if err := writeGridCSV(e, f, g); err != nil {
			return err
		}
	}
	if f.plotPath != "" {
		fig := figure(s, f, grid, mp)
		files, err := mapplot.Save(fig, f.plotPath)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "wrote %s\n", strings.Join(files, ", "))
	}
	if f.verify {
		worst, err := verifyPoints(s, mp.Points)
		if err != nil {
			return err
		}
		ref := "the 1024-bit evaluation of (4.16)"
		if s.Model.Name() != "dlt" {
			ref = "the law's formula"
		}
		fmt.Fprintf(e.stdout, "verify: %d points, largest relative difference from %s: %.3g\n", len(mp.Points), ref, worst)
		if worst > verifyTol {
			return exitError{code: exitFailure, msg: fmt.Sprintf("verify: a traced point is %.3g off its level (tolerance %g)", worst, verifyTol)}
		}
	}
	return nil
}

// verifyPoints returns the largest relative difference between a point's level and an
// independent evaluation of its energy: the 1024-bit literal formulas for dlt, the
// model's own formula for the energy laws (which are exact closed forms).
func verifyPoints(s isoline.Spec, pts []isoline.Point) (float64, error) {
	worst := 0.0
	for _, pt := range pts {
		p := append([]float64(nil), s.Base...)
		p[s.X.Param], p[s.Y.Param] = pt.X, pt.Y
		var e float64
		var ok bool
		if s.Model.Name() == "dlt" {
			e, _, ok = energy.BigDLT(p)
		} else {
			v := s.Model.Eval(p)
			e, ok = v.E, v.Feasible
		}
		if !ok {
			return math.Inf(1), fmt.Errorf("verify: traced point (%g, %g) of level %g is infeasible", pt.X, pt.Y, pt.Level)
		}
		worst = math.Max(worst, energy.RelErr(e, pt.Level))
	}
	return worst, nil
}

// figure assembles the plot of a traced map.
func figure(s isoline.Spec, f *isoenergyFlags, grid isoline.Grid, mp isoline.Map) mapplot.Figure {
	ps := s.Model.Params()
	var fixed []string
	for i, p := range ps {
		if i != s.X.Param && i != s.Y.Param {
			fixed = append(fixed, p.Name+"="+mapplot.LevelLabel(s.Base[i], ""))
		}
	}
	title := f.title
	if title == "" {
		title = fmt.Sprintf("Isoenergy map (%s, %s)", ps[s.X.Param].Name, ps[s.Y.Param].Name)
		if s.Model.Name() != "dlt" {
			title += ", " + strings.ToUpper(s.Model.Name()[:1]) + s.Model.Name()[1:] + "'s law"
		}
	}
	infeasible := "infeasible (alpha_m < 0)"
	if s.Model.Name() != "dlt" {
		infeasible = ""
	}
	return mapplot.Figure{
		Title: title, Subtitle: strings.Join(fixed, " "),
		XLabel: ps[s.X.Param].Label(), YLabel: ps[s.Y.Param].Label(),
		XLog: s.X.Log, YLog: s.Y.Log, Steps: ps[s.X.Param].Discrete,
		Grid: grid, Lines: mp.Lines, EnergyUnit: s.Model.EnergyUnit(), Infeasible: infeasible,
	}
}

// writeFileWith creates path and writes it with fn.
func writeFileWith(path string, fn func(*os.File) error) error {
	fh, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("map: %w", err)
	}
	if err := fn(fh); err != nil {
		fh.Close()
		return err
	}
	if err := fh.Close(); err != nil {
		return fmt.Errorf("map: %w", err)
	}
	return nil
}

// runFlatMap draws a map of the flat-memory LP model: a grid of certified LP solves,
// contoured.
func runFlatMap(ctx context.Context, e *env, f *isoenergyFlags, s isoline.Spec) error {
	if f.verify {
		return usagef("--verify: the flat model has no closed form to verify against; its points are grid contours")
	}
	if _, err := solve.NewSolver(f.backend); err != nil {
		return usagef("--backend: %v", err)
	}
	n := f.grid
	if n == 0 {
		n = 40
	}
	start := time.Now()
	last := time.Now()
	progress := func(done, total int) {
		if done == total || time.Since(last) > 2*time.Second {
			last = time.Now()
			fmt.Fprintf(e.stderr, "map: %d/%d grid rows of LPs (%.1fs)\n", done, total, time.Since(start).Seconds())
		}
	}
	g, err := isoline.EvalGrid(ctx, s, flatmap.Evaluator(flatmap.CertifiedLength(f.backend)), n, runtime.NumCPU(), progress)
	if err != nil {
		return err
	}
	if len(s.Levels) == 0 {
		s.Levels = isoline.DefaultLevels(g, f.nLevels)
	}
	mp := isoline.Contour(g, s.Levels, s.X.Log, s.Y.Log)
	if err := writeFileWith(f.csvPath, func(w *os.File) error { return isoline.WriteCSV(w, mp.Points) }); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "isoenergy flat (%s, %s): %d LPs in %.1fs, %d contour points on %d levels -> %s\n",
		f.x, f.y, len(g.X)*len(g.Y), time.Since(start).Seconds(), len(mp.Points), len(s.Levels), f.csvPath)
	if f.grid > 0 {
		if err := writeGridCSV(e, f, g); err != nil {
			return err
		}
	}
	if f.plotPath != "" {
		fig := figure(s, f, g, mp)
		fig.Steps = false
		fig.Infeasible = "infeasible (V > m·B)"
		if fig.Title == "" || f.title == "" {
			fig.Title = fmt.Sprintf("Isoenergy map (%s, %s), flat memory, LP (2.5)-(2.9)", f.x, f.y)
		}
		files, err := mapplot.Save(fig, f.plotPath)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "wrote %s\n", strings.Join(files, ", "))
	}
	return nil
}

// isoeffFlags are the flags of `map isoefficiency`.
type isoeffFlags struct {
	mRange    string
	n         int
	levels    []float64
	vRange    string
	vTol      float64
	eTol      float64
	scan      int
	timeLimit time.Duration
	gap       float64
	workers   int
	backend   string
	csvPath   string
	plotPath  string
	tablePath string
	title     string
	noBounds  bool
}

func newIsoefficiencyCmd(e *env) *cobra.Command {
	var f isoeffFlags
	cmd := &cobra.Command{
		Use:   "isoefficiency [--m-range LO,HI] [--n N] [--csv FILE] [--plot BASE] [--table FILE]",
		Short: "Isoefficiency map of the multi-installment MIP (5.17)-(5.26) (seed 004 §5.2.4)",
		Long: `isoefficiency draws the isoefficiency map of seed 004 §5.2.4 for m identical machines
with hierarchical memory and n messages: the lines of equal efficiency

    E(m, n, V) = T(1, 1, V) / (m T(m, n, V)),   T(1, 1, V) = S + O + CV + max{a1 V, a2 V + b2}

(the definition after (5.26) in §5.2.4), where T(m, n, V) is the schedule length of the MIP
(5.17)-(5.26). The machine is the reference of §5.2.4: a1 = 0.109 s/MB, a2 = 4.132 s/MB,
b2 = -27109 s (rho = 6738.5 MB), C = 5 ms/MB, O = 75 ms, S = 25.4 s.

Algorithm A6: for each m, a scan of --scan log-spaced loads over --v-range brackets the
maximum; a golden-section search (two probes, the interval narrowed to the one of smaller
efficiency) finds E_max(m) at V_max(m) to --v-tol MB; then every level e < E_max(m) is
bisected on both sides of V_max(m), stopping when the bracket is narrower than --v-tol MB
or |E - e| <= --e-tol * e. Every probe is one MIP solve through the certification policy
(--backend, --time-limit and --gap per probe, one thread each) or, with --backend exact,
one run of the sequence branch-and-bound of the §6 model on identical machines (the same
problem, with certified node bounds), its schedule re-simulated by the independent
evaluator; --workers probes run at a time, with progress on stderr.
Ctrl-C stops the run. A probe that ends without a solution stops the run; one that ends
with a solution but without proof (time limit, --gap) gives an efficiency that is only a
lower bound, and the table counts how many probes were proven optimal.

The thesis used n = 20 (800 binaries per MIP, 300 s per probe with Gurobi at 0.5 % gap);
on a small machine use a small n (the default is 4) and say so.

Outputs: --table FILE (or stdout when no output is named) gets E_max(m) and V_max(m) as a
Markdown table beside Table 5.2; --csv FILE gets every maximum and isoline point (kind, m,
n, level, side, V, E, the final bracket, T, status, gap); --plot BASE draws the map (m
along x, V on a log axis) with the isolines, the MAX line and the bounds (5.27) (dashed,
below V_max) and (5.29) (dotted, above V_max; e > 1, m < n) unless --no-bounds.`,
		Example: `  schedopt map isoefficiency --m-range 2,3 --n 2 --table eff.md
  schedopt map isoefficiency --m-range 2,6 --n 4 --levels 1,2,5,10,20 --csv eff.csv --plot eff --table eff.md
  schedopt map isoefficiency --m-range 2,20 --n 20 --time-limit 300s --gap 0.005 --workers 6 --csv n20.csv --plot n20
  schedopt map isoefficiency --m-range 2,4 --n 20 --backend exact --time-limit 15s --gap 0.005 --levels 20,30 --table n20.md`,
		Args: argsOf(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runIsoefficiency(cmd.Context(), e, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.mRange, "m-range", "2,4", "machine counts lo,hi (every integer between)")
	fl.IntVar(&f.n, "n", 4, "messages (installments) n of (5.17)-(5.26); the thesis used 20")
	fl.Float64SliceVar(&f.levels, "levels", []float64{1, 2, 5, 10, 20, 30}, "efficiency levels of the isolines, comma-separated")
	fl.StringVar(&f.vRange, "v-range", "", "load range lo,hi [MB] (default 100 to 3·n·rho)")
	fl.Float64Var(&f.vTol, "v-tol", isoeff.DefaultVTol, "V width at which the searches stop [MB] (the thesis's 1 MB)")
	fl.Float64Var(&f.eTol, "e-tol", 1e-3, "stop a bisection when |E - e| <= e-tol·e (0: only --v-tol, as the thesis)")
	fl.IntVar(&f.scan, "scan", isoeff.DefaultScan, "log-spaced loads of the initial scan that brackets the maximum")
	fl.DurationVar(&f.timeLimit, "time-limit", time.Minute, "time limit per probe (0: none)")
	fl.Float64Var(&f.gap, "gap", 0, "relative MIP gap per probe (0 proves optimality)")
	fl.IntVar(&f.workers, "workers", runtime.NumCPU(), "probes solved at the same time")
	fl.StringVar(&f.backend, "backend", "highs", "MILP backend of the probes (the MIP (5.17)-(5.26)), or \"exact\": the sequence branch-and-bound, which proves n = 20 probes that the MIP does not")
	fl.StringVar(&f.csvPath, "csv", "", "write the maxima and isoline points here")
	fl.StringVar(&f.plotPath, "plot", "", "write the map here (.svg, .png, or no extension for both)")
	fl.StringVar(&f.tablePath, "table", "", "write the E_max/V_max table (Markdown) here")
	fl.StringVar(&f.title, "title", "", "first line of the plot's title")
	fl.BoolVar(&f.noBounds, "no-bounds", false, "do not draw the bounds (5.27)-(5.29)")
	return cmd
}

// options turns the flags into search options (bad input is a usage error naming the
// flag).
func (f *isoeffFlags) options() (isoeff.Options, error) {
	var o isoeff.Options
	los, his, ok := strings.Cut(f.mRange, ",")
	lo, err1 := strconv.Atoi(strings.TrimSpace(los))
	hi, err2 := strconv.Atoi(strings.TrimSpace(his))
	if !ok || err1 != nil || err2 != nil || lo < 1 || hi < lo {
		return o, usagef("--m-range %q: want integers 1 <= lo <= hi, e.g. 2,8", f.mRange)
	}
	if hi-lo > 1000 {
		return o, usagef("--m-range %q: more than 1000 machine counts", f.mRange)
	}
	for m := lo; m <= hi; m++ {
		o.Ms = append(o.Ms, m)
	}
	if f.n < 1 {
		return o, usagef("--n: must be >= 1, got %d", f.n)
	}
	o.N = f.n
	if len(f.levels) == 0 {
		return o, usagef("--levels: give at least one efficiency level")
	}
	for _, l := range f.levels {
		if !(l > 0) || math.IsInf(l, 0) {
			return o, usagef("--levels: %g is not a positive efficiency", l)
		}
	}
	o.Levels = f.levels
	o.VLo, o.VHi = 100, 3*float64(f.n)*isoeff.Reference().Rho
	if f.vRange != "" {
		los, his, ok := strings.Cut(f.vRange, ",")
		vlo, err1 := strconv.ParseFloat(strings.TrimSpace(los), 64)
		vhi, err2 := strconv.ParseFloat(strings.TrimSpace(his), 64)
		if !ok || err1 != nil || err2 != nil || !(vlo > 0) || !(vlo < vhi) || math.IsInf(vhi, 0) {
			return o, usagef("--v-range %q: want 0 < lo < hi [MB]", f.vRange)
		}
		o.VLo, o.VHi = vlo, vhi
	}
	switch {
	case !(f.vTol > 0):
		return o, usagef("--v-tol: must be > 0, got %g", f.vTol)
	case !(f.eTol >= 0) || f.eTol >= 1:
		return o, usagef("--e-tol: must be in [0, 1), got %g", f.eTol)
	case f.scan < 3:
		return o, usagef("--scan: must be >= 3, got %d", f.scan)
	case f.timeLimit < 0:
		return o, usagef("--time-limit: must be >= 0, got %s", f.timeLimit)
	case !(f.gap >= 0) || f.gap >= 1:
		return o, usagef("--gap: must be in [0, 1), got %g", f.gap)
	case f.workers < 1:
		return o, usagef("--workers: must be >= 1, got %d", f.workers)
	}
	o.VTol, o.ETol, o.Scan, o.Workers = f.vTol, f.eTol, f.scan, f.workers
	if f.backend == solve.Exact {
		o.Probe = isoeff.SeqBBProbe(isoeff.SeqBBConfig{Machine: isoeff.Reference(), TimeLimit: f.timeLimit, Gap: f.gap})
		return o, nil
	}
	if _, err := solve.NewSolver(f.backend); err != nil {
		return o, usagef("--backend: %v", err)
	}
	o.Probe = isoeff.MIPProbe(isoeff.MIPConfig{Machine: isoeff.Reference(), Backend: f.backend, TimeLimit: f.timeLimit, Gap: f.gap})
	return o, nil
}

func runIsoefficiency(ctx context.Context, e *env, f *isoeffFlags) error {
	o, err := f.options()
	if err != nil {
		return err
	}
	if err := checkPlotPath(f.plotPath); err != nil {
		return err
	}
	start := time.Now()
	var last time.Time
	o.Progress = func(ev isoeff.Event) {
		if time.Since(last) < 2*time.Second {
			return
		}
		last = time.Now()
		fmt.Fprintf(e.stderr, "isoefficiency: %d probes (%.0fs); last m=%d V=%.0f E=%.3f %s (%s, %.1fs)\n",
			ev.Done, time.Since(start).Seconds(), ev.Probe.M, ev.Probe.V, ev.Probe.E, ev.Probe.Status, ev.Phase, ev.Probe.Seconds)
	}
	res, err := isoeff.Run(ctx, o)
	if err != nil {
		return err
	}
	probes, optimal := 0, 0
	for _, mr := range res.PerM {
		probes += len(mr.Probes)
		for _, p := range mr.Probes {
			if p.Status == solve.StatusOptimal {
				optimal++
			}
		}
		if len(mr.Missing) > 0 {
			fmt.Fprintf(e.stderr, "isoefficiency: m=%d: levels not crossed inside --v-range: %s\n", mr.M, strings.Join(mr.Missing, ", "))
		}
	}
	fmt.Fprintf(e.stderr, "isoefficiency: %d probes (%d proven optimal) in %.1fs\n", probes, optimal, time.Since(start).Seconds())
	wrote := false
	if f.csvPath != "" {
		if err := writeFileWith(f.csvPath, func(w *os.File) error { return isoeff.WriteCSV(w, res) }); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "isoefficiency (n = %d, m = %d..%d): %d points -> %s\n", o.N, o.Ms[0], o.Ms[len(o.Ms)-1], len(res.Points()), f.csvPath)
		wrote = true
	}
	if f.plotPath != "" {
		var bounds []isoeff.BoundLine
		if !f.noBounds {
			bounds = isoeff.Bounds(isoeff.Reference(), o.Ms, o.N, res.Levels, o.VLo, o.VHi)
		}
		title := f.title
		if title == "" {
			title = fmt.Sprintf("Isoefficiency map, MIP (5.17)-(5.26), n = %d", o.N)
		}
		files, err := isoeff.Save(res, bounds, title, f.plotPath)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "wrote %s\n", strings.Join(files, ", "))
		wrote = true
	}
	if f.tablePath != "" {
		if err := writeFileWith(f.tablePath, func(w *os.File) error { return isoeff.WriteTable(w, res) }); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "wrote %s\n", f.tablePath)
	} else if !wrote {
		return isoeff.WriteTable(e.stdout, res)
	}
	return nil
}

// writeGridCSV writes the energy grid g to --grid-csv, or beside the --csv file as
// NAME-grid.csv, and says where.
func writeGridCSV(e *env, f *isoenergyFlags, g isoline.Grid) error {
	path := f.gridCSV
	if path == "" {
		path = strings.TrimSuffix(f.csvPath, filepath.Ext(f.csvPath)) + "-grid.csv"
	}
	if err := writeFileWith(path, func(w *os.File) error { return isoline.WriteGridCSV(w, g) }); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "wrote %s (grid %d×%d)\n", path, len(g.X), len(g.Y))
	return nil
}
