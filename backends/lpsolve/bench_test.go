package lpsolve

import (
	"testing"

	"github.com/schedopt/schedopt/backends/backendtest"
	"github.com/schedopt/schedopt/model"
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
	m := backendtest.BenchModel(backendtest.BenchRows, backendtest.BenchCols, backendtest.BenchPerRow)
	backendtest.ReportPerNonzero(b, func() { handOff(b, m) })
}

// BenchmarkBuildAndPass measures building the model and loading it into lp_solve.
func BenchmarkBuildAndPass(b *testing.B) {
	backendtest.ReportPerNonzero(b, func() {
		handOff(b, backendtest.BenchModel(backendtest.BenchRows, backendtest.BenchCols, backendtest.BenchPerRow))
	})
}
