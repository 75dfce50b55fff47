package edgecolour

import (
	"errors"
	"fmt"
)

// Edge is an unordered pair of vertices.
type Edge [2]int

// Colouring is an edge colouring given by its colour classes: Colouring[c] holds the
// edges of colour c, one per parallel edge coloured c. In a proper colouring every
// class is a matching.
type Colouring [][]Edge

// ErrImproper is wrapped by Verify's errors.
var ErrImproper = errors.New("edgecolour: not a proper colouring covering the multigraph")

// Verify checks that col is a proper edge colouring of b: every class is a matching of
// existing bundles, and every bundle {u,v} appears in at least b[u][v] classes (a round
// schedule may repeat an exchange; it may not leave one out).
func Verify(b Bundles, col Colouring) error {
	n := len(b)
	cover := make([][]int64, n)
	for i := range cover {
		cover[i] = make([]int64, n)
	}
	for c, class := range col {
		used := make([]bool, n)
		for _, e := range class {
			u, v := e[0], e[1]
			if u < 0 || u >= n || v < 0 || v >= n || u == v {
				return fmt.Errorf("%w: colour %d: {%d,%d} is not an edge", ErrImproper, c, u, v)
			}
			if b[u][v] == 0 {
				return fmt.Errorf("%w: colour %d: {%d,%d} has no edges", ErrImproper, c, u, v)
			}
			if used[u] || used[v] {
				return fmt.Errorf("%w: colour %d is not a matching at {%d,%d}", ErrImproper, c, u, v)
			}
			used[u], used[v] = true, true
			cover[u][v]++
			cover[v][u]++
		}
	}
	for u := 0; u < n; u++ {
		for v := u + 1; v < n; v++ {
			if cover[u][v] < b[u][v] {
				return fmt.Errorf("%w: bundle {%d,%d} of multiplicity %d gets %d colours", ErrImproper, u, v, b[u][v], cover[u][v])
			}
		}
	}
	return nil
}

// Colours returns the number of non-empty colour classes.
func (col Colouring) Colours() int {
	k := 0
	for _, c := range col {
		if len(c) > 0 {
			k++
		}
	}
	return k
}

// Compact drops empty colour classes.
func (col Colouring) Compact() Colouring {
	out := col[:0:0]
	for _, c := range col {
		if len(c) > 0 {
			out = append(out, c)
		}
	}
	return out
}
