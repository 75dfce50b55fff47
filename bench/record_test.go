package bench

import "testing"

func TestRecordFailed(t *testing.T) {
	tests := []struct {
		name   string
		rec    Record
		failed bool
	}{
		{"solver error is a failure", Record{Status: StatusError, Result: &Result{Message: "solver crashed"}}, true},
		{"job error without result is a failure", Record{Status: StatusError, Error: "boom"}, true},
		{"heuristic without a schedule is an answer", Record{Status: StatusError, Result: &Result{Message: NoScheduleMessage + "deadline missed"}}, false},
		{"infeasible is an answer", Record{Status: StatusInfeasible}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.rec.Failed(); got != tc.failed {
				t.Errorf("Failed() = %v, want %v", got, tc.failed)
			}
		})
	}
}
