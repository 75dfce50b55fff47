package gridcut

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// smallGrids returns every grid of at most maxCells blocks with axes of length 1-5,
// each a path or a cycle, with weights from ws.
func smallGrids(maxCells int, ws []int64) []Grid {
	var out []Grid
	for a := 1; a <= 5; a++ {
		for b := 1; b <= 5; b++ {
			for c := 1; c <= 4; c++ {
				if a*b*c > maxCells || a*b*c < 2 {
					continue
				}
				for per := 0; per < 8; per++ {
					for _, w := range ws {
						out = append(out, Grid{
							{Len: a, Periodic: per&1 != 0, Weight: w},
							{Len: b, Periodic: per&2 != 0, Weight: 1},
							{Len: c, Periodic: per&4 != 0, Weight: 2},
						})
					}
				}
			}
		}
	}
	return out
}

func name(g Grid) string {
	s := ""
	for _, a := range g {
		p := "P"
		if a.Periodic {
			p = "C"
		}
		s += fmt.Sprintf("%s%d(w%d)", p, a.Len, a.Weight)
	}
	return s
}

func TestProfileIsExactWhereItSaysSo(t *testing.T) {
	for _, g := range smallGrids(16, []int64{1, 3}) {
		want, err := Brute(g)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Profile(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Exact {
			t.Fatalf("%s: %s is not exact", name(g), got.Method)
		}
		for k := range want {
			if got.Min[k] != want[k] {
				t.Fatalf("%s (%s): I(%d) = %d, enumeration %d", name(g), got.Method, k, got.Min[k], want[k])
			}
		}
	}
}

func TestLayerBoundNeverExceedsTheMinimum(t *testing.T) {
	tight, total := 0, 0
	for _, g := range smallGrids(16, []int64{1, 2}) {
		want, err := Brute(g)
		if err != nil {
			t.Fatal(err)
		}
		for a := range g {
			if g[a].Len == 1 {
				continue
			}
			lb, err := layerBound(context.Background(), g, a, defaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			for k := range want {
				total++
				if lb[k] > want[k] {
					t.Fatalf("%s along axis %d: bound %d on I(%d) = %d", name(g), a, lb[k], k, want[k])
				}
				if lb[k] == want[k] {
					tight++
				}
			}
		}
	}
	// The bound must also be useful: most entries of these grids are attained.
	if tight*10 < total*7 {
		t.Fatalf("layer bound tight on only %d of %d entries", tight, total)
	}
}

// TestLayerBoundFallbackNeverExceedsTheMinimum forces the layer bound at every level
// (slices of at most 2 cells for the DP) on grids of up to 18 blocks.
func TestLayerBoundFallbackNeverExceedsTheMinimum(t *testing.T) {
	lim := limits{sliceCells: 2, wrapCells: 1, work: 1e9}
	fallbacks := 0
	for _, g := range smallGrids(18, []int64{1, 2}) {
		want, err := Brute(g)
		if err != nil {
			t.Fatal(err)
		}
		got, err := profile(context.Background(), g, lim)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Exact {
			fallbacks++
		}
		for k := range want {
			if got.Min[k] > want[k] || got.Exact && got.Min[k] != want[k] {
				t.Fatalf("%s (%s): %d for I(%d) = %d", name(g), got.Method, got.Min[k], k, want[k])
			}
		}
	}
	if fallbacks < 100 {
		t.Fatalf("only %d grids took the layer bound", fallbacks)
	}
}

func TestProfileOfTheThesisGrids(t *testing.T) {
	cuboid := Grid{{8, false, 1}, {4, false, 1}, {4, false, 1}}
	sphere := Grid{{8, true, 1}, {4, true, 1}, {4, false, 1}}
	for _, tc := range []struct {
		name  string
		g     Grid
		exact bool
		// Sets of the optima of Tables 6.4/6.5 (reference §4.2) whose boundaries are
		// known: the profile may not exceed them, and the proofs need it to reach them.
		attained map[int]int64
	}{
		// 1 block in a corner: 3 faces; 5 blocks: a 2×2 square plus one, 10; 9: 14;
		// 64: a 4×4 cross-section cut, 16 faces.
		{"cuboid", cuboid, true, map[int]int64{1: 3, 5: 10, 9: 14, 64: 16}},
		// On the K surface of the sphere: 5, 9, 13 or 17 blocks of one layer (10, 10, 10,
		// 10 faces inside the layer plus the ones below: 15, 19, 23, 27), 24 as two
		// 12-block layers (28), 64 as a K half (32 faces).
		{"sphere", sphere, false, map[int]int64{1: 5, 5: 15, 9: 19, 13: 23, 17: 27, 24: 28, 64: 32}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Profile(context.Background(), tc.g)
			if err != nil {
				t.Fatal(err)
			}
			if got.Exact != tc.exact {
				t.Fatalf("exact %v (%s), want %v", got.Exact, got.Method, tc.exact)
			}
			for k, b := range tc.attained {
				if got.Min[k] != b {
					t.Fatalf("I(%d) = %d, a set with %d faces is known", k, got.Min[k], b)
				}
			}
			for k := range got.Min {
				if got.Min[k] != got.Min[len(got.Min)-1-k] {
					t.Fatalf("I(%d) = %d but I(n−%d) = %d", k, got.Min[k], k, got.Min[len(got.Min)-1-k])
				}
			}
		})
	}
}

func TestProfileStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Profile(ctx, Grid{{8, false, 1}, {4, false, 1}, {4, false, 1}}); err == nil {
		t.Fatal("a cancelled profile returned no error")
	}
}

