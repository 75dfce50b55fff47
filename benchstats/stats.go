package benchstats

import (
	"math"
	"sort"
)

// Outcome classifies a run as the MIPLIB scripts do.
type Outcome int

// Outcomes of a run.
const (
	Solved  Outcome = iota // a definite answer (optimal, infeasible, unbounded) not contradicted
	Timeout                // stopped by a limit, nothing contradicted
	Fail                   // an answer that contradicts the known one, or a wrong point
	Abort                  // the run failed outright
)

// String returns "solved", "timeout", "fail" or "abort".
func (o Outcome) String() string {
	return [...]string{"solved", "timeout", "fail", "abort"}[o]
}

// Run is one job of a benchmark: one backend on one problem, a problem being an
// instance in one permutation and repetition.
type Run struct {
	Instance    string
	Permutation int
	Rep         int
	Backend     string
	Outcome     Outcome
	Status      string  // the result's status, for the variability flags
	Seconds     float64 // wall time of the job
	Limit       float64 // time limit in seconds; 0 for none
	// FirstSeconds and CertSeconds are the times of the first solve and of the
	// solves the certification added; NaN when the backend does not report them.
	FirstSeconds, CertSeconds float64
	// PeakRSS is the job's peak memory in bytes; NaN when not measured.
	PeakRSS float64
	// PDI is the primal-dual integral the backend reported; NaN when none.
	PDI float64
}

// problem identifies the problem of a run.
type problem struct {
	instance  string
	perm, rep int
}

func (r Run) problem() problem { return problem{r.Instance, r.Permutation, r.Rep} }

// Time is the run's time in the statistics: its wall time when solved, its limit
// otherwise (time-outs, fails and aborts count at the limit); a run without a limit
// keeps its wall time.
func (r Run) Time() float64 {
	if r.Outcome == Solved || r.Limit <= 0 {
		return r.Seconds
	}
	return r.Limit
}

// Options tune the statistics.
type Options struct {
	// Shift of the shifted geometric mean of time, in seconds (10 in Mittelmann's
	// benchmarks).
	Shift float64
	// MemShift of the shifted geometric mean of peak memory, in bytes (default
	// DefaultMemShift).
	MemShift float64
}

// DefaultMemShift is the shift of the geometric mean of peak memory: 10 MiB, so that
// tiny jobs, whose memory is the program's own, do not dominate the mean.
const DefaultMemShift = 10 << 20

// BackendStats are the numbers of one backend (or of the virtual best).
type BackendStats struct {
	Backend                       string
	Runs, Solved, Timeouts, Fails int
	Aborts                        int
	SGM                           float64 // shifted geometric mean of Run.Time
	Ratio                         float64 // SGM over the best backend's SGM
	FirstSGM                      float64 // shifted geometric mean of the first solves' times; NaN when unknown
	FirstSeconds, CertSeconds     float64 // sums over the runs that report them
	Wins                          int     // problems on which it was fastest among the correct answers
	MemSGM                        float64 // shifted geometric mean of peak memory in bytes; NaN when none
	MemRuns                       int     // runs with a measured peak memory
	PDIMean                       float64 // mean primal-dual integral; NaN when none reported
	PDIRuns                       int
}

// Summary is the whole statistics of a benchmark.
type Summary struct {
	Shift       float64
	Problems    int
	Backends    []BackendStats // in the order of first appearance of each backend
	VirtualBest BackendStats
	Profile     Profile
	Curves      []Curve
	Variability []Variability
}

// VirtualBestName labels the virtual best backend.
const VirtualBestName = "virtual best"

