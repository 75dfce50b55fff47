// Package benchstats computes the statistics by which the field compares MILP
// solvers on a benchmark set, from one Run per (instance, permutation, repetition,
// backend):
//
//   - per backend: solved, time-outs, fails and aborts; the shifted geometric mean of
//     time (H. Mittelmann's benchmarks: shift 10 s, time-outs and fails counted at the
//     limit) and its ratio to the best backend; wins; the time of the first solves
//     and of the certification apart; the shifted geometric mean of peak memory (as
//     the Open Energy Transition solver benchmark records it); the mean primal-dual
//     integral where a backend reports one;
//   - the virtual best backend (the fastest correct answer per problem);
//   - the performance profiles of Dolan and Moré (2002) and the cumulative "solved
//     within t" curves;
//   - performance variability across permutations of rows and columns (Lodi and
//     Tramontani, 2013): per instance and backend the min, median and max time, the
//     coefficient of variation, and whether the status changed.
//
// The package knows nothing of sweeps or result files; package bench turns its
// records into Runs.
package benchstats
