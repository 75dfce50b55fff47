package dltsingle

import (
	"fmt"
	"math"

	"github.com/schedopt/schedopt/domain/dlt"
	"github.com/schedopt/schedopt/model"
)

// Options select variants of the formulation.
type Options struct {
	// Plain gives the thesis's model as printed, without the symmetry breaking
	// x_i >= x_{i+1} (used machines first), so the two can be compared.
	Plain bool
}

// Formulation is the ILP of an instance with the columns the decoder reads.
type Formulation struct {
	Model *model.Model
	Alpha []model.Var // α_i
	X     []model.Var // x_i = 1 when machine i is started (5.10)-(5.11)
	TR    []model.Var // t_i^R = τ(α_i), exact (3.1)
	U     []model.Var // selector of t_i^R: 1 when the out-of-core piece is active
	TI    []model.Var // t_i^I idle time (5.9)
	ER    []model.Var // E_i^R >= ε(α_i) (3.2); nil when the energy is not modelled
	T     model.Var
	// Energy is E (5.4) as an expression of the columns; valid when ER is not nil.
	Energy model.Expr

	load float64 // V
}

// Build returns the ILP (5.1)-(5.11) of in:
//
//	(5.7)  Σ α_i = V
//	(5.8)  Σ_{i<=j} x_i S + C Σ_{i<=j} α_i + t_j^R <= T        j = 1..m  (the thesis prints Σ_{i=i}^j; the sum starts at 1)
//	(5.9)  t_i^I + S x_i + C α_i + t_i^R = T                   i = 1..m
//	(5.10) α_i <= V x_i                                        i = 1..m
//	(5.11) x_i ∈ {0, 1}
//	(3.1)  t_i^R = max{a1 α_i, a2 α_i + b2}                     exact, model.MaxOfAffine
//	(3.2)  E_i^R >= k1 α_i,  E_i^R >= k2 α_i + l2               epigraph
//	(5.1)-(5.4) E = Σ_i (x_i S P^S + t_i^I P^I + C α_i P^N + E_i^R) + P^I T + (S Σ x_i + C V)(P^N − P^I)
//
// with objective min T (5.5), adding E <= energy_limit when given and T <= deadline
// when given, or min E (5.6) with T <= deadline, or T = deadline when fixed_length.
// Unless opts.Plain, x_i >= x_{i+1}: the machines are identical and unused ones add
// nothing to (5.8), so some optimum starts its used machines first.
//
// Bounds: α_i ∈ [0, V]; T ∈ [S + max{CV, (C+a1)V/m}, mS + CV + τ(V)] (the lower bound
// holds for every schedule; a schedule longer than its makespan only adds idle energy,
// and no makespan exceeds the upper one), capped by the deadline, or fixed to it;
// t_i^I ∈ [0, T_max]. The big-M constants of the selector follow from the bounds of α
// of α: (a2 − a1)V + b2 and −b2, each tighter than or equal to (6.19)'s Z' and Z”.
//
// The thesis writes the intercepts as b2·x_i and l2·x_i (6.19), (6.9). Here they are
// constants: an unused machine has α_i = 0 (5.10), and then max{0, b2} = 0 and
// max{0, l2} = 0 because b2, l2 <= 0, so the maxima are unchanged. This keeps large
// coefficients (|l2| reaches 1e6 J) off the binaries, which lp_solve's integer scaling
// otherwise turns into false infeasibility.
func Build(in *dlt.SingleInstance, opts Options) (*Formulation, error) {
	mem := in.Memory()
	b2, l2 := mem.B2(), mem.L2()
	m := model.New("dlt-single " + in.Name)
	n := in.M
	f := &Formulation{Model: m, load: in.V}
	tLo, tHi := in.TimeLowerBound(), in.TimeUpperBound()
	if in.Deadline != nil {
		if in.FixedLength {
			tLo, tHi = *in.Deadline, *in.Deadline
		} else {
			tHi = math.Min(tHi, *in.Deadline)
		}
	}
	if tLo > tHi { // the deadline is below the lower bound: an empty model, reported infeasible
		tLo = tHi
	}
	f.T = m.AddContinuous(tLo, tHi, "T")
	withEnergy := in.Objective == dlt.MinEnergy || in.EnergyLimit != nil
	var load model.Expr
	var prefix model.Expr // Σ_{i<=j} (x_i S + C α_i)
	for i := 0; i < n; i++ {
		a := m.AddContinuous(0, in.V, fmt.Sprintf("alpha_%d", i+1))
		x := m.AddBinary(fmt.Sprintf("x_%d", i+1))
		f.Alpha, f.X = append(f.Alpha, a), append(f.X, x)
		load.Add(a, 1)
		// (3.1) exact: t^R = max{a1 α, a2 α + b2 x}.
		var p1, p2 model.Expr
		p1.Add(a, mem.A1)
		p2.Add(a, mem.A2).AddConst(b2)
		tr, sel, err := m.MaxOfAffine([]model.Expr{p1, p2}, fmt.Sprintf("tR_%d", i+1))
		if err != nil {
			return nil, fmt.Errorf("dltsingle: running time of machine %d: %w", i+1, err)
		}
		f.TR = append(f.TR, tr)
		if len(sel) > 0 {
			f.U = append(f.U, sel[0])
		}
		ti := m.AddContinuous(0, tHi, fmt.Sprintf("tI_%d", i+1))
		f.TI = append(f.TI, ti)
		// (5.8)
		prefix.Add(x, in.S).Add(a, in.C)
		e := prefix.Clone()
		e.Add(tr, 1).Add(f.T, -1)
		m.AddConstr(e, model.LE, 0, fmt.Sprintf("chain_%d", i+1))
		// (5.9)
		var idle model.Expr
		idle.Add(ti, 1).Add(x, in.S).Add(a, in.C).Add(tr, 1).Add(f.T, -1)
		m.AddConstr(idle, model.EQ, 0, fmt.Sprintf("idle_%d", i+1))
		// (5.10)
		var use model.Expr
		use.Add(a, 1).Add(x, -in.V)
		m.AddConstr(use, model.LE, 0, fmt.Sprintf("use_%d", i+1))
		if withEnergy {
			var q1, q2 model.Expr
			q1.Add(a, mem.K1)
			q2.Add(a, mem.K2).AddConst(l2)
			er, err := m.Epigraph([]model.Expr{q1, q2}, fmt.Sprintf("ER_%d", i+1))
			if err != nil {
				return nil, fmt.Errorf("dltsingle: running energy of machine %d: %w", i+1, err)
			}
			m.SetBounds(er, 0, math.Max(mem.K1*in.V, mem.K2*in.V+math.Min(0, l2)))
			f.ER = append(f.ER, er)
		}
	}
	m.AddConstr(load, model.EQ, in.V, "load") // (5.7)
	if !opts.Plain {
		for i := 0; i+1 < n; i++ {
			var e model.Expr
			e.Add(f.X[i], 1).Add(f.X[i+1], -1)
			m.AddConstr(e, model.GE, 0, fmt.Sprintf("first_used_%d", i+1))
		}
	}
	if withEnergy {
		f.Energy = energy(in, f)
	}
	if in.EnergyLimit != nil {
		m.AddConstr(f.Energy, model.LE, *in.EnergyLimit, "energy_limit") // (5.5)
	}
	if in.Objective == dlt.MinEnergy {
		m.SetObjective(model.Minimize, f.Energy) // (5.6)
	} else {
		m.SetObjective(model.Minimize, model.Term(f.T, 1)) // (5.5)
	}
	if err := m.Err(); err != nil {
		return nil, fmt.Errorf("dltsingle: %w", err)
	}
	return f, nil
}