// Summarize computes the statistics of runs.
func Summarize(runs []Run, o Options) *Summary {
	if o.MemShift == 0 {
		o.MemShift = DefaultMemShift
	}
	s := &Summary{Shift: o.Shift}
	var names []string
	by := map[string][]Run{}
	probs := map[problem][]Run{}
	var porder []problem
	for _, r := range runs {
		if _, ok := by[r.Backend]; !ok {
			names = append(names, r.Backend)
		}
		by[r.Backend] = append(by[r.Backend], r)
		p := r.problem()
		if _, ok := probs[p]; !ok {
			porder = append(porder, p)
		}
		probs[p] = append(probs[p], r)
	}
	s.Problems = len(porder)
	wins := map[string]int{}
	var vb []Run
	for _, p := range porder {
		best := math.Inf(1)
		limit := 0.0
		for _, r := range probs[p] {
			limit = math.Max(limit, r.Limit)
			if r.Outcome == Solved && r.Seconds < best {
				best = r.Seconds
			}
		}
		v := Run{Instance: p.instance, Permutation: p.perm, Rep: p.rep, Backend: VirtualBestName,
			Outcome: Timeout, Seconds: limit, Limit: limit, FirstSeconds: math.NaN(), CertSeconds: math.NaN(), PeakRSS: math.NaN(), PDI: math.NaN()}
		if !math.IsInf(best, 1) {
			v.Outcome, v.Seconds = Solved, best
			seen := map[string]bool{}
			for _, r := range probs[p] {
				if r.Outcome == Solved && r.Seconds == best && !seen[r.Backend] {
					seen[r.Backend] = true
					wins[r.Backend]++
				}
			}
		}
		vb = append(vb, v)
	}
	for _, n := range names {
		bs := stats(n, by[n], o)
		bs.Wins = wins[n]
		s.Backends = append(s.Backends, bs)
	}
	s.VirtualBest = stats(VirtualBestName, vb, o)
	bestSGM := math.Inf(1)
	for _, b := range s.Backends {
		if b.SGM < bestSGM {
			bestSGM = b.SGM
		}
	}
	for i := range s.Backends {
		s.Backends[i].Ratio = s.Backends[i].SGM / bestSGM
	}
	s.VirtualBest.Ratio = s.VirtualBest.SGM / bestSGM
	s.Profile = profile(names, porder, probs)
	for _, n := range names {
		s.Curves = append(s.Curves, curve(n, by[n]))
	}
	s.Variability = variability(names, by)
	return s
}

func stats(name string, runs []Run, o Options) BackendStats {
	b := BackendStats{Backend: name, Runs: len(runs), FirstSGM: math.NaN(), MemSGM: math.NaN(), PDIMean: math.NaN()}
	var ts, first, mem, pdi []float64
	for _, r := range runs {
		switch r.Outcome {
		case Solved:
			b.Solved++
		case Timeout:
			b.Timeouts++
		case Fail:
			b.Fails++
		case Abort:
			b.Aborts++
		}
		ts = append(ts, r.Time())
		if !math.IsNaN(r.FirstSeconds) {
			b.FirstSeconds += r.FirstSeconds
			t := r.FirstSeconds
			if r.Outcome != Solved && r.Limit > 0 {
				t = r.Limit
			}
			first = append(first, t)
		}
		if !math.IsNaN(r.CertSeconds) {
			b.CertSeconds += r.CertSeconds
		}
		if !math.IsNaN(r.PeakRSS) {
			mem = append(mem, r.PeakRSS)
		}
		if !math.IsNaN(r.PDI) {
			pdi = append(pdi, r.PDI)
		}
	}
	b.SGM = ShiftedGeoMean(ts, o.Shift)
	if len(first) == len(runs) && len(first) > 0 {
		b.FirstSGM = ShiftedGeoMean(first, o.Shift)
	}
	b.MemRuns = len(mem)
	if len(mem) > 0 {
		b.MemSGM = ShiftedGeoMean(mem, o.MemShift)
	}
	b.PDIRuns = len(pdi)
	if len(pdi) > 0 {
		sum := 0.0
		for _, v := range pdi {
			sum += v
		}
		b.PDIMean = sum / float64(len(pdi))
	}
	return b
}

// ShiftedGeoMean returns exp(mean(log(x + shift))) − shift, or NaN for no values.
// Values are clamped at 0.
func ShiftedGeoMean(xs []float64, shift float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	sum := 0.0
	for _, x := range xs {
		sum += math.Log(math.Max(x, 0) + shift)
	}
	return math.Exp(sum/float64(len(xs))) - shift
}

// Profile holds Dolan–Moré performance ratios: for every backend, the ratio of its
// time on each problem to the best time on that problem, +Inf where it did not solve
// it, sorted. ρ(τ) is the share of ratios at most τ.
type Profile struct {
	Problems int
	Backends []string
	Ratios   map[string][]float64
}

