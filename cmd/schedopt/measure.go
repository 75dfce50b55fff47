package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/domain/workload"
	"github.com/schedopt/schedopt/kinds/builtin"
	"github.com/schedopt/schedopt/measure"
	"github.com/schedopt/schedopt/measure/energy"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
)

// defaultIdleWindow is how long measure idles to measure the static power when an
// energy source exists and --static-power is not given.
const defaultIdleWindow = 5 * time.Second

func newMeasureCmd(e *env) *cobra.Command {
	var cmds []string
	var sizes, out, energySpec, powercapRoot string
	var n int
	var staticPower float64
	var idle time.Duration
	var concurrent bool
	p := measure.DefaultParams()
	cmd := &cobra.Command{
		Use:   "measure --cmd NAME='COMMAND {size}' [--cmd ...] --sizes 1..K|1,2,4 --n N -o INSTANCE.json",
		Short: "Build a workload instance from measured runs of real commands (seeds 000/003 Algs. 4-6)",
		Long: `measure runs every --cmd at every size and writes a workload instance (objective
"pareto") whose points are the sample means, with the raw samples beside it in
INSTANCE.samples.csv. One processor per --cmd; {size} in its command is replaced by the
size in granules, and the command runs with /bin/sh -c (its output is discarded).

Time is the wall time around the child process. Energy comes from --energy: auto picks
the Linux powercap RAPL counters (/sys/class/powercap/*/energy_uj, package zones,
wrap-around handled) if readable, else perf stat's power/energy-pkg/ event, else none;
'METER COMMAND' is a shell command that prints the meter's cumulative energy counter in
joules on its last line, run before and after each run. Without a source the profile
is time-only: every energy is 0, and the instance's name and stderr say so. Dynamic
energy = total energy - static power x time, with --static-power W, or else the idle
power measured over --idle before the first run.

Repetitions follow MEANUSINGTTEST (seed 000 Alg. 5): each point runs until, after more
than --min-reps runs, the Student-t precision (Alg. 6) of its time and dynamic energy is
below --eps at --confidence, or the summed time exceeds --max-time, or --max-reps runs
are made. A point that does not reach --eps is kept, marked reached=false in the CSV,
and listed on stderr. With --concurrent the kernels share the node as in the seeds:
their times come from runs of all of them at once, their energies from runs alone.`,
		Example: `  schedopt measure --cmd fast='i=0; while [ $i -lt {size}00 ]; do i=$((i+1)); done' --cmd slow='i=0; while [ $i -lt {size}000 ]; do i=$((i+1)); done' --sizes 1..4 --n 6 --max-reps 8 -o busy.json
  schedopt front busy.json --plot busy.svg
  schedopt measure --cmd a='sleep 0.0{size}' --cmd b='sleep 0.0{size}' --sizes 1,2,3 --n 4 --concurrent --energy none --max-reps 6 -o two.json
  # a meter command prints the meter's running total in joules (here: the file meter.J)
  schedopt measure --cmd a='sleep 0.0{size}' --cmd b='sleep 0.0{size}' --sizes 1..3 --n 4 --energy 'cat meter.J' --static-power 0 --max-reps 4 -o metered.json`,
		Args: argsOf(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if len(cmds) == 0 {
				return usagef("measure: give at least one --cmd NAME='COMMAND {size}'")
			}
			if out == "" || out == "-" {
				return usagef("measure: -o INSTANCE.json is required (the samples go beside it)")
			}
			var kernels []measure.Kernel
			names := map[string]bool{}
			for _, c := range cmds {
				k, err := measure.ParseKernel(c)
				if err != nil {
					return err
				}
				if names[k.Name] {
					return domain.Errorf("--cmd", "processor %q given twice", k.Name)
				}
				names[k.Name] = true
				kernels = append(kernels, k)
			}
			sz, err := measure.ParseSizes(sizes)
			if err != nil {
				return err
			}
			if err := p.Validate(); err != nil {
				return err
			}
			if err := formable(kernels, sz, n); err != nil {
				return err
			}
			if cmd.Flags().Changed("static-power") && (staticPower < 0 || math.IsNaN(staticPower) || math.IsInf(staticPower, 0)) {
				return domain.Errorf("--static-power", "must be finite and >= 0, got %v", staticPower)
			}
			if dir := filepath.Dir(out); dir != "" {
				if st, err := os.Stat(dir); err != nil || !st.IsDir() {
					return domain.Errorf("-o", "%s: directory %s does not exist", out, dir)
				}
			}
			src, err := energy.Detect(ctx, energySpec, energy.Env{PowercapRoot: powercapRoot})
			if err != nil {
				return domain.Errorf("--energy", "%v", err)
			}
			timeOnly := src == nil
			switch {
			case timeOnly:
				why := "--energy none"
				if energySpec != energy.None {
					why = fmt.Sprintf("no readable RAPL counters under %s, no perf %s event", powercapRoot, energy.PerfEvent)
				}
				fmt.Fprintf(e.stderr, "measure: no energy source (%s): time-only profile, every energy is 0\n", why)
			default:
				fmt.Fprintf(e.stderr, "measure: energy from %s\n", describeSource(src))
			}
			if !cmd.Flags().Changed("static-power") {
				staticPower = 0
				if !timeOnly {
					fmt.Fprintf(e.stderr, "measure: measuring the idle (static) power over %v...\n", idle)
					staticPower, err = measure.MeasureIdle(ctx, src, idle)
					if err != nil {
						return err
					}
					fmt.Fprintf(e.stderr, "measure: static power %.4g W (idle, over %v)\n", staticPower, idle)
				}
			}
			prog := newMeasureProgress(e.stderr, e.stderrTTY, p.Eps)
			samples, err := measure.Run(ctx, measure.Config{Kernels: kernels, Sizes: sz, Params: p, Energy: src,
				StaticPower: staticPower, Concurrent: concurrent, Progress: prog.update})
			prog.finish()
			if err != nil {
				if ctx.Err() != nil {
					return exitError{code: exitFailure, msg: "measure: interrupted: " + err.Error()}
				}
				return err
			}
			prof := measure.Aggregate(samples, p.Confidence, p.Eps)
			name := strings.TrimSuffix(filepath.Base(out), ".json")
			if timeOnly {
				name += " (time-only: energy not measured)"
			}
			return writeProfile(e, prof, samples, name, n, staticPower, out, samplesPath(out))
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&cmds, "cmd", nil, "NAME='COMMAND {size}': one processor; repeat for more")
	f.StringVar(&sizes, "sizes", "", "sizes in granules: a range A..B or a list 1,2,4")
	f.IntVar(&n, "n", 0, "the workload to distribute, in granules")
	f.Float64Var(&p.Eps, "eps", p.Eps, "precision to reach: CI half-width / mean (seed 003: 0.025)")
	f.Float64Var(&p.Confidence, "confidence", p.Confidence, "confidence level cl of the Student-t interval")
	f.IntVar(&p.MinReps, "min-reps", p.MinReps, "precision is checked only after this many runs (Alg. 5: reps > minReps)")
	f.IntVar(&p.MaxReps, "max-reps", p.MaxReps, "at most this many runs per point")
	f.DurationVar(&p.MaxTime, "max-time", p.MaxTime, "maxT: stop a point once a kernel's summed run time exceeds it")
	f.Float64Var(&staticPower, "static-power", 0, "static power in W (default: measured idle, 0 without an energy source)")
	f.StringVar(&energySpec, "energy", energy.Auto, "auto|rapl|perf|none|'METER COMMAND'")
	f.BoolVar(&concurrent, "concurrent", false, "the kernels share the node: time them running at once")
	f.DurationVar(&idle, "idle", defaultIdleWindow, "how long to idle when measuring the static power")
	f.StringVarP(&out, "output", "o", "", "the instance file; the samples go to its .samples.csv")
	f.StringVar(&powercapRoot, "powercap-root", energy.DefaultPowercapRoot, "where the powercap RAPL zones are (tests use a fake tree)")
	_ = f.MarkHidden("powercap-root")
	return cmd
}

// samplesPath is INSTANCE.samples.csv for INSTANCE.json.
func samplesPath(out string) string {
	return strings.TrimSuffix(out, ".json") + ".samples.csv"
}

func describeSource(src energy.Source) string {
	switch s := src.(type) {
	case *energy.RAPL:
		return "RAPL: " + strings.Join(s.Zones(), ", ")
	case *energy.Meter:
		return fmt.Sprintf("meter command %q", s.Command)
	}
	return src.Name()
}

// formable checks, before anything runs, that n can be formed from the sizes.
func formable(kernels []measure.Kernel, sizes []int, n int) error {
	if n < 1 {
		return domain.Errorf("--n", "must be a positive number of granules, got %d", n)
	}
	in := &workload.Instance{Kind: "workload", N: n, Objective: workload.ObjPareto}
	for _, k := range kernels {
		p := workload.Processor{Name: k.Name}
		for _, s := range sizes {
			p.Points = append(p.Points, workload.Point{Size: s, Time: 1})
		}
		in.Processors = append(in.Processors, p)
	}
	if err := in.Validate(); err != nil {
		var fe *domain.FieldError
		if errors.As(err, &fe) {
			return domain.Errorf("--n", "%d with sizes %v on %d processor(s): %s", n, sizes, len(kernels), fe.Reason)
		}
		return err
	}
	return nil
}

// writeProfile writes the instance (checked to load as a workload instance) and, when
// samplesOut is set, the samples; then it lists the points that missed ε on stderr.
func writeProfile(e *env, prof *measure.Profile, samples []measure.Sample, name string, n int, staticPower float64, out, samplesOut string) error {
	in, warns, err := prof.Instance(name, n, staticPower)
	for _, w := range warns {
		fmt.Fprintln(e.stderr, "warning: "+w)
	}
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(in, "", "  ")
	if err != nil {
		return fmt.Errorf("encode instance: %w", err)
	}
	b = append(b, '\n')
	if _, err := builtin.Registry().Load(b, name); err != nil {
		return fmt.Errorf("the measured instance does not load: %w", err)
	}
	if samplesOut != "" {
		if err := writeFileAtomic(samplesOut, func(w io.Writer) error { return measure.WriteSamples(w, samples) }); err != nil {
			return fmt.Errorf("write samples: %w", err)
		}
	}
	if out == "" || out == "-" {
		if _, err := e.stdout.Write(b); err != nil {
			return err
		}
	} else if err := writeFileAtomic(out, func(w io.Writer) error { _, err := w.Write(b); return err }); err != nil {
		return fmt.Errorf("write instance: %w", err)
	}
	reportPrecision(e.stderr, prof)
	if out != "" && out != "-" {
		fmt.Fprintf(e.stderr, "wrote %s", out)
		if samplesOut != "" {
			fmt.Fprintf(e.stderr, " and %s", samplesOut)
		}
		fmt.Fprintln(e.stderr)
	}
	return nil
}

// reportPrecision prints one summary line, and one line per point that missed ε.
func reportPrecision(w io.Writer, prof *measure.Profile) {
	un := prof.Unreached()
	fmt.Fprintf(w, "precision: %d of %d point(s) reached eps %g at confidence %g\n",
		len(prof.Points)-len(un), len(prof.Points), prof.Eps, prof.Confidence)
	for _, q := range un {
		fmt.Fprintf(w, "  NOT REACHED: %s at size %d: time precision %s over %d run(s)", q.Processor, q.Size, pct(q.TimePrecision), q.TimeReps)
		if q.EnergyReps > 0 {
			fmt.Fprintf(w, ", energy precision %s over %d run(s)", pct(q.EnergyPrecision), q.EnergyReps)
		}
		fmt.Fprintln(w, " (kept in the instance)")
	}
}

func pct(x float64) string {
	if math.IsInf(x, 1) {
		return "unknown"
	}
	return fmt.Sprintf("%.2f%%", 100*x)
}

// measureProgress shows the measurement on stderr: a bar over the points on a
// terminal (size, runs, current precision), else one line per finished point.
type measureProgress struct {
	mu  sync.Mutex
	w   io.Writer
	tty bool
	eps float64
	bar *progressbar.ProgressBar
	// throttle is the bar's least time between two renderings (0 in tests).
	throttle time.Duration
}

func newMeasureProgress(w io.Writer, tty bool, eps float64) *measureProgress {
	return &measureProgress{w: w, tty: tty, eps: eps, throttle: 100 * time.Millisecond}
}

func (m *measureProgress) update(st measure.Status) {
	m.mu.Lock()
	defer m.mu.Unlock()
	who := st.Processor
	if st.Phase == measure.PhaseConcurrent {
		who = "all kernels at once"
	}
	if m.tty && m.bar == nil {
		m.bar = progressbar.NewOptions(st.Steps,
			progressbar.OptionSetWriter(m.w),
			progressbar.OptionShowCount(),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetWidth(20),
			progressbar.OptionThrottle(m.throttle),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionSetRenderBlankState(true))
	}
	if m.bar != nil {
		m.bar.Describe(fmt.Sprintf("size %d, %s: run %d/%d, precision %s (eps %g)", st.Size, who, st.Reps, st.MaxReps, pct(st.Precision), m.eps))
		if st.Done != nil {
			_ = m.bar.Add(1)
		}
		return
	}
	if st.Done != nil {
		mark := "reached"
		if !st.Done.Reached {
			mark = "NOT reached"
		}
		fmt.Fprintf(m.w, "[%d/%d] size %d, %s: %d run(s), precision %s (%s, stopped by %s)\n",
			st.Step, st.Steps, st.Size, who, st.Reps, pct(st.Precision), mark, st.Done.Stop)
	}
}

func (m *measureProgress) finish() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.bar != nil {
		_ = m.bar.Finish()
	}
}
