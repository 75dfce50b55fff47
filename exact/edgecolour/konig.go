package edgecolour

import (
	"context"
	"errors"
	"fmt"
)

// ErrNotBipartite is returned by the König colourings for a multigraph with an odd
// cycle.
var ErrNotBipartite = errors.New("edgecolour: multigraph is not bipartite")

// paletteColouring is a partial colouring in k colours stored per vertex:
// at[v][c] is the neighbour joined to v by the edge of colour c, or −1.
type paletteColouring struct {
	k  int
	at [][]int
}

func newPalette(n, k int) *paletteColouring {
	p := &paletteColouring{k: k, at: make([][]int, n)}
	for v := range p.at {
		p.at[v] = make([]int, k)
		for c := range p.at[v] {
			p.at[v][c] = -1
		}
	}
	return p
}

func (p *paletteColouring) free(v int) int {
	for c, w := range p.at[v] {
		if w < 0 {
			return c
		}
	}
	return -1
}

func (p *paletteColouring) set(u, v, c int) { p.at[u][c], p.at[v][c] = v, u }

// addBipartite colours one more edge {u,v} of a bipartite multigraph whose degrees are
// at most k (König's alternating-path step): take α free at u and β free at v; if α is
// not free at v, swap α and β on the α/β path from v, which cannot reach u in a
// bipartite graph, and colour {u,v} with α.
func (p *paletteColouring) addBipartite(u, v int) error {
	a, b := p.free(u), p.free(v)
	if a < 0 || b < 0 {
		return fmt.Errorf("edgecolour: degree exceeds %d colours at {%d,%d}", p.k, u, v)
	}
	if p.at[v][a] >= 0 {
		// Collect the path v -a- w1 -b- w2 -a- ... and swap its colours.
		type step struct{ x, y, c int }
		var path []step
		x, c := v, a
		for p.at[x][c] >= 0 {
			y := p.at[x][c]
			if y == u {
				return ErrNotBipartite
			}
			path = append(path, step{x, y, c})
			x = y
			if c == a {
				c = b
			} else {
				c = a
			}
		}
		for _, s := range path {
			p.at[s.x][s.c], p.at[s.y][s.c] = -1, -1
		}
		for _, s := range path {
			o := a
			if s.c == a {
				o = b
			}
			p.set(s.x, s.y, o)
		}
	}
	p.set(u, v, a)
	return nil
}

func (p *paletteColouring) classes() Colouring {
	col := make(Colouring, p.k)
	for v, row := range p.at {
		for c, w := range row {
			if w > v {
				col[c] = append(col[c], Edge{v, w})
			}
		}
	}
	return col
}

// Konig colours a bipartite multigraph with exactly Δ colours (König 1916) by
// inserting its edges one at a time and repairing with alternating paths:
// O(|E|·(Δ + n)) time for |E| edges counted with multiplicity. It returns ctx's error
// soon after ctx is done (checked every 1024 edges).
func Konig(ctx context.Context, b Bundles) (Colouring, error) {
	if err := b.Check(); err != nil {
		return nil, err
	}
	if _, ok := b.Bipartition(); !ok {
		return nil, ErrNotBipartite
	}
	return konigK(ctx, b, int(b.MaxDegree()))
}

// ctxStride is how many edges or classes the colourings handle between checks of
// their context.
const ctxStride = 1024

func konigK(ctx context.Context, b Bundles, k int) (Colouring, error) {
	p := newPalette(len(b), k)
	added := 0
	for u := range b {
		for v := u + 1; v < len(b); v++ {
			for i := int64(0); i < b[u][v]; i++ {
				if added++; added%ctxStride == 0 {
					if err := ctx.Err(); err != nil {
						return nil, err
					}
				}
				if err := p.addBipartite(u, v); err != nil {
					return nil, err
				}
			}
		}
	}
	return p.classes(), nil
}

// KonigEuler colours a bipartite multigraph with exactly Δ colours by divide and
// conquer. While the colour budget k is even, the multigraph is split into two halves
// of maximum degree at most k/2: each bundle gives ⌊μ/2⌋ edges to each half and the
// simple graph of odd remainders is split by walking trails and alternating sides
// (bipartite circuits are even, so every vertex splits within one). An odd budget is
// coloured by alternating paths (Konig). The splitting costs O(n²) per level, so with
// Δ a power of two the whole colouring takes O(n² log Δ) regardless of the
// multiplicities. It returns ctx's error soon after ctx is done.
func KonigEuler(ctx context.Context, b Bundles) (Colouring, error) {
	if err := b.Check(); err != nil {
		return nil, err
	}
	if _, ok := b.Bipartition(); !ok {
		return nil, ErrNotBipartite
	}
	return eulerColour(ctx, b, b.MaxDegree())
}

func eulerColour(ctx context.Context, b Bundles, k int64) (Colouring, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if k == 0 || b.Edges() == 0 {
		return make(Colouring, k), nil
	}
	if k%2 == 1 {
		return konigK(ctx, b, int(k))
	}
	h1, h2 := eulerSplit(b)
	c1, err := eulerColour(ctx, h1, k/2)
	if err != nil {
		return nil, err
	}
	c2, err := eulerColour(ctx, h2, k/2)
	if err != nil {
		return nil, err
	}
	return append(c1, c2...), nil
}

// eulerSplit splits b into two multigraphs whose degrees at every vertex are ⌈d/2⌉ and
// ⌊d/2⌋ (in some order), b being bipartite.
func eulerSplit(b Bundles) (Bundles, Bundles) {
	n := len(b)
	h1, h2 := make(Bundles, n), make(Bundles, n)
	odd := make([][]bool, n) // remainder graph
	rdeg := make([]int, n)
	for u := range b {
		h1[u], h2[u] = make([]int64, n), make([]int64, n)
		odd[u] = make([]bool, n)
	}
	for u := range b {
		for v := range b {
			h1[u][v] = b[u][v] / 2
			h2[u][v] = b[u][v] / 2
			if b[u][v]%2 == 1 {
				odd[u][v] = true
				rdeg[u]++
			}
		}
	}
	walk := func(s int) {
		side := 0
		x := s
		for {
			y := -1
			for w := 0; w < n; w++ {
				if odd[x][w] {
					y = w
					break
				}
			}
			if y < 0 {
				return
			}
			odd[x][y], odd[y][x] = false, false
			rdeg[x]--
			rdeg[y]--
			if side == 0 {
				h1[x][y]++
				h1[y][x]++
			} else {
				h2[x][y]++
				h2[y][x]++
			}
			side ^= 1
			x = y
		}
	}
	for v := 0; v < n; v++ { // trails from odd-degree vertices first
		if rdeg[v]%2 == 1 {
			walk(v)
		}
	}
	for v := 0; v < n; v++ { // then the remaining (even, bipartite) circuits
		for rdeg[v] > 0 {
			walk(v)
		}
	}
	return h1, h2
}
