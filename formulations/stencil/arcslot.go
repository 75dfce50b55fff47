package stencil

import (
	"fmt"
	"math"

	dom "github.com/schedopt/schedopt/domain/stencil"
	"github.com/schedopt/schedopt/model"
)

// ArcSlot builds the thesis's ILP (6.1)-(6.15) as reconstructed in the reference
// extraction (§2.5), with loads g[p] counted in units of the gcd of the task sizes:
//
//	(6.1)  Σ_{(p,k)} x[a,p,k] = 1                               every arc in one slot
//	(6.2)  Σ_k x[a,p,k] − Σ_k x[f,p,k] = 0     f ∈ δ+(u)          tails of u's out-arcs agree
//	(6.3)  Σ_k x[a,p,k] − Σ_k x[f,k,p] = 0     f ∈ δ−(u)          heads of u's in-arcs agree
//	(6.4)  Σ_k x[a,k,p] − Σ_k x[f,p,k] = 0     f ∈ δ+(v)
//	(6.5)  Σ_k x[a,k,p] − Σ_k x[f,k,p] = 0     f ∈ δ−(v)
//	(6.6)  Σ_a Σ_k (L·d_u/deg_u·x[a,p,k] + L·d_v/deg_v·x[a,k,p]) = L·g[p],  L = lcm deg
//	(6.7)  Σ_a (q[a,p,k]·x[a,p,k] + q[a,k,p]·x[a,k,p]) ≤ Σ_c y[{p,k},c]  q = cells·link_time
//	(6.8)  Σ_{k≠p} y[{p,k},c] ≤ z[c]
//	(6.9)  g[p] ≤ r[p];  (6.10) Σ x·C·e^c ≤ ec;  (6.11) t_p·g[p] ≤ ts
//	(6.12) round_time·Σ_c z[c] ≤ ts;  (6.13) ts − t_p·g[p] ≤ tidle[p];  (6.14) ts ≤ t^d
//	(6.15) min Σ_p (e_p·g[p] + P^idle_p·tidle[p]) + ec
//
// with a the arc (u,v) in (6.2)-(6.5) and the trivial rows f = a left out. (6.6) is an
// equality here: printed as ≤, it lets g exceed the load whenever idle power × time
// per cell exceeds the energy per cell, and phantom cells are then cheaper than
// idling (the thesis's data never meet that case, random instances do). With
// opt.Literal, y is indexed by ordered pairs as printed, (6.7) is written for both
// (p,k) and (k,p), and (6.8) sums y[(p,k),c] only, so Σ z is Δ(M), not χ'(M). Tasks
// without arcs, which the arc-slot model cannot place, get assignment binaries.
func ArcSlot(in *dom.Instance, opt Options) (*Formulation, error) {
	if opt.Colouring != ColourClasses {
		return nil, fmt.Errorf("stencil: the arc-slot model has only the thesis's colour-class block")
	}
	np, n := len(in.Processors), len(in.Tasks)
	kind := "arc-slot"
	if opt.Literal {
		kind = "arc-slot-literal"
	}
	f := &Formulation{Model: model.New("stencil-" + kind), Kind: kind, TimeScale: timeScale(in.Deadline), in: in, unit: cellUnit(in),
		iso: map[int][]model.Var{}, hasArc: make([]int, n)}
	m := f.Model
	for u := range f.hasArc {
		f.hasArc[u] = -1
	}
	deg := make([]int64, n)
	out := make([][]int, n)
	inc := make([][]int, n)
	for i, a := range in.Arcs {
		deg[a.From]++
		deg[a.To]++
		out[a.From] = append(out[a.From], i)
		inc[a.To] = append(inc[a.To], i)
		if f.hasArc[a.From] < 0 {
			f.hasArc[a.From] = i
		}
		if f.hasArc[a.To] < 0 {
			f.hasArc[a.To] = i
		}
	}
	L := degreeLCM(deg)
	slot := func(p, k int) int { return p*np + k }
	// x[a,p,k] for every arc and slot, diagonal included.
	f.x = make([][]model.Var, len(in.Arcs))
	for i, a := range in.Arcs {
		f.x[i] = make([]model.Var, np*np)
		var one model.Expr
		for p := 0; p < np; p++ {
			for k := 0; k < np; k++ {
				v := m.AddBinary(fmt.Sprintf("x[%d,%d,%d,%d]", a.From, a.To, p, k))
				f.x[i][slot(p, k)] = v
				one.Add(v, 1)
			}
		}
		m.AddConstr(one, model.EQ, 1, fmt.Sprintf("slot[%d]", i)) // (6.1)
	}
	tail := func(e *model.Expr, i, p int, s float64) { // Σ_k x[i,p,k]
		for k := 0; k < np; k++ {
			e.Add(f.x[i][slot(p, k)], s)
		}
	}
	head := func(e *model.Expr, i, p int, s float64) { // Σ_k x[i,k,p]
		for k := 0; k < np; k++ {
			e.Add(f.x[i][slot(k, p)], s)
		}
	}
	for i, a := range in.Arcs {
		u, v := a.From, a.To
		for p := 0; p < np; p++ {
			var e model.Expr
			for _, j := range out[u] { // (6.2)
				if j != i {
					e.Reset()
					tail(&e, i, p, 1)
					tail(&e, j, p, -1)
					m.AddConstr(e, model.EQ, 0, fmt.Sprintf("r2[%d,%d,%d]", i, p, j))
				}
			}
			for _, j := range inc[u] { // (6.3)
				e.Reset()
				tail(&e, i, p, 1)
				head(&e, j, p, -1)
				m.AddConstr(e, model.EQ, 0, fmt.Sprintf("r3[%d,%d,%d]", i, p, j))
			}
			for _, j := range out[v] { // (6.4)
				e.Reset()
				head(&e, i, p, 1)
				tail(&e, j, p, -1)
				m.AddConstr(e, model.EQ, 0, fmt.Sprintf("r4[%d,%d,%d]", i, p, j))
			}
			for _, j := range inc[v] { // (6.5)
				if j != i {
					e.Reset()
					head(&e, i, p, 1)
					head(&e, j, p, -1)
					m.AddConstr(e, model.EQ, 0, fmt.Sprintf("r5[%d,%d,%d]", i, p, j))
				}
			}
		}
	}
	// Isolated tasks (an extension: the thesis's grids have none).
	for u := 0; u < n; u++ {
		if f.hasArc[u] >= 0 {
			continue
		}
		var one model.Expr
		vs := make([]model.Var, np)
		for p := 0; p < np; p++ {
			vs[p] = m.AddBinary(fmt.Sprintf("a[%d,%d]", u, p))
			one.Add(vs[p], 1)
		}
		f.iso[u] = vs
		m.AddConstr(one, model.EQ, 1, fmt.Sprintf("assign[%d]", u))
	}
	totalUnits := in.TotalCells() / f.unit
	f.ts = m.AddContinuous(0, in.Deadline*(1+dom.TimeTol)*f.TimeScale, "ts")
	f.g = make([]model.Var, np)
	f.tidle = make([]model.Var, np)
	var obj model.Expr
	for p, pr := range in.Processors {
		hi := math.Min(totalUnits, math.Floor(pr.MemoryCells/f.unit+1e-9)) // (6.9) as a bound
		f.g[p] = m.AddInteger(0, hi, fmt.Sprintf("g[%d]", p))
		f.tidle[p] = m.AddContinuous(0, in.Deadline*(1+dom.TimeTol)*f.TimeScale, fmt.Sprintf("tidle[%d]", p))
		// (6.6) with the lcm scaling.
		var e model.Expr
		for i, a := range in.Arcs {
			du := float64(L) * (in.Tasks[a.From].Cells / f.unit) / float64(deg[a.From])
			dv := float64(L) * (in.Tasks[a.To].Cells / f.unit) / float64(deg[a.To])
			tail(&e, i, p, du)
			head(&e, i, p, dv)
		}
		for u, vs := range f.iso {
			e.Add(vs[p], float64(L)*in.Tasks[u].Cells/f.unit)
		}
		e.Add(f.g[p], -float64(L))
		m.AddConstr(e, model.EQ, 0, fmt.Sprintf("cells[%d]", p))
		// (6.11) and (6.13).
		tp := pr.TimePerCell * f.unit * f.TimeScale
		var busy model.Expr
		busy.Add(f.g[p], tp).Add(f.ts, -1)
		m.AddConstr(busy, model.LE, 0, fmt.Sprintf("busy[%d]", p))
		var idle model.Expr
		idle.Add(f.ts, 1).Add(f.g[p], -tp).Add(f.tidle[p], -1)
		m.AddConstr(idle, model.LE, 0, fmt.Sprintf("idle[%d]", p))
		obj.Add(f.g[p], pr.EnergyPerCell*f.unit)
		obj.Add(f.tidle[p], pr.IdlePower/f.TimeScale)
	}
	// (6.10).
	maxEc := 0.0
	var ec model.Expr
	for i, a := range in.Arcs {
		best := 0.0
		for p := 0; p < np; p++ {
			for k := 0; k < np; k++ {
				if p != k && in.LinkEnergy[p][k] > 0 {
					c := a.Cells * in.LinkEnergy[p][k]
					ec.Add(f.x[i][slot(p, k)], c)
					best = math.Max(best, c)
				}
			}
		}
		maxEc += best
	}
	f.ec = m.AddContinuous(0, maxEc, "ec")
	ec.Add(f.ec, -1)
	m.AddConstr(ec, model.LE, 0, "comm_energy")
	obj.Add(f.ec, 1)
	// (6.7)-(6.8) and (6.12).
	pairs := newPairs(np, opt.Literal)
	mult := make([]model.Expr, len(pairs.pairs))
	for pi, pr := range pairs.pairs {
		p, k := pr[0], pr[1]
		for i, a := range in.Arcs {
			if q := float64(in.Multiplicity(a, p, k)); q != 0 {
				mult[pi].Add(f.x[i][slot(p, k)], q)
			}
			if q := float64(in.Multiplicity(a, k, p)); q != 0 {
				mult[pi].Add(f.x[i][slot(k, p)], q)
			}
		}
	}
	col, err := addColouring(m, in, opt, mult, pairs, f.ts, f.TimeScale)
	if err != nil {
		return nil, err
	}
	f.col, f.Colours = col, col.K
	m.SetObjective(model.Minimize, obj)
	return f, m.Err()
}

