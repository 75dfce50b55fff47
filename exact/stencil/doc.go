// Package stencil proves stencil mappings optimal (seed 001) by a search over load
// vectors: how many blocks each processor gets.
//
// For a block grid with equal blocks, the energy of a mapping is
//
//	E = Σ_p n_p·c·(e_p − P_p·t_p) + (Σ_p P_p)·ts + E_comm,   ts = max(max_p n_p·c·t_p, R·τ)
//
// (n_p blocks of c cells on p, e_p and t_p energy and time per cell, P_p idle power,
// R rounds of τ seconds). Once the loads are fixed, the computation part is fixed,
// and the rest is bounded below by the grid's edge isoperimetry: the blocks of p
// have at least I(n_p) boundary faces, I the grid's isoperimetric profile
// (exact/gridcut). Every boundary face carries two arcs, one each way, so
//
//   - E_comm ≥ ½·Σ_p I(n_p)·(cheapest round trip from p to another used processor),
//   - the weighted degree of p in the transfer multigraph is at least I(n_p) times the
//     cheapest round trip in quanta, and the rounds (its chromatic index) at least
//     the largest degree, which bounds ts from below.
//
// A load vector whose bound is at least the incumbent's energy cannot hold a better
// mapping; one whose bound puts ts past the deadline holds no feasible mapping. The
// search enumerates the load vectors up to the symmetry of identical processors,
// bounds each, and returns those left open; when none is, the incumbent is optimal.
// With two processors in use the bound is attained whenever the profile is (a set
// with I(k) faces and its complement), so it is tight on the mappings that are
// optimal in Tables 6.4 and 6.5.
package stencil
