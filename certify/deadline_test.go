package certify_test

import (
	"context"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/highs"
	"github.com/schedopt/schedopt/certify"
	"github.com/schedopt/schedopt/model"
)

// budgetLiar claims infeasibility on its first solve with presolve (as HiGHS 1.10's
// presolve does on some feasible models). Without presolve it is honest, but slow:
// under any time limit (a confirmation budget) it stops with a poor feasible point,
// as a presolve-off branch and bound that runs out of its budget does; without a
// limit it solves to the end. It records the limit of every call.
type budgetLiar struct {
	real   backends.Solver
	mu     sync.Mutex
	limits []time.Duration
	lied   bool
}

func (b *budgetLiar) Name() string             { return "budgetliar" }
func (b *budgetLiar) PresolvesByDefault() bool { return true }
func (b *budgetLiar) Solve(ctx context.Context, m *model.Model, o backends.Options) (backends.Result, error) {
	b.mu.Lock()
	b.limits = append(b.limits, o.TimeLimit)
	lie := !b.lied && o.Presolve != backends.PresolveOff
	b.lied = b.lied || lie
	b.mu.Unlock()
	if lie {
		return noSolution(backends.Infeasible)(m, backends.Result{Solver: "budgetliar"}), nil
	}
	if o.TimeLimit > 0 && m.Name == "knapsack" {
		// Out of budget: the point c = 1 (objective 3, the optimum is 9), no proof.
		return backends.Result{Status: backends.TimeLimit, HasSolution: true, Values: []float64{0, 0, 1},
			Objective: 3, Bound: 12, Gap: 3, Solver: "budgetliar", Time: o.TimeLimit}, nil
	}
	return b.real.Solve(ctx, m, o)
}

// TestRefutedClaimSolvesToTheEnd: once a verified point refutes a claim, the path that
// found it is the solve and gets the caller's limit, none here: the result is the
// proven optimum, not the point the confirmation budget stopped at.
func TestRefutedClaimSolvesToTheEnd(t *testing.T) {
	m := knapsack()
	s := &budgetLiar{real: highs.New()}
	res, err := certify.Solve(context.Background(), s, m, backends.Options{}, certify.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != backends.Optimal || math.Abs(res.Objective-9) > 1e-6 {
		t.Fatalf("status %s objective %g (%s), want optimal 9; certificate %+v", res.Status, res.Objective, res.Message, res.Certificate)
	}
	refuting := -1
	for i, a := range res.Certificate.Solves {
		if i > 0 && a.Purpose == certify.PurposeSolve {
			refuting = i
		}
	}
	if refuting < 0 || !strings.Contains(res.Certificate.Solves[refuting].Backend, "presolve off") {
		t.Fatalf("solves %+v: want the refuting path (presolve off) to solve on as the solve", res.Certificate.Solves)
	}
	if !strings.Contains(res.Message, "claimed infeasibility") {
		t.Errorf("message %q does not say that the infeasibility claim was refuted", res.Message)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// Every solve goes through the backend once, in the order of the certificate.
	if len(s.limits) != len(res.Certificate.Solves) {
		t.Fatalf("%d calls for %d solves", len(s.limits), len(res.Certificate.Solves))
	}
	if got := s.limits[refuting]; got != 0 {
		t.Errorf("the refuting path's solve had the limit %v; the caller set none", got)
	}
}

// deaf ignores its time limit and its context: it answers after delay, as HiGHS 1.10
// does in MIP phases that check neither.
type deaf struct {
	real  backends.Solver
	delay time.Duration
}

func (d deaf) Name() string { return "deaf" }
func (d deaf) Solve(_ context.Context, m *model.Model, o backends.Options) (backends.Result, error) {
	time.Sleep(d.delay)
	o.TimeLimit = 0
	return d.real.Solve(context.Background(), m, o)
}

// TestTimeLimitIsAPromise: certify.Solve returns within its caller's limit plus a
// second, and within a second of a cancellation, whatever the backend does; a solve it
// abandons ends as a time limit (or an interruption) without a point.
func TestTimeLimitIsAPromise(t *testing.T) {
	const delay = 6 * time.Second
	cases := []struct {
		name   string
		limit  time.Duration
		cancel time.Duration // cancel the context after this long; 0: never
		want   backends.Status
	}{
		{"time limit", 500 * time.Millisecond, 0, backends.TimeLimit},
		{"cancellation without a limit", 0, 300 * time.Millisecond, backends.Interrupted},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			if tc.cancel > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.cancel)
				defer cancel()
			}
			t0 := time.Now()
			res, err := certify.Solve(ctx, deaf{real: highs.New(), delay: delay}, knapsack(),
				backends.Options{TimeLimit: tc.limit}, certify.Policy{Second: deaf{real: highs.New(), delay: delay}})
			took := time.Since(t0)
			if err != nil {
				t.Fatal(err)
			}
			if promise := tc.limit + tc.cancel + time.Second; took > promise {
				t.Errorf("returned after %v, want within %v", took, promise)
			}
			if res.Status != tc.want || res.HasSolution {
				t.Errorf("status %s (solution %v, %s), want %s without a point", res.Status, res.HasSolution, res.Message, tc.want)
			}
		})
	}
}

