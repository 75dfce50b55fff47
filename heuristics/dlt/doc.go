// Package dlt holds the fast load-distribution heuristics of seed 004 for
// multi-installment divisible loads with hierarchical memory:
//
//   - §5.2.1, homogeneous machines: the fixed-chunk rules SSC (α = ρ), SCU (underload),
//     SCO (overload) and GSS (guided self-scheduling), sent round robin to machines that
//     are all woken at time 0 (Homogeneous);
//   - §6.2.1, heterogeneous machines: the online SSC and GSS driven by one of the 14
//     processor sorting rules (Online), and super-SSC / super-GSS, which run all rules
//     and keep the best schedule (Super).
//
// Every heuristic returns a dltmulti.Schedule; its time and energy come from the domain
// evaluator (dltmulti.Evaluate, and dltmulti.EvaluateCh5 for the §5.2.1 accounting), so
// heuristics and the MIP are judged by the same formulas.
package dlt
