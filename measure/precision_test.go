package measure

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestPrecision(t *testing.T) {
	// 1..5: mean 3, sd sqrt(2.5); t⁻¹(0.95, 4) = 2.131847 (one-sided, as GSL's Pinv).
	want := 2.131846786 * math.Sqrt(2.5) / math.Sqrt(5) / 3
	cases := []struct {
		name string
		cl   float64
		xs   []float64
		want float64
	}{
		{"textbook sample", 0.95, []float64{1, 2, 3, 4, 5}, want},
		{"sign of the mean does not matter", 0.95, []float64{-1, -2, -3, -4, -5}, want},
		{"one sample has no precision", 0.95, []float64{7}, math.Inf(1)},
		{"equal samples are exact", 0.95, []float64{2, 2, 2}, 0},
		{"zeros are exact (time-only energies)", 0.95, []float64{0, 0, 0}, 0},
		{"spread around 0 is unknown", 0.95, []float64{-1, 1}, math.Inf(1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Precision(c.cl, c.xs)
			if math.IsInf(c.want, 1) {
				if !math.IsInf(got, 1) {
					t.Fatalf("Precision = %v, want +Inf", got)
				}
				return
			}
			if math.Abs(got-c.want) > 1e-8 {
				t.Fatalf("Precision = %.10g, want %.10g", got, c.want)
			}
		})
	}
	if Accurate(0.95, []float64{1, 2, 3, 4, 5}, want*0.99) || !Accurate(0.95, []float64{1, 2, 3, 4, 5}, want*1.01) {
		t.Error("Accurate disagrees with Precision < eps")
	}
}

// The running statistics MeanUsingTTest keeps give Alg. 6's precision on the samples.
func TestRunningPrecisionMatchesSamples(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 50; trial++ {
		var r running
		var xs []float64
		for i := 0; i < 2+rng.IntN(40); i++ {
			x := 10 + rng.NormFloat64()*float64(trial%5)
			xs = append(xs, x)
			r.add(x)
		}
		a, b := r.precision(0.9), Precision(0.9, xs)
		if math.Abs(a-b) > 1e-9*math.Max(1, b) {
			t.Fatalf("trial %d: running %v, samples %v", trial, a, b)
		}
	}
}
