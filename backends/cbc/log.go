package cbc

// This file holds the only //export of the package. cgo copies this preamble into
// _cgo_export.c, so it must not include Cbc_C_Interface.h or shim.h (see cgo.go).

/*
#include <stdint.h>
*/
import "C"

import (
	"io"
	"runtime/cgo"
)

// schedoptCbcLog receives one CBC or Clp message (without a newline) from the message
// handler of shim.cpp and writes it, with a newline, to the io.Writer behind the
// handle. Write errors are ignored: a broken log must not stop a solve.
//
//export schedoptCbcLog
func schedoptCbcLog(handle C.uintptr_t, msg *C.char) {
	w, ok := cgo.Handle(handle).Value().(io.Writer)
	if !ok {
		return
	}
	_, _ = io.WriteString(w, C.GoString(msg)+"\n")
}
