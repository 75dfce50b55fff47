package plot

import (
	"errors"
	"math"
	"path/filepath"
	"testing"

	"github.com/schedopt/schedopt/benchstats"
	"github.com/schedopt/schedopt/figure"
	"github.com/schedopt/schedopt/figure/figuretest"
)

func TestProfileAndSolvedWithinAreDrawn(t *testing.T) {
	nan := math.NaN()
	var runs []benchstats.Run
	for i, inst := range []string{"a", "b", "c", "d"} {
		for k, b := range []string{"highs", "cbc"} {
			out := benchstats.Solved
			if b == "cbc" && i == 3 {
				out = benchstats.Timeout
			}
			runs = append(runs, benchstats.Run{Instance: inst, Backend: b, Outcome: out, Seconds: float64((i + 1) * (k + 1)), Limit: 60,
				FirstSeconds: nan, CertSeconds: nan, PeakRSS: nan, PDI: nan})
		}
	}
	s := benchstats.Summarize(runs, benchstats.Options{Shift: 10})
	dir := t.TempDir()
	files, err := PerformanceProfile(s.Profile, filepath.Join(dir, "performance_profile"))
	if err != nil {
		t.Fatal(err)
	}
	figuretest.AssertImages(t, files, 2)
	files, err = SolvedWithin(s.Curves, s.Problems, 60, filepath.Join(dir, "solved_within"))
	if err != nil {
		t.Fatal(err)
	}
	figuretest.AssertImages(t, files, 2)
	if _, err := PerformanceProfile(benchstats.Profile{}, filepath.Join(dir, "x")); !errors.Is(err, figure.ErrNoData) {
		t.Errorf("empty profile: %v, want ErrNoData", err)
	}
}
