package dltmulti

import (
	"fmt"
	"math"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
	"github.com/schedopt/schedopt/model"
)

// Options select the variant of the model. The zero value is the strengthened model
// without a MIP start.
type Options struct {
	// Plain builds the thesis's model as printed (with the corrections listed in the
	// package comment): thesis big-M constants and no cuts, no symmetry breaking.
	Plain bool
	// NoSymmetry and NoBounds switch off single strengthening steps.
	NoSymmetry bool
	NoBounds   bool
	// UpperT, when > 0, is the length of a known feasible schedule; min-time without an
	// energy cap then uses it as the horizon (ignored by Plain).
	UpperT float64
	// Start, when it has exactly n messages, is given to the solver as a MIP start.
	Start *dm.Schedule
}

// Formulation is the built model with its columns, indexed [machine][slot].
type Formulation struct {
	Model   *model.Model
	In      *dm.Instance
	Horizon float64 // H: the upper bound on T, and Z in (6.17), (6.18), (6.22), (6.23)

	X, Y, U, Alpha, Q, Tau, Eij [][]model.Var
	Tj                          []model.Var // t_j, start of message j
	T                           model.Var
	IdleStart, Idle             []model.Var
	E0, ER, EI, ES, EN, E       model.Var // energy columns; -1 when the objective needs none
	hasEnergy                   bool
}

// ThesisZ returns Z = 2(max_i S_i + V·max_i C_i + n·max_i O_i + max_i max{a_1i V, a_2i V + b_2i}),
// the big constant the thesis gives for the min-time variant (§6.2.2).
func ThesisZ(in *dm.Instance) float64 {
	var s, c, o, tau float64
	for _, mc := range in.Machines {
		s = math.Max(s, mc.S)
		c = math.Max(c, mc.C)
		o = math.Max(o, mc.O)
		tau = math.Max(tau, mc.Tau(in.V))
	}
	return 2 * (s + in.V*c + float64(in.N)*o + tau)
}

// SingleMachineT returns min_i (S_i + n·O_i + C_i·V + τ_i(V)): the length of the best
// schedule that sends the whole load in one message to one machine, followed by n − 1
// empty messages to it. Every min-time optimum is at most this long.
func SingleMachineT(in *dm.Instance) float64 {
	best := math.Inf(1)
	for _, mc := range in.Machines {
		best = math.Min(best, mc.S+float64(in.N)*mc.O+mc.C*in.V+mc.Tau(in.V))
	}
	return best
}

// Horizon returns the upper bound H on T used by Build with opt.
func Horizon(in *dm.Instance, opt Options) float64 {
	if in.Deadline != nil {
		return *in.Deadline
	}
	if opt.Plain || in.EnergyLimit != nil {
		return ThesisZ(in)
	}
	h := SingleMachineT(in)
	if opt.UpperT > 0 {
		h = math.Min(h, opt.UpperT)
	}
	// The optimum may equal h exactly; a little room keeps solvers with loose
	// tolerances from declaring the thin region infeasible.
	return h*(1+horizonSlack) + horizonSlack
}

// horizonSlack is the relative (and absolute, in seconds) room added to a horizon that
// comes from a known schedule.
const horizonSlack = 1e-6

