package cbc_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/backendtest"
	"github.com/schedopt/schedopt/backends/cbc"
	"github.com/schedopt/schedopt/model"
)

func TestVersion(t *testing.T) {
	if v := cbc.Version(); !strings.HasPrefix(v, "2.10.") {
		t.Errorf("Version() = %q, want 2.10.x (the binding is written against CBC 2.10's C interface)", v)
	}
	if n := cbc.New().Name(); n != "cbc" {
		t.Errorf("Name() = %q", n)
	}
}

// knapsack is a small maximisation with a known optimum of 46 (weights ≤ 40).
func knapsack(start bool) *model.Model {
	m := model.New("knapsack")
	var cap, obj model.Expr
	for i, w := range []float64{12, 7, 11, 8, 9, 6, 5, 14} {
		x := m.AddBinary(fmt.Sprintf("x%d", i))
		cap.Add(x, w)
		obj.Add(x, w+float64(i%3))
		if start {
			m.SetStart(x, float64(i%2)) // weight 7+8+6+14 = 35 ≤ 40: feasible
		}
	}
	m.AddConstr(cap, model.LE, 40, "capacity")
	m.SetObjective(model.Maximize, obj)
	return m
}

func solve(t *testing.T, ctx context.Context, m *model.Model, opts backends.Options) backends.Result {
	t.Helper()
	res, err := cbc.New().Solve(ctx, m, opts)
	if err != nil {
		t.Fatalf("%s: %v", m.Name, err)
	}
	backendtest.Check(t, m, res)
	return res
}

// TestSilentSolvesWriteNothingToStdout redirects file descriptor 1 while silent solves
// of every kind run (MIP, LP, infeasible, unbounded, presolve off, stopped by a
// deadline and by cancellation) and requires that nothing was written: CBC's C
// interface prints to stdout unless its message handlers are replaced.
func TestSilentSolvesWriteNothingToStdout(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "stdout")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	saved, err := syscall.Dup(1)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Dup3(int(f.Fd()), 1, 0); err != nil {
		t.Fatal(err)
	}
	restored := false
	restore := func() {
		if !restored {
			restored = true
			_ = syscall.Dup3(saved, 1, 0)
			_ = syscall.Close(saved)
		}
	}
	defer restore()

	rng := rand.New(rand.NewPCG(1, 1))
	var ms []*model.Model
	for range 6 {
		ms = append(ms, backendtest.RandomMixed(rng, 6), backendtest.RandomCase(rng))
	}
	lp := model.New("lp")
	x, y := lp.AddContinuous(0, 3, "x"), lp.AddContinuous(0, 10, "y")
	lp.AddConstr(model.Sum(x, y), model.LE, 4, "a")
	lp.SetObjective(model.Maximize, model.Sum(x, y))
	ms = append(ms, lp, knapsack(true))
	for _, m := range ms {
		for _, ps := range []backends.Presolve{backends.PresolveAuto, backends.PresolveOff} {
			solve(t, context.Background(), m, backends.Options{Presolve: ps})
		}
	}
	solve(t, context.Background(), backendtest.MarketSplit(rng, 6), backends.Options{TimeLimit: 100 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	solve(t, ctx, backendtest.MarketSplit(rng, 6), backends.Options{})

	restore()
	out, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	if len(out) > 0 {
		t.Errorf("silent solves wrote %d bytes to stdout:\n%s", len(out), out)
	}
}

// TestInterruptStillReachesGo checks that CBC's and Clp's SIGINT handlers do not stay
// installed: after MIP and LP solves, an interrupt sent to the process must reach
// os/signal.
func TestInterruptStillReachesGo(t *testing.T) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt)
	defer signal.Stop(ch)
	solve(t, context.Background(), knapsack(false), backends.Options{})
	lp := model.New("lp")
	x := lp.AddContinuous(0, 3, "x")
	lp.SetObjective(model.Maximize, model.Term(x, 1))
	solve(t, context.Background(), lp, backends.Options{})
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ch:
	case <-time.After(2 * time.Second):
		t.Fatal("SIGINT did not reach os/signal after CBC solves")
	}
}

// TestOptionsReachCBC checks, through CBC's own log, that the MIP start, the gaps,
// the time limit, the thread count, the seed and PresolveOff are passed.
func TestOptionsReachCBC(t *testing.T) {
	var log bytes.Buffer
	res := solve(t, context.Background(), knapsack(true), backends.Options{Log: &log, RelGap: 1e-3,
		AbsGap: 0.5, TimeLimit: time.Hour, Threads: 2, Seed: 7, Presolve: backends.PresolveOff})
	if res.Status != backends.Optimal || res.Objective != 46 {
		t.Fatalf("status %s objective %g, want optimal 46", res.Status, res.Objective)
	}
	for _, want := range []string{
		"MIPStart provided solution with cost 39",
		"-ratioGap 0.001", "-allowableGap 0.5", "-timeMode elapsed", "-seconds 3599.",
		"-threads 2", "-randomCbcSeed 7", "-randomSeed 7",
		"Option for preprocess changed from sos to off", "Option for presolve changed from on to off",
	} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("CBC log does not contain %q:\n%s", want, log.String())
		}
	}
}

