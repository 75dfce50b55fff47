// Package portfolio is schedopt's backend "auto", the default of `schedopt solve`,
// `front` and bench's "auto": it runs the strongest paths an instance's kind has and
// answers with the first proof.
//
// A kind says which paths prove its instances best through kinds.Planner, strongest
// first: the dlt-multi sequence branch-and-bound ("exact") ahead of the MILP where it
// applies, the workload DPs ahead of the MILP, and the MILP alone where no exact
// algorithm scales (the stencil kind's MILP path runs its load-vector search itself).
// With one thread, Run runs the first path alone, and the next one only when the
// first has no algorithm for the instance (solve.ErrNoExact). With two or more
// threads, the first two paths run concurrently, the first path with all threads but
// one and the second with one: the first proven answer (optimal, infeasible,
// unbounded) wins, and the other path is cancelled, or kept as a cross-check when it
// ends within CrossCheckBudget. When no path proves anything, the answer with the
// smallest gap wins, ties to the stronger path. The result's Backend names the path
// whose answer it is, and Result.Paths says how every path ended.
//
// RunModel does the same for a bare model (`schedopt solve-mps --backend auto`): HiGHS
// alone with one thread, HiGHS against CBC with two or more, as commercial solvers run
// concurrent portfolios.
//
// The outcome is deterministic where the paths' statuses agree: the same status, and an
// objective within the requested gap, whichever path wins.
package portfolio
