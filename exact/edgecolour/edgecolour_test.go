package edgecolour

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"
)

func triangle(a int64) Bundles {
	return Bundles{{0, a, a}, {a, 0, a}, {a, a, 0}}
}

func randomBundles(r *rand.Rand, n int, maxMu int64, density float64) Bundles {
	b := make(Bundles, n)
	for i := range b {
		b[i] = make([]int64, n)
	}
	for u := 0; u < n; u++ {
		for v := u + 1; v < n; v++ {
			if r.Float64() < density {
				x := r.Int64N(maxMu + 1)
				b[u][v], b[v][u] = x, x
			}
		}
	}
	return b
}

func randomBipartite(r *rand.Rand, left, right int, maxMu int64) Bundles {
	n := left + right
	b := make(Bundles, n)
	for i := range b {
		b[i] = make([]int64, n)
	}
	for u := 0; u < left; u++ {
		for v := left; v < n; v++ {
			x := r.Int64N(maxMu + 1)
			b[u][v], b[v][u] = x, x
		}
	}
	return b
}

// bruteIndex finds χ' by backtracking over the colours of unit edges, an algorithm
// independent of the class-by-class search of ChromaticIndex.
func bruteIndex(b Bundles) int64 {
	var edges []Edge
	for u := range b {
		for v := u + 1; v < len(b); v++ {
			for i := int64(0); i < b[u][v]; i++ {
				edges = append(edges, Edge{u, v})
			}
		}
	}
	for k := b.MaxDegree(); ; k++ {
		used := make([][]bool, len(b))
		for v := range used {
			used[v] = make([]bool, k)
		}
		colour := make([]int64, len(edges))
		var rec func(i int, maxc int64) bool
		rec = func(i int, maxc int64) bool {
			if i == len(edges) {
				return true
			}
			e := edges[i]
			// Parallel edges take increasing colours; a new colour only the next one.
			lo := int64(0)
			if i > 0 && edges[i-1] == e {
				lo = colour[i-1] + 1
			}
			for c := lo; c < k && c <= maxc+1; c++ {
				if used[e[0]][c] || used[e[1]][c] {
					continue
				}
				used[e[0]][c], used[e[1]][c] = true, true
				colour[i] = c
				if rec(i+1, max(maxc, c)) {
					return true
				}
				used[e[0]][c], used[e[1]][c] = false, false
			}
			return false
		}
		if rec(0, -1) {
			return k
		}
	}
}

func TestTriangleOfEqualMultiplicityNeedsThreeTimesA(t *testing.T) {
	for _, a := range []int64{1, 2, 5, 16} {
		b := triangle(a)
		if got := b.MaxDegree(); got != 2*a {
			t.Fatalf("a=%d: Δ = %d, want %d", a, got, 2*a)
		}
		if g, _ := b.OddSetBound(); g != 3*a {
			t.Fatalf("a=%d: Γ = %d, want %d", a, g, 3*a)
		}
		res, err := ChromaticIndex(context.Background(), b, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Exact || res.Index != 3*a {
			t.Fatalf("a=%d: χ' = %d (exact %v), want %d", a, res.Index, res.Exact, 3*a)
		}
		if err := Verify(b, res.Colouring); err != nil {
			t.Fatal(err)
		}
		if res.Colouring.Colours() != int(3*a) {
			t.Fatalf("colouring has %d colours", res.Colouring.Colours())
		}
	}
}

func TestKonigColoursBipartiteMultigraphsInDeltaColours(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		b := randomBipartite(r, 1+r.IntN(4), 1+r.IntN(4), int64(1+r.IntN(9)))
		for name, f := range map[string]func(context.Context, Bundles) (Colouring, error){"alternating paths": Konig, "euler splitting": KonigEuler} {
			col, err := f(context.Background(), b)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if err := Verify(b, col); err != nil {
				t.Fatalf("%s on %v: %v", name, b, err)
			}
			if int64(col.Colours()) != b.MaxDegree() {
				t.Fatalf("%s on %v: %d colours, Δ = %d", name, b, col.Colours(), b.MaxDegree())
			}
		}
	}
}

func TestKonigRejectsOddCycles(t *testing.T) {
	if _, err := Konig(context.Background(), triangle(1)); !errors.Is(err, ErrNotBipartite) {
		t.Fatalf("got %v, want ErrNotBipartite", err)
	}
	if _, err := KonigEuler(context.Background(), triangle(2)); !errors.Is(err, ErrNotBipartite) {
		t.Fatalf("got %v, want ErrNotBipartite", err)
	}
}