// Build returns the MIP (6.6)-(6.28) of the instance. Column and row names carry the
// equation numbers.
func Build(in *dm.Instance, opt Options) (*Formulation, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	m, n, V := in.M(), in.N, in.V
	H := Horizon(in, opt)
	mod := model.New("dlt-multi")
	mod.Grow(m*(7*n+2)+n+8, m*(n*n/2+16*n)+3*n+8, m*(3*n*n+60*n)) // size hint: the arrays are allocated once
	f := &Formulation{Model: mod, In: in, Horizon: H, E0: -1, ER: -1, EI: -1, ES: -1, EN: -1, E: -1}
	f.hasEnergy = in.Objective == dm.MinEnergy || in.EnergyLimit != nil
	mat := func() [][]model.Var {
		a := make([][]model.Var, m)
		for i := range a {
			a[i] = make([]model.Var, n)
		}
		return a
	}
	f.X, f.Y, f.U, f.Alpha, f.Q, f.Tau = mat(), mat(), mat(), mat(), mat(), mat()
	if f.hasEnergy {
		f.Eij = mat()
	}
	sMin := math.Inf(1)
	for _, mc := range in.Machines {
		sMin = math.Min(sMin, mc.S)
	}
	// T: fixed, or between a lower bound and the horizon.
	switch {
	case in.FixedLength:
		f.T = mod.AddContinuous(*in.Deadline, *in.Deadline, "T")
	case opt.Plain || opt.NoBounds:
		f.T = mod.AddContinuous(0, H, "T")
	default:
		f.T = mod.AddContinuous(math.Min(dm.ValidLowerBoundTime(in), H), H, "T")
	}
	f.Tj = make([]model.Var, n)
	for j := range n {
		lo := 0.0
		if !opt.Plain {
			lo = math.Min(sMin, H)
		}
		f.Tj[j] = mod.AddContinuous(lo, H, model.Indexed("t", j+1))
	}
	for i, mc := range in.Machines {
		for j := range n {
			f.X[i][j] = mod.AddBinary(model.Indexed("x", i+1, j+1))
			f.Y[i][j] = mod.AddBinary(model.Indexed("y", i+1, j+1))
			f.U[i][j] = mod.AddBinary(model.Indexed("u", i+1, j+1))
			f.Alpha[i][j] = mod.AddContinuous(0, V, model.Indexed("alpha", i+1, j+1))
			f.Q[i][j] = mod.AddContinuous(0, H, model.Indexed("q", i+1, j+1))
			f.Tau[i][j] = mod.AddContinuous(0, mc.Tau(V), model.Indexed("tau", i+1, j+1))
		}
	}
	f.IdleStart = make([]model.Var, m)
	f.Idle = make([]model.Var, m)
	for i := range m {
		f.IdleStart[i] = mod.AddContinuous(0, H, model.Indexed("idleStart", i+1))
		f.Idle[i] = mod.AddContinuous(0, H, model.Indexed("idle", i+1))
	}
	Z := H
	if opt.Plain && in.Deadline == nil {
		Z = ThesisZ(in)
	}
	var e model.Expr
	row := func(op model.Op, rhs float64, name string, idx ...int) {
		mod.AddConstr(e, op, rhs, model.Indexed(name, idx...))
		e.Reset()
	}
	for j := range n {
		// (6.13) exactly one receiver per message.
		for i := range m {
			e.Add(f.X[i][j], 1)
		}
		row(model.EQ, 1, "6.13", j+1)
		// (6.15) the receiver has had time S_i to start.
		for i, mc := range in.Machines {
			e.Add(f.X[i][j], mc.S)
		}
		e.Add(f.Tj[j], -1)
		row(model.LE, 0, "6.15", j+1)
		// (6.16) messages do not overlap on the link; t_{n+1} := T.
		e.Add(f.Tj[j], 1)
		for i, mc := range in.Machines {
			e.Add(f.Alpha[i][j], mc.C).Add(f.X[i][j], mc.O)
		}
		if j+1 < n {
			e.Add(f.Tj[j+1], -1)
		} else {
			e.Add(f.T, -1)
		}
		row(model.LE, 0, "6.16", j+1)
	}
	for i, mc := range in.Machines {
		b2 := mc.B2()
		zp := (mc.A2 - mc.A1) * V // Z' of (6.19)
		zpp := -b2                // Z″ of (6.19)
		for j := range n {
			x, a, q, tau, u := f.X[i][j], f.Alpha[i][j], f.Q[i][j], f.Tau[i][j], f.U[i][j]
			// (6.14)
			e.Add(a, 1).Add(x, -V)
			row(model.LE, 0, "6.14", i+1, j+1)
			// (6.17) chunk j on M_i is received and computed before M_i's next message l.
			for l := j + 1; l < n; l++ {
				e.Add(q, 1).Add(a, mc.C).Add(x, mc.O).Add(tau, 1).Add(f.Q[i][l], -1).Add(f.X[i][l], Z)
				row(model.LE, Z, "6.17", i+1, j+1, l+1)
			}
			// (6.18) q_ij = t_j·x_ij.
			e.Add(q, 1).Add(x, -Z)
			row(model.LE, 0, "6.18a", i+1, j+1)
			e.Add(q, 1).Add(f.Tj[j], -1)
			row(model.LE, 0, "6.18b", i+1, j+1)
			e.Add(q, 1).Add(f.Tj[j], -1).Add(x, -Z)
			row(model.GE, -Z, "6.18c", i+1, j+1)
			// (6.19) τ_ij = max{a_1i α, a_2i α + b_2i x} exactly, u = 1 out-of-core.
			e.Add(tau, 1).Add(a, -mc.A1).Add(u, -zp)
			row(model.LE, 0, "6.19a", i+1, j+1)
			e.Add(tau, 1).Add(a, -mc.A1)
			row(model.GE, 0, "6.19b", i+1, j+1)
			e.Add(tau, 1).Add(a, -mc.A2).Add(x, -b2).Add(u, zpp)
			row(model.LE, zpp, "6.19c", i+1, j+1)
			e.Add(tau, 1).Add(a, -mc.A2).Add(x, -b2)
			row(model.GE, 0, "6.19d", i+1, j+1)
			// (6.20) every computation ends by T.
			e.Add(q, 1).Add(a, mc.C).Add(x, mc.O).Add(tau, 1).Add(f.T, -1)
			row(model.LE, 0, "6.20", i+1, j+1)
			// (6.24) x_ij <= y_ij.
			e.Add(x, 1).Add(f.Y[i][j], -1)
			row(model.LE, 0, "6.24", i+1, j+1)
			if j+1 < n {
				// (6.25) y is non-decreasing.
				e.Add(f.Y[i][j], 1).Add(f.Y[i][j+1], -1)
				row(model.LE, 0, "6.25", i+1, j+1)
			}
			if j > 0 {
				// (6.26) y switches on only with a message.
				e.Add(f.Y[i][j], 1).Add(f.Y[i][j-1], -1).Add(x, -1)
				row(model.LE, 0, "6.26", i+1, j+1)
				// (6.22) idleStart_i = t_j − S_i where M_i gets its first message (y_ij − y_i,j−1 = 1).
				e.Add(f.IdleStart[i], 1).Add(f.Tj[j], -1).Add(f.Y[i][j], mc.S-Z).Add(f.Y[i][j-1], Z)
				row(model.GE, -Z, "6.22a", i+1, j+1)
				e.Add(f.IdleStart[i], 1).Add(f.Tj[j], -1).Add(f.Y[i][j], mc.S+Z).Add(f.Y[i][j-1], -Z)
				row(model.LE, Z, "6.22b", i+1, j+1)
			}
		}
		// (6.27) y_i1 = x_i1.
		e.Add(f.Y[i][0], 1).Add(f.X[i][0], -1)
		row(model.EQ, 0, "6.27", i+1)
		// (6.23) first slot, and idleStart_i = T for an unused machine.
		e.Add(f.IdleStart[i], 1).Add(f.Tj[0], -1).Add(f.Y[i][0], mc.S-Z)
		row(model.GE, -Z, "6.23a", i+1)
		e.Add(f.IdleStart[i], 1).Add(f.Tj[0], -1).Add(f.Y[i][0], mc.S+Z)
		row(model.LE, Z, "6.23b", i+1)
		e.Add(f.IdleStart[i], 1).Add(f.T, -1).Add(f.Y[i][n-1], Z)
		row(model.GE, 0, "6.23c", i+1)
		e.Add(f.IdleStart[i], 1).Add(f.T, -1).Add(f.Y[i][n-1], -Z)
		row(model.LE, 0, "6.23d", i+1)
		// (6.28) idle_i = T − (idleStart_i + Σ C α + S y_in + Σ O x + Σ τ).
		e.Add(f.Idle[i], 1).Add(f.T, -1).Add(f.IdleStart[i], 1).Add(f.Y[i][n-1], mc.S)
		for j := range n {
			e.Add(f.Alpha[i][j], mc.C).Add(f.X[i][j], mc.O).Add(f.Tau[i][j], 1)
		}
		row(model.EQ, 0, "6.28", i+1)
	}
	// (6.21) the whole load, as an equality (see the package comment).
	for i := range m {
		for j := range n {
			e.Add(f.Alpha[i][j], 1)
		}
	}
	row(model.EQ, V, "6.21")
	if !opt.Plain && !opt.NoSymmetry {
		f.addSymmetry()
	}
	if f.hasEnergy {
		if err := f.addEnergy(opt); err != nil {
			return nil, err
		}
	}
	switch in.Objective {
	case dm.MinTime:
		mod.SetObjective(model.Minimize, model.Term(f.T, 1))
	case dm.MinEnergy:
		mod.SetObjective(model.Minimize, model.Term(f.E, 1)) // (6.6)
	}
	if opt.Start != nil && len(opt.Start.Messages) == n {
		f.setStart(*opt.Start)
	}
	if err := mod.Err(); err != nil {
		return nil, fmt.Errorf("dltmulti: build: %w", err)
	}
	return f, nil
}