// slowFirst answers its first solve after a delay (so that the first solve's time is
// known) and records the limit of every cutoff solve.
type slowFirst struct {
	real   backends.Solver
	delay  time.Duration
	mu     sync.Mutex
	cutoff []time.Duration
}

func (s *slowFirst) Name() string             { return "slowfirst" }
func (s *slowFirst) PresolvesByDefault() bool { return true }
func (s *slowFirst) Solve(ctx context.Context, m *model.Model, o backends.Options) (backends.Result, error) {
	if strings.HasSuffix(m.Name, "_cutoff") {
		s.mu.Lock()
		s.cutoff = append(s.cutoff, o.TimeLimit)
		s.mu.Unlock()
		return s.real.Solve(ctx, m, o)
	}
	t0 := time.Now()
	time.Sleep(s.delay)
	r, err := s.real.Solve(ctx, m, o)
	r.Time = time.Since(t0)
	return r, err
}

// TestCutoffCappedAtTheFirstSolve: without --certify, the cutoff solve that confirms a
// cheap optimum gets no more than a quarter of the first solve's time (at least 0.1 s); with
// --certify and no limit it gets no limit.
func TestCutoffCappedAtTheFirstSolve(t *testing.T) {
	for _, certifyAll := range []bool{false, true} {
		s := &slowFirst{real: highs.New(), delay: 200 * time.Millisecond}
		res, err := certify.Solve(context.Background(), s, knapsack(), backends.Options{}, certify.Policy{Certify: certifyAll})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != backends.Optimal || len(s.cutoff) != 1 {
			t.Fatalf("certify %v: status %s after cutoff solves with limits %v, want optimal after one", certifyAll, res.Status, s.cutoff)
		}
		first := time.Duration(res.Certificate.Solves[0].Seconds * float64(time.Second))
		got := s.cutoff[0]
		switch {
		case certifyAll && got != 0:
			t.Errorf("--certify: cutoff solve limited to %v, want no limit", got)
		case !certifyAll && (got <= 0 || got > max(first/4, 100*time.Millisecond)+time.Millisecond):
			t.Errorf("cutoff solve limited to %v, want at most a quarter of the first solve's %v", got, first)
		}
	}
}

// stuckCutoff claims a wrong optimum (8 where 9 is the knapsack's optimum) and runs out
// of time on every cutoff solve, as a backend in a child process can on a loaded
// machine when its cap is spent starting it.
type stuckCutoff struct{ real backends.Solver }

func (s stuckCutoff) Name() string             { return "stuck" }
func (s stuckCutoff) PresolvesByDefault() bool { return true }
func (s stuckCutoff) Solve(ctx context.Context, m *model.Model, o backends.Options) (backends.Result, error) {
	if strings.HasSuffix(m.Name, "_cutoff") {
		return noSolution(backends.TimeLimit)(m, backends.Result{Solver: "stuck", Time: o.TimeLimit}), nil
	}
	r, err := s.real.Solve(ctx, m, o)
	if err == nil && m.Name == "knapsack" && o.Presolve != backends.PresolveOff {
		r.Values = []float64{1, 0, 1} // feasible, objective 8 < 9
		r.Objective, r.Bound = 8, 8
	}
	return r, err
}

// TestInconclusiveCutoffTriesAnotherBackend: when the cutoff solve of a cheap optimum
// runs out of its cap, one more path on another backend takes the question, and its
// better point refutes the wrong optimum.
func TestInconclusiveCutoffTriesAnotherBackend(t *testing.T) {
	res, err := certify.Solve(context.Background(), stuckCutoff{highs.New()}, knapsack(), backends.Options{}, certify.Policy{Second: highs.New()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != backends.Optimal || math.Abs(res.Objective-9) > 1e-6 {
		t.Fatalf("status %s objective %g (%s), want optimal 9; certificate %+v", res.Status, res.Objective, res.Message, res.Certificate)
	}
	if !strings.Contains(res.Certificate.Method, "first claim refuted") {
		t.Errorf("method %q: want the wrong optimum refuted", res.Certificate.Method)
	}
}
