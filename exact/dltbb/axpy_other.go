//go:build !amd64

package dltbb

// useAVX: no vector loop on this architecture.
const useAVX = false

// axpyAVX is axpy's Go loop (never called: useAVX is false).
func axpyAVX(row, pr []float64, f float64) {
	for j, v := range pr {
		row[j] -= f * v
	}
}
