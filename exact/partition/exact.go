package partition

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/schedopt/schedopt/domain/partition"
)

// ErrNotCovered is returned for instances no exact algorithm here solves.
var ErrNotCovered = errors.New("partition exact: no exact algorithm covers this instance")

// MaxNodes bounds the depth-first enumeration of whole and chunked placements; an
// instance needing more nodes gets ErrNotCovered.
const MaxNodes = 1 << 20

// Tolerances.
const (
	// collinearTol is the relative size of the cross product f_i·b_j − f_j·b_i below
	// which two portions count as having the same intensity.
	collinearTol = 1e-12
	// deadlineSlack is the relative slack on the deadline when accepting a candidate
	// computed on the line T = D, against rounding.
	deadlineSlack = 1e-9
	// fillTol is how far below 1 a greedy fill may end and still be completed by the
	// last processor used (rounding in the capacity root).
	fillTol = 1e-9
)

// Result is an exact optimum.
type Result struct {
	Algorithm string
	Feasible  bool               // false when no solution meets the deadline
	Solution  partition.Solution // the optimum, T and E recomputed by the domain evaluator
	Objective float64            // T for min-time, E for min-energy
	Nodes     int                // enumeration nodes visited
}

// Solve returns an optimal solution of in, or ErrNotCovered.
func Solve(ctx context.Context, in *partition.Instance) (Result, error) {
	s, err := newSolver(in, true)
	if err != nil {
		return Result{}, err
	}
	return s.run(ctx)
}

// SolveThresholdOnly is Solve with the two-processor divisible step restricted to
// intensity threshold partitions, the algorithm of reference 002 §2.3 item 3 as
// printed. It is not exact in general; it is kept to document the erratum.
func SolveThresholdOnly(ctx context.Context, in *partition.Instance) (Result, error) {
	s, err := newSolver(in, false)
	if err != nil {
		return Result{}, err
	}
	return s.run(ctx)
}

type divMode int

const (
	divNone     divMode = iota // no divisible work
	divOneProc                 // one processor: everything on it
	divSingle                  // one intensity: the 1-D algorithm
	divZonotope                // two processors, several intensities
)

type solver struct {
	in       *partition.Instance
	K        int
	ps       float64
	deadline float64
	minTime  bool // the objective is min-time
	interior bool // the zonotope step uses interior vertices (false: thresholds only)

	disc []int // whole and chunked portions
	div  []int // divisible portions with work
	mode divMode

	// one intensity: the merged portion and its dynamic energy per processor
	mf, mb float64
	md     []float64
	order  []int // processors by increasing md
	// two processors
	groups []group
	dnf    float64 // divisible flops
	dnb    float64 // divisible bytes

	// enumeration state
	F0, B0  []float64
	dyn0    float64
	x       []float64 // current share of each discrete portion's chunks per processor, flattened j*K+k
	minDyn  []float64 // min_k dynamic energy of each discrete portion, by position in disc
	restDyn float64   // Σ over divisible portions of min_k dynamic energy
	remF    []float64 // flops not yet placed at position i of disc (divisible included)
	remB    []float64 // bytes not yet placed at position i of disc (divisible included)
	levels  []level   // scratch for waterFill

	best      float64
	bestFr    [][]float64
	found     bool
	nodes     int
	ctx       context.Context
	errAbort  error
	algorithm []string
}

// group is a set of divisible portions of one intensity, merged: f and b are their
// summed counts, and every member gets the group's fraction.
type group struct {
	f, b    float64
	members []int
}