func TestEulerSplittingHandlesLargeMultiplicities(t *testing.T) {
	// Δ = 2^20: the split never touches single edges.
	b := Bundles{{0, 1 << 19, 1 << 19}, {1 << 19, 0, 0}, {1 << 19, 0, 0}}
	col, err := KonigEuler(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(b, col); err != nil {
		t.Fatal(err)
	}
	if col.Colours() != 1<<20 {
		t.Fatalf("%d colours", col.Colours())
	}
}

func TestChromaticIndexMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 150; trial++ {
		b := randomBundles(r, 2+r.IntN(4), 2, 0.8)
		if b.Edges() > 9 {
			continue
		}
		want := bruteIndex(b)
		res, err := ChromaticIndex(context.Background(), b, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Exact || res.Index != want {
			t.Fatalf("%v: χ' = %d exact=%v, brute force %d", b, res.Index, res.Exact, want)
		}
		if err := Verify(b, res.Colouring); err != nil {
			t.Fatal(err)
		}
		if lb, ub := b.LowerBound(), b.UpperBound(); lb > want || want > max(ub, 0) {
			t.Fatalf("%v: bounds [%d, %d] miss χ' = %d", b, lb, ub, want)
		}
	}
}

func TestBoundsBracketTheExactIndexOnLargerMultiplicities(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 60; trial++ {
		b := randomBundles(r, 3+r.IntN(3), 12, 0.9)
		res, err := ChromaticIndex(context.Background(), b, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Exact {
			t.Fatalf("%v: not exact", b)
		}
		if err := Verify(b, res.Colouring); err != nil {
			t.Fatal(err)
		}
		if res.Index < b.LowerBound() || res.Index > b.UpperBound() && b.Edges() > 0 {
			t.Fatalf("%v: χ' = %d outside [%d, %d]", b, res.Index, b.LowerBound(), b.UpperBound())
		}
		if g, err := Greedy(context.Background(), b); err != nil || Verify(b, g) != nil {
			t.Fatalf("greedy colouring improper: %v", Verify(b, g))
		}
	}
}

func TestVerifyRejectsBadSchedules(t *testing.T) {
	b := Bundles{{0, 2, 1}, {2, 0, 0}, {1, 0, 0}}
	cases := []struct {
		name string
		col  Colouring
	}{
		{"a class that is not a matching", Colouring{{{0, 1}, {0, 2}}, {{0, 1}}}},
		{"a bundle covered too few times", Colouring{{{0, 1}}, {{0, 2}}}},
		{"an edge that does not exist", Colouring{{{0, 1}}, {{0, 1}}, {{0, 2}}, {{1, 2}}}},
		{"a loop", Colouring{{{0, 1}}, {{0, 1}}, {{0, 2}}, {{1, 1}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := Verify(b, c.col); !errors.Is(err, ErrImproper) {
				t.Fatalf("got %v, want ErrImproper", err)
			}
		})
	}
	if err := Verify(b, Colouring{{{0, 1}}, {{0, 1}}, {{0, 2}}}); err != nil {
		t.Fatalf("a proper colouring was rejected: %v", err)
	}
}

func TestGonumRoundTrip(t *testing.T) {
	b := Bundles{{0, 3, 1}, {3, 0, 2}, {1, 2, 0}}
	ids, back, err := FromGraph(ToGraph(b))
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 3 {
		t.Fatalf("ids %v", ids)
	}
	for u := range b {
		for v := range b {
			if b[u][v] != back[u][v] {
				t.Fatalf("[%d][%d]: %d != %d", u, v, back[u][v], b[u][v])
			}
		}
	}
}

func BenchmarkChromaticIndexFourProcessors(b *testing.B) {
	m := Bundles{{0, 16, 16, 0}, {16, 0, 32, 0}, {16, 32, 0, 80}, {0, 0, 80, 0}}
	for b.Loop() {
		if _, err := ChromaticIndex(context.Background(), m, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// The slow colourings return promptly once their context is done: a cancelled context
// stops them at once, and a deadline of 50 ms stops colourings that would take far
// longer (a bipartite multigraph of about 2^20 edges for alternating paths; a non-bipartite
// one of 11 vertices and 2^40-fold bundles for the exact search's greedy start, whose
// classes are then repeated in batches, and for the branch and bound on 9 vertices).
func TestColouringsHonourTheirContext(t *testing.T) {
	big := randomBipartite(rand.New(rand.NewPCG(5, 5)), 3, 3, 1<<18)
	odd := triangle(1 << 40)
	r := rand.New(rand.NewPCG(8, 8))
	nine := randomBundles(r, 9, 40, 0.9)
	cases := []struct {
		name string
		run  func(ctx context.Context) error
	}{
		{"Konig", func(ctx context.Context) error { _, err := Konig(ctx, big); return err }},
		{"KonigEuler", func(ctx context.Context) error { _, err := KonigEuler(ctx, big); return err }},
		{"Greedy", func(ctx context.Context) error { _, err := Greedy(ctx, odd); return err }},
		{"ChromaticIndex", func(ctx context.Context) error { _, err := ChromaticIndex(ctx, nine, 1<<40); return err }},
	}
	for _, c := range cases {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := c.run(ctx); !errors.Is(err, context.Canceled) {
			t.Fatalf("%s with a cancelled context: err %v", c.name, err)
		}
		ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
		t0 := time.Now()
		err := c.run(ctx)
		cancel()
		if el := time.Since(t0); el > time.Second {
			t.Fatalf("%s returned %v after its context expired", c.name, el)
		}
		_ = err // a fast colouring may finish before the deadline
	}
}
