package workload

import "fmt"

// Fig10 returns the worked example of seed 000 (Fig. 10, reference §2.6): four
// processors and n = 4, each table given as (size, energy, time). Its (T, E) front is
// (2, 5), (3, 4), (6, 2); tests of every algorithm and formulation use it, and
// instances/workload-fig10*.json hold the same tables.
func Fig10() *Instance {
	cols := [][][3]float64{
		{{2, 1, 2}, {1, 3, 5}, {3, 5, 6}, {4, 6, 5}},
		{{2, 1, 6}, {1, 2, 3}, {3, 6, 2}, {4, 9, 4}},
		{{2, 4, 2}, {1, 5, 1}, {4, 7, 5}, {3, 8, 3}},
		{{1, 1, 1}, {3, 6, 2}, {2, 7, 3}, {4, 8, 6}},
	}
	in := &Instance{Kind: "workload", N: 4, Objective: ObjPareto}
	for i, c := range cols {
		p := Processor{Name: fmt.Sprintf("P%d", i)}
		for _, q := range c {
			p.Points = append(p.Points, Point{Size: int(q[0]), Energy: q[1], Time: q[2]})
		}
		in.Processors = append(in.Processors, p)
	}
	return in
}
