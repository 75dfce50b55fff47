package highs

import (
	"math"
	"runtime"
	"testing"

	"github.com/schedopt/schedopt/backends/backendtest"
	"github.com/schedopt/schedopt/model"
)

const (
	benchRows   = 250_000
	benchCols   = 250_000
	benchPerRow = 4
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
	m := backendtest.BenchModel(benchRows, benchCols, benchPerRow)
	benchLoop(b, func() { handOff(b, m) })
}

// BenchmarkBuildAndPass measures building the model and handing it to HiGHS.
func BenchmarkBuildAndPass(b *testing.B) {
	benchLoop(b, func() { handOff(b, backendtest.BenchModel(benchRows, benchCols, benchPerRow)) })
}

func benchLoop(b *testing.B, f func()) {
	nnz := float64(benchRows * benchPerRow)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for b.Loop() {
		f()
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/nnz, "ns/nnz")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/nnz, "B/nnz")
}
