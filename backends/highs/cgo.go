package highs

// This is the only file of the package that includes highs_c_api.h. In HiGHS 1.10
// the header defines its kHighs* constants as plain (external-linkage) `const`
// objects, so a second translation unit including it would fail to link, and cgo
// copies the preamble of any file with //export into _cgo_export.c: the exported
// log function therefore lives in log.go, whose preamble has no definitions.
//
// The constants are mirrored as Go constants in consts.go; the C shim below uses its
// own literal values for the same reason.

/*
#cgo pkg-config: highs
#include <stdint.h>
#include <stdlib.h>
#include "interfaces/highs_c_api.h"

_Static_assert(sizeof(HighsInt) == 4, "schedopt's HiGHS binding needs a 32-bit HighsInt");

// Callback types (mirrors of kHighsCallback*).
#define SCHEDOPT_CB_LOGGING 0
#define SCHEDOPT_CB_SIMPLEX_INTERRUPT 1
#define SCHEDOPT_CB_IPM_INTERRUPT 2
#define SCHEDOPT_CB_MIP_INTERRUPT 6

// schedopt_highs_ctl is the C-owned control block shared by one solve and its
// watcher goroutine. stop is written atomically by Go (1 = context, 2 = deadline) and
// read by the interrupt callbacks without crossing into Go; log is a cgo.Handle of
// the io.Writer receiving the log, 0 when the solve is silent.
typedef struct {
	int stop;
	uintptr_t log;
} schedopt_highs_ctl;

extern void schedoptHighsLog(uintptr_t handle, char* msg);

static void schedopt_highs_callback(int type, const char* msg,
		const HighsCallbackDataOut* out, HighsCallbackDataIn* in, void* user) {
	schedopt_highs_ctl* ctl = (schedopt_highs_ctl*)user;
	(void)out;
	if (type == SCHEDOPT_CB_LOGGING) {
		if (ctl->log != 0 && msg != NULL) schedoptHighsLog(ctl->log, (char*)msg);
		return;
	}
	if (in != NULL && __atomic_load_n(&ctl->stop, __ATOMIC_ACQUIRE) != 0) {
		in->user_interrupt = 1;
	}
}

static schedopt_highs_ctl* schedopt_highs_ctl_new(uintptr_t log) {
	schedopt_highs_ctl* c = (schedopt_highs_ctl*)calloc(1, sizeof(schedopt_highs_ctl));
	if (c != NULL) c->log = log;
	return c;
}

static void schedopt_highs_ctl_stop(schedopt_highs_ctl* c, int why) {
	int zero = 0;
	__atomic_compare_exchange_n(&c->stop, &zero, why, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

static int schedopt_highs_ctl_reason(schedopt_highs_ctl* c) {
	return __atomic_load_n(&c->stop, __ATOMIC_ACQUIRE);
}

// schedopt_highs_install registers the callback and starts the interrupt callbacks
// (MIP interrupt for MIPs, simplex and IPM interrupt for LPs) and, when a log writer
// is set, the logging callback. It returns the first non-OK status.
static HighsInt schedopt_highs_install(void* h, schedopt_highs_ctl* c, int mip) {
	HighsInt st = Highs_setCallback(h, schedopt_highs_callback, c);
	if (st != 0) return st;
	if (mip) {
		st = Highs_startCallback(h, SCHEDOPT_CB_MIP_INTERRUPT);
		if (st != 0) return st;
	} else {
		st = Highs_startCallback(h, SCHEDOPT_CB_SIMPLEX_INTERRUPT);
		if (st != 0) return st;
		st = Highs_startCallback(h, SCHEDOPT_CB_IPM_INTERRUPT);
		if (st != 0) return st;
	}
	if (c->log != 0) {
		st = Highs_startCallback(h, SCHEDOPT_CB_LOGGING);
		if (st != 0) return st;
	}
	return 0;
}

// schedopt_highs_options sets every option the binding controls, by name, in one
// cgo call. It returns the index (1-based) of the first option HiGHS rejected, or 0.
static int schedopt_highs_options(void* h, double rel_gap, double abs_gap,
		double time_limit, HighsInt seed, HighsInt threads, int log) {
	if (Highs_setBoolOptionValue(h, "output_flag", log) != 0) return 1;
	if (Highs_setBoolOptionValue(h, "log_to_console", log) != 0) return 2;
	if (Highs_setDoubleOptionValue(h, "mip_rel_gap", rel_gap) != 0) return 3;
	if (Highs_setDoubleOptionValue(h, "mip_abs_gap", abs_gap) != 0) return 4;
	if (Highs_setDoubleOptionValue(h, "time_limit", time_limit) != 0) return 5;
	if (Highs_setIntOptionValue(h, "random_seed", seed) != 0) return 6;
	if (Highs_setIntOptionValue(h, "threads", threads) != 0) return 7;
	return 0;
}

static const char* schedopt_highs_option_name(int i) {
	switch (i) {
	case 1: return "output_flag";
	case 2: return "log_to_console";
	case 3: return "mip_rel_gap";
	case 4: return "mip_abs_gap";
	case 5: return "time_limit";
	case 6: return "random_seed";
	case 7: return "threads";
	}
	return "?";
}

// schedopt_highs_info reads the info items of a finished run in one cgo call.
static void schedopt_highs_info(void* h, HighsInt* primal_status, double* obj,
		double* dual_bound, double* gap, int64_t* nodes, double* run_time, double* pdi) {
	*primal_status = 0;
	Highs_getIntInfoValue(h, "primal_solution_status", primal_status);
	*obj = Highs_getObjectiveValue(h);
	Highs_getDoubleInfoValue(h, "mip_dual_bound", dual_bound);
	Highs_getDoubleInfoValue(h, "mip_gap", gap);
	*nodes = 0;
	Highs_getInt64InfoValue(h, "mip_node_count", nodes);
	*run_time = Highs_getRunTime(h);
	Highs_getDoubleInfoValue(h, "primal_dual_integral", pdi);
}
*/
import "C"

