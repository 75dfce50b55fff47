package isoeff

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"sync"
)

// Default tolerances of the searches.
const (
	// DefaultVTol is the width in V [MB] at which both searches stop (the thesis's 1 MB).
	DefaultVTol = 1.0
	// DefaultScan is the number of log-spaced loads of the initial scan that brackets
	// the maximum (the thesis does not give its initial bracket).
	DefaultScan = 9
)

// Options configure Run.
type Options struct {
	Ms     []int     // machine counts
	N      int       // messages (installments)
	Levels []float64 // efficiency levels; a level >= E_max(m) has no isoline at m
	VLo    float64   // V range [MB] of the scan and of both bisections
	VHi    float64
	VTol   float64 // V width at which the searches stop [MB]
	// ETol stops a bisection early when |E − e| <= ETol·e (0: only VTol, as the thesis).
	ETol    float64
	Scan    int // log-spaced loads of the initial scan (>= 3)
	Workers int // probes solved at the same time (>= 1)
	Probe   ProbeFunc
	// Progress, when not nil, is called after every probe (from several goroutines,
	// one call at a time).
	Progress func(Event)
}

// Event reports one finished probe.
type Event struct {
	Probe Probe
	Done  int    // probes finished so far
	Phase string // "scan", "max" or "level e (below|above)"
}

// Side says on which side of V_max an isoline point lies.
type Side string

// The two sides of V_max.
const (
	Below Side = "below"
	Above Side = "above"
)

// Point is one point of an isoline: the crossing of level e at m on one side of V_max.
type Point struct {
	M    int
	Side Side
	Crossing
	// Probe is the probe at Crossing.V (its schedule, status and gap).
	Probe Probe
}

// MResult is the search for one m.
type MResult struct {
	M          int
	EMax, VMax float64
	MaxProbe   Probe
	Points     []Point
	// Missing lists the levels below E_max(m) whose isoline leaves the V range on a
	// side, as "e (side)".
	Missing []string
	Probes  []Probe // every probe at this m, sorted by V
}

// Result is a whole isoefficiency map.
type Result struct {
	N      int
	Levels []float64
	PerM   []MResult // in the order of Options.Ms
}

// Points returns every isoline point, by m, level and side.
func (r *Result) Points() []Point {
	var pts []Point
	for _, mr := range r.PerM {
		pts = append(pts, mr.Points...)
	}
	return pts
}

// Validate checks the options; the error names the field.
func (o *Options) Validate() error {
	switch {
	case len(o.Ms) == 0:
		return errors.New("isoeff: Ms: no machine count")
	case o.N < 1:
		return fmt.Errorf("isoeff: N: %d messages; want >= 1", o.N)
	case !(o.VLo > 0) || !(o.VLo < o.VHi) || !finite(o.VHi):
		return fmt.Errorf("isoeff: V range [%g, %g]: want 0 < lo < hi", o.VLo, o.VHi)
	case !(o.VTol > 0):
		return fmt.Errorf("isoeff: VTol %g: want > 0", o.VTol)
	case !(o.ETol >= 0):
		return fmt.Errorf("isoeff: ETol %g: want >= 0", o.ETol)
	case o.Scan < 3:
		return fmt.Errorf("isoeff: Scan %d: want >= 3", o.Scan)
	case o.Workers < 1:
		return fmt.Errorf("isoeff: Workers %d: want >= 1", o.Workers)
	case o.Probe == nil:
		return errors.New("isoeff: Probe: nil")
	}
	for _, m := range o.Ms {
		if m < 1 {
			return fmt.Errorf("isoeff: Ms: m = %d; want >= 1", m)
		}
	}
	for _, e := range o.Levels {
		if !(e > 0) || !finite(e) {
			return fmt.Errorf("isoeff: Levels: %g is not a positive efficiency", e)
		}
	}
	return nil
}

