package measure

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/schedopt/schedopt/measure/energy"
)

// Config is one measurement: every kernel at every size.
type Config struct {
	Kernels []Kernel
	Sizes   []int
	Params  Params
	// Energy is the node's energy source; nil makes a time-only profile.
	Energy energy.Source
	// StaticPower (W) is taken off each run's energy: dynamic = total − StaticPower ×
	// time, where time is the run's wall time (seed 000 eq. 4).
	StaticPower float64
	// Concurrent runs all kernels at once for their times (see PhaseConcurrent).
	Concurrent bool
	// Progress, when not nil, is called after every run and when a point is done.
	Progress func(Status)
}

// Status is a progress report.
type Status struct {
	Phase     string // PhaseAlone or PhaseConcurrent
	Processor string // the kernel; empty for a concurrent run of all kernels
	Size      int
	Step      int // 1-based index of the point being measured
	Steps     int // points to measure in all
	Reps      int
	MaxReps   int
	Precision float64 // worst precision so far (+Inf below two runs)
	Done      *Outcome
}

// Run measures every kernel at every size with MeanUsingTTest and returns the raw
// samples. Each run's wall time is taken around its child process (started with
// /bin/sh -c, its output discarded); the node's energy, when cfg.Energy is set, is
// read around the run (Alg. 4). Without --concurrent, each (size, kernel) point is
// one MeanUsingTTest over the kernel's time and, with a source, its dynamic energy.
// With --concurrent, each size is one MeanUsingTTest over every kernel's time (and
// the node's total energy) in runs of all kernels at once, followed, with a source,
// by one per kernel alone for its dynamic energy. A failing child stops the
// measurement with its command and the tail of its stderr.
func Run(ctx context.Context, cfg Config) ([]Sample, error) {
	if err := cfg.Params.Validate(); err != nil {
		return nil, err
	}
	if len(cfg.Kernels) == 0 || len(cfg.Sizes) == 0 {
		return nil, errors.New("measure: no kernel or no size")
	}
	steps := len(cfg.Sizes) * len(cfg.Kernels)
	if cfg.Concurrent {
		steps = len(cfg.Sizes)
		if cfg.Energy != nil {
			steps += len(cfg.Sizes) * len(cfg.Kernels)
		}
	}
	m := &measurer{cfg: cfg, steps: steps}
	for _, size := range cfg.Sizes {
		if cfg.Concurrent {
			if err := m.concurrent(ctx, size); err != nil {
				return nil, err
			}
			if cfg.Energy == nil {
				continue
			}
		}
		for _, k := range cfg.Kernels {
			if err := m.alone(ctx, k, size, !cfg.Concurrent); err != nil {
				return nil, err
			}
		}
	}
	return m.samples, nil
}

type measurer struct {
	cfg     Config
	steps   int
	step    int
	samples []Sample
}

func (m *measurer) report(st Status) {
	if m.cfg.Progress != nil {
		st.Step, st.Steps, st.MaxReps = m.step, m.steps, m.cfg.Params.MaxReps
		m.cfg.Progress(st)
	}
}

// alone measures kernel k alone at size: time and, with a source, dynamic energy.
// keepTime false leaves the time out of the samples (the --concurrent energy runs).
func (m *measurer) alone(ctx context.Context, k Kernel, size int, keepTime bool) error {
	m.step++
	series := []Series{{Name: k.Name + " time", IsTime: true}}
	if m.cfg.Energy != nil {
		series = append(series, Series{Name: k.Name + " energy"}, Series{Name: k.Name + " total energy"})
	}
	cmd := k.Command(size)
	once := func(ctx context.Context) ([]float64, error) {
		var read energy.Reading
		if m.cfg.Energy != nil {
			r, err := m.cfg.Energy.Start(ctx)
			if err != nil {
				return nil, fmt.Errorf("measure: %s at size %d: %w", k.Name, size, err)
			}
			read = r
		}
		t, err := runChild(ctx, cmd)
		if err != nil {
			return nil, fmt.Errorf("measure: %s at size %d: %w", k.Name, size, err)
		}
		if read == nil {
			return []float64{t}, nil
		}
		total, err := read.Stop(ctx)
		if err != nil {
			return nil, fmt.Errorf("measure: %s at size %d: %w", k.Name, size, err)
		}
		return []float64{t, total - m.cfg.StaticPower*t, total}, nil
	}
	// Alg. 5 checks the precision of the time and of the energy; the total energy
	// series is kept for the samples file but must not hold the stop back.
	checked := series
	if len(series) == 3 {
		checked = series[:2]
	}
	var totals []float64
	wrapped := once
	if len(series) == 3 {
		wrapped = func(ctx context.Context) ([]float64, error) {
			v, err := once(ctx)
			if err != nil {
				return nil, err
			}
			totals = append(totals, v[2])
			return v[:2], nil
		}
	}
	phase := PhaseAlone
	out, err := MeanUsingTTest(ctx, m.cfg.Params, checked, wrapped, func(t Tick) {
		m.report(Status{Phase: phase, Processor: k.Name, Size: size, Reps: t.Reps, Precision: t.Precision})
	})
	if err != nil {
		return err
	}
	reached := strconv.FormatBool(out.Reached)
	for r := 0; r < out.Reps; r++ {
		s := Sample{Processor: k.Name, Size: size, Repetition: r + 1, Time: out.Samples[0][r],
			Energy: math.NaN(), TotalEnergy: math.NaN(), Phase: phase, Reached: reached}
		if !keepTime {
			s.Time = math.NaN()
		}
		if len(out.Samples) > 1 {
			s.Energy, s.TotalEnergy = out.Samples[1][r], totals[r]
		}
		m.samples = append(m.samples, s)
	}
	m.report(Status{Phase: phase, Processor: k.Name, Size: size, Reps: out.Reps, Precision: worstOf(out), Done: out})
	return nil
}

