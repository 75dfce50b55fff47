package edgecolour

import (
	"errors"
	"fmt"
)

// Bundles is a multigraph on vertices 0..n−1 given by its symmetric matrix of edge
// multiplicities; the diagonal must be zero (no loops).
type Bundles [][]int64

// ErrNotMultigraph reports a matrix that is not a loopless undirected multigraph.
var ErrNotMultigraph = errors.New("edgecolour: not a symmetric, loopless, non-negative multiplicity matrix")

// Check reports whether b is square, symmetric, non-negative and loopless.
func (b Bundles) Check() error {
	for i, row := range b {
		if len(row) != len(b) {
			return fmt.Errorf("%w: row %d has %d entries for %d vertices", ErrNotMultigraph, i, len(row), len(b))
		}
		if row[i] != 0 {
			return fmt.Errorf("%w: loop of multiplicity %d at %d", ErrNotMultigraph, row[i], i)
		}
		for j, x := range row {
			if x < 0 || x != b[j][i] {
				return fmt.Errorf("%w: entry [%d][%d] = %d, [%d][%d] = %d", ErrNotMultigraph, i, j, x, j, i, b[j][i])
			}
		}
	}
	return nil
}

// Clone returns a deep copy of b.
func (b Bundles) Clone() Bundles {
	c := make(Bundles, len(b))
	for i := range b {
		c[i] = append([]int64(nil), b[i]...)
	}
	return c
}

// Degree returns the number of edges at v, parallel ones counted.
func (b Bundles) Degree(v int) int64 {
	var d int64
	for _, x := range b[v] {
		d += x
	}
	return d
}

// MaxDegree returns Δ, a lower bound on the chromatic index.
func (b Bundles) MaxDegree() int64 {
	var d int64
	for v := range b {
		d = max(d, b.Degree(v))
	}
	return d
}

// MaxMultiplicity returns μ, the largest bundle.
func (b Bundles) MaxMultiplicity() int64 {
	var m int64
	for _, row := range b {
		for _, x := range row {
			m = max(m, x)
		}
	}
	return m
}

// Edges returns the number of edges, parallel ones counted.
func (b Bundles) Edges() int64 {
	var s int64
	for i := range b {
		for j := i + 1; j < len(b); j++ {
			s += b[i][j]
		}
	}
	return s
}

// maxExhaustiveOddSets is the largest vertex count for which OddSetBound enumerates
// every odd vertex set (2^n subsets); above it only triangles are tried.
const maxExhaustiveOddSets = 16

// OddSetBound returns Γ = max over odd vertex sets W with |W| ≥ 3 of
// ⌈2|E(W)| / (|W| − 1)⌉: a colour class holds at most (|W|−1)/2 edges inside W, so
// χ' ≥ Γ. exhaustive is false when b has more than 16 vertices and only triangles were
// tried (the value is then still a valid lower bound).
func (b Bundles) OddSetBound() (gamma int64, exhaustive bool) {
	n := len(b)
	if n < 3 {
		return 0, true
	}
	if n > maxExhaustiveOddSets {
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				for k := j + 1; k < n; k++ {
					gamma = max(gamma, b[i][j]+b[i][k]+b[j][k])
				}
			}
		}
		return gamma, false
	}
	for set := 1; set < 1<<n; set++ {
		size := popcount(set)
		if size < 3 || size%2 == 0 {
			continue
		}
		var e int64
		for i := 0; i < n; i++ {
			if set>>i&1 == 0 {
				continue
			}
			for j := i + 1; j < n; j++ {
				if set>>j&1 == 1 {
					e += b[i][j]
				}
			}
		}
		h := int64(size-1) / 2 // edges per colour class inside W
		gamma = max(gamma, (e+h-1)/h)
	}
	return gamma, true
}

func popcount(x int) int {
	c := 0
	for ; x != 0; x &= x - 1 {
		c++
	}
	return c
}

// LowerBound returns max(Δ, Γ) ≤ χ'.
func (b Bundles) LowerBound() int64 {
	g, _ := b.OddSetBound()
	return max(b.MaxDegree(), g)
}

// VizingBound returns Δ + μ ≥ χ' (Vizing's theorem for multigraphs).
func (b Bundles) VizingBound() int64 { return b.MaxDegree() + b.MaxMultiplicity() }

// ShannonBound returns ⌊3Δ/2⌋ ≥ χ' (Shannon's theorem).
func (b Bundles) ShannonBound() int64 { return 3 * b.MaxDegree() / 2 }

// UpperBound returns min(Vizing, Shannon) ≥ χ'.
func (b Bundles) UpperBound() int64 { return min(b.VizingBound(), b.ShannonBound()) }

// Bipartition returns a 2-colouring of the vertices (side[v] ∈ {0,1}) such that every
// edge joins the two sides, and false if b has an odd cycle.
func (b Bundles) Bipartition() ([]int, bool) {
	n := len(b)
	side := make([]int, n)
	for v := range side {
		side[v] = -1
	}
	for s := 0; s < n; s++ {
		if side[s] >= 0 {
			continue
		}
		side[s] = 0
		queue := []int{s}
		for len(queue) > 0 {
			v := queue[0]
			queue = queue[1:]
			for w := 0; w < n; w++ {
				if b[v][w] == 0 {
					continue
				}
				switch side[w] {
				case -1:
					side[w] = 1 - side[v]
					queue = append(queue, w)
				case side[v]:
					return nil, false
				}
			}
		}
	}
	return side, true
}