func TestProfileRefusesWeightsItCannotSum(t *testing.T) {
	g := Grid{{8, false, 1 << 53}, {4, false, 1}, {4, false, 1}}
	if _, err := Profile(context.Background(), g); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("faces of 2^53: %v, want ErrTooLarge", err)
	}
}

func TestEdgesOfPeriodicAxes(t *testing.T) {
	for _, tc := range []struct {
		a     Axis
		edges int
		w     int64
	}{
		{Axis{Len: 1, Periodic: true, Weight: 1}, 0, 0},
		{Axis{Len: 2, Periodic: true, Weight: 1}, 1, 2},
		{Axis{Len: 3, Periodic: true, Weight: 1}, 3, 3},
		{Axis{Len: 3, Periodic: false, Weight: 1}, 2, 2},
	} {
		g := Grid{tc.a, {Len: 1, Weight: 1}, {Len: 1, Weight: 1}}
		e := g.Edges()
		var w int64
		for _, x := range e {
			w += x.Weight
		}
		if len(e) != tc.edges || w != tc.w {
			t.Fatalf("%+v: %d edges of weight %d, want %d and %d", tc.a, len(e), w, tc.edges, tc.w)
		}
	}
}

func BenchmarkProfileCuboid(b *testing.B) {
	g := Grid{{8, false, 1}, {4, false, 1}, {4, false, 1}}
	for i := 0; i < b.N; i++ {
		if _, err := Profile(context.Background(), g); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkProfileSphere(b *testing.B) {
	g := Grid{{8, true, 1}, {4, true, 1}, {4, false, 1}}
	for i := 0; i < b.N; i++ {
		if _, err := Profile(context.Background(), g); err != nil {
			b.Fatal(err)
		}
	}
}

// boundary returns the boundary weight of the set in (by block).
func boundary(g Grid, in []bool) int64 {
	var b int64
	for _, e := range g.Edges() {
		if in[e.U] != in[e.V] {
			b += e.Weight
		}
	}
	return b
}

// TestThesisProfilesStayBelowExplicitSets checks the profiles of the thesis grids, at
// full size, against sets whose boundary is counted directly: every box, every prefix
// of the six axis orders, and random regions grown from random blocks. A profile
// entry above any of them would be an unsound bound.
func TestThesisProfilesStayBelowExplicitSets(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 6))
	for _, g := range []Grid{
		{{8, false, 1}, {4, false, 1}, {4, false, 1}},
		{{8, true, 1}, {4, true, 1}, {4, false, 1}},
	} {
		prof, err := Profile(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		n := [3]int{g[0].Len, g[1].Len, g[2].Len}
		N := g.Cells()
		id := func(c [3]int) int { return c[0] + c[1]*n[0] + c[2]*n[0]*n[1] }
		sets := 0
		check := func(in []bool) {
			k := 0
			for _, x := range in {
				if x {
					k++
				}
			}
			if b := boundary(g, in); prof.Min[k] > b {
				t.Fatalf("%s: I(%d) = %d, but a set of %d blocks has boundary %d", name(g), k, prof.Min[k], k, b)
			}
			sets++
		}
		var lo, hi [3]int
		var boxes func(a int)
		boxes = func(a int) {
			if a == 3 {
				in := make([]bool, N)
				for k := lo[2]; k < hi[2]; k++ {
					for j := lo[1]; j < hi[1]; j++ {
						for i := lo[0]; i < hi[0]; i++ {
							in[id([3]int{i, j, k})] = true
						}
					}
				}
				check(in)
				return
			}
			for lo[a] = 0; lo[a] < n[a]; lo[a]++ {
				for hi[a] = lo[a] + 1; hi[a] <= n[a]; hi[a]++ {
					boxes(a + 1)
				}
			}
		}
		boxes(0)
		for _, order := range [][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}} {
			in := make([]bool, N)
			var c [3]int
			for c[order[2]] = 0; c[order[2]] < n[order[2]]; c[order[2]]++ {
				for c[order[1]] = 0; c[order[1]] < n[order[1]]; c[order[1]]++ {
					for c[order[0]] = 0; c[order[0]] < n[order[0]]; c[order[0]]++ {
						in[id(c)] = true
						check(in)
					}
				}
			}
		}
		nbrs := make([][]int, N)
		for _, e := range g.Edges() {
			nbrs[e.U] = append(nbrs[e.U], e.V)
			nbrs[e.V] = append(nbrs[e.V], e.U)
		}
		for trial := 0; trial < 100; trial++ {
			in := make([]bool, N)
			frontier := []int{r.IntN(N)}
			for len(frontier) > 0 {
				i := r.IntN(len(frontier))
				u := frontier[i]
				frontier = append(frontier[:i], frontier[i+1:]...)
				if in[u] {
					continue
				}
				in[u] = true
				check(in)
				frontier = append(frontier, nbrs[u]...)
			}
		}
		if sets < 10000 {
			t.Fatalf("%s: only %d sets", name(g), sets)
		}
	}
}
