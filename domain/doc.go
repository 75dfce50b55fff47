// Package domain holds what every problem kind of schedopt shares: the error type that
// names the file, field and reason of bad input.
//
// Each subpackage (dlt, stencil, workload, partition) defines one family of instances:
// the instance and solution types with their JSON form (../shared/spec/README.md), input
// validation, and an independent evaluator that recomputes a schedule's time and energy
// from the domain formulas, without looking at any MILP model.
package domain
