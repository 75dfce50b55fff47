// Package stencil holds the instance and solution types of the schedopt kind
// "stencil": the energy-aware mapping of a stencil computation's block task graph onto
// heterogeneous processors whose halo exchanges run in communication rounds (seed 001,
// Ciżnicki 2023, Chapters 5-6).
//
// A task is a block of grid cells; an arc (u,v) is the halo that block u sends to block
// v. Mapping the tasks onto processors turns the cut arcs into a multigraph M on the
// processors: the bundle between p and k has multiplicity Σ cells × link_time over the
// cut arcs between them, in round quanta. A round is a matching of M (each processor
// talks to one partner at a time), so the number of rounds of a schedule is the number
// of colours of a proper edge colouring of M, at best its chromatic index.
//
// The package validates instances (bad input is a domain.FieldError naming the JSON
// path), and its evaluator recomputes busy times, the makespan
// ts = max(max_p busy_p, rounds × round_time) and the energy
// E = Σ_p (cells_p·energy_per_cell_p + idle_power_p·(ts − busy_p)) + Σ_cut cells·link_energy
// of a decoded mapping and round schedule, independently of any MILP model.
//
// Thesis.go reproduces the integer-µs simulator of the thesis (§6.3, Tables 6.4-6.11)
// so that its published figures, truncated to two decimals, can be checked exactly;
// grid.go builds the seed's block grids (Cuboid, Sphere) and arbitrary ones.
package stencil