// addSymmetry orders identical machines by first use: for identical M_i and M_k with
// i < k (consecutive in their group), y_{i,j} >= y_{k,j}. Relabelling identical machines
// by the slot of their first message turns any schedule into one meeting these rows
// with the same T and E, so no optimal value is lost.
func (f *Formulation) addSymmetry() {
	in := f.In
	// next[i] is the next machine identical to M_i (-1: none), found by one pass from
	// the end with the parameters as a map key (dm.Identical compares exactly these),
	// so that 10⁴ distinct machines cost 10⁴ lookups, not 10⁸ comparisons.
	type params [11]float64
	next := make([]int, in.M())
	last := make(map[params]int, in.M())
	for i := in.M() - 1; i >= 0; i-- {
		mc := in.Machines[i]
		key := params{mc.A1, mc.A2, mc.K1, mc.K2, mc.Rho, mc.C, mc.O, mc.S, mc.PI, mc.PN, mc.PS}
		next[i] = -1
		if k, ok := last[key]; ok {
			next[i] = k
		}
		last[key] = i
	}
	var e model.Expr
	for i, k := range next {
		if k < 0 {
			continue
		}
		for j := range in.N {
			e.Add(f.Y[i][j], 1).Add(f.Y[k][j], -1)
			f.Model.AddConstr(e, model.GE, 0, model.Indexed("sym", i+1, k+1, j+1))
			e.Reset()
		}
	}
}

