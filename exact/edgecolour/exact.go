package edgecolour

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// ErrTooLarge is returned by ChromaticIndex when the search exceeds its node limit;
// the bounds it returns alongside are still valid.
var ErrTooLarge = errors.New("edgecolour: exact search exceeded its node limit")

// DefaultNodeLimit bounds the branch-and-bound nodes of ChromaticIndex.
const DefaultNodeLimit = 2_000_000

// maxExactVertices is the largest multigraph ChromaticIndex searches (it enumerates the
// maximal matchings of the complete graph on its vertices: 945 for 10 vertices).
const maxExactVertices = 10

// Result is the outcome of ChromaticIndex.
type Result struct {
	Index     int64     // χ' when Exact, else the best upper bound found
	Lower     int64     // proven lower bound (= Index when Exact)
	Exact     bool      // Index is proven optimal
	Colouring Colouring // a proper colouring with Index colours
	Algorithm string    // how it was found: "trivial", "konig", "branch-and-bound", "greedy"
}

// ChromaticIndex computes χ'(b). Bipartite multigraphs (all with at most two
// vertices among them) are coloured in Δ colours by König's theorem. Others, up to 10
// vertices, are searched: for k from max(Δ, Γ) upward, a depth-first search picks one
// colour class (a maximal matching of the remaining edges that covers every vertex
// whose remaining degree equals the colours left) per level, prunes when the colours
// left fall below max(Δ, Γ) of the remaining edges, and memoises failed states.
// nodeLimit ≤ 0 means DefaultNodeLimit. When the limit or ctx stops the search, it
// returns the best colouring found (greedy) with ErrTooLarge or ctx's error.
func ChromaticIndex(ctx context.Context, b Bundles, nodeLimit int) (Result, error) {
	if err := b.Check(); err != nil {
		return Result{}, err
	}
	if b.Edges() == 0 {
		return Result{Exact: true, Algorithm: "trivial"}, nil
	}
	if _, ok := b.Bipartition(); ok {
		col, err := KonigEuler(ctx, b)
		if err != nil {
			return Result{}, err
		}
		d := b.MaxDegree()
		return Result{Index: d, Lower: d, Exact: true, Colouring: col, Algorithm: "konig"}, nil
	}
	lb := b.LowerBound()
	best, err := Greedy(ctx, b)
	if err != nil {
		return Result{Lower: lb}, err
	}
	res := Result{Index: int64(best.Colours()), Lower: lb, Colouring: best.Compact(), Algorithm: "greedy"}
	if res.Index == lb {
		res.Exact = true
		return res, nil
	}
	if len(b) > maxExactVertices {
		return res, fmt.Errorf("%w: %d vertices (at most %d)", ErrTooLarge, len(b), maxExactVertices)
	}
	if nodeLimit <= 0 {
		nodeLimit = DefaultNodeLimit
	}
	s := newSearch(b, nodeLimit)
	for k := lb; k < res.Index; k++ {
		col, ok, err := s.colour(ctx, k)
		if err != nil {
			return res, err
		}
		if ok {
			return Result{Index: k, Lower: k, Exact: true, Colouring: col, Algorithm: "branch-and-bound"}, nil
		}
		res.Lower = k + 1
	}
	res.Exact = true
	return res, nil
}

type search struct {
	n         int
	pairs     []Edge  // pairs with edges, in index order
	mu0       []int64 // their multiplicities
	matchings [][]int
	nodes     int
	limit     int
	failed    map[string]bool
}

func newSearch(b Bundles, limit int) *search {
	s := &search{n: len(b), limit: limit}
	for u := 0; u < s.n; u++ {
		for v := u + 1; v < s.n; v++ {
			if b[u][v] > 0 {
				s.pairs = append(s.pairs, Edge{u, v})
				s.mu0 = append(s.mu0, b[u][v])
			}
		}
	}
	// Every matching of the support graph (maximality is checked against the
	// remaining edges during the search).
	var rec func(i int, used []bool, cur []int)
	rec = func(i int, used []bool, cur []int) {
		if i == len(s.pairs) {
			if len(cur) > 0 {
				s.matchings = append(s.matchings, append([]int(nil), cur...))
			}
			return
		}
		rec(i+1, used, cur)
		e := s.pairs[i]
		if !used[e[0]] && !used[e[1]] {
			used[e[0]], used[e[1]] = true, true
			rec(i+1, used, append(cur, i))
			used[e[0]], used[e[1]] = false, false
		}
	}
	rec(0, make([]bool, s.n), nil)
	sort.SliceStable(s.matchings, func(i, j int) bool { return len(s.matchings[i]) > len(s.matchings[j]) })
	return s
}

func (s *search) key(mu []int64, r int64) string {
	var sb strings.Builder
	sb.WriteString(strconv.FormatInt(r, 10))
	for _, x := range mu {
		sb.WriteByte(',')
		sb.WriteString(strconv.FormatInt(x, 10))
	}
	return sb.String()
}

