package cbc

// This file holds the calls into CBC's C interface (Cbc_C_Interface.h); shim.cpp holds
// the few things that interface cannot do (see shim.h). The exported log function
// lives in log.go, whose preamble (copied by cgo into _cgo_export.c) holds no
// definitions.

/*
#cgo pkg-config: cbc
#cgo CXXFLAGS: -std=c++11 -Wno-deprecated-declarations
#cgo LDFLAGS: -lstdc++
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "Cbc_C_Interface.h"
#include "shim.h"

_Static_assert(sizeof(CoinBigIndex) == 4, "schedopt's CBC binding needs a 32-bit CoinBigIndex");

// schedopt_cbc_bound maps ±Inf to ±DBL_MAX, which is COIN_DBL_MAX, CBC's infinity.
static double schedopt_cbc_bound(double v) {
	if (isinf(v)) return v > 0 ? DBL_MAX : -DBL_MAX;
	return v;
}

// schedopt_cbc_load loads a whole model into m with one Cbc_loadProblem call. CBC
// takes the matrix by columns: the CSR input is transposed into C scratch arrays with
// a counting pass (O(nnz), no search), the bounds are copied with ±Inf mapped to
// ±COIN_DBL_MAX, and the scratch arrays are freed before returning; CBC copies
// everything during the call, so it never holds Go or scratch memory. Integer columns
// are marked with Cbc_setInteger and the sense is set with Cbc_setObjSense (1 min,
// −1 max). The objective constant is left to the Go side: the C interface has no
// objective offset. It returns 0, or −1 when a scratch allocation fails.
static int schedopt_cbc_load(Cbc_Model* m, int ncol, int nrow,
		const int32_t* start, const int32_t* index, const double* value,
		const double* rlo, const double* rhi,
		const double* clo, const double* chi, const double* cost,
		const uint8_t* isint, double sense) {
	int nnz = start[nrow];
	int* cstart = (int*)calloc((size_t)ncol + 1, sizeof(int));
	int* fill = (int*)malloc(sizeof(int) * (size_t)(ncol > 0 ? ncol : 1));
	int* rowidx = (int*)malloc(sizeof(int) * (size_t)(nnz > 0 ? nnz : 1));
	double* colval = (double*)malloc(sizeof(double) * (size_t)(nnz > 0 ? nnz : 1));
	double* bounds = (double*)malloc(sizeof(double) * 2 * (size_t)(ncol + nrow > 0 ? ncol + nrow : 1));
	int rc = -1;
	if (!cstart || !fill || !rowidx || !colval || !bounds) goto done;

	for (int k = 0; k < nnz; k++) cstart[index[k] + 1]++;
	for (int j = 0; j < ncol; j++) {
		cstart[j + 1] += cstart[j];
		fill[j] = cstart[j];
	}
	for (int r = 0; r < nrow; r++) {
		for (int k = start[r]; k < start[r + 1]; k++) {
			int p = fill[index[k]]++;
			rowidx[p] = r;
			colval[p] = value[k];
		}
	}
	double* lo = bounds;
	double* hi = bounds + ncol;
	double* rl = bounds + 2 * ncol;
	double* ru = bounds + 2 * ncol + nrow;
	for (int j = 0; j < ncol; j++) {
		lo[j] = schedopt_cbc_bound(clo[j]);
		hi[j] = schedopt_cbc_bound(chi[j]);
	}
	for (int r = 0; r < nrow; r++) {
		rl[r] = schedopt_cbc_bound(rlo[r]);
		ru[r] = schedopt_cbc_bound(rhi[r]);
	}
	Cbc_loadProblem(m, ncol, nrow, cstart, rowidx, colval, lo, hi, cost, rl, ru);
	for (int j = 0; j < ncol; j++) {
		if (isint[j]) Cbc_setInteger(m, j);
	}
	Cbc_setObjSense(m, sense);
	rc = 0;
done:
	free(cstart); free(fill); free(rowidx); free(colval); free(bounds);
	return rc;
}

static void schedopt_cbc_param(Cbc_Model* m, const char* name, const char* format, double v) {
	char buf[64];
	snprintf(buf, sizeof buf, format, v);
	Cbc_setParameter(m, name, buf);
}

// schedopt_cbc_params sets every option the binding controls, in one cgo call. The
// gaps, the time limit and the log level go both to the CbcModel (Cbc_set*) and to
// the command line CbcMain1 parses (Cbc_setParameter appends "-name value"), so that
// neither CbcMain1's defaults nor its copy of the model can override them. The
// relative and absolute gaps are always set, also to 0. Time is wall-clock time
// (timeMode elapsed; CBC's default counts CPU seconds). threads and seed are passed
// only when positive (see the package documentation).
static void schedopt_cbc_params(Cbc_Model* m, double rel_gap, double abs_gap, double seconds,
		int threads, int seed, int log, int presolve_off) {
	Cbc_setAllowableFractionGap(m, rel_gap);
	Cbc_setAllowableGap(m, abs_gap);
	Cbc_setLogLevel(m, log);
	schedopt_cbc_param(m, "log", "%.0f", log);
	schedopt_cbc_param(m, "slog", "%.0f", log);
	schedopt_cbc_param(m, "ratioGap", "%.17g", rel_gap);
	schedopt_cbc_param(m, "allowableGap", "%.17g", abs_gap);
	Cbc_setParameter(m, "timeMode", "elapsed");
	if (seconds > 0) {
		Cbc_setMaximumSeconds(m, seconds);
		schedopt_cbc_param(m, "seconds", "%.17g", seconds);
	}
	if (threads > 0) schedopt_cbc_param(m, "threads", "%.0f", threads);
	if (seed > 0) {
		schedopt_cbc_param(m, "randomCbcSeed", "%.0f", seed);
		schedopt_cbc_param(m, "randomSeed", "%.0f", seed);
	}
	if (presolve_off) {
		Cbc_setParameter(m, "preprocess", "off");
		Cbc_setParameter(m, "presolve", "off");
	}
}

// schedopt_cbc_info is everything Solve reads after a MIP run, in one cgo call.
typedef struct {
	int status, secondary;
	int optimal, infeasible, continuous_unbounded, abandoned, seconds_limit;
	int node_limit, solution_limit;
	int has_solution, saved_solutions;
	int nodes;
	double objective, bound;
} schedopt_cbc_info;

static void schedopt_cbc_mip_info(Cbc_Model* m, schedopt_cbc_info* in) {
	in->status = Cbc_status(m);
	in->secondary = Cbc_secondaryStatus(m);
	in->optimal = Cbc_isProvenOptimal(m);
	in->infeasible = Cbc_isProvenInfeasible(m);
	in->continuous_unbounded = Cbc_isContinuousUnbounded(m);
	in->abandoned = Cbc_isAbandoned(m);
	in->seconds_limit = Cbc_isSecondsLimitReached(m);
	in->node_limit = Cbc_isNodeLimitReached(m);
	in->solution_limit = Cbc_isSolutionLimitReached(m);
	in->has_solution = Cbc_bestSolution(m) != NULL;
	in->saved_solutions = Cbc_numberSavedSolutions(m);
	in->nodes = Cbc_getNodeCount(m);
	in->objective = Cbc_getObjValue(m);
	in->bound = Cbc_getBestPossibleObjValue(m);
}

// schedopt_cbc_values copies n column values (the best solution of a MIP, the LP
// solution of an LP) into x. It returns 0, or −1 when CBC has none.
static int schedopt_cbc_values(Cbc_Model* m, int mip, double* x, int n) {
	const double* v = mip ? Cbc_bestSolution(m) : Cbc_getColSolution(m);
	if (v == NULL) return -1;
	for (int j = 0; j < n; j++) x[j] = v[j];
	return 0;
}

static int schedopt_cbc_ctl_reason(schedopt_cbc_ctl* c) {
	return __atomic_load_n(&c->stop, __ATOMIC_ACQUIRE);
}

static int schedopt_cbc_ctl_lp_stopped(schedopt_cbc_ctl* c) {
	return __atomic_load_n(&c->lp_stopped, __ATOMIC_ACQUIRE);
}
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// cbcModel wraps one Cbc_Model, created and deleted within one Solve and never shared
// between goroutines.
type cbcModel struct {
	p unsafe.Pointer
}

func newModel() (*cbcModel, error) {
	p := C.Cbc_newModel()
	if p == nil {
		return nil, fmt.Errorf("cbc: Cbc_newModel returned NULL")
	}
	return &cbcModel{p: p}, nil
}

func (m *cbcModel) delete() {
	if m.p != nil {
		C.Cbc_deleteModel(m.p)
		m.p = nil
	}
}

// load passes the model arrays to CBC in one call; see schedopt_cbc_load. The slices
// are read during the call only.
func (m *cbcModel) load(ncol, nrow int, start, index []int32, value, rlo, rhi, clo, chi, cost []float64,
	isint []uint8, sense float64) error {
	if C.schedopt_cbc_load(m.p, C.int(ncol), C.int(nrow),
		i32ptr(start), i32ptr(index), dptr(value), dptr(rlo), dptr(rhi),
		dptr(clo), dptr(chi), dptr(cost), u8ptr(isint), C.double(sense)) != 0 {
		return fmt.Errorf("cbc: out of memory loading the model")
	}
	return nil
}

// params sets every option the binding controls; see schedopt_cbc_params.
func (m *cbcModel) params(relGap, absGap, seconds float64, threads, seed int, log, presolveOff bool) {
	C.schedopt_cbc_params(m.p, C.double(relGap), C.double(absGap), C.double(seconds),
		C.int(threads), C.int(seed), cbool(log), cbool(presolveOff))
}

// setStart passes the set entries of a MIP start by column index.
func (m *cbcModel) setStart(idx []int32, val []float64) {
	C.Cbc_setMIPStartI(m.p, C.int(len(idx)), (*C.int)(unsafe.Pointer(unsafe.SliceData(idx))), dptr(val))
}

// run solves the loaded model; see schedopt_cbc_run.
func (m *cbcModel) run(ctl *C.schedopt_cbc_ctl, presolveOff bool) error {
	var buf [256]C.char
	if C.schedopt_cbc_run(m.p, ctl, cbool(presolveOff), &buf[0], C.int(len(buf))) != 0 {
		return fmt.Errorf("cbc: solve failed: %s", C.GoString(&buf[0]))
	}
	return nil
}

// mipInfo is what CBC reports after a MIP run.
type mipInfo struct {
	status, secondary                                            int
	optimal, infeasible, continuousUnbounded, abandoned, timeHit bool
	nodeLimit, solutionLimit, hasSolution                        bool
	savedSolutions, nodes                                        int
	objective, bound                                             float64
}

func (m *cbcModel) mipInfo() mipInfo {
	var in C.schedopt_cbc_info
	C.schedopt_cbc_mip_info(m.p, &in)
	return mipInfo{
		status: int(in.status), secondary: int(in.secondary),
		optimal: in.optimal != 0, infeasible: in.infeasible != 0,
		continuousUnbounded: in.continuous_unbounded != 0, abandoned: in.abandoned != 0,
		timeHit: in.seconds_limit != 0, nodeLimit: in.node_limit != 0,
		solutionLimit: in.solution_limit != 0, hasSolution: in.has_solution != 0,
		savedSolutions: int(in.saved_solutions), nodes: int(in.nodes),
		objective: float64(in.objective), bound: float64(in.bound),
	}
}

// lpStatus returns Clp's status of an LP run and whether its point is primal feasible.
func (m *cbcModel) lpStatus() (status int, primalFeasible bool) {
	var st, pf C.int
	C.schedopt_cbc_lp_status(m.p, &st, &pf)
	return int(st), pf != 0
}

func (m *cbcModel) objective() float64 { return float64(C.Cbc_getObjValue(m.p)) }

// values copies the column values (the best solution of a MIP, the LP solution of an
// LP) into x. It reports false when CBC has none.
func (m *cbcModel) values(mip bool, x []float64) bool {
	return C.schedopt_cbc_values(m.p, cbool(mip), dptr(x), C.int(len(x))) == 0
}

// control block helpers

func newCtl(log uintptr) *C.schedopt_cbc_ctl { return C.schedopt_cbc_ctl_new(C.uintptr_t(log)) }
func freeCtl(c *C.schedopt_cbc_ctl)          { C.schedopt_cbc_ctl_free(c) }
func stopCtl(c *C.schedopt_cbc_ctl, why int) { C.schedopt_cbc_ctl_stop(c, C.int(why)) }
func ctlReason(c *C.schedopt_cbc_ctl) int    { return int(C.schedopt_cbc_ctl_reason(c)) }
func lpStopped(c *C.schedopt_cbc_ctl) bool   { return C.schedopt_cbc_ctl_lp_stopped(c) != 0 }

func version() string { return C.GoString(C.Cbc_getVersion()) }

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
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

func u8ptr(s []uint8) *C.uint8_t {
	if len(s) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(unsafe.SliceData(s)))
}
