// Package stencil emits the MILPs of seed 001 (Ciżnicki 2023, §6.1) for the stencil
// kind: mapping the tasks of a block grid onto processors and colouring the resulting
// processor multigraph M into communication rounds, minimising energy under a deadline.
//
// Two formulations of the same problem are built through model/:
//
//   - ArcSlot is the thesis's ILP (6.1)-(6.15) as reconstructed in the reference
//     extraction (§2.5): binaries x[a,p,k] put every arc a = (u,v) in a slot (p,k),
//     the restrict-slot families (6.2)-(6.5) make all arcs of a task agree on its
//     processor, (6.6) counts the cells per processor with the lcm scaling, and the
//     colouring block (6.7)-(6.8) with y[{p,k},c] and z[c] gives every bundle of M as
//     many colours as its multiplicity. The printed model indexes y by ordered pairs
//     and so only counts Δ(M), a lower bound on the chromatic index (a processor
//     triangle of multiplicity a has Δ = 2a but χ' = 3a). By default y is indexed by
//     unordered pairs, which makes Σ z a true proper edge colouring; Options.Literal
//     builds the printed version, to show the difference.
//   - Compact is the task-assignment formulation: a[u,p] binaries, cut indicators
//     w[{u,v},(p,k)] ≥ a[u,p] + a[v,k] − 1, loads per processor, and the same
//     colouring block. It has the same optimum with far fewer rows.
//
// Both break colour symmetry with z[c] ≥ z[c+1] and size the colour set from a real
// upper bound on χ'(M) over all mappings that meet the deadline (ColourBound: Shannon
// ⌊3Δ/2⌋ and Vizing Δ+μ over bounds on the weighted degrees, and the deadline over the
// round time), never from the task graph's Δ. Compact can instead use the matching
// block (Options.Colouring = Matchings): an integer count n[M] per maximal matching M
// of the processors, Σ_{M∋{p,k}} n[M] ≥ μ_pk; every proper colouring is such a
// multiset of matchings, so the block is exact, and for a few processors it is tiny.
//
// The objective is E of the spec in J: Σ_p cells_p·energy_per_cell_p +
// idle_power_p·(ts − busy_p) + Σ cut cells·link_energy. Times are measured in units of
// the deadline (Formulation.TimeScale), so that ts ≤ 1 in the model.
// Options.Loads and Options.MinCutCells build the restricted model of one load vector
// for the search of exact/stencil: the cells per processor fixed, and one row per
// processor saying that its cut arcs carry at least the grid's isoperimetric bound.
//
// SetStart installs a MIP start from a mapping and a round schedule (a heuristic's);
// Decode reads a mapping and a round schedule back.
package stencil
