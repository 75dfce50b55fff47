// Package bench runs sweeps: it expands a spec (spec.go) into a plan of jobs
// (plan.go), runs them on a pool of workers with one synced results line per job,
// resume and shards (sweep.go), merges results files, and builds the reports
// (report.go); bench/plot draws the figures.
//
// bench knows no instance kind and solves nothing itself: it loads instances through
// a kinds.Registry (kinds/builtin by default) and runs each job with kinds.Run, which
// solves through package solve.
package bench
