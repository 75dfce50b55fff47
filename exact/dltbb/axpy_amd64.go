package dltbb

import "golang.org/x/sys/cpu"

// useAVX: the processor runs axpyAVX (set once, read only).
var useAVX = cpu.X86.HasAVX

// axpyAVX is axpy's loop in AVX (axpy_amd64.s); len(row) == len(pr).
//
//go:noescape
func axpyAVX(row, pr []float64, f float64)
