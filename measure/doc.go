// Package measure builds workload profiles from measured runs, as seeds 000 and 003
// do (reference 000_003 §2.13, seed 000 Algs. 4–6): every kernel runs at every
// workload size, its wall time is taken around the child process, the node's energy
// comes from an energy.Source, and each point is repeated by MeanUsingTTest (Alg. 5)
// until the Student-t precision of Alg. 6 (Precision) is below ε, or a repetition or
// time cap is reached. Dynamic energy is total energy less static power × time
// (seed 000 eq. 4).
//
// The raw samples are kept in a CSV file (WriteSamples, ReadSamples) and aggregated
// by Aggregate into per-size means with their precision, which Profile.Instance turns
// into a workload instance (domain/workload) with objective "pareto". The same
// aggregation serves measurements made elsewhere (`schedopt import profile`).
package measure