func (s *search) bundles(mu []int64) Bundles {
	b := make(Bundles, s.n)
	for i := range b {
		b[i] = make([]int64, s.n)
	}
	for i, e := range s.pairs {
		b[e[0]][e[1]] = mu[i]
		b[e[1]][e[0]] = mu[i]
	}
	return b
}

// colour looks for a colouring with k colours of the search's multigraph.
func (s *search) colour(ctx context.Context, k int64) (Colouring, bool, error) {
	s.failed = map[string]bool{}
	mu := append([]int64(nil), s.mu0...)
	var classes [][]int
	ok, err := s.dfs(ctx, mu, k, &classes)
	if err != nil || !ok {
		return nil, false, err
	}
	col := make(Colouring, 0, len(classes))
	for _, m := range classes {
		var class []Edge
		for _, i := range m {
			class = append(class, s.pairs[i])
		}
		col = append(col, class)
	}
	return col, true, nil
}

// dfs reports whether the remaining multiplicities mu can be coloured with r colours,
// appending the colour classes used to *classes when they can.
func (s *search) dfs(ctx context.Context, mu []int64, r int64, classes *[][]int) (bool, error) {
	deg := make([]int64, s.n)
	var left int64
	for i, e := range s.pairs {
		deg[e[0]] += mu[i]
		deg[e[1]] += mu[i]
		left += mu[i]
	}
	if left == 0 {
		return true, nil
	}
	if r <= 0 {
		return false, nil
	}
	if lb := s.bundles(mu).LowerBound(); lb > r {
		return false, nil
	}
	key := s.key(mu, r)
	if s.failed[key] {
		return false, nil
	}
	s.nodes++
	if s.nodes > s.limit {
		return false, ErrTooLarge
	}
	if s.nodes%1024 == 0 {
		if err := ctx.Err(); err != nil {
			return false, err
		}
	}
	next := make([]int64, len(mu))
	for _, m := range s.matchings {
		if !s.usable(m, mu, deg, r) {
			continue
		}
		copy(next, mu)
		for _, i := range m {
			next[i]--
		}
		*classes = append(*classes, m)
		ok, err := s.dfs(ctx, next, r-1, classes)
		if err != nil {
			return false, err
		}
		if ok {
			return true, nil
		}
		*classes = (*classes)[:len(*classes)-1]
	}
	s.failed[key] = true
	return false, nil
}

// usable reports whether matching m may be the next colour class: all its edges
// remain, it covers every tight vertex (remaining degree r), and no remaining edge
// could be added to it (maximality; a larger class never hurts).
func (s *search) usable(m []int, mu, deg []int64, r int64) bool {
	covered := make([]bool, s.n)
	for _, i := range m {
		if mu[i] == 0 {
			return false
		}
		e := s.pairs[i]
		covered[e[0]], covered[e[1]] = true, true
	}
	for v := 0; v < s.n; v++ {
		if deg[v] == r && !covered[v] {
			return false
		}
	}
	for i, e := range s.pairs {
		if mu[i] > 0 && !covered[e[0]] && !covered[e[1]] {
			return false
		}
	}
	return true
}

// Greedy colours any multigraph: each colour class is a maximal matching built by
// taking edges in order of decreasing remaining degree at their ends (the vertices that
// most need colours first), and the class is repeated while it stays a good choice.
// It is a fast upper bound, not an exact method. It returns ctx's error soon after ctx
// is done (checked every colour class).
func Greedy(ctx context.Context, b Bundles) (Colouring, error) {
	n := len(b)
	rem := b.Clone()
	deg := make([]int64, n)
	for v := range deg {
		deg[v] = rem.Degree(v)
	}
	type cand struct {
		u, v  int
		score int64
	}
	var col Colouring
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var cs []cand
		for u := 0; u < n; u++ {
			for v := u + 1; v < n; v++ {
				if rem[u][v] > 0 {
					cs = append(cs, cand{u, v, deg[u] + deg[v]})
				}
			}
		}
		if len(cs) == 0 {
			return col, nil
		}
		sort.SliceStable(cs, func(i, j int) bool { return cs[i].score > cs[j].score })
		used := make([]bool, n)
		var class []Edge
		for _, c := range cs {
			if !used[c.u] && !used[c.v] {
				used[c.u], used[c.v] = true, true
				class = append(class, Edge{c.u, c.v})
			}
		}
		// Repeat the class as long as the ends of its edges stay the most loaded:
		// t = 1 keeps the choice fresh; a batch of the smallest multiplicity in the
		// class is used when the multigraph is large.
		t := int64(1)
		if n > maxExactVertices {
			t = rem[class[0][0]][class[0][1]]
			for _, e := range class {
				t = min(t, rem[e[0]][e[1]])
			}
		}
		for _, e := range class {
			rem[e[0]][e[1]] -= t
			rem[e[1]][e[0]] -= t
			deg[e[0]] -= t
			deg[e[1]] -= t
		}
		for i := int64(0); i < t; i++ {
			col = append(col, class)
		}
	}
}
