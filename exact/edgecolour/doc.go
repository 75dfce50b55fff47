// Package edgecolour colours the edges of multigraphs on few vertices with many
// parallel edges, the processor multigraphs M of stencil task mapping (seed 001): a
// colour is a communication round, a colour class a matching, and the chromatic index
// χ'(M) is the least number of rounds.
//
// A multigraph is given as a symmetric matrix of multiplicities (Bundles), the natural
// form of M; FromGraph and ToGraph convert from and to gonum's graph.Multigraph and
// multi.UndirectedGraph. What is here:
//
//   - bounds: Δ (max degree) and the Goldberg–Seymour odd-set density
//     Γ = max over odd W, |W| ≥ 3, of ⌈2|E(W)| / (|W|−1)⌉ below χ'; Vizing's Δ+μ and
//     Shannon's ⌊3Δ/2⌋ above it;
//   - König's theorem made constructive: a bipartite multigraph is coloured in exactly
//     Δ colours by alternating paths (Konig), or by Euler splitting of even-degree
//     levels with alternating paths only at odd levels (KonigEuler), which needs
//     O(n² log Δ) work on the bundles instead of work proportional to the edges;
//   - ChromaticIndex: the exact χ' of a small multigraph by branch and bound over
//     colour classes (maximal matchings), König for bipartite ones;
//   - Greedy: a fast colouring of any multigraph (an upper bound);
//   - Verify: a colouring is proper and covers every multiplicity.
//
// The colourings whose work grows with the multiplicities (Konig, KonigEuler, Greedy,
// ChromaticIndex) take a context and return its error within a fraction of a second of
// its end.
package edgecolour