func newSolver(in *partition.Instance, withInterior bool) (*solver, error) {
	if err := in.Validate(); err != nil {
		return nil, fmt.Errorf("partition exact: %w", err)
	}
	s := &solver{in: in, K: len(in.Processors), ps: in.StaticPower(), deadline: in.DeadlineValue(),
		minTime: in.Objective == partition.ObjMinTime, interior: withInterior}
	for j, q := range in.Portions {
		switch {
		case q.Split == partition.Divisible && (q.Flops > 0 || q.Bytes > 0):
			s.div = append(s.div, j)
		case q.Split != partition.Divisible:
			s.disc = append(s.disc, j)
		}
	}
	switch {
	case len(s.div) == 0:
		s.mode = divNone
	case s.K == 1:
		s.mode = divOneProc
		s.algorithm = append(s.algorithm, "single processor")
	case s.collinear():
		s.mode = divSingle
		for _, j := range s.div {
			s.mf += in.Portions[j].Flops
			s.mb += in.Portions[j].Bytes
		}
		s.md = make([]float64, s.K)
		s.order = make([]int, s.K)
		for k, p := range in.Processors {
			s.md[k] = p.Dynamic(s.mf, s.mb)
			s.order[k] = k
		}
		sort.SliceStable(s.order, func(a, b int) bool { return s.md[s.order[a]] < s.md[s.order[b]] })
		if len(s.disc) == 0 && s.minTime {
			s.algorithm = append(s.algorithm, "p-DP closed form")
		} else {
			s.algorithm = append(s.algorithm, "single-intensity breakpoints")
		}
	case s.K == 2:
		s.mode = divZonotope
		s.buildGroups()
		if withInterior {
			s.algorithm = append(s.algorithm, "intensity thresholds + zonotope vertices (2 processors)")
		} else {
			s.algorithm = append(s.algorithm, "intensity thresholds only (2 processors)")
		}
	default:
		return nil, fmt.Errorf("%w: divisible portions of different intensities on %d processors", ErrNotCovered, s.K)
	}
	if len(s.disc) > 0 {
		s.algorithm = append([]string{"enumeration of whole/chunked placements"}, s.algorithm...)
	}
	return s, nil
}

// collinear reports whether all divisible portions have the same intensity.
func (s *solver) collinear() bool {
	q0 := s.in.Portions[s.div[0]]
	for _, j := range s.div[1:] {
		q := s.in.Portions[j]
		a, b := q0.Flops*q.Bytes, q.Flops*q0.Bytes
		if math.Abs(a-b) > collinearTol*(a+b) {
			return false
		}
	}
	return true
}

func (s *solver) run(ctx context.Context) (Result, error) {
	s.ctx = ctx
	K := s.K
	s.F0, s.B0 = make([]float64, K), make([]float64, K)
	s.x = make([]float64, len(s.in.Portions)*K)
	// Big portions first: they decide the makespan, and placing them early lets the
	// bound prune sooner.
	size := func(j int) float64 {
		q := s.in.Portions[j]
		w := math.Inf(1)
		for _, p := range s.in.Processors {
			w = math.Min(w, p.Work(q.Flops, q.Bytes))
		}
		return w
	}
	sort.SliceStable(s.disc, func(a, b int) bool { return size(s.disc[a]) > size(s.disc[b]) })
	s.minDyn = make([]float64, len(s.disc))
	for i, j := range s.disc {
		s.minDyn[i] = s.minDynamic(j)
	}
	s.levels = make([]level, s.K)
	s.remF, s.remB = make([]float64, len(s.disc)+1), make([]float64, len(s.disc)+1)
	for _, j := range s.div {
		s.restDyn += s.minDynamic(j)
		s.remF[len(s.disc)] += s.in.Portions[j].Flops
		s.remB[len(s.disc)] += s.in.Portions[j].Bytes
	}
	for i := len(s.disc) - 1; i >= 0; i-- {
		q := s.in.Portions[s.disc[i]]
		s.remF[i] = s.remF[i+1] + q.Flops
		s.remB[i] = s.remB[i+1] + q.Bytes
	}
	s.best = math.Inf(1)
	s.enumerate(0)
	if s.errAbort != nil {
		return Result{}, s.errAbort
	}
	res := Result{Algorithm: strings.Join(s.algorithm, " + "), Nodes: s.nodes}
	if res.Algorithm == "" {
		res.Algorithm = "evaluation"
	}
	if !s.found {
		return res, nil
	}
	sol, err := s.in.NewSolution(s.bestFr)
	if err != nil {
		return Result{}, fmt.Errorf("partition exact: %w", err)
	}
	res.Feasible = true
	res.Solution = sol
	res.Objective = s.objective(sol.T, sol.E)
	return res, nil
}

func (s *solver) minDynamic(j int) float64 {
	q := s.in.Portions[j]
	m := math.Inf(1)
	for _, p := range s.in.Processors {
		m = math.Min(m, p.Dynamic(q.Flops, q.Bytes))
	}
	return m
}

