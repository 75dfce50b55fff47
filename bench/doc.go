// Package bench turns instances into results: it loads instance JSON of every kind,
// solves it with a MILP backend or an exact algorithm, decodes and evaluates the
// schedule, cross-checks it against an exact oracle, and runs sweeps of such jobs with
// reports and plots.
//
// Each problem kind plugs in through the Problem interface (problem.go); the adapters
// for the kinds live in the kind_*.go files.
package bench
