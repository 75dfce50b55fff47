package highs

import (
	"math"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/schedopt/schedopt/backends/backendtest"
	dm "github.com/schedopt/schedopt/domain/dltmulti"
	fdm "github.com/schedopt/schedopt/formulations/dltmulti"
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

// dltModel builds the MIP (6.6)-(6.28) of seed 004 §6 on the instance of issue 17
// (`schedopt gen dlt-multi --m M --n 12 --seed 1 --objective min-energy --deadline
// 1000`): at m = 1000, 86,019 columns, 260,043 rows and 1,076,048 nonzeros.
func dltModel(b *testing.B, m int) *model.Model {
	in, err := dm.Generate(dm.GenConfig{M: m, N: 12, V: 24000, P0N: 100, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	deadline := 1000.0
	in.Objective, in.Deadline = dm.MinEnergy, &deadline
	f, err := fdm.Build(in, fdm.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return f.Model
}

// processCPU returns the user+system CPU time of the process (HiGHS's own threads
// included).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchmarkDLT runs f b.N times and reports ms per operation of CPU time besides
// the wall time.
func benchmarkDLT(b *testing.B, f func()) {
	b.ReportAllocs()
	runtime.GC()
	cpu0 := processCPU()
	for b.Loop() {
		f()
	}
	b.ReportMetric(float64((processCPU()-cpu0).Nanoseconds())/float64(b.N)/1e6, "cpu-ms/op")
}

// BenchmarkDLTBuildAndPass is goal 2 of issue 17: build the dlt-multi model at
// m = 1000 and hand it to HiGHS in memory (Highs_create, options, Highs_passMip,
// Highs_destroy), with no file. Target: 0.1 s.
func BenchmarkDLTBuildAndPass(b *testing.B) {
	benchmarkDLT(b, func() { handOff(b, dltModel(b, 1000)) })
}

// BenchmarkDLTPass is the hand-off alone, of a prebuilt model.
func BenchmarkDLTPass(b *testing.B) {
	m := dltModel(b, 1000)
	benchmarkDLT(b, func() { handOff(b, m) })
}
