package isoeff

import (
	"context"
	"math"
	"testing"
	"time"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
)

// independentEff recomputes a probe's efficiency without the search: the probe's
// schedule simulated by the evaluator, and T(1, 1, V) as the evaluator's length of the
// one-message schedule on one machine (started when it is awake, at S).
func independentEff(t *testing.T, mc dm.Machine, p Probe) float64 {
	t.Helper()
	in := Instance(mc, p.M, p.N, p.V)
	r := dm.Evaluate(in, p.Schedule, dm.EvalOptions{})
	if !r.OK() {
		t.Fatalf("m = %d, V = %g: the evaluator rejects the probe's schedule: %s", p.M, p.V, r.Worst())
	}
	one := Instance(mc, 1, 1, p.V)
	r1 := dm.Evaluate(one, dm.Schedule{Messages: []dm.Message{{Machine: 0, Size: p.V, Start: mc.S}}}, dm.EvalOptions{})
	if !r1.OK() {
		t.Fatalf("single machine: %s", r1.Worst())
	}
	if math.Abs(r1.Makespan-SingleTime(mc, p.V)) > 1e-9*r1.Makespan {
		t.Fatalf("T(1,1,%g): evaluator %g, closed form %g", p.V, r1.Makespan, SingleTime(mc, p.V))
	}
	return r1.Makespan / (float64(p.M) * r.Makespan)
}

// One small real run: m = 2..3, n = 2, every probe a certified HiGHS solve of
// (5.17)-(5.26) at gap 0, cross-checked with the sequence enumeration. Every reported
// point's efficiency, recomputed independently, is within the tolerances of its level.
func TestRunSmallRealMap(t *testing.T) {
	if testing.Short() {
		t.Skip("solves MIPs")
	}
	mc := Reference()
	const vtol, etol = 1.0, 1e-3
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	res, err := Run(ctx, Options{Ms: []int{2, 3}, N: 2, Levels: []float64{2, 10}, VLo: 100, VHi: 1e5,
		VTol: vtol, ETol: etol, Scan: 7, Workers: 2, Probe: MIPProbe(MIPConfig{Machine: mc, Backend: "highs"})})
	if err != nil {
		t.Fatal(err)
	}
	for _, mr := range res.PerM {
		if got := independentEff(t, mc, mr.MaxProbe); math.Abs(got-mr.EMax) > 1e-6*mr.EMax {
			t.Errorf("m = %d: E_max %g, recomputed %g", mr.M, mr.EMax, got)
		}
		if mr.EMax <= 1 {
			t.Errorf("m = %d: E_max = %g; the memory hierarchy should make it super-linear", mr.M, mr.EMax)
		}
		if len(mr.Points) == 0 {
			t.Errorf("m = %d: no isoline points (missing %v)", mr.M, mr.Missing)
		}
		for _, pt := range mr.Points {
			if pt.Probe.Status != "optimal" {
				t.Errorf("m = %d, V = %g: status %s", mr.M, pt.V, pt.Probe.Status)
			}
			got := independentEff(t, mc, pt.Probe)
			if math.Abs(got-pt.E) > 1e-6*pt.E {
				t.Errorf("m = %d level %g: reported E %g, recomputed %g", mr.M, pt.Level, pt.E, got)
			}
			within := math.Abs(got-pt.Level) <= etol*pt.Level
			if !within {
				// Stopped by the V tolerance: the bracket is narrow and straddles the level.
				lo := independentEff(t, mc, probeAt(t, mr, pt.Lo))
				hi := independentEff(t, mc, probeAt(t, mr, pt.Hi))
				within = pt.Hi-pt.Lo < vtol && math.Min(lo, hi) < pt.Level && math.Max(lo, hi) >= pt.Level
			}
			if !within {
				t.Errorf("m = %d level %g %s: V = %g has E = %g, bracket [%g, %g]", mr.M, pt.Level, pt.Side, pt.V, got, pt.Lo, pt.Hi)
			}
			if pt.Side == Below && pt.V > mr.VMax || pt.Side == Above && pt.V < mr.VMax {
				t.Errorf("m = %d level %g: V = %g on the wrong side of V_max = %g", mr.M, pt.Level, pt.V, mr.VMax)
			}
		}
		t.Logf("m = %d: E_max = %.3f at V_max = %.0f, %d probes, %d points, missing %v", mr.M, mr.EMax, mr.VMax, len(mr.Probes), len(mr.Points), mr.Missing)
	}
}

// probeAt returns the finished probe of mr at V.
func probeAt(t *testing.T, mr MResult, V float64) Probe {
	t.Helper()
	for _, p := range mr.Probes {
		if p.V == V {
			return p
		}
	}
	t.Fatalf("m = %d: no probe at V = %g", mr.M, V)
	return Probe{}
}

func TestSingleTimeIsTheMIPAtOneMachineOneMessage(t *testing.T) {
	if testing.Short() {
		t.Skip("solves MIPs")
	}
	mc := Reference()
	probe := MIPProbe(MIPConfig{Machine: mc, Backend: "highs"})
	for _, V := range []float64{500, 6000, 20000} {
		p, err := probe(context.Background(), 1, 1, V)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(p.E-1) > 1e-6 {
			t.Errorf("V = %g: E(1, 1, V) = %g, want 1 (T = %g, closed form %g)", V, p.E, p.T, SingleTime(mc, V))
		}
	}
}

func TestBoundsOfSection524(t *testing.T) {
	mc := Reference()
	if rho := -mc.B2() / (mc.A2 - mc.A1); math.Abs(mc.Rho-6738.5) > 0.1 || math.Abs(rho-mc.Rho) > 1e-9 {
		t.Errorf("rho = %g, want 6738.5 (the seed prints 6739)", mc.Rho)
	}
	for _, c := range []struct {
		name string
		m, n int
		V    float64
	}{{"in core", 4, 20, 3000}, {"out of core", 10, 20, 50000}} {
		t.Run(c.name, func(t *testing.T) {
			lo, hi := Bound527(mc, c.m, c.n, c.V)
			if !(lo > 0 && lo < hi) {
				t.Errorf("(5.27): %g <= E <= %g", lo, hi)
			}
		})
	}
	// (5.29) is (5.28) solved for V: at V = I(e, m, n), (5.28) gives e back.
	for _, e := range []float64{2, 10, 30} {
		V, ok := Iso529(mc, e, 4, 20)
		if !ok {
			t.Fatalf("e = %g: no (5.29) value", e)
		}
		if got := Approx528(mc, 4, 20, V); math.Abs(got-e) > 1e-9*e {
			t.Errorf("e = %g: (5.28) at I(e) = %g gives %g", e, V, got)
		}
	}
	if _, ok := Iso529(mc, 0.5, 4, 20); ok {
		t.Error("(5.29) for e < 1")
	}
	if e, v, ok := Table52(2); !ok || e != 34.2 || v != 134485 {
		t.Errorf("Table 5.2 at m = 2: %g %g %v", e, v, ok)
	}
}
