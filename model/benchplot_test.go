//go:build benchplot

package model_test

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/schedopt/schedopt/figure"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// TestPlotBuildWrite draws docs/figures/modelbuild/build-write-vs-nnz (SVG, PNG and the
// data as CSV): the time of BenchmarkDLTBuildWriteMPS against the number of nonzeros,
// wall and CPU, from the `go test -bench` output files named by SCHEDOPT_BENCH_AFTER
// and (optionally) SCHEDOPT_BENCH_BEFORE, medians over the runs. Run with
//
//	SCHEDOPT_BENCH_AFTER=after.txt SCHEDOPT_BENCH_BEFORE=before.txt \
//	    go test -tags benchplot -run TestPlotBuildWrite ./model/
func TestPlotBuildWrite(t *testing.T) {
	series := []struct{ label, env string }{{"before", "SCHEDOPT_BENCH_BEFORE"}, {"after", "SCHEDOPT_BENCH_AFTER"}}
	dir := filepath.Join("..", "docs", "figures", "modelbuild")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := figure.New("Build + write MPS of the dlt-multi MIP (n = 12)", "nonzeros", "time per build + write [s]")
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = figure.LogTicks{}, figure.LogTicks{}
	p.Add(figure.Grid())
	csv := "series,nonzeros,wall_s,cpu_s\n"
	style := 0
	var ref *buildWritePoint // the after curve's point nearest 10^6 nonzeros
	for _, s := range series {
		path := os.Getenv(s.env)
		if path == "" {
			continue
		}
		pts, err := readBuildWrite(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, metric := range []string{"wall", "cpu"} {
			var xy plotter.XYs
			for _, q := range pts {
				v := q.wall
				if metric == "cpu" {
					v = q.cpu
				}
				xy = append(xy, plotter.XY{X: q.nnz, Y: v})
			}
			line, points, err := plotter.NewLinePoints(xy)
			if err != nil {
				t.Fatal(err)
			}
			line.Color, points.Color = figure.Style(style), figure.Style(style)
			if metric == "cpu" {
				line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			}
			style++
			p.Add(line, points)
			p.Legend.Add(s.label+", "+metric, line, points)
		}
		for i, q := range pts {
			if s.label == "after" && (ref == nil || math.Abs(math.Log10(q.nnz/1e6)) < math.Abs(math.Log10(ref.nnz/1e6))) {
				ref = &pts[i]
			}
			csv += fmt.Sprintf("%s,%g,%.4f,%.4f\n", s.label, q.nnz, q.wall, q.cpu)
		}
	}
	if style == 0 {
		t.Fatal("set SCHEDOPT_BENCH_AFTER (and SCHEDOPT_BENCH_BEFORE) to go test -bench output files")
	}
	if ref != nil {
		// Linear scaling through the after curve's CPU time near 10^6 nonzeros.
		lin := plotter.XYs{{X: 1e4, Y: ref.cpu * 1e4 / ref.nnz}, {X: 1e7, Y: ref.cpu * 1e7 / ref.nnz}}
		l, err := plotter.NewLine(lin)
		if err != nil {
			t.Fatal(err)
		}
		l.Dashes = []vg.Length{vg.Points(1), vg.Points(3)}
		p.Add(l)
		p.Legend.Add("linear in nonzeros", l)
	}
	base := filepath.Join(dir, "build-write-vs-nnz")
	if _, err := figure.Save(p, base, figure.Width, figure.Height); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(base+".csv", []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
}

// buildWritePoint is the median wall and CPU seconds per build + write at one size.
type buildWritePoint struct{ nnz, wall, cpu float64 }

var benchLine = regexp.MustCompile(`^BenchmarkDLTBuildWriteMPS/nnz=(\S+?)-\d+\s+\d+\s+(\d+) ns/op.*?\s([\d.]+) cpu-ms/op\s+([\d.]+) ns/nnz`)

// readBuildWrite reads the BenchmarkDLTBuildWriteMPS lines of a go test -bench output.
func readBuildWrite(path string) ([]buildWritePoint, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	walls, cpus := map[string][]float64{}, map[string][]float64{}
	nnzOf := map[string]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		ns, _ := strconv.ParseFloat(m[2], 64)
		cpu, _ := strconv.ParseFloat(m[3], 64)
		perNnz, _ := strconv.ParseFloat(m[4], 64)
		walls[m[1]] = append(walls[m[1]], ns/1e9)
		cpus[m[1]] = append(cpus[m[1]], cpu/1e3)
		nnzOf[m[1]] = math.Round(ns / perNnz)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	var pts []buildWritePoint
	for k := range walls {
		pts = append(pts, buildWritePoint{nnzOf[k], median(walls[k]), median(cpus[k])})
	}
	if len(pts) == 0 {
		return nil, fmt.Errorf("%s: no BenchmarkDLTBuildWriteMPS lines", path)
	}
	slices.SortFunc(pts, func(a, b buildWritePoint) int { return int(a.nnz - b.nnz) })
	return pts, nil
}

func median(v []float64) float64 {
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}
