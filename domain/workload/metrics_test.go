package workload

import (
	"math"
	"testing"
)

// TestPercentages is R4 of ref §5.2: the percentages the seeds report follow from the
// endpoints they quote.
func TestPercentages(t *testing.T) {
	cases := []struct {
		name           string
		base, opt      float64
		want, roundTol float64
	}{
		{"seed 000 DGEMM: the energy optimum costs 51% in time (1.63 vs 1.08 s)", 1.63, 1.08, 51, 0.5},
		{"seed 000 DGEMM: the time optimum costs 260% in energy (604 vs 167 J; 261.7)", 604, 167, 261.7, 0.05},
		{"seed 000 FFT: 92% in time (0.92 vs 0.48 s; 91.7)", 0.92, 0.48, 91.7, 0.05},
		{"seed 000 FFT: 53% in energy (138 vs 90 J; 53.3)", 138, 90, 53.3, 0.05},
		{"seed 003 Table 4: 275% in time (22.10 vs 5.89 s)", 22.10, 5.89, 275, 0.5},
		{"seed 003 Table 4: 424% in energy (37405.80 vs 7143.50 J)", 37405.80, 7143.50, 424, 0.5},
		{"seed 003 Table 10: 280% in time (22.37 vs 5.89 s)", 22.37, 5.89, 280, 0.5},
		{"seed 003 Table 10: about 300% in energy (152970.4 vs 38082.86 J; 301.7)", 152970.4, 38082.86, 301.7, 0.05},
		{"seed 003 Table 11: 61% in energy (6362.96 vs 3933.87 J)", 6362.96, 3933.87, 61.7, 0.05},
		{"seed 003 PDGEMM: 26% in energy with the text's 753 J (vs 597 J)", 753, 597, 26.1, 0.05},
		{"seed 003: model building 25920 s -> 5835 s is 344%", 25920, 5835, 344.2, 0.05},
		{"seed 003: model building 11540 s -> 13 s is 88669%", 11540, 13, 88669.2, 0.05},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Improvement(c.base, c.opt); math.Abs(got-c.want) > c.roundTol {
				t.Errorf("%.2f%%, want %.1f%%", got, c.want)
			}
		})
	}
}

func TestTradeOffs(t *testing.T) {
	front := []Solution{{T: 10, E: 100}, {T: 10.4, E: 80}, {T: 11, E: 60}, {T: 20, E: 52}, {T: 30, E: 50}}
	perf, energy := TradeOffs(front, 0.05)
	// 5% more energy than 50 allows E ≤ 52.5: the fastest such point has T = 20, so
	// (30 − 20)/20 = 50%. 5% more time than 10 allows T ≤ 10.5: E = 80, so
	// (100 − 80)/80 = 25%.
	if perf != 50 || energy != 25 {
		t.Errorf("perf %g%%, energy %g%%; want 50%% and 25%%", perf, energy)
	}
}

func TestBalanced(t *testing.T) {
	if got := Balanced(10, 4); got[0] != 3 || got[1] != 3 || got[2] != 2 || got[3] != 2 {
		t.Errorf("Balanced(10, 4) = %v, want [3 3 2 2]", got)
	}
}
