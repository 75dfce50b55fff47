package benchstats

import (
	"math"
	"testing"
)

func run(inst, backend string, perm int, out Outcome, secs float64) Run {
	return Run{Instance: inst, Permutation: perm, Backend: backend, Outcome: out, Status: out.String(), Seconds: secs, Limit: 60,
		FirstSeconds: math.NaN(), CertSeconds: math.NaN(), PeakRSS: math.NaN(), PDI: math.NaN()}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestShiftedGeoMean(t *testing.T) {
	for _, tc := range []struct {
		xs    []float64
		shift float64
		want  float64
	}{
		{[]float64{1, 1}, 10, 1},
		{[]float64{0, 90}, 10, math.Sqrt(1000) - 10}, // sqrt(10·100) − 10
		{[]float64{2, 8}, 0, 4},                      // the plain geometric mean
		{[]float64{5}, 10, 5},
	} {
		if got := ShiftedGeoMean(tc.xs, tc.shift); !near(got, tc.want) {
			t.Errorf("ShiftedGeoMean(%v, %g) = %g, want %g", tc.xs, tc.shift, got, tc.want)
		}
	}
	if !math.IsNaN(ShiftedGeoMean(nil, 10)) {
		t.Error("no values: want NaN")
	}
}

func TestSummarize(t *testing.T) {
	runs := []Run{
		run("a", "fast", 0, Solved, 1), run("a", "slow", 0, Solved, 4),
		run("b", "fast", 0, Timeout, 60), run("b", "slow", 0, Solved, 30),
		run("c", "fast", 0, Fail, 2), run("c", "slow", 0, Abort, 0.5),
	}
	s := Summarize(runs, Options{Shift: 10})
	if s.Problems != 3 || len(s.Backends) != 2 {
		t.Fatalf("%d problems, %d backends", s.Problems, len(s.Backends))
	}
	fast, slow := s.Backends[0], s.Backends[1]
	if fast.Solved != 1 || fast.Timeouts != 1 || fast.Fails != 1 || fast.Aborts != 0 {
		t.Errorf("fast counts %+v", fast)
	}
	if slow.Solved != 2 || slow.Aborts != 1 {
		t.Errorf("slow counts %+v", slow)
	}
	// Time-outs and fails count at the limit: fast has 1, 60, 60.
	if want := ShiftedGeoMean([]float64{1, 60, 60}, 10); !near(fast.SGM, want) {
		t.Errorf("fast SGM %g, want %g", fast.SGM, want)
	}
	if want := ShiftedGeoMean([]float64{4, 30, 60}, 10); !near(slow.SGM, want) {
		t.Errorf("slow SGM %g, want %g", slow.SGM, want)
	}
	if !near(slow.Ratio, 1) || !(fast.Ratio > 1) {
		t.Errorf("ratios fast %g slow %g: slow is the best here", fast.Ratio, slow.Ratio)
	}
	if fast.Wins != 1 || slow.Wins != 1 {
		t.Errorf("wins fast %d slow %d, want 1 and 1", fast.Wins, slow.Wins)
	}
	vb := s.VirtualBest
	if vb.Solved != 2 || !near(vb.SGM, ShiftedGeoMean([]float64{1, 30, 60}, 10)) {
		t.Errorf("virtual best %+v", vb)
	}
	if !(vb.SGM <= slow.SGM && vb.SGM <= fast.SGM) {
		t.Error("the virtual best is slower than a backend")
	}
	// Profile: fast solves a at ratio 1, slow solves a at 4 and b at 1.
	p := s.Profile
	for _, tc := range []struct {
		b    string
		tau  float64
		want float64
	}{{"fast", 1, 1.0 / 3}, {"fast", 100, 1.0 / 3}, {"slow", 1, 1.0 / 3}, {"slow", 3.99, 1.0 / 3}, {"slow", 4, 2.0 / 3}} {
		if got := p.Rho(tc.b, tc.tau); !near(got, tc.want) {
			t.Errorf("rho_%s(%g) = %g, want %g", tc.b, tc.tau, got, tc.want)
		}
	}
	if p.MaxFinite() != 4 {
		t.Errorf("largest finite ratio %g, want 4", p.MaxFinite())
	}
	if c := s.Curves[1]; c.Backend != "slow" || len(c.Times) != 2 || c.Times[0] != 4 || c.Times[1] != 30 {
		t.Errorf("slow's curve %+v", c)
	}
}

func TestMemoryCertificationAndPDI(t *testing.T) {
	a := run("a", "x", 0, Solved, 2)
	a.FirstSeconds, a.CertSeconds, a.PeakRSS, a.PDI = 1.5, 0.5, 100<<20, 3
	b := run("b", "x", 0, Timeout, 60)
	b.FirstSeconds, b.CertSeconds, b.PeakRSS = 59, 0, 200<<20
	s := Summarize([]Run{a, b}, Options{Shift: 10})
	x := s.Backends[0]
	if x.FirstSeconds != 60.5 || x.CertSeconds != 0.5 {
		t.Errorf("first %g cert %g", x.FirstSeconds, x.CertSeconds)
	}
	if want := ShiftedGeoMean([]float64{1.5, 60}, 10); !near(x.FirstSGM, want) {
		t.Errorf("first-solve SGM %g, want %g", x.FirstSGM, want)
	}
	if x.MemRuns != 2 || !near(x.MemSGM, ShiftedGeoMean([]float64{100 << 20, 200 << 20}, DefaultMemShift)) {
		t.Errorf("memory %d runs, SGM %g", x.MemRuns, x.MemSGM)
	}
	if x.PDIRuns != 1 || x.PDIMean != 3 {
		t.Errorf("PDI %d runs, mean %g", x.PDIRuns, x.PDIMean)
	}
	if !math.IsNaN(s.VirtualBest.MemSGM) {
		t.Error("the virtual best has no memory")
	}
}

func TestVariability(t *testing.T) {
	runs := []Run{
		run("a", "x", 0, Solved, 1), run("a", "x", 1, Solved, 3), run("a", "x", 2, Solved, 2),
		run("b", "x", 0, Solved, 5), run("b", "x", 1, Timeout, 60),
		run("c", "x", 0, Solved, 5),
	}
	vs := Summarize(runs, Options{Shift: 10}).Variability
	if len(vs) != 2 {
		t.Fatalf("%d variability rows, want 2 (c has one run)", len(vs))
	}
	a, b := vs[0], vs[1]
	if a.Instance != "a" || a.Min != 1 || a.Median != 2 || a.Max != 3 || a.StatusChanged {
		t.Errorf("a: %+v", a)
	}
	if want := math.Sqrt(2.0/3) / 2; !near(a.CV, want) {
		t.Errorf("a: CV %g, want %g", a.CV, want)
	}
	if b.Instance != "b" || !b.StatusChanged || b.Max != 60 || len(b.Statuses) != 2 {
		t.Errorf("b: %+v", b)
	}
}