func (s *solver) objective(T, E float64) float64 {
	if s.minTime {
		return T
	}
	return E
}

// enumerate places the discrete portions from position i on, depth first.
func (s *solver) enumerate(i int) {
	if s.errAbort != nil {
		return
	}
	s.nodes++
	if s.nodes > MaxNodes {
		s.errAbort = fmt.Errorf("%w: more than %d placements of whole and chunked portions", ErrNotCovered, MaxNodes)
		return
	}
	if s.nodes&4095 == 0 {
		if err := s.ctx.Err(); err != nil {
			s.errAbort = fmt.Errorf("partition exact: %w", err)
			return
		}
	}
	// Lower bound: the loads placed so far only grow, every remaining portion costs
	// at least its cheapest dynamic energy, and the remaining flops and bytes must fit
	// in what the processors have left below T (water filling, the free-split bound
	// with placed loads).
	tb := s.lowerTime(i)
	if tb > s.deadline*(1+deadlineSlack) {
		return
	}
	lb := tb
	if !s.minTime {
		lb = s.ps*tb + s.dyn0 + s.restDyn
		for r := i; r < len(s.disc); r++ {
			lb += s.minDyn[r]
		}
	}
	if s.found && lb >= s.best {
		return
	}
	if i == len(s.disc) {
		s.leaf()
		return
	}
	j := s.disc[i]
	q := s.in.Portions[j]
	g := 1
	if q.Split == partition.Chunks {
		g = q.Chunks
	}
	s.compose(i, j, q, g, 0, g)
}

// lowerTime returns a lower bound on the makespan of every completion of the
// placement of the first i discrete portions.
func (s *solver) lowerTime(i int) float64 {
	tb := 0.0
	for k, p := range s.in.Processors {
		tb = math.Max(tb, p.Work(s.F0[k], s.B0[k]))
	}
	tb = math.Max(tb, s.waterFill(s.remF[i], s.F0, func(p partition.Processor) float64 { return p.TimePerFlop }))
	tb = math.Max(tb, s.waterFill(s.remB[i], s.B0, func(p partition.Processor) float64 { return p.TimePerByte }))
	// The next whole portion runs entirely on one processor.
	if i < len(s.disc) {
		if q := s.in.Portions[s.disc[i]]; q.Split == partition.Whole || q.Chunks == 1 {
			w := math.Inf(1)
			for k, p := range s.in.Processors {
				w = math.Min(w, p.Work(s.F0[k]+q.Flops, s.B0[k]+q.Bytes))
			}
			tb = math.Max(tb, w)
		}
	}
	return tb
}

// waterFill returns the smallest T at which the processors, already loaded with
// load[k] units of one resource, can absorb rem more units: Σ_k max(0, T/rate_k −
// load[k]) >= rem, where rate_k is the time per unit.
func (s *solver) waterFill(rem float64, load []float64, rate func(partition.Processor) float64) float64 {
	if rem <= 0 {
		return 0
	}
	ls := s.levels[:s.K]
	for k, p := range s.in.Processors {
		ls[k] = level{rate(p) * load[k], 1 / rate(p), load[k]}
	}
	// Insertion sort by start: K is small and this runs at every node.
	for a := 1; a < len(ls); a++ {
		for b := a; b > 0 && ls[b].start < ls[b-1].start; b-- {
			ls[b], ls[b-1] = ls[b-1], ls[b]
		}
	}
	var speed, loaded float64
	for k, l := range ls {
		speed += l.speed
		loaded += l.load
		T := (rem + loaded) / speed
		if k == len(ls)-1 || T <= ls[k+1].start {
			return T
		}
	}
	return 0
}

// level is one processor in the water filling of waterFill: from time start on it
// absorbs speed units per unit of time, on top of load units already placed.
type level struct{ start, speed, load float64 }

