// Package gridcut computes edge-isoperimetric profiles of block grids: for every k,
// a lower bound on the weight of the edge boundary of any set of k blocks of an
// N1×N2×N3 grid whose axes are paths or cycles (the 7-point stencil graphs of seed 001,
// Cuboid and Sphere). The profile is what exact/stencil needs to bound the cut
// of a mapping once the number of blocks per processor is known.
//
// Profile computes it in one of two ways, and says which:
//
//   - Exactly, by dynamic programming over the slices of the grid along one axis.
//     The state is the set of blocks of the current slice (a bit mask of its cells),
//     indexed by the number of blocks so far; the edges between two slices cost
//     w·|S ⊕ T|, so one step is a min-plus distance transform on the hypercube of
//     slice masks (one pass per cell), followed by the slice's own boundary. A
//     periodic slicing axis is closed by fixing the first slice. This needs slices of
//     at most 16 cells (8 when the slicing axis is a cycle).
//   - Otherwise as a lower bound by layers: for a slicing axis with layer counts
//     m_1..m_L, the boundary is at least Σ_i P(m_i) + w·Σ |m_i − m_{i+1}| (cyclically
//     on a periodic axis), where P is the profile of one layer (computed recursively)
//     and |A ⊕ B| ≥ ||A| − |B||. The bound is the best over the axes and over the
//     complement (a set and its complement have the same boundary).
//
// Brute enumerates every subset of tiny grids; the tests check both methods
// against it.
package gridcut
