// Package stencil holds the mapping heuristics of seed 001 (Ciżnicki 2023, §6.2 and
// Chapter 7) for the stencil kind: Load Balancing (Alg_1, with task orders IJK, JIK,
// KIJ and a seeded random order), Degree Minimisation (Alg_2), Multicut Minimisation
// (Alg_3), Neighbours Accumulation (Alg_4, load factor f) and the tabu search Task
// Movement (Algorithm 6).
//
// Search is the full Task Movement of Chapter 7: move, swap and arc-move
// neighbourhoods, attribute-based tabu status with separate tenures for additions and
// removals, aspiration, candidates scored incrementally (tmstate.go) in O(degree);
// TaskMovementDriver is the published driver (starts LB, DM, MM, NA; the deadline is
// the shortest of their makespans). TaskMovement is the earlier single-move search,
// kept as the MIP start of kinds/stencil.
//
// All greedy heuristics fill the processors one after another, in instance order, up to
// their heterogeneous share q_i = w_V·r_i/Σ r_p with integer speeds
// r_p = ⌊t_max/t_p⌋, while the filled load is strictly below q_i; they differ in
// which task comes next. The tie rules are those of the author's simulator (reference
// §3.6), so the deterministic rows of Tables 6.6-6.11 reproduce exactly: DM and MM take
// the last task among equal minima, NA the first among equal maxima/minima. The
// published DM and MM initialise the degree of task 0 only (a loop that never
// advances); Published selects that behaviour, the default follows the pseudo-code.
//
// The heuristics return a mapping; evaluating it (rounds, time, energy) is the job of
// domain/stencil and exact/edgecolour.
package stencil
