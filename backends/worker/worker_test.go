package worker

import (
	"context"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/model"
)

// testEnv makes this test binary a worker whose solver is fake.
const testEnv = "SCHEDOPT_WORKER_TEST"

func init() { ServeIfWorker(testEnv, fake) }

// fake "solves" a model by reporting its first column's upper bound as the optimum,
// with the worker's process id in the message; a model named "sleep" waits for its
// context, as a long solve would, and then reports an interruption.
func fake(ctx context.Context, m *model.Model, o backends.Options) (backends.Result, error) {
	if m.Name == "sleep" {
		<-ctx.Done()
		return backends.Result{Status: backends.Interrupted, Objective: math.NaN(), Bound: math.NaN(), Message: "stopped"}, nil
	}
	if m.Name == "fail" {
		return backends.Result{}, os.ErrInvalid
	}
	if o.Log != nil {
		_, _ = o.Log.Write([]byte("fake log line\n"))
	}
	cols := m.Columns()
	v := cols.Upper[0]
	return backends.Result{Status: backends.Optimal, HasSolution: true, Objective: v, Bound: v, Values: []float64{v},
		Message: "pid " + strconv.Itoa(os.Getpid())}, nil
}

func oneColumn(name string, ub float64) *model.Model {
	m := model.New(name)
	x := m.AddInteger(0, ub, "x")
	m.AddConstr(model.Term(x, 1), model.LE, ub, "c")
	m.SetObjective(model.Maximize, model.Term(x, 1))
	return m
}

func newPool(extra ...string) *Pool {
	return &Pool{Env: testEnv, Name: "fake", extraEnv: extra}
}

// TestRoundTripAndReuse: a model crosses to the worker and back unchanged, the log
// reaches the solve's writer, and a second solve reuses the first one's worker.
func TestRoundTripAndReuse(t *testing.T) {
	p := newPool()
	defer p.Close()
	var log strings.Builder
	var pids []string
	for i, ub := range []float64{3, 7} {
		res, err := p.Solve(context.Background(), oneColumn("m", ub), backends.Options{Log: &log})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != backends.Optimal || res.Objective != ub || len(res.Values) != 1 {
			t.Fatalf("solve %d: %s %g %v, want optimal %g", i, res.Status, res.Objective, res.Values, ub)
		}
		pids = append(pids, res.Message)
	}
	if pids[0] != pids[1] || pids[0] == "pid "+strconv.Itoa(os.Getpid()) {
		t.Errorf("workers %v: want one worker, not this process, for both solves", pids)
	}
	// The log is copied asynchronously from the worker's stderr.
	deadline := time.Now().Add(2 * time.Second)
	for !strings.Contains(log.String(), "fake log line") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(log.String(), "fake log line") {
		t.Errorf("log %q: want the worker's log line", log.String())
	}
}

// TestStops: a cancelled solve, a solve past its time limit, a worker that ignores
// SIGTERM and one that dies of it all return within a second with the status of the
// stop, and the pool goes on working.
func TestStops(t *testing.T) {
	tests := []struct {
		name   string
		extra  []string
		limit  time.Duration
		cancel time.Duration
		want   backends.Status
	}{
		{"context cancelled", nil, 0, 200 * time.Millisecond, backends.Interrupted},
		{"time limit overrun", nil, 200 * time.Millisecond, 0, backends.Interrupted},
		{"deaf worker killed", []string{stuckEnv + "=1"}, 0, 200 * time.Millisecond, backends.Interrupted},
		{"deaf worker past its limit", []string{stuckEnv + "=1"}, 200 * time.Millisecond, 0, backends.TimeLimit},
		{"worker killed by the stop signal", []string{unguardedEnv + "=1"}, 0, 200 * time.Millisecond, backends.Interrupted},
		{"worker past its limit killed by the stop signal", []string{unguardedEnv + "=1"}, 200 * time.Millisecond, 0, backends.TimeLimit},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newPool(tc.extra...)
			defer p.Close()
			ctx := context.Background()
			if tc.cancel > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.cancel)
				defer cancel()
			}
			t0 := time.Now()
			res, err := p.Solve(ctx, oneColumn("sleep", 1), backends.Options{TimeLimit: tc.limit})
			took := time.Since(t0)
			if err != nil {
				t.Fatal(err)
			}
			if promise := tc.limit + tc.cancel + time.Second; took > promise {
				t.Errorf("returned after %v, want within %v", took, promise)
			}
			if res.Status != tc.want {
				t.Errorf("status %s (%s), want %s", res.Status, res.Message, tc.want)
			}
			if len(p.idle) != 0 {
				t.Errorf("%d idle workers: a stopped worker must not be reused", len(p.idle))
			}
		})
	}
	// After all that, a new pool with a healthy worker solves.
	p := newPool()
	defer p.Close()
	if res, err := p.Solve(context.Background(), oneColumn("m", 2), backends.Options{}); err != nil || res.Objective != 2 {
		t.Errorf("after the stops: %v %v", res, err)
	}
}