// TestPresolveOffStillSolves runs the suite's hard integer-infeasible model and an LP
// without presolve.
func TestPresolveOffStillSolves(t *testing.T) {
	m := model.New("coin")
	x, y, z := m.AddInteger(0, 3, "x"), m.AddInteger(0, 3, "y"), m.AddInteger(0, 3, "z")
	var e model.Expr
	m.AddConstr(*e.Add(x, 6).Add(y, 10).Add(z, 15), model.EQ, 7, "coins")
	m.SetObjective(model.Maximize, model.Sum(x, y, z))
	if res := solve(t, context.Background(), m, backends.Options{Presolve: backends.PresolveOff}); res.Status != backends.Infeasible {
		t.Errorf("6x+10y+15z=7 without presolve: %s (%s), want infeasible", res.Status, res.Message)
	}
	lp := model.New("lp")
	a, b := lp.AddContinuous(0, 3, "a"), lp.AddContinuous(0, 100, "b")
	e.Reset()
	lp.AddConstr(*e.Add(a, 1).Add(b, 3), model.LE, 6, "r")
	lp.SetObjective(model.Maximize, model.Sum(a, b))
	if res := solve(t, context.Background(), lp, backends.Options{Presolve: backends.PresolveOff}); res.Status != backends.Optimal || res.Objective != 4 {
		t.Errorf("LP without presolve: %s %g, want optimal 4", res.Status, res.Objective)
	}
}

// TestStopLatency checks the promise of the package documentation on a model the
// suite's interrupt tests use, one size up: a cancelled context or an elapsed time
// limit returns within a second.
func TestStopLatency(t *testing.T) {
	const promise = time.Second
	m := backendtest.MarketSplit(rand.New(rand.NewPCG(9, 9)), 7)
	ctx, cancel := context.WithCancel(context.Background())
	var cancelled time.Time
	time.AfterFunc(300*time.Millisecond, func() { cancelled = time.Now(); cancel() })
	res := solve(t, ctx, m, backends.Options{TimeLimit: time.Minute})
	if lat := time.Since(cancelled); res.Status != backends.Interrupted || lat > promise {
		t.Errorf("cancel: %s (%s) %v after the cancellation, want interrupted within %v", res.Status, res.Message, lat, promise)
	}
	begin := time.Now()
	res = solve(t, context.Background(), m, backends.Options{TimeLimit: 300 * time.Millisecond})
	if over := time.Since(begin) - 300*time.Millisecond; res.Status != backends.TimeLimit || over > promise || !res.HasSolution {
		t.Errorf("time limit: %s (%s) %v past the limit, solution %v; want time_limit within %v with the incumbent",
			res.Status, res.Message, over, res.HasSolution, promise)
	}
}

// TestQueuedSolveHonoursItsLimits (in-process solves take turns) starts a long solve and, while it holds CBC, solves
// with a short context deadline and with a short time limit: both must give up
// waiting for their turn and say so.
func TestQueuedSolveHonoursItsLimits(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	done := make(chan backends.Result)
	go func() {
		m := backendtest.MarketSplit(rand.New(rand.NewPCG(3, 3)), 7)
		close(started)
		res, _ := cbc.NewInProcess().Solve(ctx, m, backends.Options{TimeLimit: 20 * time.Second})
		done <- res
	}()
	<-started
	time.Sleep(200 * time.Millisecond) // the long solve is running
	short, cancelShort := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancelShort()
	begin := time.Now()
	res, err := cbc.NewInProcess().Solve(short, knapsack(false), backends.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != backends.Interrupted || !strings.Contains(res.Message, "waiting") || time.Since(begin) > time.Second {
		t.Errorf("queued solve with a context deadline: %s (%s) after %v", res.Status, res.Message, time.Since(begin))
	}
	res, err = cbc.NewInProcess().Solve(context.Background(), knapsack(false), backends.Options{TimeLimit: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != backends.TimeLimit || !strings.Contains(res.Message, "waiting") {
		t.Errorf("queued solve with a time limit: %s (%s)", res.Status, res.Message)
	}
	cancel()
	if long := <-done; long.Status != backends.Interrupted {
		t.Errorf("long solve: %s (%s), want interrupted", long.Status, long.Message)
	}
}

// TestConcurrentSolvesWithStops mixes MIPs and LPs, logs, MIP starts, time limits and
// cancellations from several goroutines; every result must pass backendtest.Check.
// Run it under -race.
func TestConcurrentSolvesWithStops(t *testing.T) {
	const workers, each = 4, 12
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 42))
			for i := range each {
				var m *model.Model
				opts := backends.Options{}
				ctx, cancel := context.WithCancel(context.Background())
				switch (w + i) % 4 {
				case 0:
					m = backendtest.RandomMixed(rng, 3+rng.IntN(8))
					opts.Log = &syncBuffer{}
				case 1:
					m = backendtest.RandomCase(rng)
					m.SetStart(0, 0)
				case 2:
					m = backendtest.MarketSplit(rng, 5)
					opts.TimeLimit = time.Duration(1+rng.IntN(30)) * time.Millisecond
				default:
					m = backendtest.MarketSplit(rng, 5)
					time.AfterFunc(time.Duration(rng.IntN(30))*time.Millisecond, cancel)
				}
				res, err := cbc.New().Solve(ctx, m, opts)
				cancel()
				if err != nil {
					t.Error(err)
					continue
				}
				backendtest.Check(t, m, res)
			}
		}()
	}
	wg.Wait()
}

// syncBuffer is a log writer that several CBC threads may write to at once.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}