// concurrent measures all kernels at once at size: their times and the node's
// total energy (Alg. 4's parallel region).
func (m *measurer) concurrent(ctx context.Context, size int) error {
	m.step++
	ks := m.cfg.Kernels
	var series []Series
	for _, k := range ks {
		series = append(series, Series{Name: k.Name + " time", IsTime: true})
	}
	if m.cfg.Energy != nil {
		series = append(series, Series{Name: "node energy"})
	}
	once := func(ctx context.Context) ([]float64, error) {
		var read energy.Reading
		if m.cfg.Energy != nil {
			r, err := m.cfg.Energy.Start(ctx)
			if err != nil {
				return nil, fmt.Errorf("measure: size %d: %w", size, err)
			}
			read = r
		}
		vals := make([]float64, len(series))
		errs := make([]error, len(ks))
		var wg sync.WaitGroup
		for i, k := range ks {
			wg.Add(1)
			go func() {
				defer wg.Done()
				vals[i], errs[i] = runChild(ctx, k.Command(size))
				if errs[i] != nil {
					errs[i] = fmt.Errorf("measure: %s at size %d (concurrent): %w", k.Name, size, errs[i])
				}
			}()
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
		if read != nil {
			total, err := read.Stop(ctx)
			if err != nil {
				return nil, fmt.Errorf("measure: size %d: %w", size, err)
			}
			vals[len(ks)] = total
		}
		return vals, nil
	}
	out, err := MeanUsingTTest(ctx, m.cfg.Params, series, once, func(t Tick) {
		m.report(Status{Phase: PhaseConcurrent, Size: size, Reps: t.Reps, Precision: t.Precision})
	})
	if err != nil {
		return err
	}
	reached := strconv.FormatBool(out.Reached)
	for r := 0; r < out.Reps; r++ {
		for i, k := range ks {
			s := Sample{Processor: k.Name, Size: size, Repetition: r + 1, Time: out.Samples[i][r],
				Energy: math.NaN(), TotalEnergy: math.NaN(), Phase: PhaseConcurrent, Reached: reached}
			if m.cfg.Energy != nil {
				s.TotalEnergy = out.Samples[len(ks)][r]
			}
			m.samples = append(m.samples, s)
		}
	}
	m.report(Status{Phase: PhaseConcurrent, Size: size, Reps: out.Reps, Precision: worstOf(out), Done: out})
	return nil
}

func worstOf(o *Outcome) float64 {
	w := 0.0
	for _, p := range o.Precisions {
		if p > w || math.IsNaN(p) {
			w = p
		}
	}
	return w
}

// stderrTail is how much of a failing child's stderr an error quotes.
const stderrTail = 512

// runChild runs command with /bin/sh -c in its own process group (killed whole when
// ctx ends) and returns its wall time in seconds, taken from just before the start to
// just after the wait: the shell's start (about a millisecond) is included.
func runChild(ctx context.Context, command string) (float64, error) {
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	tail := &tailBuffer{max: stderrTail}
	cmd.Stdout = io.Discard
	cmd.Stderr = tail
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("command %q: %w", command, err)
	}
	err := cmd.Wait()
	d := time.Since(start).Seconds()
	if err != nil {
		if ctx.Err() != nil {
			return 0, fmt.Errorf("command %q: %w", command, ctx.Err())
		}
		msg := strings.TrimSpace(tail.String())
		if msg != "" {
			return 0, fmt.Errorf("command %q: %w: %s", command, err, msg)
		}
		return 0, fmt.Errorf("command %q: %w", command, err)
	}
	return d, nil
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append([]byte(nil), t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// MeasureIdle measures the node's static power: the energy src reads over window of
// idling (this process sleeps, no kernel runs), divided by the window's length.
func MeasureIdle(ctx context.Context, src energy.Source, window time.Duration) (float64, error) {
	r, err := src.Start(ctx)
	if err != nil {
		return 0, fmt.Errorf("measure: idle power: %w", err)
	}
	start := time.Now()
	select {
	case <-ctx.Done():
		return 0, fmt.Errorf("measure: idle power: %w", ctx.Err())
	case <-time.After(window):
	}
	j, err := r.Stop(ctx)
	if err != nil {
		return 0, fmt.Errorf("measure: idle power: %w", err)
	}
	return j / time.Since(start).Seconds(), nil
}
