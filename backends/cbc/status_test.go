package cbc

import (
	"testing"

	"github.com/schedopt/schedopt/backends"
)

func TestMapStatus(t *testing.T) {
	proven := mipInfo{status: cbcFinished, secondary: 0, optimal: true, hasSolution: true}
	for _, tc := range []struct {
		name string
		o    outcome
		want backends.Status
	}{
		{"proven optimum with a solution", outcome{mip: true, info: proven}, backends.Optimal},
		{"stopped on gap is optimal within the gap", outcome{mip: true, info: mipInfo{status: cbcFinished, secondary: 2, optimal: true, hasSolution: true}}, backends.Optimal},
		{"optimal claim without a solution is not optimal", outcome{mip: true, info: mipInfo{status: cbcFinished, optimal: true}}, backends.Other},
		{"a proof after the deadline stop is not trusted", outcome{mip: true, reason: stopDeadline, info: proven}, backends.TimeLimit},
		{"a proof after the context stop is not trusted", outcome{mip: true, reason: stopContext, info: proven}, backends.Interrupted},
		{"infeasible", outcome{mip: true, info: mipInfo{status: cbcFinished, secondary: 1, infeasible: true}}, backends.Infeasible},
		{"unbounded relaxation without a point stays undecided", outcome{mip: true, info: mipInfo{status: cbcFinished, secondary: secUnbounded, continuousUnbounded: true, infeasible: true}}, backends.InfeasibleOrUnbounded},
		{"unbounded relaxation with a point is unbounded", outcome{mip: true, info: mipInfo{status: cbcFinished, secondary: secUnbounded, continuousUnbounded: true, hasSolution: true}}, backends.Unbounded},
		{"CBC's own time limit", outcome{mip: true, info: mipInfo{status: cbcStopped, secondary: secTime, timeHit: true, hasSolution: true}}, backends.TimeLimit},
		{"CBC's own limit set from the context deadline", outcome{mip: true, ctxFirst: true, info: mipInfo{status: cbcStopped, secondary: secTime, timeHit: true}}, backends.Interrupted},
		{"abandoned is numerical", outcome{mip: true, info: mipInfo{status: cbcAbandoned, abandoned: true, hasSolution: true}}, backends.NumericalError},
		{"node limit is other", outcome{mip: true, info: mipInfo{status: cbcStopped, secondary: 3, nodeLimit: true, hasSolution: true}}, backends.Other},
		{"user event without our stop is other", outcome{mip: true, info: mipInfo{status: cbcUserEvent, secondary: 5, hasSolution: true}}, backends.Other},
		{"search not started is other", outcome{mip: true, info: mipInfo{status: cbcBeforeSearch, secondary: -1}}, backends.Other},
		{"LP optimal", outcome{lpStatus: lpOptimal}, backends.Optimal},
		{"LP primal infeasible", outcome{lpStatus: lpInfeasible}, backends.Infeasible},
		{"LP dual infeasible at a feasible point is unbounded", outcome{lpStatus: lpDualInfeasible, lpPrimalFeasible: true}, backends.Unbounded},
		{"LP dual infeasible otherwise is undecided", outcome{lpStatus: lpDualInfeasible}, backends.InfeasibleOrUnbounded},
		{"LP stopped on errors is numerical", outcome{lpStatus: lpErrors}, backends.NumericalError},
		{"LP stopped on a limit is other", outcome{lpStatus: lpLimit}, backends.Other},
		{"LP stopped by the deadline", outcome{lpStatus: lpEvent, reason: stopDeadline}, backends.TimeLimit},
		{"LP optimum finished before the stop took effect", outcome{lpStatus: lpOptimal, reason: stopContext}, backends.Optimal},
		{"LP stopped by the context", outcome{lpStatus: lpEvent, reason: stopContext}, backends.Interrupted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, msg := mapStatus(tc.o); got != tc.want {
				t.Errorf("mapStatus(%+v) = %s (%s), want %s", tc.o, got, msg, tc.want)
			}
		})
	}
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
