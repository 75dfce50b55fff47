package lpsolve

// This is the only file of the package that includes lp_lib.h; the exported log
// function lives in log.go, whose preamble (copied by cgo into _cgo_export.c) holds
// no definitions.

/*
#cgo CFLAGS: -I/usr/include/lpsolve
#cgo LDFLAGS: -L/usr/lib/lp_solve -Wl,-rpath,/usr/lib/lp_solve -llpsolve55 -lcolamd -ldl -lm
#include <stdint.h>
#include <stdlib.h>
#include <math.h>
#include <lp_lib.h>

// schedopt_lp_ctl is the C-owned control block of one solve: stop is written
// atomically by the Go watcher (1 = context, 2 = deadline) and read by the abort
// function without crossing into Go; log is a cgo.Handle of the log writer, 0 when
// the solve is silent.
typedef struct {
	int stop;
	int step_used; // lp_solve's objective step was in force while an incumbent existed
	uintptr_t log;
} schedopt_lp_ctl;

extern void schedoptLpLog(uintptr_t handle, char* msg);

// schedopt_lp_abort is lp_solve's abort callback. Besides the stop flag it switches
// off lp_solve's objective step: MIP_stepOF (lp_lib.c) infers a minimal objective
// improvement bb_deltaOF from the rows and prunes every node that does not improve
// the incumbent by that much. The inference is wrong on models such as
// min T, T >= 0.92·y0, T >= 0.55·y1, y0 + y1 = 1, where it sets the step to 0.55 and
// prunes the optimum. The callback runs during the simplex iterations, after the step
// is computed; if an incumbent already existed then, pruning may have used the step,
// and Solve withholds the proof.
static int __WINAPI schedopt_lp_abort(lprec* lp, void* user) {
	schedopt_lp_ctl* c = (schedopt_lp_ctl*)user;
	if (lp->bb_deltaOF != 0) {
		if (lp->solutioncount > 0) c->step_used = 1;
		lp->bb_deltaOF = 0;
	}
	return __atomic_load_n(&((schedopt_lp_ctl*)user)->stop, __ATOMIC_ACQUIRE) != 0;
}

static void __WINAPI schedopt_lp_log(lprec* lp, void* user, char* buf) {
	(void)lp;
	schedopt_lp_ctl* c = (schedopt_lp_ctl*)user;
	if (c->log != 0 && buf != NULL) schedoptLpLog(c->log, buf);
}

static schedopt_lp_ctl* schedopt_lp_ctl_new(uintptr_t log) {
	schedopt_lp_ctl* c = (schedopt_lp_ctl*)calloc(1, sizeof(schedopt_lp_ctl));
	if (c != NULL) c->log = log;
	return c;
}

static void schedopt_lp_ctl_stop(schedopt_lp_ctl* c, int why) {
	int zero = 0;
	__atomic_compare_exchange_n(&c->stop, &zero, why, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

static int schedopt_lp_ctl_reason(schedopt_lp_ctl* c) {
	return __atomic_load_n(&c->stop, __ATOMIC_ACQUIRE);
}

// Build steps, reported by schedopt_lp_build on failure.
enum {
	BUILD_OK = 0, BUILD_NOMEM, BUILD_MAKE, BUILD_COLUMN, BUILD_ROWTYPE, BUILD_RH,
	BUILD_RANGE, BUILD_BOUNDS, BUILD_INT
};

// schedopt_lp_build creates an lprec and loads a whole model into it, column by
// column: lp_solve stores its matrix by columns, and adding rows one by one, even in
// row-add mode, costs time quadratic in the number of rows (measured: 2 s for 40,000
// rows of 4 nonzeros). The CSR input is transposed into C scratch arrays (counting
// sort, O(nnz)); each column goes in with add_columnex, its objective coefficient in
// row 0 and 1-based row numbers. Rows whose bounds are both infinite constrain nothing
// and are left out. Then each row gets its type and right-hand side (ranges: GE with
// the lower side, then set_rh_range with the width), each column its bounds (explicit
// set_bounds, or set_unbounded for free columns: lp_solve's default bounds are [0,
// inf)) and integrality, and the model its sense. The objective constant is left to
// the Go side. lp_solve never sees Go memory. On failure it returns the failing step
// with the 0-based model row or column in *where, and *out is NULL.
static int schedopt_lp_build(lprec** out, int ncol, int nrow,
		const int32_t* start, const int32_t* index, const double* value,
		const double* rlo, const double* rhi,
		const double* clo, const double* chi, const double* cost,
		const uint8_t* isint, int maximize, int* where) {
	int st = BUILD_OK, nnz = start[nrow], lprows = 0;
	lprec* lp = NULL;
	int* lprow = (int*)malloc(sizeof(int) * (size_t)(nrow > 0 ? nrow : 1));
	int* cstart = (int*)calloc((size_t)ncol + 1, sizeof(int));
	int* rowno = (int*)malloc(sizeof(int) * (size_t)(nnz + ncol + 1));
	double* colval = (double*)malloc(sizeof(double) * (size_t)(nnz + ncol + 1));
	int* fill = (int*)malloc(sizeof(int) * (size_t)(ncol > 0 ? ncol : 1));
	*where = -1;
	*out = NULL;
	if (!lprow || !cstart || !rowno || !colval || !fill) { st = BUILD_NOMEM; goto done; }

	// Row numbering without free rows, and column counts.
	for (int r = 0; r < nrow; r++) {
		if (isinf(rlo[r]) && isinf(rhi[r])) { lprow[r] = 0; continue; }
		lprow[r] = ++lprows;
		for (int k = start[r]; k < start[r + 1]; k++) cstart[index[k] + 1]++;
	}
	// Column j occupies slots cstart[j] + j ... : one extra slot per column for the
	// objective coefficient in row 0.
	for (int j = 0; j < ncol; j++) cstart[j + 1] += cstart[j];
	for (int j = 0; j < ncol; j++) {
		int p = cstart[j] + j;
		fill[j] = p;
		if (cost[j] != 0) { rowno[p] = 0; colval[p] = cost[j]; fill[j]++; }
	}
	for (int r = 0; r < nrow; r++) {
		if (lprow[r] == 0) continue;
		for (int k = start[r]; k < start[r + 1]; k++) {
			int j = index[k], p = fill[j]++;
			rowno[p] = lprow[r];
			colval[p] = value[k];
		}
	}

	lp = make_lp(lprows, 0);
	if (lp == NULL || !resize_lp(lp, lprows, ncol)) { st = BUILD_MAKE; goto done; }
	const double inf = get_infinite(lp);
	for (int j = 0; j < ncol; j++) {
		int p = cstart[j] + j;
		if (!add_columnex(lp, fill[j] - p, colval + p, rowno + p)) { st = BUILD_COLUMN; *where = j; goto done; }
	}
	for (int r = 0; r < nrow; r++) {
		if (lprow[r] == 0) continue;
		double lo = rlo[r], hi = rhi[r];
		int type;
		double rh;
		if (lo == hi) { type = EQ; rh = lo; }
		else if (isinf(lo)) { type = LE; rh = hi; }
		else { type = GE; rh = lo; }
		if (!set_constr_type(lp, lprow[r], type)) { st = BUILD_ROWTYPE; *where = r; goto done; }
		if (!set_rh(lp, lprow[r], rh)) { st = BUILD_RH; *where = r; goto done; }
		if (type == GE && !isinf(hi) && !set_rh_range(lp, lprow[r], hi - lo)) {
			st = BUILD_RANGE; *where = r; goto done;
		}
	}
	for (int j = 0; j < ncol; j++) {
		double lo = clo[j], hi = chi[j];
		MYBOOL ok;
		if (isinf(lo) && isinf(hi)) ok = set_unbounded(lp, j + 1);
		else ok = set_bounds(lp, j + 1, isinf(lo) ? -inf : lo, isinf(hi) ? inf : hi);
		if (!ok) { st = BUILD_BOUNDS; *where = j; goto done; }
		if (isint[j] && !set_int(lp, j + 1, TRUE)) { st = BUILD_INT; *where = j; goto done; }
	}
	if (maximize) set_maxim(lp); else set_minim(lp);
done:
	free(lprow); free(cstart); free(rowno); free(colval); free(fill);
	if (st != BUILD_OK) {
		if (lp != NULL) delete_lp(lp);
		return st;
	}
	*out = lp;
	return BUILD_OK;
}

// schedopt_lp_params sets every parameter the binding relies on, explicitly: the
// installed library's defaults differ from its documentation (see the package doc).
static int schedopt_lp_params(lprec* lp, schedopt_lp_ctl* c, double rel_gap, double abs_gap,
		long timeout, int verbose, int alt_scaling) {
	if (!set_epslevel(lp, EPS_TIGHT)) return 1;   // first: it resets other epsilons
	set_infinite(lp, 1e30);
	set_epsint(lp, 1e-7);
	set_mip_gap(lp, TRUE, abs_gap);
	set_mip_gap(lp, FALSE, rel_gap);
	set_timeout(lp, timeout);
	set_break_at_first(lp, FALSE);
	set_break_at_value(lp, is_maxim(lp) ? 1e30 : -1e30);
	set_bb_floorfirst(lp, BRANCH_CEILING);
	set_bb_rule(lp, NODE_FIRSTSELECT);
	// lp_solve's default relative limit: nodes deeper than 100 × (integer columns)
	// are dropped silently (findnode_BB in lp_mipbb.c). A larger limit makes lp_solve
	// loop on free integer columns, and 0 switches the node test off altogether, so
	// the limit stays and Solve checks get_max_level afterwards (see depthLimit).
	set_bb_depthlimit(lp, -50);
	set_presolve(lp, PRESOLVE_NONE, get_presolveloops(lp));
	// lp_solve's default scaling includes SCALE_INTEGERS, which scales integer columns
	// too; with it lp_solve claimed OPTIMAL at 277.72 on a dlt-multi model whose proven
	// optimum is 277.37, and geometric+equilibrate without it solves that model right.
	// A false infeasibility claim was seen with the default scaling as well, so an
	// infeasibility is confirmed by a re-solve with geometric scaling and dynamic
	// updates (alt_scaling).
	set_scaling(lp, alt_scaling ? SCALE_GEOMETRIC + SCALE_DYNUPDATE
	                            : SCALE_GEOMETRIC + SCALE_EQUILIBRATE);
	set_improve(lp, IMPROVE_DUALFEAS | IMPROVE_THETAGAP);
	set_simplextype(lp, SIMPLEX_DUAL_PRIMAL);
	set_pivoting(lp, PRICER_DEVEX + PRICE_ADAPTIVE);
	set_verbose(lp, verbose);
	put_abortfunc(lp, schedopt_lp_abort, c);
	put_logfunc(lp, schedopt_lp_log, c);
	return 0;
}

static void schedopt_lp_version(int* v) {
	lp_solve_version(&v[0], &v[1], &v[2], &v[3]);
}
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Build steps of schedopt_lp_build, for error messages.
var buildSteps = [...]string{"ok", "out of memory", "make_lp/resize_lp", "add_columnex",
	"set_constr_type", "set_rh", "set_rh_range", "set_bounds", "set_int"}

// lp wraps one lprec, created by build and deleted within the same Solve.
type lp struct {
	p *C.lprec
}

func (l *lp) delete() {
	if l.p != nil {
		C.delete_lp(l.p)
		l.p = nil
	}
}

// build creates an lprec holding the model arrays; see schedopt_lp_build. On failure
// it names the step and the row or column (-1 if none).
func build(ncol, nrow int, start, index []int32, value, rlo, rhi, clo, chi, cost []float64,
	isint []uint8, maximize bool) (l *lp, step string, where int) {
	var w C.int
	var p *C.lprec
	mx := C.int(0)
	if maximize {
		mx = 1
	}
	st := C.schedopt_lp_build(&p, C.int(ncol), C.int(nrow),
		(*C.int32_t)(unsafe.Pointer(unsafe.SliceData(start))), i32ptr(index), dptr(value),
		dptr(rlo), dptr(rhi), dptr(clo), dptr(chi), dptr(cost),
		(*C.uint8_t)(unsafe.Pointer(unsafe.SliceData(isint))), mx, &w)
	if st != 0 {
		return nil, buildSteps[st], int(w)
	}
	return &lp{p: p}, "", 0
}

func (l *lp) params(c *C.schedopt_lp_ctl, relGap, absGap float64, timeoutSec int64, verbose int, altScaling bool) error {
	alt := C.int(0)
	if altScaling {
		alt = 1
	}
	if C.schedopt_lp_params(l.p, c, C.double(relGap), C.double(absGap), C.long(timeoutSec), C.int(verbose), alt) != 0 {
		return fmt.Errorf("lpsolve: set_epslevel failed")
	}
	return nil
}

// setName names the model in lp_solve's log.
func (l *lp) setName(name string) {
	if name == "" {
		return
	}
	c := C.CString(name)
	defer C.free(unsafe.Pointer(c))
	C.set_lp_name(l.p, c) // only used in the log; a failure is harmless
}

func (l *lp) solve() int { return int(C.solve(l.p)) }

func (l *lp) objective() float64 { return float64(C.get_objective(l.p)) }

func (l *lp) variables(x []float64) bool { return C.get_variables(l.p, dptr(x)) != 0 }

func (l *lp) nodes() int64 { return int64(C.get_total_nodes(l.p)) }

// maxLevel returns the deepest branch-and-bound level the last solve reached.
func (l *lp) maxLevel() int { return int(C.get_max_level(l.p)) }

func (l *lp) solutionCount() int { return int(C.get_solutioncount(l.p)) }

func (l *lp) statusText(st int) string { return C.GoString(C.get_statustext(l.p, C.int(st))) }

func newCtl(log uintptr) *C.schedopt_lp_ctl { return C.schedopt_lp_ctl_new(C.uintptr_t(log)) }
func freeCtl(c *C.schedopt_lp_ctl)          { C.free(unsafe.Pointer(c)) }
func stopCtl(c *C.schedopt_lp_ctl, why int) { C.schedopt_lp_ctl_stop(c, C.int(why)) }
func ctlReason(c *C.schedopt_lp_ctl) int    { return int(C.schedopt_lp_ctl_reason(c)) }

// stepUsed reports whether lp_solve's objective step (see schedopt_lp_abort) may have
// pruned nodes in the last solve of l.
func stepUsed(c *C.schedopt_lp_ctl, l *lp) bool {
	return c.step_used != 0 || l.p.bb_deltaOF != 0
}

func version() string {
	var v [4]C.int
	C.schedopt_lp_version(&v[0])
	return fmt.Sprintf("%d.%d.%d.%d", v[0], v[1], v[2], v[3])
}

func dptr(s []float64) *C.double {
	if len(s) == 0 {
		return nil
	}
	return (*C.double)(unsafe.Pointer(unsafe.SliceData(s)))
}

func i32ptr(s []int32) *C.int32_t {
	if len(s) == 0 {
		return nil
	}
	return (*C.int32_t)(unsafe.Pointer(unsafe.SliceData(s)))
}
