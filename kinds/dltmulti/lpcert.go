package dltmulti

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/exact/dltbb"
	"github.com/schedopt/schedopt/model"
)

// certTol is how far below a solver's objective the dual bound of its multipliers
// may lie for the objective to count as certified: the solvers' own tolerances. The
// search takes a further 1e-4 off every bound (dltbb's lpBoundSlack).
const certTol = 1e-7

// lpCert solves the node LPs of the sequence branch-and-bound so that no bound it
// returns depends on a solver being right. The branch-and-bound prunes with these
// values, and a value too high would prune the optimum away; a dense simplex can stop
// at a wrong vertex without an error (seen on min-energy node LPs, 4 % above the
// optimum). So every value is the safe bound dltbb.DualBound computes from a solver's
// row multipliers, and every infeasibility is a Farkas proof
// (dltbb.InfeasibilityProof). The solvers are asked in turn: the search's own dense
// simplex (exact/dltbb: fast on these small LPs, and it returns a Farkas ray with an
// infeasibility, which HiGHS does not), then HiGHS. For min-energy the own simplex
// works on the equilibrated program: the node LPs mix objective coefficients in the
// thousands with 1e-3 rates, and unscaled it was seen to stop 4 % above the optimum
// (its multipliers then do not certify, and HiGHS answers). On Table 6.1 at T = 432 s
// this order took 17.5 s of CPU where HiGHS first took 23.2 s (same tree): more than
// two thirds of those LPs are infeasible, and only the own simplex proves that.
//
// The first whose multipliers certify its objective (within certTol) answers. When
// none does, a solver's point is returned with the best valid bound any of them gave
// (a weaker but sound node bound; −Inf when there is none), and without a point an
// error: the search keeps the node open with its parent's bound. An infeasibility
// that no ray proves stands only when every solver reports it.
//
// The counts say how every bound of a search was certified; they go into the result.
type lpCert struct {
	solvers []certSolver

	calls   atomic.Int64
	byFirst atomic.Int64 // objective certified by the first solver's multipliers
	byLater atomic.Int64 // ... by a later solver's
	weak    atomic.Int64 // a point with a valid bound below its objective (maybe −Inf)
	proved  atomic.Int64 // infeasibility proven by a Farkas ray
	agreed  atomic.Int64 // infeasibility reported by every solver, not proven
	failed  atomic.Int64 // no point: an error (the node stays open)
}

// certSolver is one solver of an lpCert: a name for the summary and a function that
// returns a point, its objective and row multipliers (dltbb.LPSolution).
type certSolver struct {
	name  string
	solve func(*dltbb.LP) (dltbb.LPSolution, error)
}

// newLPCert returns the certifying node-LP solver for the objective, with backend
// (HiGHS; may be nil) as the second solver.
func newLPCert(backend backends.Solver, minEnergy bool) *lpCert {
	own := certSolver{"the search's simplex", dltbb.SimplexDual}
	if minEnergy {
		own = certSolver{"the search's simplex (equilibrated)", dltbb.SimplexDualScaled}
	}
	if backend == nil {
		return &lpCert{solvers: []certSolver{own}}
	}
	second := certSolver{backend.Name(), func(p *dltbb.LP) (dltbb.LPSolution, error) { return backendLP(backend, p) }}
	return &lpCert{solvers: []certSolver{own, second}}
}

