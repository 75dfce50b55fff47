// Package partition builds the MILP of the PeaPaw roofline partitioning problem (seed
// 002; reference 002 §2.3): code portions with flop and byte counts shared among
// heterogeneous processors, each processor's time the roofline maximum of its compute
// and memory times, the makespan the slowest processor's time, and the energy the
// static power of the whole platform over the makespan plus the dynamic energy per
// flop and per byte.
//
// The paper solves no optimisation problem numerically; its guidelines are statements
// about the optima of this model, which is linear once the maxima of Eqs. (15)–(17)
// are written as epigraph rows (reference 002 §2.3). Divisible portions give
// continuous fractions (an LP when all are divisible), whole portions binary
// placements and chunked portions integer chunk counts.
//
// The package never imports a solver backend; bench solves the model and checks it
// against the exact algorithms of exact/partition.
package partition
