package portfolio

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/solve"
)

// fake is a path that answers with res after delay, or stops with status
// "interrupted" when its context is cancelled first.
func fake(name string, delay time.Duration, res *solve.Result, err error, runs *atomic.Int32, cancelled *atomic.Bool) path {
	return path{name: name, run: func(ctx context.Context, _ backends.Options) (*solve.Result, error) {
		if runs != nil {
			runs.Add(1)
		}
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			if cancelled != nil {
				cancelled.Store(true)
			}
			return &solve.Result{Backend: name, Status: solve.StatusInterrupted}, nil
		}
		if err != nil {
			return nil, err
		}
		r := *res
		r.Backend = name
		return &r, nil
	}}
}

// signalling wraps p so that done is closed when p returns.
func signalling(p path, done chan struct{}) path {
	run := p.run
	p.run = func(ctx context.Context, o backends.Options) (*solve.Result, error) {
		defer close(done)
		return run(ctx, o)
	}
	return p
}

// after is a path that answers with res shortly after gate is closed.
func after(name string, gate chan struct{}, res *solve.Result, runs *atomic.Int32) path {
	return path{name: name, run: func(ctx context.Context, _ backends.Options) (*solve.Result, error) {
		runs.Add(1)
		<-gate
		// The other path sends its answer right after closing gate; answer after it,
		// well within MinCrossCheck.
		time.Sleep(MinCrossCheck / 5)
		r := *res
		r.Backend = name
		return &r, nil
	}}
}

func optimal(obj float64) *solve.Result {
	return &solve.Result{Status: solve.StatusOptimal, Objective: solve.Ptr(obj), Bound: solve.Ptr(obj), Gap: solve.Ptr(0), Solver: "algo"}
}

func feasible(obj, gap float64) *solve.Result {
	return &solve.Result{Status: solve.StatusFeasible, Objective: solve.Ptr(obj), Gap: solve.Ptr(gap)}
}

