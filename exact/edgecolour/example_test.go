package edgecolour_test

import (
	"context"
	"fmt"

	"github.com/schedopt/schedopt/exact/edgecolour"
)

// A processor triangle exchanging 2 quanta on every pair: every processor has degree
// 4, but a round holds at most one of the three pairs, so six rounds are needed.
func ExampleChromaticIndex() {
	m := edgecolour.Bundles{{0, 2, 2}, {2, 0, 2}, {2, 2, 0}}
	res, err := edgecolour.ChromaticIndex(context.Background(), m, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println("Δ:", m.MaxDegree(), "χ':", res.Index, "exact:", res.Exact, "proper:", edgecolour.Verify(m, res.Colouring) == nil)
	// Output: Δ: 4 χ': 6 exact: true proper: true
}

// A bipartite multigraph (two CPUs, two GPUs, traffic only across) is coloured in
// exactly Δ colours.
func ExampleKonigEuler() {
	m := edgecolour.Bundles{
		{0, 0, 5, 3},
		{0, 0, 2, 6},
		{5, 2, 0, 0},
		{3, 6, 0, 0},
	}
	col, err := edgecolour.KonigEuler(context.Background(), m)
	if err != nil {
		panic(err)
	}
	fmt.Println("Δ:", m.MaxDegree(), "colours:", col.Colours(), "proper:", edgecolour.Verify(m, col) == nil)
	// Output: Δ: 9 colours: 9 proper: true
}
