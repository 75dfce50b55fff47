//go:build !amd64

package dltbb

// useAVX: no vector loop on this architecture.
const useAVX = false

// axpyAVX is axpy's Go loop here (useAVX is false, so axpy does not call it).
func axpyAVX(row, pr []float64, f float64) { axpyGo(row, pr, f) }
