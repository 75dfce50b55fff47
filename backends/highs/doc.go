// Package highs is schedopt's own cgo binding to the HiGHS C API (HiGHS 1.10, found
// through pkg-config "highs"). It implements backends.Solver.
//
// # One call per solve
//
// Solve creates a Highs instance, sets every option it controls by name (output_flag,
// log_to_console, mip_rel_gap and mip_abs_gap always explicitly, because the HiGHS
// default relative gap is 1e-4; time_limit, random_seed, threads), passes the whole
// model with one Highs_passMip call (Highs_passLp when no column is integer), passes
// the model's MIP start with Highs_setSparseSolution, runs, reads the results and
// destroys the instance before returning.
//
// # Memory ownership
//
// The model's CSR arrays (model.Rows: int32 starts and indices, float64 values) and
// column arrays are handed to HiGHS as they are, without copying: the binding checks
// that HighsInt is 32 bits at compile time and again on every instance. HiGHS copies
// them during Highs_passMip, so no Go memory is referenced by C after that call. The
// only lasting C allocation the binding makes is a small control block (calloc within
// Solve, freed last: after the watcher has exited and after Highs_destroy, since HiGHS
// holds it as callback data); the strings of the presolve retry are freed at once.
// Nothing relies on a finaliser.
//
// # Cancellation and the deadline
//
// HiGHS's time_limit is not a hard stop (HiGHS issues 885, 1278, 2226). Solve
// therefore also runs a watcher goroutine that, when ctx is done or Options.TimeLimit
// has elapsed, sets an atomic flag in the C control block. A C callback, registered
// with Highs_setCallback, reads the flag on every MIP-interrupt event (MIPs) or
// simplex/IPM-interrupt event (LPs) and requests a user interrupt; it never calls into
// Go, so the check costs a few nanoseconds. The simplex interrupt is not enabled for
// MIPs: interrupting an LP inside branch and bound is reported by HiGHS as an LP
// failure, not as a MIP interrupt. An interrupt caused by the deadline is reported as
// TimeLimit, one caused by ctx as Interrupted. HiGHS checks the MIP interrupt during
// the root LP too: on a 30,000 × 30,000 MIP whose root LP takes seconds, a
// cancellation 0.5 s into the solve returned 0.4 s later. The log, when Options.Log is set, goes
// through the HiGHS logging callback to the writer behind a runtime/cgo.Handle; the
// writer must accept concurrent writes if it is shared between solves.
//
// # Threads
//
// HiGHS 1.10 keeps its task scheduler in thread-local storage of the OS thread that
// calls Highs_run, and refuses a run whose threads option differs from an existing
// scheduler on that thread. The binding pins the solving goroutine to its OS thread
// and calls Highs_resetGlobalScheduler on that same thread after every run, so each
// solve gets the thread count it asked for (0 = HiGHS's choice, half the hardware
// threads) and concurrent solves from many goroutines with different thread counts are
// safe. The MIP search itself is largely serial in HiGHS.
//
// # Status mapping
//
//	HiGHS model status                   backends.Status
//	7  Optimal                           Optimal (only this one)
//	8  Infeasible                        Infeasible
//	9  UnboundedOrInfeasible             InfeasibleOrUnbounded
//	10 Unbounded                         Unbounded
//	13 TimeLimit                         TimeLimit
//	17 Interrupt (deadline watcher)      TimeLimit
//	17 Interrupt (context)               Interrupted
//	3, 4, 5 presolve/solve/postsolve err NumericalError
//	11, 12, 14, 15, 16, 6, others        Other
//	0, 1, 2 with Highs_run error         error returned
//
// When HiGHS ends a MIP with a presolve, solve or postsolve error, which it does when
// it catches its own presolve claiming optimality for an infeasible point (HiGHS
// 1.10 does so on 6x + 10y + 15z = 7 with small integer bounds, see backendtest), the
// binding re-runs the model once with presolve off and says so in Result.Message.
//
// HasSolution comes from the primal_solution_status info item (Feasible), never from
// the model status: a time limit may come with or without an incumbent. Highs_run
// returning a warning is not an error. Bound is mip_dual_bound for MIPs (NaN when not
// finite or the model is infeasible) and the objective for LPs solved to optimality;
// Gap is backends.RelativeGap(Objective, Bound). Values are returned as HiGHS gives
// them, unrounded: integer columns may be 0.9999999, so callers verify with
// model.Verify.
package highs
