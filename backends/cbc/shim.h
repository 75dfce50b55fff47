/*
 * shim.h declares the few C functions of shim.cpp, the only C++ of the binding. They
 * do what CBC 2.10's C interface cannot: stop a running solve, route the log, keep
 * CBC's SIGINT handlers out of the process and tell an infeasible LP from an
 * unbounded one. It is included by cgo.go (as C, where Cbc_Model is void) and by
 * shim.cpp (as C++, where Cbc_Model is the struct Coin_C_defines.h publishes).
 */
#ifndef SCHEDOPT_CBC_SHIM_H
#define SCHEDOPT_CBC_SHIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * schedopt_cbc_ctl is the C-owned control block of one solve, shared by the solve, its
 * Go watcher and CBC's threads.
 *
 *   stop            written once, atomically, by the watcher through
 *                   schedopt_cbc_ctl_stop (1 = context, 2 = deadline), after stop_ns;
 *                   read by the event handlers without crossing into Go
 *   stop_ns         CLOCK_MONOTONIC time of the stop
 *   search_started  set by the CBC event handler at the first event of the top-level
 *                   branch and cut (a cut pass, a node, the end of the search)
 *   acked           set by the CBC event handler when it has answered "stop" to the
 *                   top-level model: CBC is winding down
 *   lp_stopped      set by the Clp event handler when it cut an LP short
 *   log             cgo.Handle of the io.Writer receiving the log, 0 when silent
 *   cbc_log, lp_log the message handlers shim.cpp creates for CBC and for its LP
 *                   solver (CoinMessageHandler*, two because CBC sets their log
 *                   levels separately), deleted by schedopt_cbc_ctl_free
 */
typedef struct {
	int stop;
	int search_started;
	int acked;
	int lp_stopped;
	int64_t stop_ns;
	uintptr_t log;
	void *cbc_log;
	void *lp_log;
} schedopt_cbc_ctl;

/*
 * SCHEDOPT_CBC_LP_GRACE_NS is how long after a cancellation the Clp event handler
 * leaves LPs alone once CBC's search has started or CBC has acknowledged the stop:
 * CBC then stops at its next event, but must still solve LPs to map the incumbent
 * back through preprocessing. After the grace period those LPs are cut short too, so
 * that a cancellation never waits for a long LP. A deadline stop has no grace limit.
 */
#define SCHEDOPT_CBC_LP_GRACE_NS 300000000LL

void schedopt_cbc_ctl_stop(schedopt_cbc_ctl *c, int why);

schedopt_cbc_ctl *schedopt_cbc_ctl_new(uintptr_t log);
void schedopt_cbc_ctl_free(schedopt_cbc_ctl *c);

/*
 * schedopt_cbc_run solves a loaded model: it installs the stop handlers and the
 * message handler, switches presolve and preprocessing off when presolve_off is set
 * (for an LP through an Osi hint, since Cbc_solve hands LPs to Clp without reading
 * the parameters), runs Cbc_solve and restores the SIGINT disposition the process
 * had before. It returns 0, or 1 when a C++ exception escaped Cbc_solve, with the
 * exception's text (at most errlen bytes) in err.
 */
int schedopt_cbc_run(void *model, schedopt_cbc_ctl *c, int presolve_off, char *err, int errlen);

/*
 * schedopt_cbc_lp_status reports the Clp status of an LP solved by
 * schedopt_cbc_run (0 optimal, 1 primal infeasible, 2 dual infeasible, 3 stopped on
 * a limit, 4 stopped on errors, 5 stopped by the event handler), and whether the
 * final point is primal feasible. The C interface folds 1 and 2 into one answer.
 */
void schedopt_cbc_lp_status(void *model, int *status, int *primal_feasible);

#ifdef __cplusplus
}
#endif

#endif
