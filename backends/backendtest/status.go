package backendtest

import (
	"testing"

	"github.com/schedopt/schedopt/backends"
)

// StatusCase is one row of a backend's status table: what the solver reported (its
// own codes, in whatever form the backend's mapping takes) and the status of the
// common taxonomy it must become.
type StatusCase[In any] struct {
	Name string
	In   In
	Want backends.Status
}

// RunStatusTable checks a backend's mapping of its solver's termination codes onto
// the common taxonomy, one subtest per row. Each backend registers only its table;
// the rules every mapping keeps (only a proof is Optimal, a stop by the deadline is a
// TimeLimit, by the context an Interrupt) are the rows the tables share.
func RunStatusTable[In any](t *testing.T, mapStatus func(In) backends.Status, cases []StatusCase[In]) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			if got := mapStatus(tc.In); got != tc.Want {
				t.Errorf("%+v maps to %s, want %s", tc.In, got, tc.Want)
			}
		})
	}
}
