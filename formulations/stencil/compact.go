package stencil

import (
	"fmt"
	"math"

	dom "github.com/schedopt/schedopt/domain/stencil"
	"github.com/schedopt/schedopt/model"
)

// Formulation is a built model with what is needed to decode its solutions and to
// give it a start.
type Formulation struct {
	Model     *model.Model
	Kind      string  // "compact", "arc-slot" or "arc-slot-literal"
	TimeScale float64 // model time units per second
	Colours   int     // size of the colour set (or bound on the rounds of the matching block)

	in   *dom.Instance
	unit float64 // cells per load unit
	ts   model.Var
	col  *colouring

	// compact
	a         [][]model.Var // [u][p], −1 where the task cannot go
	edges     []taskEdge
	symmetric [][2]int // identical processor pairs ordered by load

	// arc-slot
	x      [][]model.Var // [arc][p*m+k]
	iso    map[int][]model.Var
	g      []model.Var
	tidle  []model.Var
	ec     model.Var
	hasArc []int // an incident arc of each task, −1 for isolated tasks
}

// taskEdge is an unordered adjacent task pair with its per-slot coefficients.
type taskEdge struct {
	u, v int
	mult map[dom.Pair]float64 // (p,k): u on p, v on k → quanta on bundle {p,k}
	en   map[dom.Pair]float64 // (p,k) → energy
	w    map[dom.Pair]model.Var
}

const noVar = model.Var(-1)

// Compact builds the task-assignment formulation: a[u,p] = 1 iff task u runs on p
// (Σ_p a[u,p] = 1), w[{u,v},(p,k)] ≥ a[u,p] + a[v,k] − 1 marks the adjacent pair cut
// with u on p and v on k, the bundle multiplicity μ_pk is Σ w·(cells·link_time), and
// the colouring block, the load rows busy_p ≤ ts, the memories and the deadline
// (ts ≤ t^d) are those of (6.7)-(6.14). Cut indicators are continuous: with integral
// a their least feasible value is 0 or 1, and any larger value only tightens the
// colouring and raises the energy.
func Compact(in *dom.Instance, opt Options) (*Formulation, error) {
	if opt.Literal {
		return nil, fmt.Errorf("stencil: the literal (ordered-pair) colouring is only built for the arc-slot model")
	}
	np, n := len(in.Processors), len(in.Tasks)
	if opt.Loads != nil && len(opt.Loads) != np {
		return nil, fmt.Errorf("stencil: %d loads for %d processors", len(opt.Loads), np)
	}
	if opt.MinCutCells != nil && len(opt.MinCutCells) != np {
		return nil, fmt.Errorf("stencil: %d cut bounds for %d processors", len(opt.MinCutCells), np)
	}
	f := &Formulation{Model: model.New("stencil-compact"), Kind: "compact", TimeScale: timeScale(in.Deadline), in: in, unit: cellUnit(in)}
	m := f.Model
	f.ts = m.AddContinuous(0, in.Deadline*(1+dom.TimeTol)*f.TimeScale, "ts")
	var obj model.Expr
	idleSum := 0.0
	for _, pr := range in.Processors {
		idleSum += pr.IdlePower
	}
	obj.Add(f.ts, idleSum/f.TimeScale)

	caps := make([]float64, np)
	for p := range caps {
		caps[p] = capacity(in, p)
	}
	f.a = make([][]model.Var, n)
	for u := 0; u < n; u++ {
		f.a[u] = make([]model.Var, np)
		var one model.Expr
		cu := in.Tasks[u].Cells
		for p, pr := range in.Processors {
			if cu > caps[p] {
				f.a[u][p] = noVar
				continue
			}
			v := m.AddBinary(fmt.Sprintf("a[%d,%d]", u, p))
			f.a[u][p] = v
			one.Add(v, 1)
			// Computation energy and the part of idle energy not paid while busy.
			obj.Add(v, cu*(pr.EnergyPerCell-pr.IdlePower*pr.TimePerCell))
		}
		if one.Len() == 0 {
			return nil, fmt.Errorf("stencil: task %d fits on no processor within memory and deadline", u)
		}
		m.AddConstr(one, model.EQ, 1, fmt.Sprintf("assign[%d]", u))
	}
	// Loads: busy_p ≤ ts (6.11), memory (6.9).
	for p, pr := range in.Processors {
		var busy, mem model.Expr
		for u := 0; u < n; u++ {
			if v := f.a[u][p]; v != noVar {
				busy.Add(v, in.Tasks[u].Cells*pr.TimePerCell*f.TimeScale)
				mem.Add(v, in.Tasks[u].Cells/f.unit)
			}
		}
		if busy.Len() == 0 {
			continue
		}
		busy.Add(f.ts, -1)
		m.AddConstr(busy, model.LE, 0, fmt.Sprintf("busy[%d]", p))
		if pr.MemoryCells < in.TotalCells() {
			m.AddConstr(mem, model.LE, math.Floor(pr.MemoryCells/f.unit+1e-9), fmt.Sprintf("memory[%d]", p))
		}
		if opt.Loads != nil {
			m.AddConstr(mem, model.EQ, math.Round(opt.Loads[p]/f.unit), fmt.Sprintf("load[%d]", p))
		}
	}
	if opt.Loads != nil {
		// A processor no task can use must be given no load.
		for p := range in.Processors {
			usable := false
			for u := 0; u < n; u++ {
				usable = usable || f.a[u][p] != noVar
			}
			if !usable && math.Round(opt.Loads[p]/f.unit) != 0 {
				return nil, fmt.Errorf("stencil: processor %d can take no task, its load is fixed at %g cells", p, opt.Loads[p])
			}
		}
	}
	// Adjacent task pairs and their cut indicators.
	f.edges = groupEdges(in)
	pairs := newPairs(np, false)
	mult := make([]model.Expr, len(pairs.pairs))
	for ei := range f.edges {
		e := &f.edges[ei]
		e.w = map[dom.Pair]model.Var{}
		for p := 0; p < np; p++ {
			for k := 0; k < np; k++ {
				if p == k || f.a[e.u][p] == noVar || f.a[e.v][k] == noVar {
					continue
				}
				sl := dom.Pair{p, k}
				// Slots that cost nothing need no indicator, unless the cut rows count them.
				if e.mult[sl] == 0 && e.en[sl] == 0 && opt.MinCutCells == nil {
					continue
				}
				w := m.AddContinuous(0, 1, fmt.Sprintf("w[%d,%d,%d,%d]", e.u, e.v, p, k))
				e.w[sl] = w
				var cut model.Expr
				cut.Add(w, 1).Add(f.a[e.u][p], -1).Add(f.a[e.v][k], -1)
				m.AddConstr(cut, model.GE, -1, fmt.Sprintf("cut[%d,%d,%d,%d]", e.u, e.v, p, k))
				obj.Add(w, e.en[sl])
				if q := e.mult[sl]; q != 0 {
					mult[pairs.index[dom.Pair{min(p, k), max(p, k)}]].Add(w, q)
				}
			}
		}
	}
	if opt.MinCutCells != nil {
		f.addCutRows(in, opt.MinCutCells)
	}
	col, err := addColouring(m, in, opt, mult, pairs, f.ts, f.TimeScale)
	if err != nil {
		return nil, err
	}
	f.col, f.Colours = col, col.K
	if !opt.NoSymmetry {
		// Identical processors: the first carries at least the load of the second.
		f.symmetric = symmetricGroups(in)
		for _, pq := range f.symmetric {
			var e model.Expr
			for u := 0; u < n; u++ {
				if f.a[u][pq[0]] != noVar {
					e.Add(f.a[u][pq[0]], in.Tasks[u].Cells/f.unit)
				}
				if f.a[u][pq[1]] != noVar {
					e.Add(f.a[u][pq[1]], -in.Tasks[u].Cells/f.unit)
				}
			}
			m.AddConstr(e, model.GE, 0, fmt.Sprintf("symmetry[%d,%d]", pq[0], pq[1]))
		}
	}
	m.SetObjective(model.Minimize, obj)
	return f, m.Err()
}

