package bench

import (
	"testing"

	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/solve"
)

func TestRecordFailed(t *testing.T) {
	tests := []struct {
		name   string
		rec    Record
		failed bool
	}{
		{"solver error is a failure", Record{Status: solve.StatusError, Result: &solve.Result{Message: "solver crashed"}}, true},
		{"job error without result is a failure", Record{Status: solve.StatusError, Error: "boom"}, true},
		{"heuristic without a schedule is an answer", Record{Status: solve.StatusError, Result: &solve.Result{Message: kinds.NoScheduleMessage + "deadline missed"}}, false},
		{"infeasible is an answer", Record{Status: solve.StatusInfeasible}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.rec.Failed(); got != tc.failed {
				t.Errorf("Failed() = %v, want %v", got, tc.failed)
			}
		})
	}
}
