package measure

import (
	"context"
	"errors"
	"testing"
	"time"
)

// seq returns an exec that yields vals[i % len(vals)] for every series at run i.
func seq(vals ...float64) (func(context.Context) ([]float64, error), *int) {
	calls := 0
	return func(context.Context) ([]float64, error) {
		v := vals[calls%len(vals)]
		calls++
		return []float64{v}, nil
	}, &calls
}

func TestMeanUsingTTest(t *testing.T) {
	timeSeries := []Series{{Name: "t", IsTime: true}}
	cases := []struct {
		name     string
		p        Params
		vals     []float64
		reps     int
		stop     string
		reached  bool
		wantMean float64
	}{
		// Line 10 tests reps > minReps before the increment: the first test sees
		// minReps+2 samples.
		{"constant runs stop at the first check", Params{MinReps: 5, MaxReps: 50, MaxTime: time.Hour, Confidence: 0.95, Eps: 0.025},
			[]float64{2}, 7, StopPrecision, true, 2},
		{"minReps 0 checks from the second run", Params{MinReps: 0, MaxReps: 50, MaxTime: time.Hour, Confidence: 0.95, Eps: 0.025},
			[]float64{2}, 2, StopPrecision, true, 2},
		{"noisy runs hit maxReps and are marked", Params{MinReps: 1, MaxReps: 10, MaxTime: time.Hour, Confidence: 0.95, Eps: 0.025},
			[]float64{1, 3}, 10, StopMaxReps, false, 2},
		// Sums 1, 2, 3, 4: the first sum above maxT = 3.5 s is after run 4.
		{"maxT is the summed kernel time", Params{MinReps: 0, MaxReps: 50, MaxTime: 3500 * time.Millisecond, Confidence: 0.95, Eps: 1e-9},
			[]float64{0.5, 1.5}, 4, StopMaxTime, false, 1},
		// maxT is tested inside "if reps > minReps": it waits for minReps too.
		{"maxT waits for minReps", Params{MinReps: 6, MaxReps: 50, MaxTime: time.Second, Confidence: 0.95, Eps: 1e-9},
			[]float64{0.5, 1.5}, 8, StopMaxTime, false, 1},
		{"maxReps at most minReps+1 never checks", Params{MinReps: 5, MaxReps: 6, MaxTime: time.Hour, Confidence: 0.95, Eps: 0.5},
			[]float64{2}, 6, StopMaxReps, true, 2},
		// 9.9, 10.1, ...: the precision is 0.0136 at 4 runs, 0.0105 at 5 (mean 9.98,
		// sd 0.1095, t⁻¹(0.95, 4) = 2.132) and 0.0090 at 6.
		{"precision is reached as runs accumulate", Params{MinReps: 0, MaxReps: 50, MaxTime: time.Hour, Confidence: 0.95, Eps: 0.01},
			[]float64{9.9, 10.1}, 6, StopPrecision, true, 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			exec, calls := seq(c.vals...)
			var ticks []Tick
			out, err := MeanUsingTTest(context.Background(), c.p, timeSeries, exec, func(tk Tick) { ticks = append(ticks, tk) })
			if err != nil {
				t.Fatal(err)
			}
			if out.Reps != c.reps || *calls != c.reps || out.Stop != c.stop || out.Reached != c.reached {
				t.Fatalf("reps %d (calls %d), stop %s, reached %v; want %d, %s, %v (precision %v)",
					out.Reps, *calls, out.Stop, out.Reached, c.reps, c.stop, c.reached, out.Precisions)
			}
			if len(ticks) != c.reps || ticks[len(ticks)-1].Reps != c.reps {
				t.Errorf("%d ticks, last %v", len(ticks), ticks[len(ticks)-1])
			}
			if d := out.Means[0] - c.wantMean; d > 1e-12 || d < -1e-12 {
				t.Errorf("mean %v, want %v", out.Means[0], c.wantMean)
			}
			if len(out.Samples[0]) != c.reps {
				t.Errorf("%d samples kept, want %d", len(out.Samples[0]), c.reps)
			}
		})
	}
}

// Every series must reach ε: a precise time does not stop a noisy energy.
func TestMeanUsingTTestNeedsEverySeries(t *testing.T) {
	i := 0
	exec := func(context.Context) ([]float64, error) {
		i++
		return []float64{1, float64(1 + 2*(i%2))}, nil
	}
	p := Params{MinReps: 0, MaxReps: 12, MaxTime: time.Hour, Confidence: 0.95, Eps: 0.05}
	out, err := MeanUsingTTest(context.Background(), p, []Series{{"t", true}, {"e", false}}, exec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.Reps != 12 || out.Reached || out.Precisions[0] != 0 {
		t.Fatalf("reps %d reached %v precisions %v", out.Reps, out.Reached, out.Precisions)
	}
	// The energy series is not a time: its sum (24) does not count toward maxT.
	if out.Elapsed != 12 {
		t.Errorf("elapsed %v, want 12", out.Elapsed)
	}
}

func TestMeanUsingTTestErrors(t *testing.T) {
	series := []Series{{"t", true}}
	boom := errors.New("boom")
	failing := func(context.Context) ([]float64, error) { return nil, boom }
	if _, err := MeanUsingTTest(context.Background(), DefaultParams(), series, failing, nil); !errors.Is(err, boom) {
		t.Errorf("exec error: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	exec, calls := seq(1)
	if _, err := MeanUsingTTest(ctx, DefaultParams(), series, exec, nil); !errors.Is(err, context.Canceled) || *calls != 0 {
		t.Errorf("cancelled: %v after %d runs", err, *calls)
	}
	for _, p := range []Params{
		{MinReps: -1, MaxReps: 5, MaxTime: time.Second, Confidence: 0.95, Eps: 0.1},
		{MinReps: 1, MaxReps: 0, MaxTime: time.Second, Confidence: 0.95, Eps: 0.1},
		{MinReps: 1, MaxReps: 5, MaxTime: 0, Confidence: 0.95, Eps: 0.1},
		{MinReps: 1, MaxReps: 5, MaxTime: time.Second, Confidence: 1, Eps: 0.1},
		{MinReps: 1, MaxReps: 5, MaxTime: time.Second, Confidence: 0.95, Eps: 0},
	} {
		if _, err := MeanUsingTTest(context.Background(), p, series, exec, nil); err == nil {
			t.Errorf("%+v accepted", p)
		}
	}
}