import (
	"fmt"
	"math"
	"unsafe"
)

// instance wraps one Highs object. It is created and destroyed within one Solve and
// never shared between goroutines.
type instance struct {
	h unsafe.Pointer
}

func newInstance() (*instance, error) {
	h := C.Highs_create()
	if h == nil {
		return nil, fmt.Errorf("highs: Highs_create returned NULL")
	}
	if n := C.Highs_getSizeofHighsInt(h); n != 4 {
		C.Highs_destroy(h)
		return nil, fmt.Errorf("highs: library uses %d-byte HighsInt, binding needs 4", int(n))
	}
	return &instance{h: h}, nil
}

func (in *instance) destroy() {
	if in.h != nil {
		C.Highs_destroy(in.h)
		in.h = nil
	}
}

// setOptions sets every option the binding controls.
func (in *instance) setOptions(relGap, absGap, timeLimit float64, seed, threads int, log bool) error {
	flag := C.int(0)
	if log {
		flag = 1
	}
	if i := C.schedopt_highs_options(in.h, C.double(relGap), C.double(absGap), C.double(timeLimit),
		C.HighsInt(seed), C.HighsInt(threads), flag); i != 0 {
		return fmt.Errorf("highs: option %s rejected", C.GoString(C.schedopt_highs_option_name(i)))
	}
	return nil
}

// pass hands the model arrays to HiGHS in one call, row-wise. The slices are read
// during the call only; HiGHS copies them.
func (in *instance) pass(ncol, nrow, nnz int, sense int, offset float64,
	cost, lo, hi, rlo, rhi []float64, start, index []int32, value []float64, integrality []int32) int {
	if integrality == nil {
		return int(C.Highs_passLp(in.h, C.HighsInt(ncol), C.HighsInt(nrow), C.HighsInt(nnz),
			C.HighsInt(matrixFormatRowwise), C.HighsInt(sense), C.double(offset),
			dptr(cost), dptr(lo), dptr(hi), dptr(rlo), dptr(rhi),
			iptr(start), iptr(index), dptr(value)))
	}
	pInt := (*C.HighsInt)(unsafe.Pointer(unsafe.SliceData(integrality)))
	return int(C.Highs_passMip(in.h, C.HighsInt(ncol), C.HighsInt(nrow), C.HighsInt(nnz),
		C.HighsInt(matrixFormatRowwise), C.HighsInt(sense), C.double(offset),
		dptr(cost), dptr(lo), dptr(hi), dptr(rlo), dptr(rhi),
		iptr(start), iptr(index), dptr(value), pInt))
}

