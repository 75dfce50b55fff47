package lpsolve

import (
	"runtime"
	"testing"

	"github.com/schedopt/schedopt/backends/backendtest"
	"github.com/schedopt/schedopt/model"
)

// The lp_solve hand-off benchmark uses the same shape as the HiGHS one, at 10^6
// nonzeros; the column-wise loader is linear (a row-wise one took 65 s here).
const (
	benchRows   = 250_000
	benchCols   = 250_000
	benchPerRow = 4
)

// handOff creates an lprec and loads m into it, without solving.
func handOff(b *testing.B, m *model.Model) {
	l, err := load(m)
	if err != nil {
		b.Fatal(err)
	}
	l.delete()
}

// BenchmarkPass measures loading a prebuilt 10^6-nonzero model into lp_solve
// (transpose, make_lp, add_columnex per column, delete_lp), per nonzero. B/nnz counts Go heap bytes only.
func BenchmarkPass(b *testing.B) {
	m := backendtest.BenchModel(benchRows, benchCols, benchPerRow)
	benchLoop(b, func() { handOff(b, m) })
}

// BenchmarkBuildAndPass measures building the model and loading it into lp_solve.
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
