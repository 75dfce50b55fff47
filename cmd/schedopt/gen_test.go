package main

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/kinds"
)

// gen writes what the other commands read: indented JSON when it fits under the input
// limit, compact JSON when only that fits, and bad input when neither does.
func TestEncodeInstanceStaysUnderTheInputLimit(t *testing.T) {
	v := map[string]any{"kind": "workload", "points": []map[string]float64{{"size": 1, "time": 2}, {"size": 2, "time": 3}}}
	indented, _ := json.MarshalIndent(v, "", "  ")
	compact, _ := json.Marshal(v)
	cases := []struct {
		name     string
		limit    int64
		indented bool
		bad      bool
	}{
		{"no limit: indented", 0, true, false},
		{"room for indented", int64(len(indented)) + 1, true, false},
		{"room for compact only", int64(len(compact)) + 1, false, false},
		{"room for neither", int64(len(compact)), false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := encodeInstance(v, kinds.Limits{MaxInputBytes: c.limit})
			if c.bad {
				if !errors.Is(err, domain.ErrBadInput) || !strings.Contains(err.Error(), kinds.NoLimitsEnv) {
					t.Errorf("error %v, want bad input naming %s", err, kinds.NoLimitsEnv)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.limit > 0 && int64(len(b)) > c.limit {
				t.Errorf("%d bytes over the limit %d", len(b), c.limit)
			}
			if got := strings.Contains(string(b), "\n  "); got != c.indented {
				t.Errorf("indented = %v, want %v:\n%s", got, c.indented, b)
			}
			var back map[string]any
			if err := json.Unmarshal(b, &back); err != nil || back["kind"] != "workload" {
				t.Errorf("does not read back: %v", err)
			}
		})
	}
}
