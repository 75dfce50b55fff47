package stencil

import (
	"context"
	"testing"
)

// Table 6.12 reports 32-98 µs per heuristic on the 2xCPU-2xGPU Cuboid and Sphere.
func BenchmarkHeuristicsTable612(b *testing.B) {
	for _, grid := range []string{"cuboid", "sphere"} {
		in, _ := thesisInstance(b, grid, "2cpu-2gpu")
		b.Run(grid+"/Alg_1-IJK", func(b *testing.B) {
			for b.Loop() {
				if _, err := LoadBalancing(in, IJK, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(grid+"/Alg_2", func(b *testing.B) {
			for b.Loop() {
				DegreeMinimisation(in, true)
			}
		})
		b.Run(grid+"/Alg_3", func(b *testing.B) {
			for b.Loop() {
				MulticutMinimisation(in, true)
			}
		})
		b.Run(grid+"/Alg_4-0.9", func(b *testing.B) {
			for b.Loop() {
				NeighboursAccumulation(in, 0.9)
			}
		})
		b.Run(grid+"/TM-200", func(b *testing.B) {
			start := NeighboursAccumulation(in, 0.9)
			for b.Loop() {
				if _, err := TaskMovement(context.Background(), in, start, TabuOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
