package dltmulti

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/exact/dltbb"
	"github.com/schedopt/schedopt/model"
)

// auditEvery is how often a node LP of the sequence branch-and-bound is solved a
// second time by a MILP backend: one in auditEvery, chosen by count, so that the
// audit costs a few per cent of the search.
const auditEvery = 16

// auditTol is how far below our simplex's value the backend's must be to count as a
// disagreement: the two solvers' own tolerances.
const auditTol = 1e-7

// lpAudit solves the node LPs with nodeLP and cross-checks a sample of them with a
// MILP backend (HiGHS). The branch-and-bound prunes with these values, so an LP value
// too high would prune wrongly: where the backend finds a lower value, or a solution
// where nodeLP said infeasible, the backend's answer is used (the safe one) and the
// disagreement counted. The result reports the counts, so every bound the search
// proves says how its LPs were checked.
type lpAudit struct {
	solver            backends.Solver // nil: no audit
	every             int64
	calls             atomic.Int64
	checked, differed atomic.Int64
}

// solve is a dltbb.LPSolver.
func (a *lpAudit) solve(p *dltbb.LP) ([]float64, float64, error) {
	x, obj, err := nodeLP(p)
	if a.solver == nil || a.calls.Add(1)%a.every != 0 {
		return x, obj, err
	}
	if err != nil && !errors.Is(err, dltbb.ErrInfeasible) {
		return x, obj, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, serr := a.solver.Solve(ctx, lpModel(p), backends.Options{Threads: 1, TimeLimit: 10 * time.Second})
	if serr != nil || r.Status != backends.Optimal && r.Status != backends.Infeasible {
		return x, obj, err // the backend gave no answer: unaudited
	}
	a.checked.Add(1)
	switch {
	case r.Status == backends.Optimal && err != nil: // we said infeasible, it has a solution
		a.differed.Add(1)
		return r.Values, r.Objective, nil
	case r.Status == backends.Optimal && r.Objective < obj-auditTol*math.Max(1, math.Abs(obj)):
		a.differed.Add(1)
		return x, r.Objective, nil
	}
	return x, obj, err
}

// backendLP solves a node LP with the backend (HiGHS); when the backend stops without
// an answer (status "other", seen on about 1 in 4000 min-energy node LPs of Table 6.1)
// it tries again with every row scaled to a largest coefficient of 1, and when that
// fails too it returns an error: the search then keeps the node open with its
// parent's bound, which is safe. The dense simplexes of exact/dltbb and exact/dltseq
// are not used here: the min-energy node LPs (objective coefficients in the
// thousands, loads bounded by z_i·β̄_i) are badly scaled for them, and on random tiny
// instances both were seen to return a vertex 10 % above the optimum, which would
// prune wrongly.
func (a *lpAudit) backendLP(p *dltbb.LP) ([]float64, float64, error) {
	a.calls.Add(1)
	for try := range 2 {
		q := p
		if try == 1 {
			q = rowScaled(p)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		r, err := a.solver.Solve(ctx, lpModel(q), backends.Options{Threads: 1, TimeLimit: 10 * time.Second})
		cancel()
		if err != nil {
			continue
		}
		switch r.Status {
		case backends.Optimal:
			a.checked.Add(1)
			return r.Values, r.Objective, nil
		case backends.Infeasible:
			a.checked.Add(1)
			return nil, 0, dltbb.ErrInfeasible
		}
	}
	a.differed.Add(1) // here: no answer
	return nil, 0, errors.New("dltmulti: node LP: no answer from the backend")
}

// rowScaled returns p with every row divided by its largest absolute coefficient.
func rowScaled(p *dltbb.LP) *dltbb.LP {
	q := &dltbb.LP{C: p.C, Rel: p.Rel, Rows: make([][]float64, len(p.Rows)), B: make([]float64, len(p.B))}
	for r, row := range p.Rows {
		big := 0.0
		for _, v := range row {
			big = math.Max(big, math.Abs(v))
		}
		if big == 0 {
			big = 1
		}
		q.Rows[r] = make([]float64, len(row))
		for k, v := range row {
			q.Rows[r][k] = v / big
		}
		q.B[r] = p.B[r] / big
	}
	return q
}

// summary says how the node LPs were checked, for the result.
func (a *lpAudit) summary() string {
	if a.every == 0 {
		return fmt.Sprintf("%d node LPs solved by %s, %d without an answer (kept open with the parent's bound)", a.checked.Load(), a.solver.Name(), a.differed.Load())
	}
	if a.solver == nil {
		return "node LPs not audited"
	}
	return fmt.Sprintf("%d node LPs re-solved by %s, %d lower there (the lower value used)",
		a.checked.Load(), a.solver.Name(), a.differed.Load())
}

// lpModel is p as a model: min C·x, Rows·x (Rel) B, x >= 0.
func lpModel(p *dltbb.LP) *model.Model {
	m := model.New("dltbb-node")
	xs := make([]model.Var, len(p.C))
	for j := range xs {
		xs[j] = m.AddContinuous(0, math.Inf(1), "")
	}
	var e model.Expr
	for r, row := range p.Rows {
		e.Reset()
		for j, v := range row {
			if v != 0 {
				e.Add(xs[j], v)
			}
		}
		op := model.EQ
		switch {
		case p.Rel[r] < 0:
			op = model.LE
		case p.Rel[r] > 0:
			op = model.GE
		}
		m.AddConstr(e, op, p.B[r], "")
	}
	e.Reset()
	for j, c := range p.C {
		if c != 0 {
			e.Add(xs[j], c)
		}
	}
	m.SetObjective(model.Minimize, e)
	return m
}
