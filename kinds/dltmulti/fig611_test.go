//go:build dltmultifig611

package dltmulti

// Fig. 6.11 of seed 004 with valid bounds: the distance of the online heuristics'
// schedules from a lower bound, for the §6.4 generator with m up to 1000 (n = 12,
// V = 24000 MB as in the dltmulti-6.4 spec). The thesis measures it against the
// printed (6.29)/(6.30), which are not valid; here T is compared with
// dltbb.CapacityLowerBoundTime and E with dltmulti.ValidLowerBoundEnergy (with n = 1,
// as the heuristics may send fewer than n messages). Run with
//
//	go test -tags dltmultifig611 -run Fig611 -v ./kinds/dltmulti
//
// It prints, per m and heuristic, the median and quartiles of T/LB(T) − 1 and
// E/LB(E) − 1 over seeds 1-30. With DLTMULTI_FIG611_OUT=DIR it also plots the medians
// (log10 of the ratio against log10 m) to DIR/dltmulti-fig6.11-T.svg and
// DIR/dltmulti-fig6.11-E.svg (DLTMULTI_FIG611_EXT=.png for PNG).

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
	"github.com/schedopt/schedopt/exact/dltbb"
	"github.com/schedopt/schedopt/figure"
	hdlt "github.com/schedopt/schedopt/heuristics/dlt"
)

func TestFig611DistanceFromValidBounds(t *testing.T) {
	rules := []struct {
		rule hdlt.Rule
		psr  hdlt.PSR
	}{{hdlt.SSC, hdlt.PSRa1}, {hdlt.SSC, hdlt.PSRk1}, {hdlt.SSC, hdlt.PSRRnd}, {hdlt.GSS, hdlt.PSRa1}, {hdlt.GSS, hdlt.PSRk1}, {hdlt.GSS, hdlt.PSRRnd}}
	curvesT := make([]figure.Curve, len(rules))
	curvesE := make([]figure.Curve, len(rules))
	for k, r := range rules {
		curvesT[k].Label = fmt.Sprintf("%s-%s", r.rule, r.psr)
		curvesE[k].Label = curvesT[k].Label
	}
	fmt.Println("| m | heuristic | T/LB(T) − 1: Q1, median, Q3 | E/LB(E) − 1: Q1, median, Q3 |")
	fmt.Println("|---|---|---|---|")
	for _, m := range []int{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000} {
		dt := make([][]float64, len(rules))
		de := make([][]float64, len(rules))
		for seed := uint64(1); seed <= 30; seed++ {
			in, err := dm.Generate(dm.GenConfig{M: m, N: 12, V: 24000, P0N: 100, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			// The heuristics send any number of messages (at least one), so LB(E) is
			// taken with n = 1: it counts one overhead O·P^N instead of n.
			one := *in
			one.N = 1
			lbT, lbE := dltbb.CapacityLowerBoundTime(in), dm.ValidLowerBoundEnergy(&one)
			for k, r := range rules {
				s, err := hdlt.Online(context.Background(), in, r.rule, r.psr, seed)
				if err != nil {
					t.Fatal(err)
				}
				rep := dm.Evaluate(in, s, dm.EvalOptions{AnyCount: true})
				if !rep.OK() {
					t.Fatalf("m %d seed %d %s-%s: %s", m, seed, r.rule, r.psr, rep.Worst())
				}
				if rep.T < lbT*(1-1e-9) || rep.E < lbE*(1-1e-9) {
					t.Fatalf("m %d seed %d: schedule below the valid bounds (T %g < %g or E %g < %g)", m, seed, rep.T, lbT, rep.E, lbE)
				}
				dt[k] = append(dt[k], rep.T/lbT-1)
				de[k] = append(de[k], rep.E/lbE-1)
			}
		}
		for k, r := range rules {
			a1, a2, a3 := quartiles(dt[k])
			b1, b2, b3 := quartiles(de[k])
			fmt.Printf("| %d | %s-%s | %.3f, %.3f, %.3f | %.3f, %.3f, %.3f |\n", m, r.rule, r.psr, a1, a2, a3, b1, b2, b3)
			curvesT[k].X = append(curvesT[k].X, math.Log10(float64(m)))
			curvesT[k].Y = append(curvesT[k].Y, math.Log10(1+a2))
			curvesE[k].X = append(curvesE[k].X, math.Log10(float64(m)))
			curvesE[k].Y = append(curvesE[k].Y, math.Log10(1+b2))
		}
	}
	if dir := os.Getenv("DLTMULTI_FIG611_OUT"); dir != "" {
		ext := os.Getenv("DLTMULTI_FIG611_EXT") // ".svg" (default) or ".png"
		if ext == "" {
			ext = ".svg"
		}
		for _, f := range []struct {
			curves []figure.Curve
			what   string
		}{{curvesT, "T"}, {curvesE, "E"}} {
			files, err := figure.TradeOff(f.curves, "Fig. 6.11: heuristics against a valid lower bound (median of 30)",
				"log10 m (machines)", fmt.Sprintf("log10 %s/LB(%s)", f.what, f.what), filepath.Join(dir, "dltmulti-fig6.11-"+f.what+ext))
			if err != nil {
				t.Fatal(err)
			}
			t.Log(files)
		}
	}
}
