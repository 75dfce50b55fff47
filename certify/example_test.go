package certify_test

import (
	"context"
	"fmt"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/registry"
	"github.com/schedopt/schedopt/certify"
	"github.com/schedopt/schedopt/model"
)

// Three jobs of 3, 2 and 2 time units go to two identical machines so that the
// makespan T is least: a binary x[j][k] puts job j on machine k, every job goes to
// one machine, and every machine's load is at most T. Job 0 is fixed on machine 0
// (the machines are identical), so the optimum, T = 4, is unique. The model is solved
// with HiGHS and with CBC, each certified by certify.Solve with the other as its
// second backend: with Certify set, the optimum must survive a cutoff solve on it.
func Example() {
	jobs := []float64{3, 2, 2}
	m := model.New("two machines")
	T := m.AddContinuous(3, 7, "T") // bounds from the data: the longest job, all jobs
	x := make([][]model.Var, len(jobs))
	for j := range jobs {
		var one model.Expr
		for k := 0; k < 2; k++ {
			x[j] = append(x[j], m.AddBinary(fmt.Sprintf("x[%d][%d]", j, k)))
			one.Add(x[j][k], 1)
		}
		m.AddConstr(one, model.EQ, 1, fmt.Sprintf("assign[%d]", j))
	}
	for k := 0; k < 2; k++ {
		var load model.Expr
		for j, p := range jobs {
			load.Add(x[j][k], p)
		}
		load.Add(T, -1)
		m.AddConstr(load, model.LE, 0, fmt.Sprintf("load[%d]", k))
	}
	m.Fix(x[0][0], 1)
	m.SetObjective(model.Minimize, model.Term(T, 1))
	if err := m.Validate(); err != nil {
		fmt.Println(err)
		return
	}

	for _, name := range []string{registry.HiGHS, registry.CBC} {
		solver, err := registry.New(name)
		if err != nil {
			fmt.Println(err)
			return
		}
		second, err := registry.New(registry.Others(name)[0])
		if err != nil {
			fmt.Println(err)
			return
		}
		res, err := certify.Solve(context.Background(), solver, m, backends.DefaultOptions(),
			certify.Policy{Second: second, Certify: true})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: %s, T = %g\n", name, res.Status, res.Objective)
		fmt.Printf("  certificate: %s (confirmed %v)\n", res.Certificate.Method, res.Certificate.Confirmed)
		for _, a := range res.Certificate.Solves {
			fmt.Printf("  %s on %s: %s\n", a.Purpose, a.Backend, a.Status)
		}
		for j := range jobs {
			on := 0
			if res.Values[x[j][1]] > 0.5 {
				on = 1
			}
			fmt.Printf("  job %d on machine %d\n", j, on)
		}
	}
	// Output:
	// highs: optimal, T = 4
	//   certificate: solver proof, point verified, cutoff solve on cbc infeasible (confirmed true)
	//   solve on highs: optimal
	//   cutoff on cbc: infeasible
	//   job 0 on machine 0
	//   job 1 on machine 1
	//   job 2 on machine 1
	// cbc: optimal, T = 4
	//   certificate: solver proof, point verified, cutoff solve on highs infeasible (confirmed true)
	//   solve on cbc: optimal
	//   cutoff on highs: infeasible
	//   job 0 on machine 0
	//   job 1 on machine 1
	//   job 2 on machine 1
}
