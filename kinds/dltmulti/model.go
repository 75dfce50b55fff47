package dltmulti

import (
	"context"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
	"github.com/schedopt/schedopt/solve"
)

// startShapesModel reports whether the heuristic MIP start changes the model itself
// and not only the start: for min-time without a deadline or an energy cap, its length
// becomes the horizon H, and with it every big-M (formulations/dltmulti.Horizon).
func (p *Problem) startShapesModel() bool {
	in := p.Inst
	return !p.Opts.Plain && in.Objective == dm.MinTime && in.Deadline == nil && in.EnergyLimit == nil
}

// FormulateModel builds the model FormulateContext builds, without the heuristic MIP
// start where the start leaves the model unchanged (export writes no start): at m =
// 1000 the start was a fifth of `schedopt export`.
func (p *Problem) FormulateModel(ctx context.Context) (*solve.Formulated, error) {
	if p.startShapesModel() {
		return p.FormulateContext(ctx)
	}
	q := *p
	q.NoStart = true
	return q.FormulateContext(ctx)
}
