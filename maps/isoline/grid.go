package isoline

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"

	"github.com/schedopt/schedopt/maps/energy"
)

// Grid is a model evaluated on the nodes of a rectangular grid: E[j][i] and T[j][i]
// at (X[i], Y[j]), NaN where the configuration is infeasible.
type Grid struct {
	X, Y []float64
	E, T [][]float64
}

// Evaluator evaluates energy and length at a parameter vector. energy.Model.Eval is
// one; the flat-memory LP maps pass a solver.
type Evaluator func(ctx context.Context, p []float64) (energy.Point, error)

// ModelEvaluator wraps a closed-form model as an Evaluator.
func ModelEvaluator(m energy.Model) Evaluator {
	return func(_ context.Context, p []float64) (energy.Point, error) { return m.Eval(p), nil }
}

// GridSamples returns the grid's node values along ax: n values, or for a discrete
// parameter at most n distinct integers.
func GridSamples(ax Axis, discrete bool, n int) []float64 {
	return Samples(ax, discrete, n, n)
}

// EvalGrid evaluates ev on the n×n grid of s's axes (fewer nodes on a discrete axis
// with fewer integers), s.Base fixing the other parameters. Nodes are evaluated by
// workers goroutines (1 when workers < 1); progress, when not nil, is called after
// each row with the rows done and the total.
func EvalGrid(ctx context.Context, s Spec, ev Evaluator, n, workers int, progress func(done, total int)) (Grid, error) {
	ps := s.Model.Params()
	g := Grid{X: GridSamples(s.X, ps[s.X.Param].Discrete, n), Y: GridSamples(s.Y, ps[s.Y.Param].Discrete, n)}
	g.E = make([][]float64, len(g.Y))
	g.T = make([][]float64, len(g.Y))
	for j := range g.Y {
		g.E[j] = make([]float64, len(g.X))
		g.T[j] = make([]float64, len(g.X))
	}
	if workers < 1 {
		workers = 1
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	rows := make(chan int)
	errs := make(chan error, workers)
	done := make(chan int)
	for w := 0; w < workers; w++ {
		go func() {
			var err error
			for j := range rows {
				if err != nil {
					continue
				}
				for i := range g.X {
					p := append([]float64(nil), s.Base...)
					p[s.X.Param], p[s.Y.Param] = g.X[i], g.Y[j]
					var pt energy.Point
					pt, err = ev(ctx, p)
					if err != nil {
						err = fmt.Errorf("isoline: grid node %s=%g, %s=%g: %w", ps[s.X.Param].Name, g.X[i], ps[s.Y.Param].Name, g.Y[j], err)
						cancel()
						break
					}
					if !pt.Feasible {
						pt.E, pt.T = math.NaN(), math.NaN()
					}
					g.E[j][i], g.T[j][i] = pt.E, pt.T
				}
				done <- j
			}
			errs <- err
		}()
	}
	go func() {
		defer close(rows)
		for j := range g.Y {
			select {
			case rows <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	finished := 0
	var first error
	for w := 0; w < workers; {
		select {
		case <-done:
			finished++
			if progress != nil {
				progress(finished, len(g.Y))
			}
		case err := <-errs:
			w++
			if err != nil && first == nil {
				first = err
			}
		}
	}
	if first != nil {
		return Grid{}, first
	}
	if err := ctx.Err(); err != nil || finished < len(g.Y) {
		if err == nil {
			err = context.Canceled
		}
		return Grid{}, fmt.Errorf("isoline: grid: %w", err)
	}
	return g, nil
}

// DefaultLevels returns n energy levels spread over the grid: geometrically spaced
// between the 5th and 95th percentiles of its feasible energies, rounded to two
// significant digits (more when two digits would merge levels of a narrow energy
// range), without duplicates.
func DefaultLevels(g Grid, n int) []float64 {
	var es []float64
	for _, row := range g.E {
		for _, e := range row {
			if e > 0 && !math.IsInf(e, 0) {
				es = append(es, e)
			}
		}
	}
	if len(es) == 0 || n < 1 {
		return nil
	}
	sort.Float64s(es)
	lo, hi := es[len(es)*5/100], es[(len(es)-1)*95/100]
	var out []float64
	for digits := 2; digits <= 6; digits++ {
		out = out[:0]
		for i := 0; i < n; i++ {
			u := 0.5
			if n > 1 {
				u = float64(i) / float64(n-1)
			}
			v := roundSig(math.Exp(math.Log(lo)+u*(math.Log(hi)-math.Log(lo))), digits)
			if len(out) == 0 || v > out[len(out)-1] {
				out = append(out, v)
			}
		}
		if len(out) == n {
			break
		}
	}
	return out
}

// roundSig rounds v to the given number of significant digits.
func roundSig(v float64, digits int) float64 {
	f, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'e', digits-1, 64), 64)
	return f
}

// num formats a value exactly (the shortest text that parses back to the same float).
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// WriteCSV writes the traced points as "level,x,y", one row per point, in the model's
// SI units, the levels in increasing order.
func WriteCSV(w io.Writer, pts []Point) error {
	b := bufio.NewWriter(w)
	fmt.Fprintln(b, "level,x,y")
	sorted := append([]Point(nil), pts...)
	SortPoints(sorted)
	for _, p := range sorted {
		fmt.Fprintf(b, "%s,%s,%s\n", num(p.Level), num(p.X), num(p.Y))
	}
	if err := b.Flush(); err != nil {
		return fmt.Errorf("isoline: writing points: %w", err)
	}
	return nil
}

// WriteGridCSV writes the grid as "x,y,energy,time", one row per node, with NaN for
// infeasible nodes.
func WriteGridCSV(w io.Writer, g Grid) error {
	b := bufio.NewWriter(w)
	fmt.Fprintln(b, "x,y,energy,time")
	for j, y := range g.Y {
		for i, x := range g.X {
			fmt.Fprintf(b, "%s,%s,%s,%s\n", num(x), num(y), num(g.E[j][i]), num(g.T[j][i]))
		}
	}
	if err := b.Flush(); err != nil {
		return fmt.Errorf("isoline: writing grid: %w", err)
	}
	return nil
}
