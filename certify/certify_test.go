package certify_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/highs"
	"github.com/schedopt/schedopt/backends/lpsolve"
	"github.com/schedopt/schedopt/certify"
	"github.com/schedopt/schedopt/model"
)

// liar is a backend that makes one scripted wrong claim: its first solve of the
// original model with presolve on returns lie(real result) instead of the real one.
// Every other solve (presolve off, cutoff, feasibility and ray models) is honest, as
// the presolve bugs the policy guards against behave.
type liar struct {
	real    backends.Solver
	name    string // the model the lie is about
	lie     func(m *model.Model, r backends.Result) backends.Result
	lied    bool
	presolv bool
}

func (l *liar) Name() string             { return "liar" }
func (l *liar) PresolvesByDefault() bool { return l.presolv }
func (l *liar) Solve(ctx context.Context, m *model.Model, o backends.Options) (backends.Result, error) {
	r, err := l.real.Solve(ctx, m, o)
	if err != nil || l.lied || m.Name != l.name || (l.presolv && o.Presolve == backends.PresolveOff) {
		return r, err
	}
	l.lied = true
	return l.lie(m, r), nil
}

// knapsack: max 5a + 4b + 3c, 2a + 3b + c <= 5, binaries: optimum a = b = 1, 9.
func knapsack() *model.Model {
	m := model.New("knapsack")
	a, b, c := m.AddBinary("a"), m.AddBinary("b"), m.AddBinary("c")
	m.AddConstr(model.Expr{Vars: []model.Var{a, b, c}, Coefs: []float64{2, 3, 1}}, model.LE, 5, "cap")
	m.SetObjective(model.Maximize, model.Expr{Vars: []model.Var{a, b, c}, Coefs: []float64{5, 4, 3}})
	return m
}

// unboundedMIP: min −x − y, x − y = 0 (integer x, y ≥ 0 unbounded above): the ray
// (1, 1) improves forever.
func unboundedMIP() *model.Model {
	m := model.New("unbounded")
	x, y := m.AddInteger(0, math.Inf(1), "x"), m.AddInteger(0, math.Inf(1), "y")
	m.AddConstr(model.Expr{Vars: []model.Var{x, y}, Coefs: []float64{1, -1}}, model.EQ, 0, "eq")
	m.SetObjective(model.Minimize, model.Expr{Vars: []model.Var{x, y}, Coefs: []float64{-1, -1}})
	return m
}

// parity: 6x + 10y + 14z = 7 has no integer solution (the gcd 2 does not divide
// 7), with x, y, z free: no enumeration can tell, and the LP relaxation is feasible
// and unbounded.
func parity() *model.Model {
	m := model.New("parity")
	inf := math.Inf(1)
	x, y, z := m.AddInteger(-inf, inf, "x"), m.AddInteger(-inf, inf, "y"), m.AddInteger(-inf, inf, "z")
	m.AddConstr(model.Expr{Vars: []model.Var{x, y, z}, Coefs: []float64{6, 10, 14}}, model.EQ, 7, "eq")
	m.SetObjective(model.Minimize, model.Expr{Vars: []model.Var{x}, Coefs: []float64{1}})
	return m
}

// lpInfeasible: x + y <= 1, x + y >= 2 with free integers, min x: the LP relaxation
// is infeasible, but a solver that looks at the unbounded objective first may say
// "infeasible or unbounded".
func lpInfeasible() *model.Model {
	m := model.New("lpinfeasible")
	inf := math.Inf(1)
	x, y := m.AddInteger(-inf, inf, "x"), m.AddInteger(-inf, inf, "y")
	m.AddConstr(model.Sum(x, y), model.LE, 1, "le")
	m.AddConstr(model.Sum(x, y), model.GE, 2, "ge")
	m.SetObjective(model.Minimize, model.Term(x, 1))
	return m
}

// boundedFree: min x, x >= 2.5, x integer free above: optimum 3 (not unbounded
// although a column is unbounded).
func boundedFree() *model.Model {
	m := model.New("boundedfree")
	x := m.AddInteger(math.Inf(-1), math.Inf(1), "x")
	m.AddConstr(model.Term(x, 1), model.GE, 2.5, "lo")
	m.SetObjective(model.Minimize, model.Term(x, 1))
	return m
}

func noSolution(status backends.Status) func(*model.Model, backends.Result) backends.Result {
	return func(_ *model.Model, r backends.Result) backends.Result {
		return backends.Result{Status: status, Objective: math.NaN(), Bound: math.NaN(), Gap: math.NaN(), Solver: r.Solver, Time: r.Time}
	}
}