// addCutRows adds, per processor p with minCells[p] > 0, the row
// Σ_{task pairs {u,v}} cells(u,v)·Σ_{k≠p} (w[{u,v},(p,k)] + w[{u,v},(k,p)]) ≥ minCells[p]:
// the arcs with exactly one end on p carry at least minCells[p] cells. With integral
// assignments the least feasible w are the cut indicators, so the row cuts off no
// mapping that satisfies the bound; with fractional ones it forces cut.
func (f *Formulation) addCutRows(in *dom.Instance, minCells []float64) {
	pairCells := map[[2]int]float64{}
	for _, a := range in.Arcs {
		pairCells[[2]int{min(a.From, a.To), max(a.From, a.To)}] += a.Cells
	}
	// Rows in units of the smallest exchange, so that the thesis's are 0/1 rows.
	scale := math.Inf(1)
	for _, c := range pairCells {
		if c > 0 {
			scale = math.Min(scale, c)
		}
	}
	if math.IsInf(scale, 1) {
		scale = 1
	}
	for p, need := range minCells {
		if need <= 0 {
			continue
		}
		var e model.Expr
		for _, te := range f.edges {
			c := pairCells[[2]int{te.u, te.v}]
			for k := range in.Processors {
				if k == p {
					continue
				}
				// In processor order, so that the row is the same on every run.
				for _, sl := range []dom.Pair{{p, k}, {k, p}} {
					if w, ok := te.w[sl]; ok {
						e.Add(w, c/scale)
					}
				}
			}
		}
		// A hair below the bound, so that float noise in need never cuts the optimum.
		f.Model.AddConstr(e, model.GE, need/scale*(1-1e-9), fmt.Sprintf("isoperimetry[%d]", p))
	}
}