// energy returns E of (5.1)-(5.4): Σ_i (x_i S P^S + t_i^I P^I + C α_i P^N + E_i^R) +
// P^I T + (S Σ x_i + C V)(P^N − P^I).
func energy(in *dlt.SingleInstance, f *Formulation) model.Expr {
	var e model.Expr
	for i := range f.Alpha {
		e.Add(f.X[i], in.S*in.PS).Add(f.TI[i], in.PI).Add(f.Alpha[i], in.C*in.PN).Add(f.ER[i], 1) // (5.1)
		e.Add(f.X[i], in.S*(in.PN-in.PI))                                                         // (5.3), startups
	}
	e.Add(f.T, in.PI)                         // (5.3)
	e.AddConst(in.C * in.V * (in.PN - in.PI)) // (5.3), transfers
	return e
}

// zeroChunk is the fraction of V below which a decoded chunk is solver round-off and
// read as 0 (far below the evaluator's tolerance on Σα = V).
const zeroChunk = 1e-10

// Decode reads the schedule from solver values: T, the chunks (round-off below zero
// clipped) and the used flags. When the model has no energy terms (min-time without an
// energy limit) the solver may start a machine and give it nothing at no cost in T;
// such machines are reported unused, which only lets later machines start earlier, so
// the schedule stays valid and its energy (5.4) is the lowest for these chunks. E is
// left for the evaluator to fill in; ModelEnergy gives the model's own value where it
// has one.
func (f *Formulation) Decode(x []float64) *dlt.SingleSolution {
	sol := &dlt.SingleSolution{T: x[f.T], Alpha: make([]float64, len(f.Alpha)), Used: make([]bool, len(f.X))}
	for i := range f.Alpha {
		sol.Alpha[i] = math.Max(0, x[f.Alpha[i]])
		if sol.Alpha[i] <= zeroChunk*f.load {
			sol.Alpha[i] = 0
		}
		sol.Used[i] = x[f.X[i]] > 0.5
		if f.ER == nil && sol.Alpha[i] == 0 {
			sol.Used[i] = false
		}
	}
	return sol
}

// ModelEnergy returns E as the model computes it at x, and false when the model has no
// energy terms (min-time without an energy limit).
func (f *Formulation) ModelEnergy(x []float64) (float64, bool) {
	if f.ER == nil {
		return 0, false
	}
	return f.Energy.Value(x), true
}
