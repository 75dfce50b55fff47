package partition_test

import (
	"fmt"

	"github.com/schedopt/schedopt/domain/partition"
)

// The SA workload of seed 002 on i7+Titan with the paper's code partition: the
// vector add on the CPU, the pow loop on the GPU.
func ExampleInstance_Measure() {
	procs, _ := partition.PaperPlatform("i7+titan")
	portions, _ := partition.PaperWorkload("sa", partition.Whole, 0)
	in := &partition.Instance{Kind: "partition", Processors: procs, Portions: portions, Objective: partition.ObjMinTime}
	ms, _ := in.Measure([][]float64{{1, 0}, {0, 1}})
	nf, _ := in.Totals()
	fmt.Printf("T = %.3f ms, %.0f GFlop/s, %.1f pJ/flop\n", ms.T*1e3, nf/ms.T/1e9, ms.E/nf*1e12)
	// Output: T = 6.881 ms, 1906 GFlop/s, 130.8 pJ/flop
}

// Table VI's label for i7+Titan, from Table IV.
func ExampleClassifyEPaw() {
	procs, _ := partition.PaperPlatform("i7+titan")
	c := partition.ClassifyEPaw(procs[0], procs[1], partition.Reconstructed)
	fmt.Printf("%s (ΔGP_f = %+.2f pJ, ΔGP_b = %+.2f pJ)\n", c.Category, c.DeltaF*1e12, c.DeltaB*1e12)
	l := partition.ClassifyEPaw(procs[0], procs[1], partition.Literal)
	fmt.Println("literal rules:", l.Matches)
	// Output:
	// CPU_MEM-GPU_MEM (ΔGP_f = +24.64 pJ, ΔGP_b = -106.78 pJ)
	// literal rules: [Race-to-halt CPU_COMP-GPU_COMP]
}