// maxDegreeLCM is the largest L = lcm of the task degrees that (6.6) is scaled by. The
// scaling only makes the coefficients L·d_u/deg_u whole; a larger L (varied degrees
// quickly reach lcm(1..43) > 2⁶³, which wraps int64) would put huge coefficients in the
// row, so above this bound the row is written with L = 1 and fractional coefficients.
const maxDegreeLCM = 1 << 20

// degreeLCM returns the lcm of the positive degrees, or 1 when it exceeds
// maxDegreeLCM.
func degreeLCM(deg []int64) int64 {
	var L int64 = 1
	for _, d := range deg {
		if d <= 0 {
			continue
		}
		L = lcm(L, d)
		if L > maxDegreeLCM {
			return 1
		}
	}
	return L
}

// arcSlotTask reads task u's processor from its first incident arc's slot.
func (f *Formulation) arcSlotTask(u int, x []float64) int {
	np := len(f.in.Processors)
	if i := f.hasArc[u]; i >= 0 {
		tailSide := f.in.Arcs[i].From == u
		for p := 0; p < np; p++ {
			for k := 0; k < np; k++ {
				if x[f.x[i][p*np+k]] > 0.5 {
					if tailSide {
						return p
					}
					return k
				}
			}
		}
		return -1
	}
	for p, v := range f.iso[u] {
		if x[v] > 0.5 {
			return p
		}
	}
	return -1
}

// arcSlotStart sets x, g, tidle and ec from a mapping.
func (f *Formulation) arcSlotStart(assign []int, ev *dom.Evaluation) {
	m, np := f.Model, len(f.in.Processors)
	for i, a := range f.in.Arcs {
		for s, v := range f.x[i] {
			m.SetStart(v, b2f(s == assign[a.From]*np+assign[a.To]))
		}
	}
	for u, vs := range f.iso {
		for p, v := range vs {
			m.SetStart(v, b2f(assign[u] == p))
		}
	}
	for p, pr := range f.in.Processors {
		m.SetStart(f.g[p], math.Round(ev.Cells[p]/f.unit))
		m.SetStart(f.tidle[p], math.Max(0, (ev.TS-ev.Cells[p]*pr.TimePerCell)*f.TimeScale))
	}
	m.SetStart(f.ec, ev.CommEnergy)
}
