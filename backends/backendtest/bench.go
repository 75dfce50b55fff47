package backendtest

import (
	"runtime"
	"testing"
)

// Size of the hand-off benchmark model built by BenchModel: 250,000 binary columns and
// 250,000 rows of 4 nonzeros, 10^6 nonzeros in all (the shape of the reference
// measurement in solvers-and-algorithms.md §5).
const (
	BenchRows   = 250_000
	BenchCols   = 250_000
	BenchPerRow = 4
)

// BenchNonzeros is the number of nonzeros of the benchmark model.
const BenchNonzeros = BenchRows * BenchPerRow

// ReportPerNonzero runs f once per iteration of b and reports the time and the Go heap
// bytes allocated per nonzero of the benchmark model (C memory is not counted).
func ReportPerNonzero(b *testing.B, f func()) {
	nnz := float64(BenchNonzeros)
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
