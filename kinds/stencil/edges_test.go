package stencil

import (
	"context"
	"errors"
	"math"
	"testing"
)

func TestChromaticIndexRefusesMultigraphsTooLargeToColour(t *testing.T) {
	for _, tc := range []struct {
		name     string
		mu       [][]int64
		tooLarge bool
		index    int64
	}{
		{"a small triangle is coloured (4 edges, one per round)", [][]int64{{0, 2, 1}, {2, 0, 1}, {1, 1, 0}}, false, 4},
		{"2^53+1 edges are refused, not allocated", [][]int64{{0, 1<<53 + 1}, {1<<53 + 1, 0}}, true, 0},
		{"edges just over the cap are refused", [][]int64{{0, maxColourEdges, 1}, {maxColourEdges, 0, 0}, {1, 0, 0}}, true, 0},
		{"a sum that would overflow is refused", [][]int64{{0, math.MaxInt64, math.MaxInt64}, {math.MaxInt64, 0, 0}, {math.MaxInt64, 0, 0}}, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := chromaticIndex(context.Background(), tc.mu)
			if tc.tooLarge {
				if !errors.Is(err, errTooManyEdges) {
					t.Fatalf("err = %v, want errTooManyEdges", err)
				}
				return
			}
			if err != nil || res.Index != tc.index {
				t.Fatalf("index %d, err %v; want %d", res.Index, err, tc.index)
			}
		})
	}
}