// setStart passes a sparse MIP start.
func (in *instance) setStart(index []int32, value []float64) int {
	return int(C.Highs_setSparseSolution(in.h, C.HighsInt(len(index)), iptr(index), dptr(value)))
}

// install registers the callbacks with the control block.
func (in *instance) install(ctl *C.schedopt_highs_ctl, mip bool) int {
	m := C.int(0)
	if mip {
		m = 1
	}
	return int(C.schedopt_highs_install(in.h, ctl, m))
}

func (in *instance) run() int {
	C.Highs_zeroAllClocks(in.h)
	return int(C.Highs_run(in.h))
}

// setPresolve switches presolve on ("choose") or off.
func (in *instance) setPresolve(on bool) error {
	val := "off"
	if on {
		val = "choose"
	}
	name, cval := C.CString("presolve"), C.CString(val)
	defer C.free(unsafe.Pointer(name))
	defer C.free(unsafe.Pointer(cval))
	if C.Highs_setStringOptionValue(in.h, name, cval) != statusOK {
		return fmt.Errorf("highs: option presolve=%s rejected", val)
	}
	return nil
}

func (in *instance) clearSolver() { C.Highs_clearSolver(in.h) }

func (in *instance) modelStatus() int { return int(C.Highs_getModelStatus(in.h)) }

type runInfo struct {
	primalStatus int
	objective    float64
	dualBound    float64
	gap          float64
	nodes        int64
	runTime      float64
	// pdi is HiGHS's primal-dual integral of a MIP run (NaN when it gave none).
	pdi float64
}

func (in *instance) info() runInfo {
	var ps C.HighsInt
	var obj, bound, gap, rt, pdi C.double
	var nodes C.int64_t
	bound, gap, pdi = C.double(math.NaN()), C.double(math.NaN()), C.double(math.NaN())
	C.schedopt_highs_info(in.h, &ps, &obj, &bound, &gap, &nodes, &rt, &pdi)
	return runInfo{int(ps), float64(obj), float64(bound), float64(gap), int64(nodes), float64(rt), float64(pdi)}
}

// solution copies the column values into x (len ncol) and, when rowDual is not
// nil, the row duals into it (len nrow).
func (in *instance) solution(x, rowDual []float64) int {
	return int(C.Highs_getSolution(in.h, dptr(x), nil, nil, dptr(rowDual)))
}

// control block helpers

func newCtl(log uintptr) *C.schedopt_highs_ctl { return C.schedopt_highs_ctl_new(C.uintptr_t(log)) }
func freeCtl(c *C.schedopt_highs_ctl)          { C.free(unsafe.Pointer(c)) }
func stopCtl(c *C.schedopt_highs_ctl, why int) { C.schedopt_highs_ctl_stop(c, C.int(why)) }
func ctlReason(c *C.schedopt_highs_ctl) int    { return int(C.schedopt_highs_ctl_reason(c)) }

// resetScheduler disposes the calling OS thread's HiGHS task executor (thread-local
// in HiGHS 1.10) and joins its worker threads.
func resetScheduler() { C.Highs_resetGlobalScheduler(1) }

func version() string { return C.GoString(C.Highs_version()) }

func dptr(s []float64) *C.double {
	if len(s) == 0 {
		return nil
	}
	return (*C.double)(unsafe.Pointer(unsafe.SliceData(s)))
}

func iptr(s []int32) *C.HighsInt {
	if len(s) == 0 {
		return nil
	}
	return (*C.HighsInt)(unsafe.Pointer(unsafe.SliceData(s)))
}
