package lpsolve

import (
	"math"
	"testing"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/model"
)

func TestMapStatus(t *testing.T) {
	for _, tc := range []struct {
		name         string
		code, reason int
		want         backends.Status
	}{
		{"only OPTIMAL is optimal", codeOptimal, 0, backends.Optimal},
		{"SUBOPTIMAL after the deadline abort", codeSubOptimal, stopDeadline, backends.TimeLimit},
		{"SUBOPTIMAL after the context abort", codeSubOptimal, stopContext, backends.Interrupted},
		{"SUBOPTIMAL without an abort is other, never optimal", codeSubOptimal, 0, backends.Other},
		{"USERABORT by the deadline", codeUserAbort, stopDeadline, backends.TimeLimit},
		{"USERABORT by the context", codeUserAbort, stopContext, backends.Interrupted},
		{"TIMEOUT", codeTimeout, 0, backends.TimeLimit},
		{"INFEASIBLE", codeInfeasible, 0, backends.Infeasible},
		{"UNBOUNDED", codeUnbounded, 0, backends.Unbounded},
		{"DEGENERATE is numerical", codeDegenerate, 0, backends.NumericalError},
		{"NUMFAILURE", codeNumFailure, 0, backends.NumericalError},
		{"ACCURACYERROR", codeAccuracyError, 0, backends.NumericalError},
		{"PRESOLVED is other", codePresolved, 0, backends.Other},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mapStatus(tc.code, tc.reason); got != tc.want {
				t.Errorf("mapStatus(%d, %d) = %s, want %s", tc.code, tc.reason, got, tc.want)
			}
		})
	}
}

func TestUseStart(t *testing.T) {
	// max x + y, x + y ≤ 3, x, y integer in [0, 2].
	build := func() *model.Model {
		m := model.New("start")
		x := m.AddInteger(0, 2, "x")
		y := m.AddInteger(0, 2, "y")
		m.AddConstr(model.Sum(x, y), model.LE, 3, "r")
		m.SetObjective(model.Maximize, model.Sum(x, y))
		return m
	}
	nan := math.NaN()
	for _, tc := range []struct {
		name      string
		start     []float64
		in        backends.Result
		wantSt    backends.Status
		wantObj   float64 // NaN: no solution
		wantStart bool    // the start became the solution
	}{
		{"feasible start fills a stopped run without incumbent", []float64{1, 1},
			backends.Result{Status: backends.TimeLimit, Objective: nan}, backends.TimeLimit, 2, true},
		{"better start replaces a worse incumbent", []float64{2, 1},
			backends.Result{Status: backends.Interrupted, HasSolution: true, Objective: 1, Values: []float64{1, 0}},
			backends.Interrupted, 3, true},
		{"worse start leaves the incumbent", []float64{0, 1},
			backends.Result{Status: backends.TimeLimit, HasSolution: true, Objective: 2, Values: []float64{1, 1}},
			backends.TimeLimit, 2, false},
		{"feasible start contradicts an infeasibility claim", []float64{1, 1},
			backends.Result{Status: backends.Infeasible, Objective: nan}, backends.NumericalError, 2, true},
		{"infeasible start is ignored", []float64{2, 2},
			backends.Result{Status: backends.TimeLimit, Objective: nan}, backends.TimeLimit, nan, false},
		{"partial start is ignored", []float64{1, nan},
			backends.Result{Status: backends.TimeLimit, Objective: nan}, backends.TimeLimit, nan, false},
		{"optimal result is not replaced by an equal start", []float64{2, 1},
			backends.Result{Status: backends.Optimal, HasSolution: true, Objective: 3, Bound: 3, Values: []float64{1, 2}},
			backends.Optimal, 3, false},
		{"a start beyond the bound refutes an optimality claim", []float64{2, 1},
			backends.Result{Status: backends.Optimal, HasSolution: true, Objective: 2, Bound: 2, Values: []float64{1, 1}},
			backends.NumericalError, 3, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := build()
			res := tc.in
			notes := useStart(m, tc.start, &res)
			if res.Status != tc.wantSt {
				t.Errorf("status %s, want %s", res.Status, tc.wantSt)
			}
			if math.IsNaN(tc.wantObj) != !res.HasSolution || res.HasSolution && res.Objective != tc.wantObj {
				t.Errorf("solution %v objective %g, want %g", res.HasSolution, res.Objective, tc.wantObj)
			}
			usedStart := res.HasSolution && res.Values[0] == tc.start[0] && res.Values[1] == tc.start[1]
			if tc.wantStart && !usedStart {
				t.Errorf("values %v, want the start %v", res.Values, tc.start)
			}
			if tc.wantStart && len(notes) == 0 {
				t.Error("start used without a note in the message")
			}
		})
	}
}
