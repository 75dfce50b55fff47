// Package dlt holds the divisible-load instances of seed 004 (Marszałkowski's thesis)
// that are solved in one installment: the flat-memory star of §2.2 (kind "dlt-flat")
// and the homogeneous hierarchical-memory system of §5.1 (kind "dlt-single").
//
// It defines their instance and solution JSON (../shared/spec/README.md), validation
// that reports bad input as domain.FieldError, the time and energy functions of a
// machine with hierarchical memory (3.1)-(3.3), the chapter 4 energy model
// (4.12)-(4.16), and the independent evaluators: event simulations of a decoded
// schedule that recompute its length and every energy term from these formulas,
// without looking at any MILP model.
//
// Units follow the thesis: MB, s, W, J; rates a, C in s/MB, k in J/MB.
package dlt
