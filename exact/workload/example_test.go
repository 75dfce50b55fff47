package workload_test

import (
	"context"
	"fmt"

	dw "github.com/schedopt/schedopt/domain/workload"
	xw "github.com/schedopt/schedopt/exact/workload"
)

// The worked example of seed 000 (Fig. 10): four processors share n = 4.
func ExampleParetoDP() {
	in, err := dw.Parse([]byte(`{"kind":"workload","n":4,"objective":"pareto","processors":[
	 {"points":[{"size":2,"energy":1,"time":2},{"size":1,"energy":3,"time":5},{"size":3,"energy":5,"time":6},{"size":4,"energy":6,"time":5}]},
	 {"points":[{"size":2,"energy":1,"time":6},{"size":1,"energy":2,"time":3},{"size":3,"energy":6,"time":2},{"size":4,"energy":9,"time":4}]},
	 {"points":[{"size":2,"energy":4,"time":2},{"size":1,"energy":5,"time":1},{"size":4,"energy":7,"time":5},{"size":3,"energy":8,"time":3}]},
	 {"points":[{"size":1,"energy":1,"time":1},{"size":3,"energy":6,"time":2},{"size":2,"energy":7,"time":3},{"size":4,"energy":8,"time":6}]}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	front, err := xw.ParetoDP(context.Background(), in.Tables())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, q := range front {
		fmt.Printf("T=%g E=%g sizes=%v\n", q.T, q.E, q.Sizes)
	}
	for _, q := range xw.HTPOPTA(front, 1) {
		fmt.Printf("total energy with P_S=1: T=%g E=%g\n", q.T, q.E)
	}
	// Output:
	// T=2 E=5 sizes=[2 0 2 0]
	// T=3 E=4 sizes=[2 1 0 1]
	// T=6 E=2 sizes=[2 2 0 0]
	// total energy with P_S=1: T=2 E=7
}
