package stencil

import (
	"context"
	"fmt"
	"math"

	dom "github.com/schedopt/schedopt/domain/stencil"
)

// TabuOptions control TaskMovement.
type TabuOptions struct {
	Iterations int // K, the number of moves; 0 means 200
	Tenure     int // iterations a reverse move stays tabu; 0 means 8 (the author's code)
}

// score orders candidate mappings: less deadline and memory violation first, then
// less energy.
type score struct{ violation, energy float64 }

func (a score) less(b score) bool {
	if a.violation != b.violation {
		return a.violation < b.violation
	}
	return a.energy < b.energy
}

// mover keeps a mapping with its loads and processor multigraph for O(m² + deg u)
// evaluation of single-task moves.
type mover struct {
	in     *dom.Instance
	assign []int
	cells  []float64
	mult   [][]int64
	commE  float64
	inc    [][]int // arcs incident to each task
}

func newMover(in *dom.Instance, assign []int) (*mover, error) {
	mu, err := in.Bundles(assign)
	if err != nil {
		return nil, err
	}
	mv := &mover{in: in, assign: append([]int(nil), assign...), cells: make([]float64, len(in.Processors)), mult: mu,
		inc: make([][]int, len(in.Tasks))}
	for u, p := range assign {
		mv.cells[p] += in.Tasks[u].Cells
	}
	for i, a := range in.Arcs {
		mv.inc[a.From] = append(mv.inc[a.From], i)
		mv.inc[a.To] = append(mv.inc[a.To], i)
		if p, k := assign[a.From], assign[a.To]; p != k {
			mv.commE += a.Cells * in.LinkEnergy[p][k]
		}
	}
	return mv, nil
}

// arcTerms adds sign × the contribution of arc i under the current mapping.
func (mv *mover) arcTerms(i int, sign int64) {
	a := mv.in.Arcs[i]
	p, k := mv.assign[a.From], mv.assign[a.To]
	if p == k {
		return
	}
	x := sign * mv.in.Multiplicity(a, p, k)
	mv.mult[p][k] += x
	mv.mult[k][p] += x
	mv.commE += float64(sign) * a.Cells * mv.in.LinkEnergy[p][k]
}

// move puts task u on processor q.
func (mv *mover) move(u, q int) {
	for _, i := range mv.inc[u] {
		mv.arcTerms(i, -1)
	}
	mv.cells[mv.assign[u]] -= mv.in.Tasks[u].Cells
	mv.assign[u] = q
	mv.cells[q] += mv.in.Tasks[u].Cells
	for _, i := range mv.inc[u] {
		mv.arcTerms(i, +1)
	}
}

// roundsBound returns min(Δ+μ, ⌊3Δ/2⌋) of the current multigraph: the thesis's
// approximation of χ' in the tabu search (an upper bound, so deadlines stay safe).
func (mv *mover) roundsBound() int64 {
	var delta, mu int64
	for p, row := range mv.mult {
		var d int64
		for k, x := range row {
			if k != p {
				d += x
				mu = max(mu, x)
			}
		}
		delta = max(delta, d)
	}
	return min(delta+mu, 3*delta/2)
}

func (mv *mover) score() score {
	in := mv.in
	var s score
	maxBusy := 0.0
	for p, pr := range in.Processors {
		maxBusy = math.Max(maxBusy, mv.cells[p]*pr.TimePerCell)
		if mv.cells[p] > pr.MemoryCells {
			s.violation += (mv.cells[p] - pr.MemoryCells) / math.Max(1, pr.MemoryCells)
		}
	}
	ts := math.Max(maxBusy, float64(mv.roundsBound())*in.RoundTime)
	if ts > in.Deadline*(1+dom.TimeTol) {
		s.violation += (ts - in.Deadline) / in.Deadline
	}
	for p, pr := range in.Processors {
		busy := mv.cells[p] * pr.TimePerCell
		s.energy += mv.cells[p]*pr.EnergyPerCell + pr.IdlePower*(ts-busy)
	}
	s.energy += mv.commE
	return s
}

// TaskMovement is the tabu search of Chapter 7 (Algorithm 6): from start, move in each
// iteration the single task to the processor that gives the best mapping (less
// deadline violation first, then less energy, with rounds estimated by
// min(Δ+μ, ⌊3Δ/2⌋)), even when that is worse than the current one. Moving a task back
// to the processor it just left is tabu for Tenure iterations unless it beats the best
// mapping found (aspiration). It returns the best mapping found. It searches single
// moves only and re-scores every candidate in O(m²); Search is the full tabu search.
func TaskMovement(ctx context.Context, in *dom.Instance, start []int, opt TabuOptions) ([]int, error) {
	if opt.Iterations <= 0 {
		opt.Iterations = 200
	}
	if opt.Tenure <= 0 {
		opt.Tenure = 8
	}
	mv, err := newMover(in, start)
	if err != nil {
		return nil, fmt.Errorf("stencil: tabu search: %w", err)
	}
	m := len(in.Processors)
	tabu := make([][]int, len(in.Tasks))
	for u := range tabu {
		tabu[u] = make([]int, m)
	}
	best := append([]int(nil), mv.assign...)
	bestScore := mv.score()
	for k := 1; k <= opt.Iterations; k++ {
		if err := ctx.Err(); err != nil {
			return best, err
		}
		bu, bq := -1, -1
		var bs score
		for u := range in.Tasks {
			p := mv.assign[u]
			for q := 0; q < m; q++ {
				if q == p {
					continue
				}
				mv.move(u, q)
				s := mv.score()
				mv.move(u, p)
				if tabu[u][q] >= k && !s.less(bestScore) {
					continue
				}
				if bu < 0 || s.less(bs) {
					bu, bq, bs = u, q, s
				}
			}
		}
		if bu < 0 {
			break
		}
		from := mv.assign[bu]
		mv.move(bu, bq)
		tabu[bu][from] = k + opt.Tenure
		if bs.less(bestScore) {
			bestScore = bs
			copy(best, mv.assign)
		}
	}
	return best, nil
}
