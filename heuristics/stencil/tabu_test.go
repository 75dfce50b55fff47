package stencil

import (
	"context"
	"testing"

	dom "github.com/schedopt/schedopt/domain/stencil"
)

func TestTaskMovementNeverWorsensItsStart(t *testing.T) {
	for _, config := range []string{"cpu-gpu", "2cpu-2gpu"} {
		in, procs := thesisInstance(t, "cuboid", config)
		in.Deadline = 3.6e-3
		start, err := LoadBalancing(in, IJK, 0)
		must(t, err)
		got, err := TaskMovement(context.Background(), in, start, TabuOptions{Iterations: 40})
		must(t, err)
		r0, _ := dom.SimulateThesis(procs, in.Arcs, start)
		r1, _ := dom.SimulateThesis(procs, in.Arcs, got)
		if r1.Energy > r0.Energy {
			t.Fatalf("%s: energy %d µJ after search, %d before", config, r1.Energy, r0.Energy)
		}
		if r1.Micros > 3600 {
			t.Fatalf("%s: makespan %d µs misses the 3.6 ms deadline", config, r1.Micros)
		}
		if r1.Energy == r0.Energy {
			t.Fatalf("%s: no improvement over Alg_1-IJK (%d µJ)", config, r0.Energy)
		}
	}
}

func TestTaskMovementRepairsAnInfeasibleStart(t *testing.T) {
	in, procs := thesisInstance(t, "cuboid", "cpu-gpu")
	in.Deadline = 3.5e-3
	start := make([]int, len(in.Tasks)) // everything on the CPU: 27.9 ms
	got, err := TaskMovement(context.Background(), in, start, TabuOptions{Iterations: 150})
	must(t, err)
	r, _ := dom.SimulateThesis(procs, in.Arcs, got)
	if r.Micros > 3500 {
		t.Fatalf("makespan %d µs after the search, deadline 3500", r.Micros)
	}
}
