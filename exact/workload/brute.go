package workload

import (
	"context"
	"fmt"

	dw "github.com/schedopt/schedopt/domain/workload"
)

// BruteForce enumerates every feasible distribution (each processor idle or on one of
// its points, sizes summing to N), the naive solution tree of seed 000 §4 (ref §2.1).
// It refuses instances with more than limit leaves in the full tree.
func BruteForce(ctx context.Context, ts *dw.Tables, limit int) ([]Point, error) {
	leaves := 1.0
	for _, t := range ts.Procs {
		leaves *= float64(t.Len() + 1)
	}
	if leaves > float64(limit) {
		return nil, fmt.Errorf("workload: brute force: %g distributions exceed the limit %d", leaves, limit)
	}
	var all []Point
	x := make([]int, ts.P())
	var rec func(i, w int) error
	rec = func(i, w int) error {
		if i == ts.P() {
			if w == 0 {
				pt, _ := pointOf(ts, x)
				all = append(all, pt)
			}
			return nil
		}
		if i%4 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		x[i] = 0
		if err := rec(i+1, w); err != nil {
			return err
		}
		for _, s := range ts.Procs[i].Size {
			if s > w {
				break
			}
			x[i] = s
			if err := rec(i+1, w-s); err != nil {
				return err
			}
		}
		x[i] = 0
		return nil
	}
	if err := rec(0, ts.N); err != nil {
		return nil, err
	}
	return all, nil
}