// Rho returns the share of problems backend solved within a factor tau of the best.
func (p Profile) Rho(backend string, tau float64) float64 {
	rs := p.Ratios[backend]
	if p.Problems == 0 {
		return 0
	}
	n := sort.Search(len(rs), func(i int) bool { return rs[i] > tau })
	return float64(n) / float64(p.Problems)
}

// MaxFinite returns the largest finite ratio of any backend (1 when there is none).
func (p Profile) MaxFinite() float64 {
	m := 1.0
	for _, rs := range p.Ratios {
		for _, r := range rs {
			if !math.IsInf(r, 1) && r > m {
				m = r
			}
		}
	}
	return m
}

// profileFloor keeps a ratio finite and meaningful when the best time is 0 (a run
// that measured no time): times below it count as it.
const profileFloor = 1e-3

func profile(names []string, porder []problem, probs map[problem][]Run) Profile {
	p := Profile{Problems: len(porder), Backends: names, Ratios: map[string][]float64{}}
	for _, pr := range porder {
		best := math.Inf(1)
		for _, r := range probs[pr] {
			if r.Outcome == Solved {
				best = math.Min(best, math.Max(r.Seconds, profileFloor))
			}
		}
		got := map[string]bool{}
		for _, r := range probs[pr] {
			if got[r.Backend] {
				continue
			}
			got[r.Backend] = true
			ratio := math.Inf(1)
			if r.Outcome == Solved {
				ratio = math.Max(r.Seconds, profileFloor) / best
			}
			p.Ratios[r.Backend] = append(p.Ratios[r.Backend], ratio)
		}
	}
	for _, n := range names {
		for len(p.Ratios[n]) < p.Problems { // a backend without a run on a problem did not solve it
			p.Ratios[n] = append(p.Ratios[n], math.Inf(1))
		}
		sort.Float64s(p.Ratios[n])
	}
	return p
}

// Curve is the cumulative "solved within t" curve of a backend: the sorted times of
// its solved runs; it solved i+1 problems within Times[i].
type Curve struct {
	Backend string
	Times   []float64
	Runs    int
}

func curve(name string, runs []Run) Curve {
	c := Curve{Backend: name, Runs: len(runs)}
	for _, r := range runs {
		if r.Outcome == Solved {
			c.Times = append(c.Times, r.Seconds)
		}
	}
	sort.Float64s(c.Times)
	return c
}

// Variability is the spread of one backend's runs on one instance across
// permutations and repetitions.
type Variability struct {
	Instance, Backend string
	Runs              int
	Min, Median, Max  float64 // of Run.Time
	// CV is the coefficient of variation of Run.Time: the standard deviation over
	// the mean (0 when the mean is 0).
	CV float64
	// StatusChanged is set when the runs do not all end in the same status and
	// outcome.
	StatusChanged bool
	Statuses      []string // the distinct statuses, in order of appearance
}

func variability(names []string, by map[string][]Run) []Variability {
	var out []Variability
	for _, n := range names {
		inst := map[string][]Run{}
		var order []string
		for _, r := range by[n] {
			if _, ok := inst[r.Instance]; !ok {
				order = append(order, r.Instance)
			}
			inst[r.Instance] = append(inst[r.Instance], r)
		}
		for _, i := range order {
			rs := inst[i]
			if len(rs) < 2 {
				continue
			}
			v := Variability{Instance: i, Backend: n, Runs: len(rs)}
			ts := make([]float64, len(rs))
			seen := map[string]bool{}
			for k, r := range rs {
				ts[k] = r.Time()
				key := r.Status + "/" + r.Outcome.String()
				if !seen[key] {
					seen[key] = true
					v.Statuses = append(v.Statuses, key)
				}
			}
			v.StatusChanged = len(v.Statuses) > 1
			sort.Float64s(ts)
			v.Min, v.Max = ts[0], ts[len(ts)-1]
			v.Median = median(ts)
			mean := 0.0
			for _, t := range ts {
				mean += t
			}
			mean /= float64(len(ts))
			if mean > 0 {
				ss := 0.0
				for _, t := range ts {
					ss += (t - mean) * (t - mean)
				}
				v.CV = math.Sqrt(ss/float64(len(ts))) / mean
			}
			out = append(out, v)
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].Instance != out[b].Instance {
			return out[a].Instance < out[b].Instance
		}
		return false
	})
	return out
}

func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}
