package lpsolve

import (
	"math"
	"testing"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/backendtest"
	"github.com/schedopt/schedopt/model"
)

func TestMapStatus(t *testing.T) {
	type code struct{ code, reason int }
	backendtest.RunStatusTable(t, func(c code) backends.Status { return mapStatus(c.code, c.reason) }, []backendtest.StatusCase[code]{
		{Name: "only OPTIMAL is optimal", In: code{codeOptimal, 0}, Want: backends.Optimal},
		{Name: "SUBOPTIMAL after the deadline abort", In: code{codeSubOptimal, stopDeadline}, Want: backends.TimeLimit},
		{Name: "SUBOPTIMAL after the context abort", In: code{codeSubOptimal, stopContext}, Want: backends.Interrupted},
		{Name: "SUBOPTIMAL without an abort is other, never optimal", In: code{codeSubOptimal, 0}, Want: backends.Other},
		{Name: "USERABORT by the deadline", In: code{codeUserAbort, stopDeadline}, Want: backends.TimeLimit},
		{Name: "USERABORT by the context", In: code{codeUserAbort, stopContext}, Want: backends.Interrupted},
		{Name: "TIMEOUT", In: code{codeTimeout, 0}, Want: backends.TimeLimit},
		{Name: "INFEASIBLE", In: code{codeInfeasible, 0}, Want: backends.Infeasible},
		{Name: "UNBOUNDED", In: code{codeUnbounded, 0}, Want: backends.Unbounded},
		{Name: "DEGENERATE is numerical", In: code{codeDegenerate, 0}, Want: backends.NumericalError},
		{Name: "NUMFAILURE", In: code{codeNumFailure, 0}, Want: backends.NumericalError},
		{Name: "ACCURACYERROR", In: code{codeAccuracyError, 0}, Want: backends.NumericalError},
		{Name: "PRESOLVED is other", In: code{codePresolved, 0}, Want: backends.Other},
	})
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
