package backends_test

import (
	"runtime"
	"testing"

	"github.com/schedopt/schedopt/backends/backendtest"
)

// Size of the hand-off benchmark model: 250,000 binary columns and 250,000 rows of 4
// nonzeros, 10^6 nonzeros in all (the shape of the reference measurement in
// solvers-and-algorithms.md §5).
const (
	benchRows   = 250_000
	benchCols   = 250_000
	benchPerRow = 4
)

// BenchmarkModelBuild measures building the 10^6-nonzero model with the model
// package alone, in ns and Go heap bytes per nonzero.
func BenchmarkModelBuild(b *testing.B) {
	nnz := float64(benchRows * benchPerRow)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for b.Loop() {
		m := backendtest.BenchModel(benchRows, benchCols, benchPerRow)
		if m.NumNonzeros() != benchRows*benchPerRow {
			b.Fatalf("%d nonzeros", m.NumNonzeros())
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/nnz, "ns/nnz")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/nnz, "B/nnz")
}
