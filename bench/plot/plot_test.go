package plot

import (
	"github.com/schedopt/schedopt/figure/figuretest"
	"testing"

	"github.com/schedopt/schedopt/bench"
	"github.com/schedopt/schedopt/solve"
)

func TestSweepPlotsDrawRuntimeAndQuality(t *testing.T) {
	var recs []*bench.Record
	for _, m := range []int{1, 10, 100} {
		for s := 0; s < 3; s++ {
			for _, b := range []string{"highs", "heuristic:gss-a1"} {
				obj := float64(100 + s)
				if b != "highs" {
					obj *= 1.5
				}
				g := 1e-6
				r := &bench.Record{Key: b, Instance: string(rune('a'+m+s)) + "x", Backend: b, Size: bench.Size{M: m}, Status: solve.StatusFeasible,
					Result: &solve.Result{Objective: &obj, Seconds: solve.Seconds{Solve: float64(m) * 0.01 * float64(s+1)}}}
				if b == "highs" {
					r.RelGap = &g
					r.Status = solve.StatusOptimal
				}
				recs = append(recs, r)
			}
		}
	}
	files, err := SweepPlots(recs, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	figuretest.AssertImages(t, files, 4)
}
