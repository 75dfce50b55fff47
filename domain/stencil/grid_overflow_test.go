package stencil

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestGridSidesCannotOverflowIntoAMatch(t *testing.T) {
	b, err := os.ReadFile("../../instances/stencil-small.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	n := len(doc["tasks"].([]any))
	for _, tc := range []struct {
		name       string
		nx, ny, nz int
		ok         bool
	}{
		{"the blocks of the tasks", n, 1, 1, true},
		{"a side larger than the task count", 2 * n, 1, 1, false},
		// 1000000000003155 · 9741998196363042 ≡ 6 (mod 2^64): the int64 product
		// "matched" the 6 tasks of stencil-small, and the task orders would have
		// looped 10^31 times.
		{"sides whose product overflows into the task count", 1000000000003155, 9741998196363042, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc["grid"] = map[string]any{"nx": tc.nx, "ny": tc.ny, "nz": tc.nz, "stencil": "7-point"}
			in, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Parse(in)
			if tc.ok && err != nil && strings.HasPrefix(err.Error(), "grid") {
				t.Fatalf("refused: %v", err)
			}
			if !tc.ok && (err == nil || !strings.Contains(err.Error(), "grid")) {
				t.Fatalf("err = %v, want a grid error", err)
			}
		})
	}
}