// solve is the dltbb.LPSolver of the search.
func (a *lpCert) solve(p *dltbb.LP) ([]float64, float64, error) {
	a.calls.Add(1)
	best := math.Inf(-1) // the best valid bound so far
	var x []float64
	infeasible := 0
	for k, sv := range a.solvers {
		s, err := sv.solve(p)
		switch {
		case err == nil:
			// DualBound(p, s.Y): dltbb.SimplexDual computes it to check itself and
			// says so (Certified); no other solver sets it.
			lb := s.Bound
			if !s.Certified {
				lb = dltbb.DualBound(p, s.Y)
			}
			if lb > best {
				best = lb
			}
			if certified(best, s.Obj) {
				if k == 0 {
					a.byFirst.Add(1)
				} else {
					a.byLater.Add(1)
				}
				return s.X, math.Min(s.Obj, best), nil
			}
			if x == nil {
				x = s.X
			}
		case errors.Is(err, dltbb.ErrInfeasible):
			if dltbb.InfeasibilityProof(p, s.Y) {
				a.proved.Add(1)
				return nil, 0, dltbb.ErrInfeasible
			}
			infeasible++
		}
	}
	switch {
	case x != nil:
		// A point without a certified objective: its schedule can still be an
		// incumbent (the evaluator checks it), and the node keeps the best valid
		// bound, −Inf when there is none (before the first incumbent the time columns
		// of a min-time node have no upper bound, which DualBound needs).
		a.weak.Add(1)
		return x, best, nil
	case infeasible == len(a.solvers):
		a.agreed.Add(1)
		return nil, 0, dltbb.ErrInfeasible
	}
	a.failed.Add(1)
	return nil, 0, errors.New("dltmulti: node LP: no solver gave a point or a proof")
}

// certified reports whether the valid bound lb certifies the objective obj.
func certified(lb, obj float64) bool {
	return lb >= obj-certTol*math.Max(1, math.Abs(obj))
}

// backendLP solves p with the backend, and again with every row scaled to a largest
// coefficient of 1 when the first try gives no answer (status "other", seen on about
// 1 in 4000 min-energy node LPs of Table 6.1); the row duals it returns are those of
// p's rows. An infeasible program is an error wrapping dltbb.ErrInfeasible (HiGHS
// gives no ray: the caller cannot prove it); no answer from either try is an error.
func backendLP(backend backends.Solver, p *dltbb.LP) (dltbb.LPSolution, error) {
	for try := range 2 {
		q, scale := p, []float64(nil)
		if try == 1 {
			q, scale = rowScaled(p)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		r, err := backend.Solve(ctx, lpModel(q), backends.Options{Threads: 1, TimeLimit: 10 * time.Second})
		cancel()
		switch {
		case err != nil:
			continue
		case r.Status == backends.Infeasible:
			return dltbb.LPSolution{}, fmt.Errorf("%s: %w", backend.Name(), dltbb.ErrInfeasible)
		case r.Status != backends.Optimal:
			continue
		}
		if scale != nil && r.RowDuals != nil {
			// Row r of q is row r of p times scale[r].
			for k := range r.RowDuals {
				r.RowDuals[k] *= scale[k]
			}
		}
		return dltbb.LPSolution{X: r.Values, Obj: r.Objective, Y: r.RowDuals}, nil
	}
	return dltbb.LPSolution{}, fmt.Errorf("dltmulti: node LP: no answer from %s", backend.Name())
}

// rowScaled returns p with every row divided by its largest absolute coefficient, and
// the factor each row was multiplied by.
func rowScaled(p *dltbb.LP) (*dltbb.LP, []float64) {
	q := &dltbb.LP{C: p.C, Rel: p.Rel, U: p.U, Rows: make([][]float64, len(p.Rows)), B: make([]float64, len(p.B))}
	scale := make([]float64, len(p.Rows))
	for r, row := range p.Rows {
		big := 0.0
		for _, v := range row {
			big = math.Max(big, math.Abs(v))
		}
		if big == 0 {
			big = 1
		}
		scale[r] = 1 / big
		q.Rows[r] = make([]float64, len(row))
		for k, v := range row {
			q.Rows[r][k] = v / big
		}
		q.B[r] = p.B[r] / big
	}
	return q, scale
}

// summary says how the node LPs' bounds were certified, for the result.
func (a *lpCert) summary() string {
	names := make([]string, len(a.solvers))
	for k, sv := range a.solvers {
		names[k] = sv.name
	}
	later := "no second solver"
	if len(names) > 1 {
		later = strings.Join(names[1:], ", ")
	}
	return fmt.Sprintf("node LP bounds certified by dual bounds: %d by %s, %d by %s; %d infeasibilities proven by Farkas rays, %d reported by every solver; %d points with a weaker valid bound, %d LPs without a point (kept open)",
		a.byFirst.Load(), names[0], a.byLater.Load(), later, a.proved.Load(), a.agreed.Load(), a.weak.Load(), a.failed.Load())
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