func TestRace(t *testing.T) {
	noExact := fmt.Errorf("tiny: %w", solve.ErrNoExact)
	cases := []struct {
		name       string
		threads    int
		paths      func(runs []*atomic.Int32, cancelled []*atomic.Bool) []path
		wantBack   string
		wantStatus string
		wantObj    float64
		wantPaths  []string // the status of each path run
		wantRuns   []int32
		wantCancel []bool
		wantAgree  bool // the loser's Agree is set and true
	}{
		{"one thread: the strongest path alone", 1, func(r []*atomic.Int32, c []*atomic.Bool) []path {
			return []path{fake("exact", 0, optimal(10), nil, r[0], c[0]), fake("highs", 0, optimal(10), nil, r[1], c[1])}
		}, "exact", solve.StatusOptimal, 10, []string{solve.StatusOptimal}, []int32{1, 0}, []bool{false, false}, false},
		{"one thread: no exact algorithm, the MILP answers", 1, func(r []*atomic.Int32, c []*atomic.Bool) []path {
			return []path{fake("exact", 0, nil, noExact, r[0], c[0]), fake("highs", 0, optimal(7), nil, r[1], c[1])}
		}, "highs", solve.StatusOptimal, 7, []string{"unsupported", solve.StatusOptimal}, []int32{1, 1}, []bool{false, false}, false},
		{"two threads: the first proof wins, the other is cancelled", 2, func(r []*atomic.Int32, c []*atomic.Bool) []path {
			return []path{fake("exact", 20*time.Second, optimal(10), nil, r[0], c[0]), fake("highs", 10*time.Millisecond, optimal(10), nil, r[1], c[1])}
		}, "highs", solve.StatusOptimal, 10, []string{"cancelled", solve.StatusOptimal}, []int32{1, 1}, []bool{true, false}, false},
		{"two threads: a loser that ends within the budget is a cross-check", 2, func(r []*atomic.Int32, c []*atomic.Bool) []path {
			gate := make(chan struct{}) // the exact path ends right after the MILP's proof
			return []path{after("exact", gate, optimal(10+1e-9), r[0]), signalling(fake("highs", 0, optimal(10), nil, r[1], c[1]), gate)}
		}, "highs", solve.StatusOptimal, 10, []string{solve.StatusOptimal, solve.StatusOptimal}, []int32{1, 1}, []bool{false, false}, true},
		{"two threads: without a proof the smallest gap wins", 2, func(r []*atomic.Int32, c []*atomic.Bool) []path {
			return []path{fake("exact", 0, feasible(12, 0.2), nil, r[0], c[0]), fake("highs", 20*time.Millisecond, feasible(11, 0.1), nil, r[1], c[1])}
		}, "highs", solve.StatusFeasible, 11, []string{solve.StatusFeasible, solve.StatusFeasible}, []int32{1, 1}, []bool{false, false}, false},
		{"two threads: an unproven answer waits for the other path", 2, func(r []*atomic.Int32, c []*atomic.Bool) []path {
			return []path{fake("exact", 0, feasible(12, 0.2), nil, r[0], c[0]), fake("highs", 50*time.Millisecond, optimal(10), nil, r[1], c[1])}
		}, "highs", solve.StatusOptimal, 10, []string{solve.StatusFeasible, solve.StatusOptimal}, []int32{1, 1}, []bool{false, false}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			runs := []*atomic.Int32{{}, {}}
			cancelled := []*atomic.Bool{{}, {}}
			res, err := race(context.Background(), tc.paths(runs, cancelled), backends.Options{Threads: tc.threads, RelGap: 1e-6})
			if err != nil {
				t.Fatal(err)
			}
			if res.Backend != tc.wantBack || res.Status != tc.wantStatus || res.Objective == nil || *res.Objective != tc.wantObj {
				t.Fatalf("answer %s %s %v, want %s %s %g", res.Backend, res.Status, res.Objective, tc.wantBack, tc.wantStatus, tc.wantObj)
			}
			if len(res.Paths) != len(tc.wantPaths) {
				t.Fatalf("paths %+v, want %d", res.Paths, len(tc.wantPaths))
			}
			for i, want := range tc.wantPaths {
				if res.Paths[i].Status != want {
					t.Errorf("path %d (%s) ended %q, want %q", i, res.Paths[i].Backend, res.Paths[i].Status, want)
				}
			}
			for i := range runs {
				if runs[i].Load() != tc.wantRuns[i] {
					t.Errorf("path %d ran %d times, want %d", i, runs[i].Load(), tc.wantRuns[i])
				}
				if cancelled[i].Load() != tc.wantCancel[i] {
					t.Errorf("path %d cancelled %v, want %v", i, cancelled[i].Load(), tc.wantCancel[i])
				}
			}
			if tc.wantAgree {
				loser := res.Paths[0]
				if loser.Agree == nil || !*loser.Agree {
					t.Errorf("cross-check %+v, want agreement", loser)
				}
				if res.Check.Exact == nil || !res.Check.Exact.Agree {
					t.Errorf("check.exact %+v: want the exact path's optimum as the cross-check", res.Check.Exact)
				}
			}
		})
	}
}

// TestAgree: proven answers agree when their statuses match and their optima lie
// within the gaps of each other.
func TestAgree(t *testing.T) {
	opts := backends.Options{RelGap: 0.002}
	cases := []struct {
		name string
		a, b *solve.Result
		want bool
	}{
		{"same optimum", optimal(100), optimal(100), true},
		{"optima within twice the gap", optimal(100), optimal(100.3), true},
		{"optima further apart", optimal(100), optimal(101), false},
		{"optimal against infeasible", optimal(100), &solve.Result{Status: solve.StatusInfeasible}, false},
		{"both infeasible", &solve.Result{Status: solve.StatusInfeasible}, &solve.Result{Status: solve.StatusInfeasible}, true},
	}
	for _, tc := range cases {
		if got := agree(tc.a, tc.b, opts); got != tc.want {
			t.Errorf("%s: agree = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestModelPaths: solve-mps's auto races HiGHS against CBC only with two threads or
// more.
func TestModelPaths(t *testing.T) {
	if got := ModelPaths(1); len(got) != 1 || got[0] != "highs" {
		t.Errorf("one thread: %v, want [highs]", got)
	}
	if got := ModelPaths(2); len(got) != 2 || got[0] != "highs" || got[1] != "cbc" {
		t.Errorf("two threads: %v, want [highs cbc]", got)
	}
}
