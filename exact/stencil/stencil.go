package stencil

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

	dom "github.com/schedopt/schedopt/domain/stencil"
)

// ErrNotGrid is returned by Shape for instances that are not a block grid of equal
// blocks with the 7-point stencil's arcs.
var ErrNotGrid = errors.New("stencil: not a block grid of equal blocks")

// PruneTol is the relative amount by which a load vector's bound may fall below the
// incumbent's energy and still close it: float sums of the bound and of the
// evaluator's energy differ by a few ulps on the vector the incumbent itself uses.
const PruneTol = 1e-9

// GridShape is the block grid an instance describes: the axes (lengths, periodicity)
// and the weight of a face along each axis, in units of Unit cells.
type GridShape struct {
	Len      [3]int
	Periodic [3]bool
	Weight   [3]int64
	Unit     float64 // cells per weight unit (the gcd of the face sizes)
	Cells    float64 // cells per block
}

// Shape checks that in is a block grid (in.Grid set) of equal blocks whose arcs are
// exactly those of domain/stencil.BlockGrid on that grid, with one face size per
// axis, and returns its shape.
func Shape(in *dom.Instance) (GridShape, error) {
	var s GridShape
	g := in.Grid
	if g == nil {
		return s, fmt.Errorf("%w: no grid", ErrNotGrid)
	}
	s.Len = [3]int{g.NX, g.NY, g.NZ}
	s.Periodic = g.Periodic
	n := len(in.Tasks)
	if g.NX*g.NY*g.NZ != n {
		return s, fmt.Errorf("%w: %d×%d×%d blocks for %d tasks", ErrNotGrid, g.NX, g.NY, g.NZ, n)
	}
	s.Cells = in.Tasks[0].Cells
	for u, t := range in.Tasks {
		if t.Cells != s.Cells {
			return s, fmt.Errorf("%w: task %d has %g cells, task 0 %g", ErrNotGrid, u, t.Cells, s.Cells)
		}
	}
	_, want := dom.BlockGrid(*g, dom.BlockDims{1, 1, 1})
	if len(want) != len(in.Arcs) {
		return s, fmt.Errorf("%w: %d arcs, the grid has %d", ErrNotGrid, len(in.Arcs), len(want))
	}
	key := func(a dom.Arc) [2]int { return [2]int{a.From, a.To} }
	count := map[[2]int]int{}
	for _, a := range want {
		count[key(a)]++
	}
	face := [3]float64{-1, -1, -1}
	coord := func(u int) [3]int { return [3]int{u % g.NX, u / g.NX % g.NY, u / (g.NX * g.NY)} }
	for i, a := range in.Arcs {
		if count[key(a)] == 0 {
			return s, fmt.Errorf("%w: arc %d (%d→%d) is not a grid arc", ErrNotGrid, i, a.From, a.To)
		}
		count[key(a)]--
		cf, ct := coord(a.From), coord(a.To)
		axis := -1
		for x := 0; x < 3; x++ {
			if cf[x] != ct[x] {
				axis = x
			}
		}
		if face[axis] >= 0 && face[axis] != a.Cells {
			return s, fmt.Errorf("%w: arcs along axis %d carry %g and %g cells", ErrNotGrid, axis, face[axis], a.Cells)
		}
		face[axis] = a.Cells
	}
	var unit int64
	for x := range face {
		if face[x] > 0 {
			unit = gcd(unit, int64(math.Round(face[x])))
		}
	}
	if unit == 0 {
		unit = 1
	}
	s.Unit = float64(unit)
	for x := range face {
		if face[x] > 0 {
			s.Weight[x] = int64(math.Round(face[x])) / unit
		}
	}
	return s, nil
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// Bounder bounds the energy of the mappings with given loads.
type Bounder struct {
	in      *dom.Instance
	profile []int64   // least boundary weight of k blocks, k = 0..n
	unit    float64   // cells per weight unit
	cap     []int     // most blocks per processor (memory, deadline)
	perLoad []float64 // energy per block, idle power during its busy time deducted
	cells   float64   // cells per block
	idle    float64   // Σ_p idle power
	class   []int     // class[p] = first processor identical to p
}

// NewBounder returns the bounds of an instance of shape s whose isoperimetric profile
// is profile (in s's weight units; profile[k] must not exceed the least boundary of
// any k blocks).
func NewBounder(in *dom.Instance, s GridShape, profile []int64) (*Bounder, error) {
	n := len(in.Tasks)
	if len(profile) != n+1 {
		return nil, fmt.Errorf("stencil: profile has %d entries for %d blocks", len(profile), n)
	}
	m := len(in.Processors)
	b := &Bounder{in: in, profile: profile, unit: s.Unit, cap: make([]int, m), perLoad: make([]float64, m),
		cells: s.Cells, class: make([]int, m)}
	for p, pr := range in.Processors {
		// The evaluator's tests, in the same float expressions: busy = cells·t ≤
		// deadline·(1+TimeTol) and cells ≤ memory.
		k := 0
		for k < n {
			cells := float64(k+1) * s.Cells
			if cells*pr.TimePerCell > in.Deadline*(1+dom.TimeTol) || cells > pr.MemoryCells {
				break
			}
			k++
		}
		b.cap[p] = k
		b.perLoad[p] = s.Cells * (pr.EnergyPerCell - pr.IdlePower*pr.TimePerCell)
		b.idle += pr.IdlePower
		b.class[p] = p
		for q := 0; q < p; q++ {
			if b.class[q] != q {
				continue
			}
			same := true
			for r := q; r < p && same; r++ {
				same = b.class[r] != q || in.Interchangeable(r, p)
			}
			if same {
				b.class[p] = q
				break
			}
		}
	}
	return b, nil
}

// Canonical returns loads with the members of each class of identical processors
// reordered to non-increasing load, as Search enumerates them; perm[p] is where
// processor p's load went (relabel a mapping with it).
func (b *Bounder) Canonical(loads []int) (canon []int, perm []int) {
	m := len(loads)
	canon = append([]int(nil), loads...)
	perm = make([]int, m)
	for p := range perm {
		perm[p] = p
	}
	var members [][]int
	seen := map[int]int{}
	for p := 0; p < m; p++ {
		i, ok := seen[b.class[p]]
		if !ok {
			i = len(members)
			seen[b.class[p]] = i
			members = append(members, nil)
		}
		members[i] = append(members[i], p)
	}
	for _, ms := range members {
		src := append([]int(nil), ms...)
		sort.SliceStable(src, func(i, j int) bool { return loads[src[i]] > loads[src[j]] })
		for i, p := range src {
			canon[ms[i]] = loads[p]
			perm[p] = ms[i]
		}
	}
	return canon, perm
}

// Capacities returns the most blocks each processor can take within its memory and
// the deadline.
func (b *Bounder) Capacities() []int { return append([]int(nil), b.cap...) }

// BoundaryCells returns the least number of face cells on the boundary of any k
// blocks (the profile times the cells per weight unit).
func (b *Bounder) BoundaryCells(k int) float64 {
	if k < 0 || k >= len(b.profile) {
		return 0
	}
	return float64(b.profile[k]) * b.unit
}

// Bound returns a lower bound on the energy of every mapping with loads[p] blocks on
// processor p, and false when no such mapping meets the deadline (or the loads break
// a capacity or do not sum to the blocks).
func (b *Bounder) Bound(loads []int) (float64, bool) {
	in := b.in
	m := len(in.Processors)
	total := 0
	for p, k := range loads {
		if k < 0 || k > b.cap[p] {
			return math.Inf(1), false
		}
		total += k
	}
	if total != len(in.Tasks) || len(loads) != m {
		return math.Inf(1), false
	}
	comp, maxBusy := 0.0, 0.0
	for p, k := range loads {
		comp += float64(k) * b.perLoad[p]
		// As the evaluator computes it: (cells on p)·time per cell.
		maxBusy = math.Max(maxBusy, float64(k)*b.cells*in.Processors[p].TimePerCell)
	}
	comm, rounds := 0.0, 0.0
	for p, k := range loads {
		if k == 0 || b.profile[k] == 0 {
			continue
		}
		// The cheapest round trip from p to another used processor, in J and quanta
		// per cell.
		e, t := math.Inf(1), math.Inf(1)
		for q, kq := range loads {
			if q != p && kq > 0 {
				e = math.Min(e, in.LinkEnergy[p][q]+in.LinkEnergy[q][p])
				t = math.Min(t, in.LinkTime[p][q]+in.LinkTime[q][p])
			}
		}
		if math.IsInf(e, 1) {
			continue // p holds every block
		}
		cells := float64(b.profile[k]) * b.unit
		comm += cells * e / 2
		// Degrees are whole numbers of quanta.
		rounds = math.Max(rounds, math.Ceil(cells*t-dom.WholeTol*math.Max(1, cells*t)))
	}
	ts := math.Max(maxBusy, rounds*in.RoundTime)
	if ts > in.Deadline*(1+dom.TimeTol) {
		return math.Inf(1), false
	}
	return comp + b.idle*ts + comm, true
}

// Candidate is a load vector with its bound.
type Candidate struct {
	Loads []int
	Bound float64
}

// Proof is the outcome of a search over load vectors.
type Proof struct {
	Incumbent  float64     // the energy the search tried to beat
	Bound      float64     // the least bound over all feasible load vectors (+Inf: none)
	Closed     float64     // the least bound over the pruned vectors (+Inf: none)
	Vectors    int         // load vectors visited (up to symmetry)
	Pruned     int         // closed by their bound
	Infeasible int         // closed because no mapping with those loads meets the deadline
	Open       []Candidate // bound below the incumbent (by more than PruneTol), least first
}

// Proved reports whether the search proved the incumbent optimal: every load vector
// is infeasible or bounded by at least the incumbent.
func (pf *Proof) Proved() bool { return len(pf.Open) == 0 }

// Search bounds every load vector (identical processors in non-increasing order of
// load) and returns those whose bound is below incumbent by more than PruneTol
// (relative). Pass +Inf for no incumbent.
func (b *Bounder) Search(ctx context.Context, incumbent float64) (*Proof, error) {
	m := len(b.in.Processors)
	n := len(b.in.Tasks)
	pf := &Proof{Incumbent: incumbent, Bound: math.Inf(1), Closed: math.Inf(1)}
	cut := incumbent - PruneTol*math.Abs(incumbent)
	if math.IsInf(incumbent, 0) || math.IsNaN(incumbent) {
		cut = math.Inf(1) // nothing to beat: every feasible vector stays open
	}
	loads := make([]int, m)
	var rec func(p, left int) error
	rec = func(p, left int) error {
		if p == m-1 {
			if left > b.cap[p] || !b.inOrder(loads, p, left) {
				return nil
			}
			loads[p] = left
			pf.Vectors++
			lb, ok := b.Bound(loads)
			switch {
			case !ok:
				pf.Infeasible++
			case lb >= cut:
				pf.Pruned++
				pf.Bound = math.Min(pf.Bound, lb)
				pf.Closed = math.Min(pf.Closed, lb)
			default:
				pf.Open = append(pf.Open, Candidate{Loads: append([]int(nil), loads...), Bound: lb})
				pf.Bound = math.Min(pf.Bound, lb)
			}
			return nil
		}
		if pf.Vectors%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		for k := min(left, b.cap[p]); k >= 0; k-- {
			if !b.inOrder(loads, p, k) {
				continue
			}
			loads[p] = k
			if err := rec(p+1, left-k); err != nil {
				return err
			}
		}
		return nil
	}
	if m == 0 || n == 0 {
		return pf, nil
	}
	if err := rec(0, n); err != nil {
		return nil, err
	}
	sort.SliceStable(pf.Open, func(i, j int) bool { return pf.Open[i].Bound < pf.Open[j].Bound })
	return pf, nil
}

// inOrder reports whether giving k blocks to p keeps the loads of p's class
// non-increasing (p is compared with the last earlier member of its class).
func (b *Bounder) inOrder(loads []int, p, k int) bool {
	for q := p - 1; q >= 0; q-- {
		if b.class[q] == b.class[p] {
			return loads[q] >= k
		}
	}
	return true
}