// TestDeadWorker: a worker that dies ends its solve as a NumericalError that says so,
// and the next solve gets a new worker.
func TestDeadWorker(t *testing.T) {
	p := newPool(abortEnv + "=1")
	defer p.Close()
	res, err := p.Solve(context.Background(), oneColumn("m", 1), backends.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != backends.NumericalError || res.HasSolution || !strings.Contains(res.Message, "died") {
		t.Errorf("status %s (%s), want a numerical error saying the worker died", res.Status, res.Message)
	}
	p.extraEnv = nil
	if res, err := p.Solve(context.Background(), oneColumn("m", 4), backends.Options{}); err != nil || res.Objective != 4 {
		t.Errorf("after the death: %+v %v", res, err)
	}
}

// TestSolveErrorKeepsTheWorker: a solver error comes back as an error and the worker
// is reused.
func TestSolveErrorKeepsTheWorker(t *testing.T) {
	p := newPool()
	defer p.Close()
	if _, err := p.Solve(context.Background(), oneColumn("fail", 1), backends.Options{}); err == nil {
		t.Fatal("want the solver's error")
	}
	if len(p.idle) != 1 {
		t.Errorf("%d idle workers after a solver error, want 1", len(p.idle))
	}
}

// TestParallelSolves: concurrent solves each get a worker and their own answer.
func TestParallelSolves(t *testing.T) {
	p := newPool()
	defer p.Close()
	var wg sync.WaitGroup
	errs := make([]string, 6)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ub := float64(i + 1)
			res, err := p.Solve(context.Background(), oneColumn("m", ub), backends.Options{})
			if err != nil || res.Objective != ub {
				errs[i] = "wrong answer"
			}
		}()
	}
	wg.Wait()
	for i, e := range errs {
		if e != "" {
			t.Errorf("solve %d: %s", i, e)
		}
	}
}

// TestCloseEndsIdleWorkers: after Close the idle workers exit and solves fail.
func TestCloseEndsIdleWorkers(t *testing.T) {
	p := newPool()
	if _, err := p.Solve(context.Background(), oneColumn("m", 1), backends.Options{}); err != nil {
		t.Fatal(err)
	}
	w := p.idle[0]
	p.Close()
	deadline := time.Now().Add(2 * time.Second)
	for w.cmd.Process.Signal(syscall.Signal(0)) == nil && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if w.cmd.Process.Signal(syscall.Signal(0)) == nil {
		t.Error("idle worker still running after Close")
	}
	if _, err := p.Solve(context.Background(), oneColumn("m", 1), backends.Options{}); err == nil {
		t.Error("solve after Close: want an error")
	}
}

// TestRequestRoundTrip: Model rebuilds bounds, kinds, rows, objective and start.
func TestRequestRoundTrip(t *testing.T) {
	m := model.New("rt")
	x := m.AddInteger(-2, 5, "x")
	y := m.AddContinuous(math.Inf(-1), 3.5, "y")
	m.AddRange(model.Expr{Vars: []model.Var{x, y}, Coefs: []float64{1, -2}}, -1, 4, "r")
	m.SetObjective(model.Minimize, model.Expr{Vars: []model.Var{x, y}, Coefs: []float64{3, 1}, Constant: 2})
	m.SetStart(x, 1)
	q := NewRequest(m, backends.Options{TimeLimit: time.Second, RelGap: 1e-4})
	got, err := q.Model()
	if err != nil {
		t.Fatal(err)
	}
	a, b := m.Columns(), got.Columns()
	for j := range a.Lower {
		if a.Lower[j] != b.Lower[j] || a.Upper[j] != b.Upper[j] || a.Cost[j] != b.Cost[j] || a.Kind[j] != b.Kind[j] {
			t.Errorf("column %d differs", j)
		}
	}
	if got.NumRows() != 1 || got.ObjectiveConstant() != 2 || got.Sense() != model.Minimize || got.Start()[0] != 1 {
		t.Errorf("rebuilt model differs: rows %d constant %g", got.NumRows(), got.ObjectiveConstant())
	}
	if o := q.Options(nil); o.TimeLimit != time.Second || o.RelGap != 1e-4 {
		t.Errorf("options %+v", o)
	}
}
