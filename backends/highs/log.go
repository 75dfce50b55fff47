package highs

// This file holds the only //export of the package. cgo copies this preamble into
// _cgo_export.c, so it must not include highs_c_api.h (see cgo.go).

/*
#include <stdint.h>
*/
import "C"

import (
	"io"
	"runtime/cgo"
)

// schedoptHighsLog receives one HiGHS log message from the C callback and writes it
// to the io.Writer behind the handle. Write errors are ignored: a broken log must not
// stop a solve.
//
//export schedoptHighsLog
func schedoptHighsLog(handle C.uintptr_t, msg *C.char) {
	w, ok := cgo.Handle(handle).Value().(io.Writer)
	if !ok {
		return
	}
	_, _ = io.WriteString(w, C.GoString(msg))
}
