package measure

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/schedopt/schedopt/domain"
)

// Defaults of the repetition parameters. Eps and Confidence are the spec's defaults,
// which are seed 003's (precision 2.5% with a 95% confidence interval; seed 000 used
// eps 0.1). MaxTime is the spec's 60 s; the seed's maxT is 3600 s. MinReps and
// MaxReps are the row of seed 000's table for its large problems (n > 5120: 5 and 50);
// its other rows (10000/100000 and 100/1000) are keyed by the seed's matrix dimension,
// which a size in granules does not give, and meant runs of microseconds.
const (
	DefaultEps        = 0.025
	DefaultConfidence = 0.95
	DefaultMaxTime    = 60 * time.Second
	DefaultMinReps    = 5
	DefaultMaxReps    = 50
)

// Params are the inputs of MEANUSINGTTEST (seed 000 Alg. 5).
type Params struct {
	MinReps    int           // precision is checked only once reps > MinReps (0-based, line 10)
	MaxReps    int           // at most MaxReps runs
	MaxTime    time.Duration // maxT: the largest sum of a kernel's times, checked with the precision
	Confidence float64       // cl, in (0, 1)
	Eps        float64       // the precision to reach, > 0
}

// DefaultParams returns the defaults above.
func DefaultParams() Params {
	return Params{MinReps: DefaultMinReps, MaxReps: DefaultMaxReps, MaxTime: DefaultMaxTime,
		Confidence: DefaultConfidence, Eps: DefaultEps}
}

// Validate checks the parameters; errors are *domain.FieldError naming the flag.
func (p Params) Validate() error {
	switch {
	case p.MinReps < 0:
		return domain.Errorf("--min-reps", "must be >= 0, got %d", p.MinReps)
	case p.MaxReps < 1:
		return domain.Errorf("--max-reps", "must be >= 1, got %d", p.MaxReps)
	case p.MaxTime <= 0:
		return domain.Errorf("--max-time", "must be > 0, got %v", p.MaxTime)
	case !(p.Confidence > 0 && p.Confidence < 1):
		return domain.Errorf("--confidence", "must be in (0, 1), got %v", p.Confidence)
	case !(p.Eps > 0) || math.IsInf(p.Eps, 0):
		return domain.Errorf("--eps", "must be > 0, got %v", p.Eps)
	}
	return nil
}

// Why MeanUsingTTest stopped.
const (
	StopPrecision = "precision" // every series reached ε (line 15)
	StopMaxTime   = "max-time"  // a kernel's summed time exceeded maxT (lines 16-18)
	StopMaxReps   = "max-reps"  // maxReps runs were made (line 4)
)

// Series names one reading of a run. The time series are the kernels' times, whose
// sums are the elapsed time compared with maxT; the others (energy) only need
// precision.
type Series struct {
	Name   string
	IsTime bool
}

// Outcome is what MeanUsingTTest returns: the seed's reps#, elapsedTime and means,
// plus every sample and the final precision of each series.
type Outcome struct {
	Reps       int
	Elapsed    float64     // max over the time series of their sums, seconds
	Samples    [][]float64 // Samples[s][r]: series s at run r
	Means      []float64
	Precisions []float64 // Precision of each series over all its samples
	Reached    bool      // every final precision is below Eps
	Stop       string    // StopPrecision, StopMaxTime or StopMaxReps
}

// Tick is what MeanUsingTTest reports after each run: the runs made and the worst
// precision so far (+Inf below two runs).
type Tick struct {
	Reps      int
	Precision float64
}

// MeanUsingTTest is MEANUSINGTTEST (seed 000 Alg. 5), line for line: it executes the
// run until reps reaches MaxReps, or, once reps > MinReps (the run index before the
// increment, so the first check sees MinReps+2 samples), until every series is
// Accurate (lines 11-15) or the largest summed kernel time exceeds MaxTime (lines
// 16-18, inside the same test, so maxT too waits for MinReps). exec returns one value
// per series. tick, when not nil, is called after each run.
func MeanUsingTTest(ctx context.Context, p Params, series []Series, exec func(context.Context) ([]float64, error), tick func(Tick)) (*Outcome, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if len(series) == 0 {
		return nil, fmt.Errorf("measure: MeanUsingTTest: no series")
	}
	st := make([]running, len(series))
	out := &Outcome{Samples: make([][]float64, len(series)), Stop: StopMaxReps}
	maxT := p.MaxTime.Seconds()
	reps, stop := 0, false
	for reps < p.MaxReps && !stop {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("measure: stopped after %d run(s): %w", reps, err)
		}
		vals, err := exec(ctx)
		if err != nil {
			return nil, err
		}
		if len(vals) != len(series) {
			return nil, fmt.Errorf("measure: a run returned %d values for %d series", len(vals), len(series))
		}
		for s, v := range vals {
			st[s].add(v)
			out.Samples[s] = append(out.Samples[s], v)
		}
		if reps > p.MinReps {
			stop = true
			for s := range st {
				if !(st[s].precision(p.Confidence) < p.Eps) {
					stop = false
					break
				}
			}
			if stop {
				out.Stop = StopPrecision
			} else if elapsed(series, st) > maxT {
				stop = true
				out.Stop = StopMaxTime
			}
		}
		reps++
		if tick != nil {
			tick(Tick{Reps: reps, Precision: worst(p.Confidence, st)})
		}
	}
	out.Reps = reps
	out.Elapsed = elapsed(series, st)
	out.Reached = true
	for s := range st {
		out.Means = append(out.Means, st[s].sum/float64(st[s].n))
		pr := st[s].precision(p.Confidence)
		out.Precisions = append(out.Precisions, pr)
		if !(pr < p.Eps) {
			out.Reached = false
		}
	}
	return out, nil
}

// elapsed is the seed's elapsedTime: the largest sum over the time series.
func elapsed(series []Series, st []running) float64 {
	e := 0.0
	for s, ser := range series {
		if ser.IsTime && st[s].sum > e {
			e = st[s].sum
		}
	}
	return e
}

// worst is the largest precision over the series.
func worst(cl float64, st []running) float64 {
	w := 0.0
	for s := range st {
		if pr := st[s].precision(cl); pr > w || math.IsNaN(pr) {
			w = pr
		}
	}
	return w
}
