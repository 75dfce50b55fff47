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
// cheap optimum gets no more than the first solve's time (at least 10 ms); with
// --certify and no limit it gets no limit; above ConfirmBelow there is none.
func TestCutoffCappedAtTheFirstSolve(t *testing.T) {
	tests := []struct {
		name       string
		certifyAll bool
		below      time.Duration
		cutoffs    int
	}{
		{"capped", false, time.Second, 1},
		{"certify", true, 0, 1},
		{"above ConfirmBelow", false, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &slowFirst{real: highs.New(), delay: 200 * time.Millisecond}
			res, err := certify.Solve(context.Background(), s, knapsack(), backends.Options{}, certify.Policy{Certify: tc.certifyAll, ConfirmBelow: tc.below})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != backends.Optimal || len(s.cutoff) != tc.cutoffs {
				t.Fatalf("status %s after cutoff solves with limits %v, want optimal after %d", res.Status, s.cutoff, tc.cutoffs)
			}
			if tc.cutoffs == 0 {
				return
			}
			first := time.Duration(res.Certificate.Solves[0].Seconds * float64(time.Second))
			got := s.cutoff[0]
			switch {
			case tc.certifyAll && got != 0:
				t.Errorf("--certify: cutoff solve limited to %v, want no limit", got)
			case !tc.certifyAll && (got <= 0 || got > max(first, 10*time.Millisecond)+time.Millisecond):
				t.Errorf("cutoff solve limited to %v, want at most the first solve's %v", got, first)
			}
		})
	}
}

// stuckCutoff claims a wrong optimum (8 where 9 is the knapsack's optimum) and runs out
// of time on every cutoff solve, as a backend in a child process can on a loaded
// machine when its cap is spent starting it.
type stuckCutoff struct {
	real  backends.Solver
	child bool // it says it solves in a child process (certify.Isolated)
}

func (s stuckCutoff) Name() string               { return "stuck" }
func (s stuckCutoff) PresolvesByDefault() bool   { return true }
func (s stuckCutoff) SolvesInChildProcess() bool { return s.child }
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

// childHiGHS is HiGHS that says it solves in a child process.
type childHiGHS struct{ backends.Solver }

func (childHiGHS) SolvesInChildProcess() bool { return true }

// TestCheapCutoffPaths: the capped cutoff solve of a cheap optimum runs in this
// process when a path there exists; when it ran out in a child process, one more path
// on another backend takes the question, and its better point refutes the wrong
// optimum; when it ran out in this process, the optimum stands on the solver's proof
// and the method says the confirmation was inconclusive.
func TestCheapCutoffPaths(t *testing.T) {
	tests := []struct {
		name    string
		first   backends.Solver
		second  backends.Solver
		want    float64
		method  string
		cutoffs int
	}{
		{"in-process path first", stuckCutoff{highs.New(), true}, highs.New(), 9, "first claim refuted; optimum from the cutoff solve on highs", 1},
		{"second path after a child ran out", stuckCutoff{highs.New(), true}, childHiGHS{highs.New()}, 9, "first claim refuted; optimum from the cutoff solve on highs", 2},
		{"no second path after an in-process one ran out", stuckCutoff{highs.New(), false}, highs.New(), 8, "cutoff solve inconclusive (stuck (presolve off): time_limit;", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := certify.Solve(context.Background(), tc.first, knapsack(), backends.Options{}, certify.Policy{Second: tc.second})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != backends.Optimal || math.Abs(res.Objective-tc.want) > 1e-6 {
				t.Fatalf("status %s objective %g (%s), want optimal %g; certificate %+v", res.Status, res.Objective, res.Message, tc.want, res.Certificate)
			}
			if !strings.Contains(res.Certificate.Method, tc.method) {
				t.Errorf("method %q: want it to contain %q", res.Certificate.Method, tc.method)
			}
			cutoffs := 0
			for _, a := range res.Certificate.Solves {
				if a.Purpose == certify.PurposeCutoff {
					cutoffs++
				}
			}
			if cutoffs != tc.cutoffs {
				t.Errorf("%d cutoff solves, want %d: %+v", cutoffs, tc.cutoffs, res.Certificate.Solves)
			}
		})
	}
}

// counting records the models a backend is asked to solve.
type counting struct {
	backends.Solver
	child bool
	mu    sync.Mutex
	names []string
}

func (c *counting) SolvesInChildProcess() bool { return c.child }
func (c *counting) Solve(ctx context.Context, m *model.Model, o backends.Options) (backends.Result, error) {
	c.mu.Lock()
	c.names = append(c.names, m.Name)
	c.mu.Unlock()
	return c.Solver.Solve(ctx, m, o)
}

// TestRayLPAskedInProcessFirst: the ray LP behind an optimum on a model with an open
// column is asked of the backends in this process first, and once two of them agree
// that there is no ray the one in a child process is not asked; on an unbounded
// model the first verified ray ends the search.
func TestRayLPAskedInProcessFirst(t *testing.T) {
	// min x, x >= 1.5, x integer and free: optimum 2, no improving ray.
	bounded := model.New("bounded")
	x := bounded.AddInteger(math.Inf(-1), math.Inf(1), "x")
	bounded.AddConstr(model.Expr{Vars: []model.Var{x}, Coefs: []float64{1}}, model.GE, 1.5, "low")
	bounded.SetObjective(model.Minimize, model.Expr{Vars: []model.Var{x}, Coefs: []float64{1}})
	tests := []struct {
		name      string
		m         *model.Model
		want      backends.Status
		childRays int
		rays      int
	}{
		{"no ray: two in-process backends agree", bounded, backends.Optimal, 0, 2},
		{"a ray: the first verified one decides", unboundedMIP(), backends.Unbounded, 0, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			first := &counting{Solver: highs.New()}
			child := &counting{Solver: highs.New(), child: true}
			third := &counting{Solver: highs.New()}
			res, err := certify.Solve(context.Background(), first, tc.m, backends.Options{}, certify.Policy{Second: child, Third: third})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tc.want {
				t.Fatalf("status %s (%s), want %s", res.Status, res.Certificate.Method, tc.want)
			}
			rays := 0
			for _, a := range res.Certificate.Solves {
				if a.Purpose == certify.PurposeRay {
					rays++
				}
			}
			childRays := 0
			for _, n := range child.names {
				if strings.HasSuffix(n, "_ray") {
					childRays++
				}
			}
			if rays != tc.rays || childRays != tc.childRays {
				t.Errorf("%d ray LPs, %d of them in the child, want %d and %d: %+v", rays, childRays, tc.rays, tc.childRays, res.Certificate.Solves)
			}
		})
	}
}
