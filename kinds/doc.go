// Package kinds is the one interface every instance kind of schedopt implements, and
// the registry the CLI, sweeps and library users look kinds up in.
//
// A kind (Kind) loads and validates its instance JSON into a Problem, which formulates
// the MILP, decodes and evaluates a solution, runs the exact oracle where one exists
// and, for HeuristicProblem, its heuristics; the kind also lists its instance
// generators. One subpackage holds each kind's adapter (kinds/dlt, kinds/dltmulti,
// kinds/stencil, kinds/workload, kinds/partition) and kinds/builtin registers them all.
// Adding a kind means adding one subpackage and one line in kinds/builtin.
//
// Run dispatches one job of a Problem to a MILP backend, its exact algorithm or a
// heuristic; package solve does the certified solve itself.
package kinds