// groupEdges merges the arcs between each pair of tasks into one undirected edge with
// slot coefficients.
func groupEdges(in *dom.Instance) []taskEdge {
	np := len(in.Processors)
	index := map[[2]int]int{}
	var edges []taskEdge
	for _, a := range in.Arcs {
		u, v := min(a.From, a.To), max(a.From, a.To)
		i, ok := index[[2]int{u, v}]
		if !ok {
			i = len(edges)
			index[[2]int{u, v}] = i
			edges = append(edges, taskEdge{u: u, v: v, mult: map[dom.Pair]float64{}, en: map[dom.Pair]float64{}})
		}
		e := &edges[i]
		for p := 0; p < np; p++ {
			for k := 0; k < np; k++ {
				if p == k {
					continue
				}
				// Slot (p,k): u on p, v on k. The arc's sender is on p if it is u.
				s, r := p, k
				if a.From != u {
					s, r = k, p
				}
				e.mult[dom.Pair{p, k}] += float64(in.Multiplicity(a, s, r))
				e.en[dom.Pair{p, k}] += a.Cells * in.LinkEnergy[s][r]
			}
		}
	}
	return edges
}

// Decode reads the mapping and the round schedule from solver values x (one per
// column). modelRounds is the number of rounds the model itself counts (Σ z or Σ n);
// the schedule keeps only the exchanges the decoded mapping needs.
func (f *Formulation) Decode(x []float64) (assign []int, schedule [][]dom.Pair, modelRounds int, err error) {
	if len(x) != f.Model.NumVars() {
		return nil, nil, 0, fmt.Errorf("stencil: %d values for %d columns", len(x), f.Model.NumVars())
	}
	n := len(f.in.Tasks)
	assign = make([]int, n)
	for u := 0; u < n; u++ {
		assign[u] = -1
		if f.a != nil {
			for p, v := range f.a[u] {
				if v != noVar && x[v] > 0.5 {
					assign[u] = p
				}
			}
		} else {
			assign[u] = f.arcSlotTask(u, x)
		}
		if assign[u] < 0 {
			return nil, nil, 0, fmt.Errorf("stencil: task %d has no processor in the solution", u)
		}
	}
	mu, err := f.in.Bundles(assign)
	if err != nil {
		return nil, nil, 0, err
	}
	schedule, modelRounds = f.col.decode(x, mu)
	return assign, schedule, modelRounds, nil
}

// SetStart installs a MIP start from a mapping and a proper round schedule of its
// multigraph (for example a heuristic's mapping coloured by exact/edgecolour). Every
// column gets a value, so the start is a complete solution when the mapping meets the
// deadline.
//
// When the model orders identical processors by load, the start is relabelled to
// respect that order first.
func (f *Formulation) SetStart(assign []int, schedule [][]dom.Pair) error {
	assign, schedule = f.canonical(assign, schedule)
	ev, err := f.in.Evaluate(assign, schedule)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrBadStart, err)
	}
	m := f.Model
	if f.a != nil {
		for u, row := range f.a {
			for p, v := range row {
				if v == noVar {
					if assign[u] == p {
						return fmt.Errorf("%w: task %d cannot run on processor %d", ErrBadStart, u, p)
					}
					continue
				}
				m.SetStart(v, b2f(assign[u] == p))
			}
		}
		for _, e := range f.edges {
			for sl, w := range e.w {
				m.SetStart(w, b2f(assign[e.u] == sl[0] && assign[e.v] == sl[1]))
			}
		}
	} else {
		f.arcSlotStart(assign, ev)
	}
	if err := f.col.start(m, schedule); err != nil {
		return err
	}
	m.SetStart(f.ts, ev.TS*f.TimeScale)
	return nil
}

// Instance returns the instance the formulation was built from.
func (f *Formulation) Instance() *dom.Instance { return f.in }

// canonical relabels identical processors so that their loads do not increase along
// each chain of the symmetry-breaking rows (a bubble sort over the chain pairs).
func (f *Formulation) canonical(assign []int, schedule [][]dom.Pair) ([]int, [][]dom.Pair) {
	if len(f.symmetric) == 0 {
		return assign, schedule
	}
	m := len(f.in.Processors)
	perm := make([]int, m) // perm[old] = new
	for p := range perm {
		perm[p] = p
	}
	load := make([]float64, m)
	for u, p := range assign {
		load[p] += f.in.Tasks[u].Cells
	}
	for changed := true; changed; {
		changed = false
		for _, pq := range f.symmetric {
			if load[pq[0]] < load[pq[1]] {
				load[pq[0]], load[pq[1]] = load[pq[1]], load[pq[0]]
				for old, nw := range perm {
					switch nw {
					case pq[0]:
						perm[old] = pq[1]
					case pq[1]:
						perm[old] = pq[0]
					}
				}
				changed = true
			}
		}
	}
	out := make([]int, len(assign))
	for u, p := range assign {
		out[u] = perm[p]
	}
	sched := make([][]dom.Pair, len(schedule))
	for r, round := range schedule {
		sched[r] = make([]dom.Pair, len(round))
		for i, q := range round {
			a, b := perm[q[0]], perm[q[1]]
			sched[r][i] = dom.Pair{min(a, b), max(a, b)}
		}
	}
	return out, sched
}
