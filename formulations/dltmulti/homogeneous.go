package dltmulti

import (
	"fmt"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
	"github.com/schedopt/schedopt/model"
)

// Homogeneous is the §5.2.3 model (5.17)-(5.26) with its columns, [machine][slot].
type Homogeneous struct {
	Model               *model.Model
	In                  *dm.Instance
	X, U, Alpha, Q, Tau [][]model.Var
	Tj                  []model.Var
	T                   model.Var
}

// BuildHomogeneous returns the minimum-time MIP (5.17)-(5.26) of §5.2.3 for an
// instance of identical machines (the special case of (6.6)-(6.28) without energy):
//
//	(5.17) min T
//	(5.18) t_j + C Σ_i α_ij + O Σ_i x_ij <= t_{j+1}          (t_{n+1} := T)
//	(5.19) q_ij + C α_ij + O x_ij + τ_ij <= T
//	(5.20) q_ij + C α_ij + O x_ij + τ_ij <= q_il + (1 − x_il) Z     l > j
//	(5.21) S Σ_i x_ij <= t_j
//	(5.22) Σ α_ij >= V
//	(5.23) α_ij <= V x_ij
//	(5.24) Σ_i x_ij = 1
//	(5.25) q_ij = t_j x_ij (four rows with Z)
//	(5.26) τ_ij = max{a_1 α_ij, a_2 α_ij + b_2} (exact, with u_ij, Z' = (a_2 − a_1)V, Z″ = −b_2)
//
// Z is not given in §5.2.3; we use the chapter 6 value (ThesisZ). In (5.26) the b_2
// term is multiplied by x_ij, as in (6.19): with the printed constant b_2, the row
// τ_ij <= a_2 α_ij + b_2 + Z″(1 − u_ij) would force u_ij = 0 on an empty slot, which
// changes nothing else. (5.22) is kept as printed (>=): in min-time extra load never
// helps. The optimum equals that of Build for min-time on identical machines (checked
// in bench with HiGHS).
func BuildHomogeneous(in *dm.Instance) (*Homogeneous, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	for i := 1; i < in.M(); i++ {
		if !dm.Identical(in.Machines[0], in.Machines[i]) {
			return nil, fmt.Errorf("dltmulti: (5.17)-(5.26) need identical machines; machine %d differs", i)
		}
	}
	mc := in.Machines[0]
	m, n, V := in.M(), in.N, in.V
	Z := ThesisZ(in)
	mod := model.New("dlt-multi-homogeneous")
	h := &Homogeneous{Model: mod, In: in}
	h.T = mod.AddContinuous(0, Z, "T")
	h.Tj = make([]model.Var, n)
	for j := range n {
		h.Tj[j] = mod.AddContinuous(0, Z, fmt.Sprintf("t[%d]", j+1))
	}
	mk := func() [][]model.Var {
		a := make([][]model.Var, m)
		for i := range a {
			a[i] = make([]model.Var, n)
		}
		return a
	}
	h.X, h.U, h.Alpha, h.Q, h.Tau = mk(), mk(), mk(), mk(), mk()
	for i := range m {
		for j := range n {
			h.X[i][j] = mod.AddBinary(fmt.Sprintf("x[%d,%d]", i+1, j+1))
			h.U[i][j] = mod.AddBinary(fmt.Sprintf("u[%d,%d]", i+1, j+1))
			h.Alpha[i][j] = mod.AddContinuous(0, V, fmt.Sprintf("alpha[%d,%d]", i+1, j+1))
			h.Q[i][j] = mod.AddContinuous(0, Z, fmt.Sprintf("q[%d,%d]", i+1, j+1))
			h.Tau[i][j] = mod.AddContinuous(0, mc.Tau(V), fmt.Sprintf("tau[%d,%d]", i+1, j+1))
		}
	}
	var e model.Expr
	row := func(op model.Op, rhs float64, name string, args ...any) {
		mod.AddConstr(e, op, rhs, fmt.Sprintf(name, args...))
		e.Reset()
	}
	b2 := mc.B2()
	for j := range n {
		e.Add(h.Tj[j], 1)
		for i := range m {
			e.Add(h.Alpha[i][j], mc.C).Add(h.X[i][j], mc.O)
		}
		if j+1 < n {
			e.Add(h.Tj[j+1], -1)
		} else {
			e.Add(h.T, -1)
		}
		row(model.LE, 0, "5.18[%d]", j+1)
		for i := range m {
			e.Add(h.X[i][j], mc.S)
		}
		e.Add(h.Tj[j], -1)
		row(model.LE, 0, "5.21[%d]", j+1)
		for i := range m {
			e.Add(h.X[i][j], 1)
		}
		row(model.EQ, 1, "5.24[%d]", j+1)
	}
	for i := range m {
		for j := range n {
			x, a, q, tau, u := h.X[i][j], h.Alpha[i][j], h.Q[i][j], h.Tau[i][j], h.U[i][j]
			e.Add(q, 1).Add(a, mc.C).Add(x, mc.O).Add(tau, 1).Add(h.T, -1)
			row(model.LE, 0, "5.19[%d,%d]", i+1, j+1)
			for l := j + 1; l < n; l++ {
				e.Add(q, 1).Add(a, mc.C).Add(x, mc.O).Add(tau, 1).Add(h.Q[i][l], -1).Add(h.X[i][l], Z)
				row(model.LE, Z, "5.20[%d,%d,%d]", i+1, j+1, l+1)
			}
			e.Add(a, 1).Add(x, -V)
			row(model.LE, 0, "5.23[%d,%d]", i+1, j+1)
			e.Add(q, 1).Add(x, -Z)
			row(model.LE, 0, "5.25a[%d,%d]", i+1, j+1)
			e.Add(q, 1).Add(h.Tj[j], -1)
			row(model.LE, 0, "5.25b[%d,%d]", i+1, j+1)
			e.Add(q, 1).Add(h.Tj[j], -1).Add(x, -Z)
			row(model.GE, -Z, "5.25c[%d,%d]", i+1, j+1)
			e.Add(tau, 1).Add(a, -mc.A1).Add(u, -(mc.A2-mc.A1)*V)
			row(model.LE, 0, "5.26a[%d,%d]", i+1, j+1)
			e.Add(tau, 1).Add(a, -mc.A1)
			row(model.GE, 0, "5.26b[%d,%d]", i+1, j+1)
			e.Add(tau, 1).Add(a, -mc.A2).Add(x, -b2).Add(u, -b2)
			row(model.LE, -b2, "5.26c[%d,%d]", i+1, j+1)
			e.Add(tau, 1).Add(a, -mc.A2).Add(x, -b2)
			row(model.GE, 0, "5.26d[%d,%d]", i+1, j+1)
		}
	}
	for i := range m {
		for j := range n {
			e.Add(h.Alpha[i][j], 1)
		}
	}
	row(model.GE, V, "5.22")
	mod.SetObjective(model.Minimize, model.Term(h.T, 1))
	if err := mod.Err(); err != nil {
		return nil, fmt.Errorf("dltmulti: build (5.17)-(5.26): %w", err)
	}
	return h, nil
}
