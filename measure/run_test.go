package measure

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedopt/schedopt/measure/energy"
)

// quick repeats a point 2 to 4 times: enough for a precision, fast in tests.
var quick = Params{MinReps: 0, MaxReps: 4, MaxTime: time.Minute, Confidence: 0.95, Eps: 0.025}

func kernel(t *testing.T, spec string) Kernel {
	t.Helper()
	k, err := ParseKernel(spec)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestRunTimeOnlyRealChildren(t *testing.T) {
	var ticks, done int
	cfg := Config{
		Kernels: []Kernel{kernel(t, "noop=: {size}"), kernel(t, `loop=i=0; while [ $i -lt {size}00 ]; do i=$((i+1)); done`)},
		Sizes:   []int{1, 2, 3},
		Params:  quick,
		Progress: func(s Status) {
			ticks++
			if s.Done != nil {
				done++
				if s.Steps != 6 || s.Step < 1 || s.Step > 6 {
					t.Errorf("step %d of %d", s.Step, s.Steps)
				}
			}
		},
	}
	samples, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if done != 6 || ticks <= done {
		t.Errorf("%d progress reports, %d points done; want 6 done", ticks, done)
	}
	perPoint := map[string]int{}
	for _, s := range samples {
		if !(s.Time > 0) || !math.IsNaN(s.Energy) || !math.IsNaN(s.TotalEnergy) || s.Phase != PhaseAlone {
			t.Fatalf("sample %+v", s)
		}
		perPoint[fmt.Sprint(s.Processor, s.Size)]++
	}
	for k, n := range perPoint {
		if n < 2 || n > quick.MaxReps {
			t.Errorf("%s: %d runs, want 2..%d", k, n, quick.MaxReps)
		}
	}
	if len(perPoint) != 6 {
		t.Fatalf("%d points, want 6", len(perPoint))
	}
	prof := Aggregate(samples, quick.Confidence, quick.Eps)
	in, _, err := prof.Instance("t", 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !prof.TimeOnly() || len(in.Processors) != 2 || len(in.Processors[1].Points) != 3 || in.Processors[1].Points[2].Energy != 0 {
		t.Fatalf("instance %+v", in)
	}
}

// A fake powercap tree whose package counter the kernel itself advances by size J
// per run, wrapping at 2.5 J: every run must read exactly size J.
func TestRunFakePowercap(t *testing.T) {
	root := t.TempDir()
	zone := filepath.Join(root, "intel-rapl:0")
	if err := os.MkdirAll(zone, 0o755); err != nil {
		t.Fatal(err)
	}
	counter := filepath.Join(zone, "energy_uj")
	for f, v := range map[string]string{"name": "package-0", "energy_uj": "2000000", "max_energy_range_uj": "2500000"} {
		if err := os.WriteFile(filepath.Join(zone, f), []byte(v+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src, err := energy.Detect(context.Background(), energy.RAPLName, energy.Env{PowercapRoot: root})
	if err != nil {
		t.Fatal(err)
	}
	burn := fmt.Sprintf(`v=$(cat %s); echo $(( (v + {size}000000) %% 2500000 )) > %s`, counter, counter)
	for _, static := range []float64{0, 0.5} {
		t.Run(fmt.Sprintf("static power %g W", static), func(t *testing.T) {
			samples, err := Run(context.Background(), Config{Kernels: []Kernel{kernel(t, "cpu="+burn)}, Sizes: []int{1, 2},
				Params: quick, Energy: src, StaticPower: static})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range samples {
				want := float64(s.Size) - static*s.Time
				if s.TotalEnergy != float64(s.Size) || math.Abs(s.Energy-want) > 1e-12 {
					t.Fatalf("sample %+v: total %v J, dynamic %v J; want %d and %v", s, s.TotalEnergy, s.Energy, s.Size, want)
				}
			}
			prof := Aggregate(samples, quick.Confidence, quick.Eps)
			if prof.TimeOnly() || prof.Points[1].EnergyReps < 2 {
				t.Fatalf("%+v", prof.Points)
			}
			if static == 0 && (prof.Points[1].Energy != 2 || !(prof.Points[1].EnergyPrecision == 0)) {
				t.Errorf("size 2: energy %v, precision %v; want 2 J exactly", prof.Points[1].Energy, prof.Points[1].EnergyPrecision)
			}
		})
	}
}

// Two kernels that share the node: each waits for the other to have started, so the
// run fails unless they run at once. A fake meter sums two counters that the kernels
// advance by size J and 2·size J.
func TestRunConcurrentFakeMeter(t *testing.T) {
	dir := t.TempDir()
	ca, cb := filepath.Join(dir, "a.J"), filepath.Join(dir, "b.J")
	for _, f := range []string{ca, cb} {
		if err := os.WriteFile(f, []byte("0\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	kern := func(name, other, counter string, per int) Kernel {
		return kernel(t, fmt.Sprintf(`%s=touch %s/%s; i=0; while [ ! -e %s/%s ] && [ $i -lt 1000 ]; do sleep 0.01; i=$((i+1)); done; [ -e %s/%s ] || exit 9; v=$(cat %s); echo $((v + %d*{size})) > %s`,
			name, dir, name, dir, other, dir, other, counter, per, counter))
	}
	meter := &energy.Meter{Command: fmt.Sprintf("echo $(( $(cat %s) + $(cat %s) ))", ca, cb)}
	samples, err := Run(context.Background(), Config{Kernels: []Kernel{kern("a", "b", ca, 1), kern("b", "a", cb, 2)},
		Sizes: []int{1, 3}, Params: Params{MinReps: 0, MaxReps: 2, MaxTime: time.Minute, Confidence: 0.95, Eps: 0.025},
		Energy: meter, Concurrent: true})
	if err != nil {
		t.Fatal(err)
	}
	var conc, alone int
	for _, s := range samples {
		switch s.Phase {
		case PhaseConcurrent:
			conc++
			if !(s.Time > 0) || !math.IsNaN(s.Energy) || s.TotalEnergy != float64(3*s.Size) {
				t.Errorf("concurrent sample %+v: want a time and the node's 3·size J", s)
			}
		case PhaseAlone:
			alone++
			per := 1.0
			if s.Processor == "b" {
				per = 2
			}
			if !math.IsNaN(s.Time) || s.Energy != per*float64(s.Size) {
				t.Errorf("alone sample %+v: want no time and %v·size J", s, per)
			}
		}
	}
	if conc == 0 || alone == 0 {
		t.Fatalf("%d concurrent and %d alone samples", conc, alone)
	}
	prof := Aggregate(samples, quick.Confidence, quick.Eps)
	in, _, err := prof.Instance("c", 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	if e := in.Processors[1].Points[1].Energy; e != 6 {
		t.Errorf("b at size 3: energy %v, want 6 J (from its runs alone)", e)
	}
}

func TestRunChildFailure(t *testing.T) {
	_, err := Run(context.Background(), Config{Kernels: []Kernel{kernel(t, "bad=echo broken at {size} >&2; exit 3")},
		Sizes: []int{2}, Params: quick})
	if err == nil || !strings.Contains(err.Error(), "bad at size 2") || !strings.Contains(err.Error(), "broken at 2") ||
		!strings.Contains(err.Error(), "exit status 3") {
		t.Fatalf("error %v: want the kernel, the size, the exit status and its stderr", err)
	}
}

// Cancelling the context kills the child's whole process group at once.
func TestRunCancelKillsChild(t *testing.T) {
	dir := t.TempDir()
	started := filepath.Join(dir, "started")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for {
			if _, err := os.Stat(started); err == nil {
				cancel()
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	_, err := Run(ctx, Config{Kernels: []Kernel{kernel(t, "slow=touch "+started+"; sleep 3{size}0")}, Sizes: []int{1}, Params: quick})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

type fixedSource struct{ joules float64 }

func (f fixedSource) Name() string                                  { return "fixed" }
func (f fixedSource) Start(context.Context) (energy.Reading, error) { return f, nil }
func (f fixedSource) Stop(context.Context) (float64, error)         { return f.joules, nil }

func TestMeasureIdle(t *testing.T) {
	const window = 20 * time.Millisecond
	p, err := MeasureIdle(context.Background(), fixedSource{joules: 10}, window)
	if err != nil {
		t.Fatal(err)
	}
	// 10 J over at least the window: at most 10 J / 20 ms.
	if !(p > 0 && p <= 10/window.Seconds()) {
		t.Fatalf("idle power %v W", p)
	}
}
