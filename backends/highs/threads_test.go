package highs_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/highs"
	"github.com/schedopt/schedopt/model"
)

// TestThreadCountsVaryOnOneOSThread solves with changing thread counts from one OS
// thread. HiGHS 1.10 keeps its scheduler per OS thread and fails a run whose threads
// option differs from the existing scheduler's; the binding disposes of the scheduler
// after every run, so every count must work.
func TestThreadCountsVaryOnOneOSThread(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	m := model.New("threads")
	var cap, obj model.Expr
	for i, w := range []float64{12, 7, 11, 8, 9, 6, 5, 14} {
		x := m.AddBinary("")
		cap.Add(x, w)
		obj.Add(x, w+float64(i%3))
	}
	m.AddConstr(cap, model.LE, 40, "capacity")
	m.SetObjective(model.Maximize, obj)
	for _, threads := range []int{2, 1, 3, 0, 2} {
		res, err := highs.New().Solve(context.Background(), m, backends.Options{Threads: threads})
		if err != nil {
			t.Fatalf("threads %d: %v", threads, err)
		}
		if res.Status != backends.Optimal {
			t.Fatalf("threads %d: status %s (%s)", threads, res.Status, res.Message)
		}
	}
}
