package backends_test

import (
	"testing"

	"github.com/schedopt/schedopt/backends/backendtest"
)

// BenchmarkModelBuild measures building the 10^6-nonzero model with the model
// package alone, in ns and Go heap bytes per nonzero.
func BenchmarkModelBuild(b *testing.B) {
	backendtest.ReportPerNonzero(b, func() {
		m := backendtest.BenchModel(backendtest.BenchRows, backendtest.BenchCols, backendtest.BenchPerRow)
		if m.NumNonzeros() != backendtest.BenchNonzeros {
			b.Fatalf("%d nonzeros", m.NumNonzeros())
		}
	})
}