// addEnergy adds (6.6)-(6.12): the energy columns, E_ij >= both pieces of ε (3.2)
// (exact because E is minimised or capped), and the total E.
func (f *Formulation) addEnergy(opt Options) error {
	in, mod, H := f.In, f.Model, f.Horizon
	n := in.N
	var eMax, pMax float64
	for _, mc := range in.Machines {
		eMax += mc.Eps(in.V) + mc.PN*(mc.O*float64(n)+mc.C*in.V)
		pMax += math.Max(mc.PI, mc.PN)*H + mc.S*mc.PS
	}
	f.E0 = mod.AddContinuous(0, in.P0N*H, "E0")
	f.ER = mod.AddContinuous(0, eMax, "ER")
	f.EI = mod.AddContinuous(0, pMax, "EI")
	f.ES = mod.AddContinuous(0, pMax, "ES")
	f.EN = mod.AddContinuous(0, eMax, "EN")
	total := in.P0N*H + 2*eMax + 2*pMax
	lo := 0.0
	if !opt.Plain && !opt.NoBounds {
		lo = dm.ValidLowerBoundEnergy(in)
		if in.FixedLength {
			lo = math.Max(lo, lo-in.P0N*dm.ValidLowerBoundTime(in)+in.P0N**in.Deadline)
		}
		lo = math.Min(lo, total)
	}
	f.E = mod.AddContinuous(lo, total, "E")
	var e model.Expr
	row := func(op model.Op, rhs float64, name string) {
		mod.AddConstr(e, op, rhs, name)
		e.Reset()
	}
	e.Add(f.E, 1).Add(f.E0, -1).Add(f.ER, -1).Add(f.EI, -1).Add(f.ES, -1).Add(f.EN, -1)
	row(model.EQ, 0, "6.6")
	e.Add(f.E0, 1).Add(f.T, -in.P0N)
	row(model.EQ, 0, "6.7")
	e.Add(f.ER, 1)
	for i, mc := range in.Machines {
		for j := range n {
			// E_ij >= k_1i α_ij and E_ij >= k_2i α_ij + l_2i: exact because E is
			// minimised (min-energy) or only bounded above (energy cap). The thesis
			// writes l_2i x_ij; the constant gives the same maxima (α_ij = 0 when
			// x_ij = 0, and l_2i < 0) without a 1e6 coefficient on a binary (doc.go).
			v := mod.AddContinuous(0, mc.Eps(in.V), model.Indexed("E", i+1, j+1))
			var p model.Expr
			p.Add(v, 1).Add(f.Alpha[i][j], -mc.K1)
			mod.AddConstr(p, model.GE, 0, model.Indexed("6.9a", i+1, j+1))
			p.Reset()
			p.Add(v, 1).Add(f.Alpha[i][j], -mc.K2)
			mod.AddConstr(p, model.GE, mc.L2(), model.Indexed("6.9b", i+1, j+1))
			f.Eij[i][j] = v
			e.Add(v, -1)
		}
	}
	row(model.EQ, 0, "6.8")
	e.Add(f.EI, 1)
	for i, mc := range in.Machines {
		e.Add(f.IdleStart[i], -mc.PI).Add(f.Idle[i], -mc.PN)
	}
	row(model.EQ, 0, "6.10")
	e.Add(f.ES, 1)
	for i, mc := range in.Machines {
		e.Add(f.Y[i][n-1], -mc.S*mc.PS)
	}
	row(model.EQ, 0, "6.11")
	e.Add(f.EN, 1)
	for i, mc := range in.Machines {
		for j := range n {
			e.Add(f.X[i][j], -mc.O*mc.PN).Add(f.Alpha[i][j], -mc.C*mc.PN)
		}
	}
	row(model.EQ, 0, "6.12")
	if in.EnergyLimit != nil {
		e.Add(f.E, 1)
		row(model.LE, *in.EnergyLimit, "energy_limit")
	}
	return nil
}

