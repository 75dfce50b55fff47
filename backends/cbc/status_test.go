package cbc

import (
	"testing"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/backendtest"
)

func TestMapStatus(t *testing.T) {
	proven := mipInfo{status: cbcFinished, secondary: 0, optimal: true, hasSolution: true}
	backendtest.RunStatusTable(t, func(o outcome) backends.Status { st, _ := mapStatus(o); return st }, []backendtest.StatusCase[outcome]{
		{Name: "proven optimum with a solution", In: outcome{mip: true, info: proven}, Want: backends.Optimal},
		{Name: "stopped on gap is optimal within the gap", In: outcome{mip: true, info: mipInfo{status: cbcFinished, secondary: 2, optimal: true, hasSolution: true}}, Want: backends.Optimal},
		{Name: "optimal claim without a solution is not optimal", In: outcome{mip: true, info: mipInfo{status: cbcFinished, optimal: true}}, Want: backends.Other},
		{Name: "a proof after the deadline stop is not trusted", In: outcome{mip: true, reason: stopDeadline, info: proven}, Want: backends.TimeLimit},
		{Name: "a proof after the context stop is not trusted", In: outcome{mip: true, reason: stopContext, info: proven}, Want: backends.Interrupted},
		{Name: "infeasible", In: outcome{mip: true, info: mipInfo{status: cbcFinished, secondary: 1, infeasible: true}}, Want: backends.Infeasible},
		{Name: "unbounded relaxation without a point stays undecided", In: outcome{mip: true, info: mipInfo{status: cbcFinished, secondary: secUnbounded, continuousUnbounded: true, infeasible: true}}, Want: backends.InfeasibleOrUnbounded},
		{Name: "unbounded relaxation with a point is unbounded", In: outcome{mip: true, info: mipInfo{status: cbcFinished, secondary: secUnbounded, continuousUnbounded: true, hasSolution: true}}, Want: backends.Unbounded},
		{Name: "CBC's own time limit", In: outcome{mip: true, info: mipInfo{status: cbcStopped, secondary: secTime, timeHit: true, hasSolution: true}}, Want: backends.TimeLimit},
		{Name: "CBC's own limit set from the context deadline", In: outcome{mip: true, ctxFirst: true, info: mipInfo{status: cbcStopped, secondary: secTime, timeHit: true}}, Want: backends.Interrupted},
		{Name: "abandoned is numerical", In: outcome{mip: true, info: mipInfo{status: cbcAbandoned, abandoned: true, hasSolution: true}}, Want: backends.NumericalError},
		{Name: "node limit is other", In: outcome{mip: true, info: mipInfo{status: cbcStopped, secondary: 3, nodeLimit: true, hasSolution: true}}, Want: backends.Other},
		{Name: "user event without our stop is other", In: outcome{mip: true, info: mipInfo{status: cbcUserEvent, secondary: 5, hasSolution: true}}, Want: backends.Other},
		{Name: "search not started is other", In: outcome{mip: true, info: mipInfo{status: cbcBeforeSearch, secondary: -1}}, Want: backends.Other},
		{Name: "LP optimal", In: outcome{lpStatus: lpOptimal}, Want: backends.Optimal},
		{Name: "LP primal infeasible", In: outcome{lpStatus: lpInfeasible}, Want: backends.Infeasible},
		{Name: "LP dual infeasible at a feasible point is unbounded", In: outcome{lpStatus: lpDualInfeasible, lpPrimalFeasible: true}, Want: backends.Unbounded},
		{Name: "LP dual infeasible otherwise is undecided", In: outcome{lpStatus: lpDualInfeasible}, Want: backends.InfeasibleOrUnbounded},
		{Name: "LP stopped on errors is numerical", In: outcome{lpStatus: lpErrors}, Want: backends.NumericalError},
		{Name: "LP stopped on a limit is other", In: outcome{lpStatus: lpLimit}, Want: backends.Other},
		{Name: "LP stopped by the deadline", In: outcome{lpStatus: lpEvent, reason: stopDeadline}, Want: backends.TimeLimit},
		{Name: "LP optimum finished before the stop took effect", In: outcome{lpStatus: lpOptimal, reason: stopContext}, Want: backends.Optimal},
		{Name: "LP stopped by the context", In: outcome{lpStatus: lpEvent, reason: stopContext}, Want: backends.Interrupted},
	})
}

func TestHasSolution(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    outcome
		want bool
	}{
		{"MIP incumbent", outcome{mip: true, info: mipInfo{hasSolution: true}}, true},
		{"MIP incumbent after a stop", outcome{mip: true, reason: stopDeadline, info: mipInfo{hasSolution: true}}, true},
		{"MIP without incumbent", outcome{mip: true}, false},
		{"LP optimum", outcome{lpStatus: lpOptimal}, true},
		{"LP cut short", outcome{lpStatus: lpEvent, reason: stopContext}, false},
		{"unbounded LP", outcome{lpStatus: lpDualInfeasible, lpPrimalFeasible: true}, false},
	} {
		if got := tc.o.hasSolution(); got != tc.want {
			t.Errorf("%s: hasSolution = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestOptionMapping(t *testing.T) {
	for _, tc := range []struct{ in, want int }{{0, 0}, {1, 0}, {2, 2}, {8, 8}} {
		if got := threads(tc.in); got != tc.want {
			t.Errorf("threads(%d) = %d, want %d", tc.in, got, tc.want)
		}
	}
	for _, s := range []int{1, 7, 1<<31 - 1, -1, -5, 1 << 40} {
		if got := seed(s); got < 1 || got > 1<<31-1 {
			t.Errorf("seed(%d) = %d, outside CBC's range 1..2^31-1", s, got)
		}
	}
	if seed(0) != 0 {
		t.Errorf("seed(0) = %d, want 0 (CBC's default seeds)", seed(0))
	}
}
