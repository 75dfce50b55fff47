// Package flatmap draws energy maps of the star with limited flat memory, the LP
// (2.5)-(2.9) of seed 004 §2.2.2, where the chapter 4 closed forms no longer hold: m
// identical workers (a, C, S) each with memory B, load V sent once in a fixed order.
// The thesis draws isoenergy maps only for unlimited memory; this goes beyond it.
//
// Every grid node is one LP solve through the project's certified path (kinds/dlt's
// "dlt-flat" problem: certify.Solve, the flat-memory evaluator and the exact
// cross-check), run in parallel by isoline.EvalGrid. The energy of the LP's schedule is
// (4.16) with the LP's length T: (4.13)-(4.15) depend on a schedule only through T and
// Σα_i = V, since every worker is active for S + (C + a)α_i and the originator and the
// network for mS + CV. Isolines are then contoured on the grid (isoline.Contour), so they
// are only as exact as the grid is fine.
//
// Two differences from the chapter 4 maps: a configuration is infeasible only when
// V > m·B (the LP has no solution); and where chapter 4 calls a configuration infeasible
// (α_m < 0 in (4.8)), the LP still schedules it, leaving the last workers without load
// (each still pays its startup in (2.6)).
package flatmap

import (
	"context"
	"fmt"
	"math"

	ddlt "github.com/schedopt/schedopt/domain/dlt"
	"github.com/schedopt/schedopt/maps/energy"
	"github.com/schedopt/schedopt/maps/isoline"
)

// B is the position of the memory size in the model's parameter vectors, after the
// eight parameters of energy.DLT.
const B = energy.PN + 1

// Model is the flat-memory model's parameter set (energy.DLT's and the memory size B of
// every worker). Its Eval is the chapter 4 closed form where that is the LP optimum —
// the closed form is feasible and its largest chunk α_1 fits in B — and reports every
// other configuration as infeasible: grids of the full model need an LP per node
// (Evaluator).
type Model struct{}

// Name is "flat".
func (Model) Name() string { return "flat" }

// EnergyUnit is joules.
func (Model) EnergyUnit() string { return "J" }

// Params are m, a, C, S, V, k, PC, PN, B.
func (Model) Params() []energy.Param {
	ps := energy.DLT{}.Params()
	ps[energy.M].Range = [2]float64{1, 200}
	return append(ps, energy.Param{Name: "B", Unit: "unit", Desc: "memory size", Min: 0, MinOpen: true,
		Max: math.Inf(1), Range: [2]float64{1e8, 1e11}, Log: true})
}

// Reference is the chapter 4 reference instance with m = 100 workers (so that a grid
// of LPs solves in seconds) and B = 1.002E9 units per worker, which binds: the closed
// form's first chunk is 1.0050E9 and V/m = 1E9.
func (Model) Reference() []float64 { return []float64{100, 1e-3, 1e-8, 100, 1e11, 3, 200, 50, 1.002e9} }

// Eval is the closed form where it solves the LP (see Model).
func (Model) Eval(p []float64) energy.Point {
	pt := energy.DLT{}.Eval(p[:B])
	if !pt.Feasible || !(p[B] > 0) {
		return energy.Point{E: math.NaN(), T: math.NaN()}
	}
	if alpha1 := (pt.T - p[energy.S]) / (p[energy.A] + p[energy.C]); alpha1 > p[B] {
		return energy.Point{E: math.NaN(), T: math.NaN()}
	}
	return pt
}

// Solve has no closed form.
func (Model) Solve(int, float64, []float64) (float64, bool) { return 0, false }

// Instance is the "dlt-flat" instance of a parameter vector: m identical workers.
func Instance(p []float64) *ddlt.FlatInstance {
	m := int(p[energy.M])
	in := &ddlt.FlatInstance{Kind: "dlt-flat", Name: "flatmap", V: p[energy.V], Objective: "min-time",
		Machines: make([]ddlt.FlatMachine, m)}
	for i := range in.Machines {
		b := p[B]
		in.Machines[i] = ddlt.FlatMachine{A: p[energy.A], C: p[energy.C], S: p[energy.S], B: &b}
	}
	return in
}

// LengthFunc returns the optimum length T of the LP (2.5)-(2.9) of an instance, with
// feasible false when the LP has no solution. It must be safe for concurrent use.
type LengthFunc func(ctx context.Context, in *ddlt.FlatInstance) (T float64, feasible bool, err error)

// Evaluator returns the isoline.Evaluator of the flat-memory model: V > m·B is
// infeasible without a solve; otherwise T comes from length and E from (4.16).
func Evaluator(length LengthFunc) isoline.Evaluator {
	return func(ctx context.Context, p []float64) (energy.Point, error) {
		ps := Model{}.Params()
		for i, v := range p {
			if !ps[i].Admits(v) {
				return energy.Point{E: math.NaN(), T: math.NaN()}, nil
			}
		}
		if p[energy.V] > p[energy.M]*p[B] {
			return energy.Point{E: math.NaN(), T: math.NaN()}, nil
		}
		T, ok, err := length(ctx, Instance(p))
		if err != nil {
			return energy.Point{}, fmt.Errorf("flatmap: %w", err)
		}
		if !ok {
			return energy.Point{E: math.NaN(), T: math.NaN()}, nil
		}
		e := ddlt.EnergyCh4(energy.System(p[:B]), T)
		return energy.Point{E: e.E, T: T, Feasible: true}, nil
	}
}