// compose gives rem of portion j's g chunks to processors k.. and recurses.
func (s *solver) compose(i, j int, q partition.Portion, g, k, rem int) {
	K := s.K
	if g == 1 && k == 0 {
		s.placeWhole(i, j, q)
		return
	}
	lo := 0
	if k == K-1 {
		lo = rem // the last processor takes the rest
	}
	// Try the processor's largest share first: it reaches complete placements
	// quickly, which gives the bound something to prune with.
	for n := rem; n >= lo; n-- {
		if s.errAbort != nil {
			return
		}
		fr := float64(n) / float64(g)
		p := s.in.Processors[k]
		df, db := q.Flops*fr, q.Bytes*fr
		s.F0[k] += df
		s.B0[k] += db
		de := p.Dynamic(df, db)
		s.dyn0 += de
		s.x[j*K+k] = fr
		if k == K-1 || n == rem {
			for kk := k + 1; kk < K; kk++ {
				s.x[j*K+kk] = 0
			}
			s.enumerate(i + 1)
		} else {
			s.compose(i, j, q, g, k+1, rem-n)
		}
		s.F0[k] -= df
		s.B0[k] -= db
		s.dyn0 -= de
		s.x[j*K+k] = 0
	}
}

// placeWhole tries the processors for a whole portion in the order of the makespan
// (min-time) or the energy (min-energy) they would give, best first.
func (s *solver) placeWhole(i, j int, q partition.Portion) {
	K := s.K
	key := make([]float64, K)
	order := make([]int, K)
	cur := 0.0
	for k, p := range s.in.Processors {
		cur = math.Max(cur, p.Work(s.F0[k], s.B0[k]))
	}
	for k, p := range s.in.Processors {
		order[k] = k
		w := p.Work(s.F0[k]+q.Flops, s.B0[k]+q.Bytes)
		if s.minTime {
			key[k] = w
		} else {
			key[k] = p.Dynamic(q.Flops, q.Bytes) + s.ps*math.Max(0, w-cur)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return key[order[a]] < key[order[b]] })
	for _, k := range order {
		if s.errAbort != nil {
			return
		}
		p := s.in.Processors[k]
		de := p.Dynamic(q.Flops, q.Bytes)
		s.F0[k] += q.Flops
		s.B0[k] += q.Bytes
		s.dyn0 += de
		s.x[j*K+k] = 1
		s.enumerate(i + 1)
		s.F0[k] -= q.Flops
		s.B0[k] -= q.Bytes
		s.dyn0 -= de
		s.x[j*K+k] = 0
	}
}

// leaf solves the divisible portions exactly for the current placement and keeps the
// best solution.
func (s *solver) leaf() {
	var div [][]float64 // fractions of s.div, one row per divisible portion
	switch s.mode {
	case divNone:
	case divOneProc:
		div = make([][]float64, len(s.div))
		for r := range div {
			div[r] = []float64{1}
		}
	case divSingle:
		var xs []float64
		ok := true
		if len(s.disc) == 0 && s.minTime {
			// Nothing placed: the p-DP closed form (Eq. 19).
			w := make([]float64, s.K)
			for k, p := range s.in.Processors {
				w[k] = p.Work(s.mf, s.mb)
			}
			_, xs = PDP(w)
		} else {
			xs, ok = s.single()
		}
		if !ok {
			return
		}
		div = make([][]float64, len(s.div))
		for r := range div {
			div[r] = xs
		}
	case divZonotope:
		xs, ok := s.zonotope()
		if !ok {
			return
		}
		div = make([][]float64, len(s.div))
		for r := range s.div {
			div[r] = []float64{xs[r], 1 - xs[r]}
		}
	}
	fr := s.fractions(div)
	ms, err := s.in.Measure(fr)
	if err != nil {
		s.errAbort = fmt.Errorf("partition exact: %w", err)
		return
	}
	if ms.T > s.deadline*(1+deadlineSlack) {
		return
	}
	if v := ms.Objective(s.in.Objective); !s.found || v < s.best {
		s.best, s.bestFr, s.found = v, fr, true
	}
}

// fractions assembles the full fraction matrix from the current discrete placement
// and the divisible rows.
func (s *solver) fractions(div [][]float64) [][]float64 {
	K := s.K
	fr := make([][]float64, len(s.in.Portions))
	for j := range fr {
		fr[j] = make([]float64, K)
		if s.in.Portions[j].Split != partition.Divisible {
			copy(fr[j], s.x[j*K:(j+1)*K])
		} else {
			fr[j][0] = 1 // empty divisible portions: anywhere
		}
	}
	for r, j := range s.div {
		copy(fr[j], div[r])
	}
	return fr
}
