package highs

import (
	"math"
	"testing"

	"github.com/schedopt/schedopt/backends/backendtest"
	"github.com/schedopt/schedopt/model"
)

// handOff creates a HiGHS instance, sets the options and passes m, without solving.
func handOff(b *testing.B, m *model.Model) {
	in, err := newInstance()
	if err != nil {
		b.Fatal(err)
	}
	defer in.destroy()
	if err := in.setOptions(0, 0, math.Inf(1), 0, 0, false); err != nil {
		b.Fatal(err)
	}
	if st := passModel(in, m, m.NumIntegers() > 0); st == statusError {
		b.Fatal("Highs_passMip failed")
	}
}

// BenchmarkPass measures the hand-off of a prebuilt 10^6-nonzero model to HiGHS
// (Highs_create, options, Highs_passMip, Highs_destroy), per nonzero. B/nnz counts Go
// heap bytes only (the integrality vector); HiGHS's own copy is C memory.
func BenchmarkPass(b *testing.B) {
	m := backendtest.BenchModel(backendtest.BenchRows, backendtest.BenchCols, backendtest.BenchPerRow)
	backendtest.ReportPerNonzero(b, func() { handOff(b, m) })
}

// BenchmarkBuildAndPass measures building the model and handing it to HiGHS.
func BenchmarkBuildAndPass(b *testing.B) {
	backendtest.ReportPerNonzero(b, func() {
		handOff(b, backendtest.BenchModel(backendtest.BenchRows, backendtest.BenchCols, backendtest.BenchPerRow))
	})
}