func TestPolicy(t *testing.T) {
	type want struct {
		status    backends.Status
		objective float64 // checked when status is Optimal
		confirmed bool
		method    string // a substring of Certificate.Method
	}
	cases := []struct {
		name    string
		build   func() *model.Model
		lie     func(*model.Model, backends.Result) backends.Result // nil: honest
		presolv bool                                                // the liar presolves (so presolve off is a second path)
		second  bool                                                // Policy.Second = lp_solve
		certify bool
		want    want
	}{
		{"honest optimum confirmed by a cutoff solve without presolve", knapsack, nil, true, false, false,
			want{backends.Optimal, 9, true, "cutoff solve on liar (presolve off) infeasible"}},
		{"false infeasibility refuted by presolve off", knapsack, noSolution(backends.Infeasible), true, false, false,
			want{backends.Optimal, 9, false, "solver proof, point verified"}},
		{"false infeasibility refuted, the optimum confirmed by the second backend", knapsack, noSolution(backends.Infeasible), true, true, false,
			want{backends.Optimal, 9, true, "cutoff solve on lpsolve infeasible"}},
		{"false infeasibility of a backend without presolve refuted by the second backend", knapsack, noSolution(backends.Infeasible), false, true, false,
			want{backends.Optimal, 9, false, "solver proof, point verified"}}, // the liar is discredited, no third backend
		{"wrong optimum refuted by the cutoff solve", knapsack, func(m *model.Model, r backends.Result) backends.Result {
			r.Values = []float64{1, 0, 1} // feasible, objective 8 < 9
			r.Objective, r.Bound = 8, 8
			return r
		}, true, false, false, want{backends.Optimal, 9, false, "first claim refuted"}},
		{"violating point never reported", knapsack, func(m *model.Model, r backends.Result) backends.Result {
			r.Values = []float64{1, 1, 1} // 2+3+1 = 6 > 5
			r.Objective, r.Bound = 12, 12
			return r
		}, true, false, false, want{backends.Optimal, 9, false, "point verified"}},
		{"optimal at lp_solve's infinity is unbounded", unboundedMIP, func(m *model.Model, r backends.Result) backends.Result {
			return backends.Result{Status: backends.Optimal, HasSolution: true, Values: []float64{1e30, 1e30},
				Objective: -1e30, Bound: -1e30, Solver: "lie"}
		}, false, false, false, want{backends.Unbounded, 0, true, "improving ray"}},
		{"infeasible-or-unbounded on an unbounded model", unboundedMIP, noSolution(backends.InfeasibleOrUnbounded), true, false, false,
			want{backends.Unbounded, 0, true, "verified feasible point and verified improving ray"}},
		{"infeasible-or-unbounded on an infeasible model", lpInfeasible, noSolution(backends.InfeasibleOrUnbounded), true, true, false,
			want{backends.Infeasible, 0, true, "feasibility solve"}},
		{"a congruence infeasibility no solver path can confirm is proved exactly", parity, nil, true, true, false,
			want{backends.Infeasible, 0, true, "confirmed by an exact argument"}},
		{"false unboundedness on a bounded model", boundedFree, noSolution(backends.Unbounded), true, false, false,
			want{backends.Optimal, 3, false, "point verified"}},
		{"false infeasibility on a bounded model with free columns", boundedFree, noSolution(backends.Infeasible), true, false, false,
			want{backends.Optimal, 3, false, "point verified"}},
		{"certify: optimum confirmed by the second backend", knapsack, nil, true, true, true,
			want{backends.Optimal, 9, true, "cutoff solve on lpsolve infeasible"}},
		{"a first solve without an answer: another path answers", knapsack, noSolution(backends.Other), true, false, false,
			want{backends.Optimal, 9, true, "solver proof, point verified"}},
		{"true infeasibility confirmed", lpInfeasible, nil, true, false, false,
			want{backends.Infeasible, 0, true, "confirmed by"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.build()
			var s backends.Solver = highs.New()
			if tc.lie != nil || tc.presolv {
				lie := tc.lie
				if lie == nil {
					lie = func(_ *model.Model, r backends.Result) backends.Result { return r }
				}
				s = &liar{real: highs.New(), name: m.Name, lie: lie, presolv: tc.presolv}
			}
			p := certify.Policy{Certify: tc.certify}
			if tc.second {
				p.Second = lpsolve.New()
			}
			res, err := certify.Solve(context.Background(), s, m, backends.Options{}, p)
			if err != nil {
				t.Fatal(err)
			}
			c := res.Certificate
			if res.Status != tc.want.status {
				t.Fatalf("status %s (%s), want %s; certificate %+v", res.Status, res.Message, tc.want.status, c)
			}
			if tc.want.status == backends.Optimal {
				if !res.HasSolution || math.Abs(res.Objective-tc.want.objective) > 1e-6 {
					t.Errorf("objective %g (solution %v), want %g", res.Objective, res.HasSolution, tc.want.objective)
				}
				rep, err := m.Verify(res.Values)
				if err != nil || !rep.Feasible() {
					t.Errorf("reported point fails verification: %v %s", err, rep.Worst)
				}
			} else if res.HasSolution {
				t.Errorf("status %s with a solution", res.Status)
			}
			if c.Confirmed != tc.want.confirmed {
				t.Errorf("confirmed %v, want %v (method %q)", c.Confirmed, tc.want.confirmed, c.Method)
			}
			if !strings.Contains(c.Method, tc.want.method) {
				t.Errorf("method %q does not say %q", c.Method, tc.want.method)
			}
			if len(c.Solves) == 0 || c.Solves[0].Purpose != certify.PurposeSolve {
				t.Errorf("solves %+v: the first must be the solve asked for", c.Solves)
			}
		})
	}
}

// TestPolicyOff passes raw claims through: the liar's wrong infeasibility survives.
func TestPolicyOff(t *testing.T) {
	m := knapsack()
	s := &liar{real: highs.New(), name: m.Name, lie: noSolution(backends.Infeasible), presolv: true}
	res, err := certify.Solve(context.Background(), s, m, backends.Options{}, certify.Policy{Off: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != backends.Infeasible || len(res.Certificate.Solves) != 1 {
		t.Errorf("status %s after %d solves, want the raw infeasible claim after 1", res.Status, len(res.Certificate.Solves))
	}
}

// TestLPSolveInfinity: lp_solve's own claim on an unbounded MILP is never "optimal".
func TestLPSolveInfinity(t *testing.T) {
	m := unboundedMIP()
	raw, err := lpsolve.New().Solve(context.Background(), m, backends.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if raw.Status == backends.Optimal {
		t.Fatalf("lp_solve claims optimal %g on an unbounded model", raw.Objective)
	}
	res, err := certify.Solve(context.Background(), lpsolve.New(), m, backends.Options{}, certify.Policy{Second: highs.New()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != backends.Unbounded {
		t.Errorf("certified status %s (%s), want unbounded", res.Status, res.Message)
	}
}