// runner holds the state of one Run: the worker pool and the probe caches.
type runner struct {
	o    Options
	sem  chan struct{}
	mu   sync.Mutex
	done int
	// cache holds every probe per m, by V, so that a load is never solved twice.
	cache map[int]map[float64]*cached
}

type cached struct {
	ready chan struct{}
	p     Probe
	err   error
}

// probe solves (m, V) on the pool, or returns the cached answer.
func (r *runner) probe(ctx context.Context, m int, V float64, phase string) (Probe, error) {
	r.mu.Lock()
	c, ok := r.cache[m][V]
	if !ok {
		c = &cached{ready: make(chan struct{})}
		r.cache[m][V] = c
	}
	r.mu.Unlock()
	if ok {
		select {
		case <-c.ready:
			return c.p, c.err
		case <-ctx.Done():
			return Probe{}, fmt.Errorf("isoeff: %w", ctx.Err())
		}
	}
	defer close(c.ready)
	select {
	case r.sem <- struct{}{}:
	case <-ctx.Done():
		c.err = fmt.Errorf("isoeff: %w", ctx.Err())
		return Probe{}, c.err
	}
	c.p, c.err = r.o.Probe(ctx, m, r.o.N, V)
	<-r.sem
	if c.err == nil && r.o.Progress != nil {
		r.mu.Lock()
		r.done++
		r.o.Progress(Event{Probe: c.p, Done: r.done, Phase: phase})
		r.mu.Unlock()
	}
	return c.p, c.err
}

// eff is the efficiency function of one m for the searches.
func (r *runner) eff(m int, phase string) EffFunc {
	return func(ctx context.Context, V float64) (float64, error) {
		p, err := r.probe(ctx, m, V, phase)
		return p.E, err
	}
}

// Run builds the isoefficiency map: for every m concurrently, a scan of Scan log-spaced
// loads over [VLo, VHi], the golden-section search for E_max(m) in the bracket around
// the best scanned load, then a bisection of every level e < E_max(m) on each side of
// V_max(m), all levels concurrently. At most Workers probes are solved at a time. The
// first error (or the context's cancellation) stops every search and is returned.
func Run(ctx context.Context, o Options) (*Result, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := &runner{o: o, sem: make(chan struct{}, o.Workers), cache: map[int]map[float64]*cached{}}
	for _, m := range o.Ms {
		r.cache[m] = map[float64]*cached{}
	}
	levels := append([]float64(nil), o.Levels...)
	sort.Float64s(levels)
	res := &Result{N: o.N, Levels: levels, PerM: make([]MResult, len(o.Ms))}
	var wg sync.WaitGroup
	var errMu sync.Mutex
	var first error
	fail := func(err error) {
		errMu.Lock()
		if first == nil {
			first = err
			cancel()
		}
		errMu.Unlock()
	}
	for k, m := range o.Ms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mr, err := r.searchM(ctx, m, levels)
			if err != nil {
				fail(fmt.Errorf("isoeff: m = %d: %w", m, err))
				return
			}
			res.PerM[k] = mr
		}()
	}
	wg.Wait()
	if first != nil {
		return nil, first
	}
	return res, nil
}

