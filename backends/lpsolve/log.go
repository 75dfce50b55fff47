package lpsolve

// This file holds the only //export of the package. cgo copies this preamble into
// _cgo_export.c, so it must not include lp_lib.h (see cgo.go).

/*
#include <stdint.h>
*/
import "C"

import (
	"io"
	"runtime/cgo"
)

// schedoptLpLog receives one lp_solve log line from the C log function and writes
// it to the io.Writer behind the handle. Write errors are ignored: a broken log must
// not stop a solve.
//
//export schedoptLpLog
func schedoptLpLog(handle C.uintptr_t, msg *C.char) {
	w, ok := cgo.Handle(handle).Value().(io.Writer)
	if !ok {
		return
	}
	s := C.GoString(msg)
	if len(s) == 0 || s[len(s)-1] != '\n' {
		s += "\n"
	}
	_, _ = io.WriteString(w, s)
}
