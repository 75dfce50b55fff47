// Package lpsolve is schedopt's own cgo binding to lp_solve 5.5 (Debian
// liblpsolve55-dev: header <lpsolve/lp_lib.h>, shared library in /usr/lib/lp_solve,
// linked dynamically with an rpath, as the LGPL asks). It implements backends.Solver.
//
// lp_solve is a weak MILP solver: use it for small models (tens of binaries) and as a
// second opinion on HiGHS, not for production-size instances.
//
// # Building the model
//
// One C call creates the lprec and loads the whole model, column by column, because
// lp_solve stores its matrix by columns and adding rows one by one (add_constraintex,
// even in row-add mode) costs time quadratic in the number of rows: 65 s for 250,000
// rows of 4 nonzeros, against under a second column-wise. The loader transposes the
// model's CSR arrays into C scratch arrays (a counting sort), calls make_lp(rows, 0)
// and resize_lp, adds each column with add_columnex (objective coefficient in row 0,
// 1-based row numbers), then sets each row's type and right-hand side (set_constr_type,
// set_rh; a range is a GE row plus set_rh_range with its width; rows with two infinite
// sides are left out), each column's bounds with set_bounds, or set_unbounded for free
// columns, because lp_solve's default bounds are [0, +inf), integrality with set_int,
// and the sense with set_minim/set_maxim. Every MYBOOL result is checked; a failure
// names the row or column. The objective constant is not given to lp_solve (set_rh on
// row 0 has version-dependent sign rules); Solve adds it to get_objective.
//
// # Parameters
//
// The installed 5.5.2.5 library's defaults differ from its documentation (measured:
// bb_floorfirst AUTOMATIC, bb_rule 17445, mip gaps 1e-11), so every parameter the
// binding relies on is set explicitly: set_epslevel(EPS_TIGHT) first, infinity 1e30,
// epsint 1e-7, absolute and relative MIP gaps from Options (0 for the zero value),
// timeout, break-at-first off, break-at-value off, ceiling branch first,
// NODE_FIRSTSELECT, depth limit −50 (checked after the run: see below), no presolve,
// scaling GEOMETRIC+EQUILIBRATE (not lp_solve's default, which also scales integer
// columns and produced a false optimum), improve DUALFEAS+THETAGAP, simplex DUAL_PRIMAL, pricing DEVEX+ADAPTIVE,
// verbosity NEUTRAL (NORMAL when Options.Log is set; the log goes through put_logfunc
// and a runtime/cgo.Handle to the writer).
//
// Both MIP gaps are set explicitly (set_mip_gap with TRUE and with FALSE). lp_solve's
// relative gap is |z−b|/(1+|z|), which below |z| = 1 acts as an absolute gap, while
// Options.RelGap means |z−b|/|z| (backends.RelativeGap). When an optimum's proof is
// looser than max(AbsGap, RelGap·|z|), Solve solves the model again on a fresh lprec
// with the lp_solve gap RelGap·|z|/(1+|z|) (0 when that is tiny), at most twice, and
// the Message says so; an optimal result's gap is then within RelGap.
//
// # Memory ownership
//
// The model's arrays are read by the C loader during one call and copied into C
// scratch arrays (freed before it returns) before lp_solve sees them, so lp_solve never
// holds or modifies Go memory. The lprec is freed by delete_lp in a defer, the control block by free,
// after the watcher goroutine has exited and every lprec that holds it as callback data
// is deleted; nothing relies on a finaliser.
//
// # Cancellation, deadline and threads
//
// lp_solve's set_timeout takes whole seconds, so the binding also runs a watcher
// goroutine that sets an atomic flag in a C control block when ctx is done or
// Options.TimeLimit has elapsed; the abort function registered with put_abortfunc
// reads the flag in C, without calling into Go. lp_solve is single-threaded and keeps
// all its state in the lprec; concurrent solves from many goroutines, each with its
// own lprec, are safe (the conformance suite and a stress test run them under -race)
// and need no lock. Options.Threads and Options.Seed have no lp_solve counterpart and
// are ignored.
//
// # Status mapping
//
//	solve() code                           backends.Status        HasSolution
//	0 OPTIMAL                              Optimal                yes
//	1 SUBOPTIMAL, abort by the deadline    TimeLimit              if an incumbent exists
//	1 SUBOPTIMAL, abort by ctx             Interrupted            if an incumbent exists
//	1 SUBOPTIMAL, own timeout elapsed      TimeLimit              if an incumbent exists
//	1 SUBOPTIMAL, otherwise                Other                  if an incumbent exists
//	6 USERABORT (deadline / ctx)           TimeLimit / Interrupted no
//	7 TIMEOUT                              TimeLimit              no
//	2 INFEASIBLE                           Infeasible             no
//	3 UNBOUNDED                            Unbounded              no
//	4 DEGENERATE, 5 NUMFAILURE, 25 ACCURACY NumericalError        no
//	-2 NOMEMORY                            error returned
//	others                                 Other                  no
//
// lp_solve reports no dual bound after branch and bound. Bound is therefore NaN
// unless the status is Optimal; then it is the objective when both gaps are zero,
// and otherwise the objective moved by max(AbsGap, r·(1+|z|)), lp_solve's own
// pruning tolerance at the relative gap r it was last given, so that it stays a
// valid bound.
//
// # MIP starts
//
// lp_solve 5.5 has no MIP start. A complete start that model.Verify finds feasible is
// used after the solve: it replaces a missing or worse incumbent of a stopped run, and
// it turns an infeasibility claim into NumericalError. Partial starts are ignored; the
// Message says so.
// A complete start that beats an Optimal result's bound refutes the proof: the status
// becomes NumericalError and the start is the solution.
//
// # Depth limit
//
// lp_solve drops branch-and-bound nodes deeper than 100 × (integer columns) without
// a trace. A search that reached that depth may have missed the optimum, so after
// such a run (or after a re-solve that confirmed an infeasibility) an optimal or
// infeasible claim is downgraded to Other (a solution, if any, is kept as feasible
// without proof).
//
// # Objective step and infeasibility re-solve
//
// lp_solve infers a minimal objective improvement from the rows and prunes with it;
// the inference is wrong on some models (see schedopt_lp_abort in cgo.go). The abort
// callback switches it off, and a run in which it may have pruned after an incumbent
// existed keeps no proof (Other). An INFEASIBLE answer is reported only when a fresh
// re-solve with different scaling confirms it.
package lpsolve
