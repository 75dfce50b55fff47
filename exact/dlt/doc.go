// Package dlt holds exact algorithms for the single-installment divisible-load problems
// of seed 004: the O(m) recursion (2.1)-(2.3) for a star with a fixed order, the
// closed forms (2.4) and (4.7)-(4.11), the chapter 4 feasibility limit on m, and exact
// oracles for "dlt-single" (§5.1): the shortest schedule by enumerating the number of
// used machines (each solved by all-finish-together bisection), and the least energy by
// enumerating the vertices of the per-machine-count linear programs.
//
// These algorithms cross-check the MILP formulations in formulations/dltflat and
// formulations/dltsingle; they never use a solver.
package dlt
