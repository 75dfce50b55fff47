package isoeff

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
)

// peak is a synthetic unimodal efficiency with its maximum top at v0.
func peak(top, v0 float64) EffFunc {
	return func(_ context.Context, V float64) (float64, error) {
		return top / (1 + math.Pow(math.Log(V/v0), 2)), nil
	}
}

func TestMaxSearchFindsTheKnownMaximum(t *testing.T) {
	for _, c := range []struct {
		name            string
		top, v0, lo, hi float64
		wantV, wantE    float64
	}{
		{"interior peak", 30, 5000, 1, 1e5, 5000, 30},
		{"peak near the low end", 10, 3, 1, 1e4, 3, 10},
		{"increasing on the range: maximum at hi", 10, 1e6, 1, 1e4, 1e4, 10 / (1 + math.Pow(math.Log(1e-2), 2))},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := MaxSearch(context.Background(), peak(c.top, c.v0), c.lo, c.hi, DefaultVTol)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(m.V-c.wantV) > 2*DefaultVTol || math.Abs(m.E-c.wantE) > 1e-3*c.wantE {
				t.Errorf("max at V = %g, E = %g; want V = %g, E = %g", m.V, m.E, c.wantV, c.wantE)
			}
			if m.Hi-m.Lo >= DefaultVTol {
				t.Errorf("final interval [%g, %g] wider than the tolerance", m.Lo, m.Hi)
			}
		})
	}
}

func TestBisectFindsBothSidesOfALevel(t *testing.T) {
	// E = 20 − |V − 1000|/50: level e crosses at V = 1000 ± 50(20 − e).
	tent := func(_ context.Context, V float64) (float64, error) { return 20 - math.Abs(V-1000)/50, nil }
	e0 := func(V float64) float64 { e, _ := tent(nil, V); return e }
	for _, c := range []struct {
		name         string
		level        float64
		below, above float64
		want         float64
		etol         float64
	}{
		{"rising side", 10, 1, 1000, 500, 0},
		{"falling side", 10, 1900, 1000, 1500, 0},
		{"falling side, efficiency tolerance", 15, 1900, 1000, 1250, 1e-2},
	} {
		t.Run(c.name, func(t *testing.T) {
			x, err := Bisect(context.Background(), tent, c.level, c.below, e0(c.below), c.above, e0(c.above), DefaultVTol, c.etol)
			if err != nil {
				t.Fatal(err)
			}
			if c.etol == 0 && (x.Hi-x.Lo >= DefaultVTol || math.Abs(x.V-c.want) > DefaultVTol) {
				t.Errorf("crossing V = %g in [%g, %g], want %g within %g", x.V, x.Lo, x.Hi, c.want, DefaultVTol)
			}
			if c.etol > 0 && math.Abs(x.E-c.level) > c.etol*c.level {
				t.Errorf("crossing E = %g, want %g within %g", x.E, c.level, c.etol)
			}
			if !(math.Min(x.ELo, x.EHi) < c.level && math.Max(x.ELo, x.EHi) >= c.level) {
				t.Errorf("bracket efficiencies %g, %g do not straddle %g", x.ELo, x.EHi, c.level)
			}
		})
	}
	if _, err := Bisect(context.Background(), tent, 0.001, 1, e0(1), 1000, e0(1000), 1, 0); !errors.Is(err, ErrNoCrossing) {
		t.Errorf("a level below the outer end: %v, want ErrNoCrossing", err)
	}
}

// A synthetic map: Run with a probe function whose efficiency has a known maximum and
// known level crossings at every m.
func TestRunOnASyntheticEfficiency(t *testing.T) {
	// E(m, V) = (40 − m) / (1 + ln²(V/(1000 m))): max 40 − m at V = 1000 m; level e
	// crossed at V = 1000 m · exp(±sqrt((40 − m)/e − 1)).
	probe := func(_ context.Context, m, n int, V float64) (Probe, error) {
		top := 40 - float64(m)
		return Probe{M: m, N: n, V: V, E: top / (1 + math.Pow(math.Log(V/(1000*float64(m))), 2)), Status: "optimal"}, nil
	}
	var events int
	res, err := Run(context.Background(), Options{Ms: []int{2, 3, 5}, N: 4, Levels: []float64{10, 20, 37.5}, VLo: 1, VHi: 1e6,
		VTol: 0.01, Scan: 7, Workers: 3, Probe: probe, Progress: func(Event) { events++ }})
	if err != nil {
		t.Fatal(err)
	}
	for _, mr := range res.PerM {
		top, vm := 40-float64(mr.M), 1000*float64(mr.M)
		if math.Abs(mr.EMax-top) > 1e-6*top || math.Abs(mr.VMax-vm) > 0.05 {
			t.Errorf("m = %d: max E = %g at V = %g, want %g at %g", mr.M, mr.EMax, mr.VMax, top, vm)
		}
		want := 4 // levels 10 and 20 on both sides; 37.5 only for m = 2
		if mr.M == 2 {
			want = 6
		}
		if len(mr.Points) != want {
			t.Errorf("m = %d: %d points, want %d (missing %v)", mr.M, len(mr.Points), want, mr.Missing)
		}
		for _, pt := range mr.Points {
			d := math.Sqrt(top/pt.Level - 1)
			v := vm * math.Exp(d)
			if pt.Side == Below {
				v = vm * math.Exp(-d)
			}
			if math.Abs(pt.V-v) > 0.01 {
				t.Errorf("m = %d level %g %s: V = %g, want %g", mr.M, pt.Level, pt.Side, pt.V, v)
			}
		}
	}
	if events == 0 {
		t.Error("no progress events")
	}
}

func TestRunStopsOnCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	probe := func(ctx context.Context, m, n int, V float64) (Probe, error) {
		calls++
		if calls == 3 {
			cancel()
		}
		if err := ctx.Err(); err != nil {
			return Probe{}, err
		}
		return Probe{V: V, E: 1}, nil
	}
	_, err := Run(ctx, Options{Ms: []int{2}, N: 2, Levels: []float64{0.5}, VLo: 1, VHi: 1e4, VTol: 1, Scan: 5, Workers: 1, Probe: probe})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestOptionsValidateNamesTheField(t *testing.T) {
	ok := Options{Ms: []int{2}, N: 2, VLo: 1, VHi: 10, VTol: 1, Scan: 3, Workers: 1,
		Probe: func(context.Context, int, int, float64) (Probe, error) { return Probe{}, nil }}
	for _, c := range []struct {
		name   string
		change func(*Options)
		field  string
	}{
		{"no m", func(o *Options) { o.Ms = nil }, "Ms"},
		{"n = 0", func(o *Options) { o.N = 0 }, "N"},
		{"empty V range", func(o *Options) { o.VHi = 1 }, "V range"},
		{"no workers", func(o *Options) { o.Workers = 0 }, "Workers"},
		{"negative level", func(o *Options) { o.Levels = []float64{-1} }, "Levels"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := ok
			c.change(&o)
			err := o.Validate()
			if err == nil || !strings.Contains(err.Error(), c.field) {
				t.Errorf("err = %v, want one naming %s", err, c.field)
			}
		})
	}
}
