package cbc

import (
	"testing"

	"github.com/schedopt/schedopt/backends/backendtest"
	"github.com/schedopt/schedopt/model"
)

// handOff creates a Cbc_Model, sets the options and loads m, without solving.
func handOff(b *testing.B, m *model.Model) {
	cm, err := newModel()
	if err != nil {
		b.Fatal(err)
	}
	defer cm.delete()
	cm.params(0, 0, 0, 0, 0, false, false)
	if err := loadModel(cm, m); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkPass measures the hand-off of a prebuilt 10^6-nonzero model to CBC
// (Cbc_newModel, options, transposition, Cbc_loadProblem, Cbc_setInteger,
// Cbc_deleteModel), per nonzero. B/nnz counts Go heap bytes only (the integrality
// vector); the transposition's scratch arrays and CBC's own copy are C memory.
func BenchmarkPass(b *testing.B) {
	m := backendtest.BenchModel(backendtest.BenchRows, backendtest.BenchCols, backendtest.BenchPerRow)
	backendtest.ReportPerNonzero(b, func() { handOff(b, m) })
}

// BenchmarkBuildAndPass measures building the model and handing it to CBC.
func BenchmarkBuildAndPass(b *testing.B) {
	backendtest.ReportPerNonzero(b, func() {
		handOff(b, backendtest.BenchModel(backendtest.BenchRows, backendtest.BenchCols, backendtest.BenchPerRow))
	})
}
