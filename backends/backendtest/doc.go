// Package backendtest is the conformance suite every schedopt MILP backend passes:
// Run(t, solver) solves small models with known optima (knapsack, assignment, set
// cover, equality and range rows, free and negative-bounded columns, objective
// constants, maximisation, models without rows or columns), infeasible, unbounded
// and integer-infeasible models, a hard model under a time limit and under context
// cancellation, MIP starts, and random MILPs from several goroutines at once.
//
// Optima come from BruteForce, an enumeration oracle that shares no code with any
// solver, or from hand derivations written next to the case. Every solution is
// re-verified with model.Verify. The suite asserts statuses and values, never
// timings.
package backendtest