// Decode turns solver values into a schedule: slot j goes to the machine with the
// largest x_ij, carries Σ_i α_ij and starts at t_j; T is the T column.
func (f *Formulation) Decode(x []float64) dm.Schedule {
	s := dm.Schedule{T: x[f.T], Messages: make([]dm.Message, f.In.N)}
	for j := range f.In.N {
		best, size := 0, 0.0
		for i := range f.In.M() {
			if x[f.X[i][j]] > x[f.X[best][j]] {
				best = i
			}
			size += x[f.Alpha[i][j]]
		}
		s.Messages[j] = dm.Message{Machine: best, Size: math.Max(size, 0), Start: x[f.Tj[j]]}
	}
	return s
}

// setStart gives the solver a complete MIP start built from a schedule with exactly n
// messages. A start that violates the instance is still passed on; the solver repairs
// or discards it.
func (f *Formulation) setStart(s dm.Schedule) {
	in, mod := f.In, f.Model
	r := dm.Evaluate(in, s, dm.EvalOptions{})
	T := r.T
	if in.FixedLength {
		T = *in.Deadline
	}
	mod.SetStart(f.T, T)
	seen := make([]bool, in.M())
	for j, msg := range s.Messages {
		mod.SetStart(f.Tj[j], msg.Start)
		for i, mc := range in.Machines {
			on := i == msg.Machine
			if on && !seen[i] {
				seen[i] = true
			}
			val := func(b bool) float64 {
				if b {
					return 1
				}
				return 0
			}
			a, tau := 0.0, 0.0
			if on {
				a, tau = msg.Size, mc.Tau(msg.Size)
			}
			mod.SetStart(f.X[i][j], val(on))
			mod.SetStart(f.Y[i][j], val(seen[i]))
			mod.SetStart(f.U[i][j], val(on && msg.Size > mc.Rho))
			mod.SetStart(f.Alpha[i][j], a)
			mod.SetStart(f.Q[i][j], val(on)*msg.Start)
			mod.SetStart(f.Tau[i][j], tau)
			if f.hasEnergy {
				mod.SetStart(f.Eij[i][j], val(on)*mc.Eps(a))
			}
		}
	}
	var ei float64
	for i, mc := range in.Machines {
		mr := r.Machines[i]
		idleStart, busy := T, 0.0
		if mr.Used {
			idleStart, busy = mr.IdleStart, mr.Busy+(T-r.T)
		}
		mod.SetStart(f.IdleStart[i], idleStart)
		mod.SetStart(f.Idle[i], busy)
		ei += mc.PI*idleStart + mc.PN*busy
	}
	if f.hasEnergy {
		mod.SetStart(f.E0, in.P0N*T)
		mod.SetStart(f.ER, r.Energy.ER)
		mod.SetStart(f.EI, ei)
		mod.SetStart(f.ES, r.Energy.ES)
		mod.SetStart(f.EN, r.Energy.EN)
		mod.SetStart(f.E, in.P0N*T+r.Energy.ER+ei+r.Energy.ES+r.Energy.EN)
	}
}