// searchM runs the scan, the maximum search and the level bisections of one m.
func (r *runner) searchM(ctx context.Context, m int, levels []float64) (MResult, error) {
	o := r.o
	mr := MResult{M: m}
	// Scan: the initial bracket of the maximum.
	vs := make([]float64, o.Scan)
	for i := range vs {
		vs[i] = o.VLo * math.Pow(o.VHi/o.VLo, float64(i)/float64(o.Scan-1))
	}
	vs[0], vs[len(vs)-1] = o.VLo, o.VHi
	es := make([]float64, len(vs))
	if err := r.parallel(ctx, len(vs), func(ctx context.Context, i int) error {
		p, err := r.probe(ctx, m, vs[i], "scan")
		es[i] = p.E
		return err
	}); err != nil {
		return mr, err
	}
	best := 0
	for i := range es {
		if es[i] > es[best] {
			best = i
		}
	}
	lo, hi := vs[max(best-1, 0)], vs[min(best+1, len(vs)-1)]
	mx, err := MaxSearch(ctx, r.eff(m, "max"), lo, hi, o.VTol)
	if err != nil {
		return mr, err
	}
	if es[best] > mx.E { // the scan's probe beats the interior ones (maximum at a range end)
		mx.V, mx.E = vs[best], es[best]
	}
	mr.EMax, mr.VMax = mx.E, mx.V
	if mr.MaxProbe, err = r.probe(ctx, m, mx.V, "max"); err != nil {
		return mr, err
	}
	// Levels: bisect each side, starting from the tightest bracket the probes so far give.
	type job struct {
		e    float64
		side Side
	}
	var jobs []job
	for _, e := range levels {
		if e < mr.EMax {
			jobs = append(jobs, job{e, Below}, job{e, Above})
		}
	}
	pts := make([]*Point, len(jobs))
	missing := make([]bool, len(jobs))
	err = r.parallel(ctx, len(jobs), func(ctx context.Context, k int) error {
		jb := jobs[k]
		below, eBelow := o.VLo, r.known(m, o.VLo)
		if jb.side == Above {
			below, eBelow = o.VHi, r.known(m, o.VHi)
		}
		above, eAbove := mr.VMax, mr.EMax
		// Tighten with every finished probe on the side.
		for _, p := range r.finished(m) {
			onSide := p.V < mr.VMax && jb.side == Below || p.V > mr.VMax && jb.side == Above
			if !onSide {
				continue
			}
			nearer := func(a, b float64) bool { return math.Abs(a-mr.VMax) < math.Abs(b-mr.VMax) }
			if p.E < jb.e && nearer(p.V, below) {
				below, eBelow = p.V, p.E
			}
		}
		for _, p := range r.finished(m) {
			between := (p.V-below)*(p.V-mr.VMax) < 0
			if between && p.E >= jb.e && math.Abs(p.V-below) < math.Abs(above-below) {
				above, eAbove = p.V, p.E
			}
		}
		phase := fmt.Sprintf("level %g (%s)", jb.e, jb.side)
		c, err := Bisect(ctx, r.eff(m, phase), jb.e, below, eBelow, above, eAbove, o.VTol, o.ETol)
		if errors.Is(err, ErrNoCrossing) {
			missing[k] = true
			return nil
		}
		if err != nil {
			return err
		}
		p, err := r.probe(ctx, m, c.V, phase)
		if err != nil {
			return err
		}
		pts[k] = &Point{M: m, Side: jb.side, Crossing: c, Probe: p}
		return nil
	})
	if err != nil {
		return mr, err
	}
	for k, p := range pts {
		if p != nil {
			mr.Points = append(mr.Points, *p)
		} else if missing[k] {
			mr.Missing = append(mr.Missing, fmt.Sprintf("%g (%s)", jobs[k].e, jobs[k].side))
		}
	}
	mr.Probes = r.finished(m)
	return mr, nil
}

// known returns the efficiency of a finished probe at (m, V) (the scan's ends).
func (r *runner) known(m int, V float64) float64 {
	r.mu.Lock()
	c := r.cache[m][V]
	r.mu.Unlock()
	<-c.ready
	return c.p.E
}

// finished returns the successful finished probes of m, sorted by V.
func (r *runner) finished(m int) []Probe {
	r.mu.Lock()
	defer r.mu.Unlock()
	var ps []Probe
	for _, c := range r.cache[m] {
		select {
		case <-c.ready:
			if c.err == nil {
				ps = append(ps, c.p)
			}
		default:
		}
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].V < ps[j].V })
	return ps
}

// parallel runs fn(0..n−1) concurrently and returns the first error. The pool inside
// probe bounds how many solves run at once.
func (r *runner) parallel(ctx context.Context, n int, fn func(context.Context, int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if errs[i] = fn(ctx, i); errs[i] != nil {
				cancel()
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
	}
	return errors.Join(errs...)
}
