package edgecolour

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/multi"
)

// FromGraph returns the bundles of an undirected gonum multigraph (parallel lines
// become multiplicities) with the node IDs in increasing order: vertex i of the
// Bundles is ids[i]. Self-loops are an error: a processor does not exchange with
// itself.
func FromGraph(g graph.Multigraph) (ids []int64, b Bundles, err error) {
	nodes := graph.NodesOf(g.Nodes())
	for _, n := range nodes {
		ids = append(ids, n.ID())
	}
	slices.Sort(ids)
	index := make(map[int64]int, len(ids))
	for i, id := range ids {
		index[id] = i
	}
	b = make(Bundles, len(ids))
	for i := range b {
		b[i] = make([]int64, len(ids))
	}
	for i, u := range ids {
		for j := i; j < len(ids); j++ {
			v := ids[j]
			lines := g.Lines(u, v)
			c := int64(lines.Len())
			if c == 0 {
				continue
			}
			if i == j {
				return nil, nil, fmt.Errorf("%w: %d self-loops at node %d", ErrNotMultigraph, c, u)
			}
			b[i][j], b[j][i] = c, c
		}
	}
	return ids, b, nil
}

// ToGraph returns b as a gonum undirected multigraph with node IDs 0..n−1 and one line
// per parallel edge.
func ToGraph(b Bundles) *multi.UndirectedGraph {
	g := multi.NewUndirectedGraph()
	for i := range b {
		g.AddNode(multi.Node(i))
	}
	for u := range b {
		for v := u + 1; v < len(b); v++ {
			for c := int64(0); c < b[u][v]; c++ {
				g.SetLine(g.NewLine(multi.Node(u), multi.Node(v)))
			}
		}
	}
	return g
}
