package backendtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/model"
)

// Run runs the whole conformance suite against s. Every case re-verifies each
// returned solution with model.Verify and checks the invariants of Check; optima are
// compared with brute-force enumeration or with values derived by hand in the case's
// comment. The suite asserts no timings.
func Run(t *testing.T, s backends.Solver) {
	t.Run("cases", func(t *testing.T) { runCases(t, s) })
	t.Run("gap within the requested relative gap", func(t *testing.T) { testGap(t, s) })
	t.Run("MIP start", func(t *testing.T) { testStart(t, s) })
	t.Run("time limit stops a hard model without claiming optimality", func(t *testing.T) { testTimeLimit(t, s) })
	t.Run("cancelled context interrupts", func(t *testing.T) { testCancel(t, s) })
	t.Run("log goes to the writer", func(t *testing.T) { testLog(t, s) })
	t.Run("invalid input is an error", func(t *testing.T) { testInvalid(t, s) })
	t.Run("random MILPs match brute force", func(t *testing.T) { testRandom(t, s, 40, 1) })
	t.Run("semi-continuous and semi-integer columns", func(t *testing.T) { testSemi(t, s) })
	t.Run("random semi-integer MILPs match brute force, also after an MPS round trip", func(t *testing.T) { testRandomSemi(t, s, 30, 3) })
	t.Run("parallel solves from several goroutines", func(t *testing.T) { testParallel(t, s) })
	t.Run("parallel solves reproduce serial results", func(t *testing.T) { testReproduce(t, s) })
}

// Check asserts the invariants every result must satisfy: Optimal implies a
// solution; a solution has one value per column, is feasible per model.Verify and has
// the objective Verify recomputes; without a solution the objective is NaN; a finite
// bound is on the right side of the objective; Gap is RelativeGap(Objective, Bound).
func Check(t testing.TB, m *model.Model, res backends.Result) {
	t.Helper()
	if res.Solver == "" {
		t.Errorf("%s: Result.Solver is empty", m.Name)
	}
	if res.Status == backends.Optimal && !res.HasSolution {
		t.Errorf("%s: status optimal without a solution", m.Name)
	}
	if !res.HasSolution {
		if !math.IsNaN(res.Objective) {
			t.Errorf("%s: no solution but objective %g", m.Name, res.Objective)
		}
		return
	}
	if len(res.Values) != m.NumVars() {
		t.Fatalf("%s: %d values for %d columns", m.Name, len(res.Values), m.NumVars())
	}
	rep, err := m.Verify(res.Values)
	if err != nil {
		t.Fatalf("%s: verify: %v", m.Name, err)
	}
	if !rep.Feasible() {
		t.Errorf("%s: solution infeasible: %s", m.Name, rep.Worst)
	}
	if !closeTo(res.Objective, rep.Objective) {
		t.Errorf("%s: objective %g, recomputed %g", m.Name, res.Objective, rep.Objective)
	}
	if !math.IsNaN(res.Bound) {
		slack := objTol * math.Max(1, math.Abs(res.Objective))
		if m.Sense() == model.Minimize && res.Bound > res.Objective+slack ||
			m.Sense() == model.Maximize && res.Bound < res.Objective-slack {
			t.Errorf("%s: %s bound %g beyond objective %g", m.Name, m.Sense(), res.Bound, res.Objective)
		}
	}
	want := backends.RelativeGap(res.Objective, res.Bound)
	if !(math.IsNaN(want) && math.IsNaN(res.Gap)) && math.Abs(want-res.Gap) > 1e-12 {
		t.Errorf("%s: gap %g, want RelativeGap = %g", m.Name, res.Gap, want)
	}
	checkRowDuals(t, m, res)
}

// checkRowDuals asserts that row duals, when a backend returns them, come with an
// optimal LP, one per row, and prove its objective: with y the duals and d = c − Aᵀy
// the reduced costs, yᵀ(active row side) + dᵀ(active column bound) equals the
// objective (strong duality; the sides follow the signs, ∂objective/∂rhs).
func checkRowDuals(t testing.TB, m *model.Model, res backends.Result) {
	t.Helper()
	if res.RowDuals == nil {
		return
	}
	if res.Status != backends.Optimal || m.IsMIP() || len(res.RowDuals) != m.NumRows() {
		t.Errorf("%s: %d row duals with status %s (MIP %v, %d rows)", m.Name, len(res.RowDuals), res.Status, m.IsMIP(), m.NumRows())
		return
	}
	cols, rows := m.Columns(), m.Rows()
	sign := 1.0 // duals of a maximisation are those of min −c
	if m.Sense() == model.Maximize {
		sign = -1
	}
	d := make([]float64, m.NumVars())
	for j := range d {
		d[j] = sign * cols.Cost[j]
	}
	dual := 0.0
	side := func(v, lo, hi float64) float64 {
		switch {
		case v > 0:
			return lo
		case v < 0:
			return hi
		}
		return 0
	}
	for r, y := range res.RowDuals {
		y *= sign
		for k := rows.Start[r]; k < rows.Start[r+1]; k++ {
			d[rows.Index[k]] -= rows.Value[k] * y
		}
		if y != 0 {
			dual += y * side(y, rows.Lower[r], rows.Upper[r])
		}
	}
	for j, dj := range d {
		if math.Abs(dj) > 1e-9 {
			dual += dj * side(dj, cols.Lower[j], cols.Upper[j])
		}
	}
	obj := sign * (res.Objective - m.ObjectiveConstant())
	if math.IsNaN(dual) || math.IsInf(dual, 0) || math.Abs(dual-obj) > 1e-6*math.Max(1, math.Abs(obj)) {
		t.Errorf("%s: row duals prove %g, objective %g", m.Name, dual, obj)
	}
}

// solveOK solves and fails the test on an error, then runs Check.
func solveOK(t testing.TB, s backends.Solver, ctx context.Context, m *model.Model, opts backends.Options) backends.Result {
	t.Helper()
	res, err := s.Solve(ctx, m, opts)
	if err != nil {
		t.Fatalf("%s: %v", m.Name, err)
	}
	Check(t, m, res)
	return res
}

// expect is the outcome a case demands: one of the statuses and, when the status is
// Optimal, the objective.
type expect struct {
	status    []backends.Status
	objective float64 // NaN: take the optimum from BruteForce
}

var (
	infeasible = []backends.Status{backends.Infeasible}
	unbounded  = []backends.Status{backends.Unbounded, backends.InfeasibleOrUnbounded}
	optimal    = []backends.Status{backends.Optimal}
)

type testCase struct {
	name  string
	build func() *model.Model
	want  expect
}

func runCases(t *testing.T, s backends.Solver) {
	for _, tc := range cases() {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.build()
			m.Name = tc.name
			want := tc.want
			if slices.Contains(want.status, backends.Optimal) && math.IsNaN(want.objective) {
				_, obj, ok, err := BruteForce(m)
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					t.Fatal("brute force finds no feasible point; the case is wrong")
				}
				want.objective = obj
			}
			res := solveOK(t, s, context.Background(), m, backends.Options{})
			if !slices.Contains(want.status, res.Status) {
				t.Fatalf("status %s (%s), want one of %v", res.Status, res.Message, want.status)
			}
			if res.Status == backends.Optimal {
				if !closeTo(res.Objective, want.objective) {
					t.Errorf("objective %g, want %g", res.Objective, want.objective)
				}
				if m.NumIntegers() > 0 || m.NumVars() == 0 {
					// Gap 0 was requested: the bound must meet the objective.
					if !closeTo(res.Bound, want.objective) {
						t.Errorf("bound %g, want %g (gap 0 requested)", res.Bound, want.objective)
					}
				}
			} else if res.HasSolution && slices.Contains(want.status, backends.Infeasible) {
				t.Errorf("infeasible model returned a solution")
			}
		})
	}
}

func cases() []testCase {
	brute := func(st []backends.Status) expect { return expect{st, math.NaN()} }
	return []testCase{
		{"knapsack maximisation", knapsack, brute(optimal)},
		// min T, T ≥ 0.92·y0, T ≥ 0.55·y1, y0 + y1 = 1: the optimum 0.55 lies in the
		// branch a ceiling-first search visits second (lp_solve's inferred objective step pruned it).
		{"makespan over two binaries", func() *model.Model { return twoBinaryMakespan(0.92, 0.55) }, expect{optimal, 0.55}},
		{"makespan over two binaries, mirrored", func() *model.Model { return twoBinaryMakespan(0.55, 0.92) }, expect{optimal, 0.55}},
		{"assignment 4x4", assignment, brute(optimal)},
		{"set cover", setCover, brute(optimal)},
		{"equality and range rows with objective constant", equalityRange, brute(optimal)},
		// x free, y ∈ [−3, −1], z integer free, w integer ∈ [−7, −2]; x − y ≥ 2,
		// 2z ≥ 5; min x + y + z + w + 10. x + y ≥ 2y + 2 ≥ −4, z ≥ 3, w ≥ −7, so
		// the optimum is −4 + 3 − 7 + 10 = 2.
		{"free and negative-bounded variables", freeNegative, expect{optimal, 2}},
		// max 3x + 2y, x + y ≤ 4, x + 3y ≤ 6, x ∈ [0, 3], y ≥ 0: vertices (0,0) 0,
		// (3,0) 9, (3,1) 11, (0,2) 4; optimum 11.
		{"maximisation LP", maxLP, expect{optimal, 11}},
		// min x − y, x integer ∈ [1, 4], y ∈ [0, 2.5], no rows: 1 − 2.5 = −1.5.
		{"no rows", noRows, expect{optimal, -1.5}},
		// No columns: the objective is the constant 4.
		{"no columns", noColumns, expect{optimal, 4}},
		{"row without terms that excludes zero", emptyRowInfeasible, expect{status: infeasible}},
		{"infeasible LP", infeasibleLP, expect{status: infeasible}},
		{"integer infeasible, LP relaxation feasible (parity)", parity, expect{status: infeasible}},
		{"integer infeasible, LP relaxation feasible (6x+10y+15z=7)", coinProblem, expect{status: infeasible}},
		{"unbounded LP", func() *model.Model { return unboundedModel(model.Continuous) }, expect{status: unbounded}},
		{"unbounded MILP", func() *model.Model { return unboundedModel(model.Integer) }, expect{status: unbounded}},
	}
}

var (
	knapWeight = []float64{12, 7, 11, 8, 9, 6, 5, 14}
	knapProfit = []float64{24, 13, 23, 15, 16, 11, 9, 27}
)

func twoBinaryMakespan(t0, t1 float64) *model.Model {
	m := model.New("two-binaries")
	y0, y1 := m.AddBinary("y0"), m.AddBinary("y1")
	T := m.AddContinuous(0, 1, "T")
	var e model.Expr
	m.AddConstr(*e.Add(T, 1).Add(y0, -t0), model.GE, 0, "t0")
	e.Reset()
	m.AddConstr(*e.Add(T, 1).Add(y1, -t1), model.GE, 0, "t1")
	m.AddConstr(model.Sum(y0, y1), model.EQ, 1, "one")
	m.SetObjective(model.Minimize, model.Term(T, 1))
	return m
}

func knapsack() *model.Model {
	m := model.New("knapsack")
	var cap, obj model.Expr
	for i := range knapWeight {
		x := m.AddBinary(fmt.Sprintf("x%d", i))
		cap.Add(x, knapWeight[i])
		obj.Add(x, knapProfit[i])
	}
	m.AddConstr(cap, model.LE, 40, "capacity")
	m.SetObjective(model.Maximize, obj)
	return m
}

func assignment() *model.Model {
	cost := [4][4]float64{{9, 2, 7, 8}, {6, 4, 3, 7}, {5, 8, 1, 8}, {7, 6, 9, 4}}
	m := model.New("assignment")
	var x [4][4]model.Var
	var obj model.Expr
	for i := range 4 {
		for j := range 4 {
			x[i][j] = m.AddBinary(fmt.Sprintf("x%d_%d", i, j))
			obj.Add(x[i][j], cost[i][j])
		}
	}
	var e model.Expr
	for i := range 4 {
		e.Reset()
		for j := range 4 {
			e.Add(x[i][j], 1)
		}
		m.AddConstr(e, model.EQ, 1, fmt.Sprintf("worker%d", i))
		e.Reset()
		for j := range 4 {
			e.Add(x[j][i], 1)
		}
		m.AddConstr(e, model.EQ, 1, fmt.Sprintf("task%d", i))
	}
	m.SetObjective(model.Minimize, obj)
	return m
}

func setCover() *model.Model {
	sets := [][]int{{0, 1, 2}, {2, 3}, {3, 4, 5}, {5, 6}, {0, 6}, {1, 4}, {2, 5, 6}}
	cost := []float64{3, 2, 3, 2, 2, 2, 3}
	m := model.New("setcover")
	var obj model.Expr
	cover := make([]model.Expr, 7)
	for s, elems := range sets {
		x := m.AddBinary(fmt.Sprintf("set%d", s))
		obj.Add(x, cost[s])
		for _, e := range elems {
			cover[e].Add(x, 1)
		}
	}
	for e := range cover {
		m.AddConstr(cover[e], model.GE, 1, fmt.Sprintf("elem%d", e))
	}
	m.SetObjective(model.Minimize, obj)
	return m
}

func equalityRange() *model.Model {
	m := model.New("eqrange")
	x := m.AddInteger(-5, 5, "x")
	y := m.AddInteger(-5, 5, "y")
	z := m.AddInteger(-5, 5, "z")
	var e model.Expr
	m.AddConstr(*e.Add(x, 1).Add(y, 1).Add(z, 1), model.EQ, 3, "sum")
	e.Reset()
	m.AddRange(*e.Add(x, 1).Add(y, -1), 1, 4, "diff")
	e.Reset()
	m.AddRange(*e.Add(y, 1).Add(z, -2).AddConst(1), -2, 6, "mix") // constant moves to both sides
	e.Reset()
	m.SetObjective(model.Minimize, *e.Add(x, 2).Add(y, 3).Add(z, -1).AddConst(7.5))
	return m
}

func freeNegative() *model.Model {
	m := model.New("free")
	inf := math.Inf(1)
	x := m.AddContinuous(-inf, inf, "x")
	y := m.AddContinuous(-3, -1, "y")
	z := m.AddInteger(-inf, inf, "z")
	w := m.AddInteger(-7, -2, "w")
	var e model.Expr
	m.AddConstr(*e.Add(x, 1).Add(y, -1), model.GE, 2, "xy")
	e.Reset()
	m.AddConstr(*e.Add(z, 2), model.GE, 5, "z")
	e.Reset()
	m.SetObjective(model.Minimize, *e.Add(x, 1).Add(y, 1).Add(z, 1).Add(w, 1).AddConst(10))
	return m
}

func maxLP() *model.Model {
	m := model.New("maxlp")
	x := m.AddContinuous(0, 3, "x")
	y := m.AddContinuous(0, math.Inf(1), "y")
	var e model.Expr
	m.AddConstr(*e.Add(x, 1).Add(y, 1), model.LE, 4, "a")
	e.Reset()
	m.AddConstr(*e.Add(x, 1).Add(y, 3), model.LE, 6, "b")
	e.Reset()
	m.SetObjective(model.Maximize, *e.Add(x, 3).Add(y, 2))
	return m
}

func noRows() *model.Model {
	m := model.New("norows")
	x := m.AddInteger(1, 4, "x")
	y := m.AddContinuous(0, 2.5, "y")
	var e model.Expr
	m.SetObjective(model.Minimize, *e.Add(x, 1).Add(y, -1))
	return m
}

func noColumns() *model.Model {
	m := model.New("nocols")
	m.AddConstr(model.Expr{}, model.LE, 3, "trivial")
	m.SetObjective(model.Maximize, model.Const(4))
	return m
}

func emptyRowInfeasible() *model.Model {
	m := model.New("emptyrow")
	x := m.AddContinuous(0, 1, "x")
	m.AddConstr(*new(model.Expr).Add(x, 1), model.LE, 1, "fine")
	m.AddConstr(*new(model.Expr).Add(x, 0), model.GE, 1, "zero") // 0 ≥ 1
	m.SetObjective(model.Minimize, model.Term(x, 1))
	return m
}

func infeasibleLP() *model.Model {
	m := model.New("infeasible")
	x := m.AddContinuous(0, 10, "x")
	y := m.AddContinuous(0, 10, "y")
	m.AddConstr(model.Sum(x, y), model.GE, 3, "ge")
	m.AddConstr(model.Sum(x, y), model.LE, 2, "le")
	m.SetObjective(model.Minimize, model.Sum(x, y))
	return m
}

func parity() *model.Model {
	m := model.New("parity")
	x := m.AddInteger(0, 5, "x")
	y := m.AddInteger(0, 5, "y")
	var e model.Expr
	m.AddConstr(*e.Add(x, 2).Add(y, 2), model.EQ, 3, "odd")
	m.SetObjective(model.Minimize, model.Sum(x, y))
	return m
}

// coinProblem: 6x + 10y + 15z = 7 has no solution in non-negative integers (without
// z the left side is even; with z ≥ 1 it is ≥ 15), but the coefficients' gcd is 1, so
// a gcd test in presolve does not see it.
func coinProblem() *model.Model {
	m := model.New("coin")
	x := m.AddInteger(0, 3, "x")
	y := m.AddInteger(0, 3, "y")
	z := m.AddInteger(0, 3, "z")
	var e model.Expr
	m.AddConstr(*e.Add(x, 6).Add(y, 10).Add(z, 15), model.EQ, 7, "coins")
	m.SetObjective(model.Maximize, model.Sum(x, y, z))
	return m
}

func unboundedModel(kind model.Kind) *model.Model {
	m := model.New("unbounded")
	x := m.AddVar(kind, 0, math.Inf(1), "x")
	y := m.AddVar(kind, 0, math.Inf(1), "y")
	var e model.Expr
	m.AddConstr(*e.Add(x, 1).Add(y, -1), model.LE, 1, "r")
	m.SetObjective(model.Maximize, model.Sum(x, y))
	return m
}

func testGap(t *testing.T, s backends.Solver) {
	m := knapsack()
	_, best, _, err := BruteForce(m)
	if err != nil {
		t.Fatal(err)
	}
	const relGap = 0.25
	res := solveOK(t, s, context.Background(), m, backends.Options{RelGap: relGap})
	if !res.HasSolution {
		t.Fatalf("no solution: %s %s", res.Status, res.Message)
	}
	if res.Objective > best+objTol {
		t.Errorf("objective %g better than the optimum %g", res.Objective, best)
	}
	if res.Status == backends.Optimal {
		// Optimal with a gap means proved within it: the bound is known and valid
		// (the true optimum of this maximisation lies between objective and bound),
		// and the objective is within the relative gap of the optimum. Solvers scale
		// the gap differently (HiGHS by |primal|, lp_solve by 1+|primal|), so the
		// looser scale is accepted.
		if math.IsNaN(res.Bound) || res.Bound < best-objTol*best {
			t.Errorf("optimal with bound %g below the true optimum %g", res.Bound, best)
		}
		if best-res.Objective > relGap*(1+best)+objTol {
			t.Errorf("objective %g farther than %g from the optimum %g", res.Objective, relGap, best)
		}
	}
}

func testStart(t *testing.T, s backends.Solver) {
	m := knapsack()
	opt, best, _, err := BruteForce(m)
	if err != nil {
		t.Fatal(err)
	}
	starts := map[string][]float64{
		"optimal start":              opt,
		"partial start":              {opt[0], math.NaN(), opt[2], math.NaN(), math.NaN(), opt[5], math.NaN(), math.NaN()},
		"infeasible start":           {1, 1, 1, 1, 1, 1, 1, 1},
		"feasible non-optimal start": {0, 0, 0, 0, 0, 0, 0, 1},
	}
	for name, start := range starts {
		t.Run(name, func(t *testing.T) {
			m := knapsack()
			for j, v := range start {
				if !math.IsNaN(v) {
					m.SetStart(model.Var(j), v)
				}
			}
			res := solveOK(t, s, context.Background(), m, backends.Options{})
			if res.Status != backends.Optimal || !closeTo(res.Objective, best) {
				t.Errorf("status %s objective %g, want optimal %g", res.Status, res.Objective, best)
			}
		})
	}
}

// hardSafetyLimit bounds a solve that is expected to be stopped by the test, so that a
// backend that ignores the stop fails the test instead of hanging it.
const hardSafetyLimit = 20 * time.Second

func testTimeLimit(t *testing.T, s backends.Solver) {
	// One second, not less: CBC solves in a child process, and on a loaded machine its
	// start-up alone took 150 ms, so it stopped before its first incumbent. The model
	// is far from solved in a second by every backend.
	m := MarketSplit(rand.New(rand.NewPCG(1, 2)), 6)
	res := solveOK(t, s, context.Background(), m, backends.Options{TimeLimit: time.Second})
	if res.Status != backends.TimeLimit {
		t.Errorf("status %s (%s), want %s", res.Status, res.Message, backends.TimeLimit)
	}
	// Every assignment of the binaries is feasible (the slacks absorb it), so a
	// backend that stops at the limit must still hand back its incumbent.
	if !res.HasSolution {
		t.Errorf("time limit without the incumbent every backend finds at once (%s)", res.Message)
	}
}

func testCancel(t *testing.T, s backends.Solver) {
	t.Run("before the solve", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		res := solveOK(t, s, ctx, knapsack(), backends.Options{})
		if res.Status != backends.Interrupted {
			t.Errorf("status %s, want %s", res.Status, backends.Interrupted)
		}
	})
	t.Run("during the solve", func(t *testing.T) {
		m := MarketSplit(rand.New(rand.NewPCG(3, 4)), 6)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		time.AfterFunc(100*time.Millisecond, cancel)
		res := solveOK(t, s, ctx, m, backends.Options{TimeLimit: hardSafetyLimit})
		if res.Status != backends.Interrupted {
			t.Errorf("status %s (%s), want %s", res.Status, res.Message, backends.Interrupted)
		}
	})
	t.Run("context deadline", func(t *testing.T) {
		m := MarketSplit(rand.New(rand.NewPCG(5, 6)), 6)
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		res := solveOK(t, s, ctx, m, backends.Options{TimeLimit: hardSafetyLimit})
		if res.Status != backends.Interrupted {
			t.Errorf("status %s (%s), want %s", res.Status, res.Message, backends.Interrupted)
		}
	})
}

func testLog(t *testing.T, s backends.Solver) {
	var buf bytes.Buffer
	solveOK(t, s, context.Background(), assignment(), backends.Options{Log: &buf})
	if buf.Len() == 0 {
		t.Error("Options.Log set but nothing was written")
	}
}

func testInvalid(t *testing.T, s backends.Solver) {
	bad := model.New("bad")
	bad.AddContinuous(2, 1, "x") // lower bound above upper bound
	for name, run := range map[string]func() error{
		"negative relative gap": func() error {
			_, err := s.Solve(context.Background(), knapsack(), backends.Options{RelGap: -1})
			return err
		},
		"NaN absolute gap": func() error {
			_, err := s.Solve(context.Background(), knapsack(), backends.Options{AbsGap: math.NaN()})
			return err
		},
		"invalid model": func() error {
			_, err := s.Solve(context.Background(), bad, backends.Options{})
			if err != nil && !errors.Is(err, model.ErrInvalid) {
				return fmt.Errorf("error %v does not wrap model.ErrInvalid", err)
			}
			return err
		},
	} {
		t.Run(name, func(t *testing.T) {
			if err := run(); err == nil {
				t.Error("no error")
			} else if err.Error() == "" {
				t.Error("empty error message")
			}
		})
	}
}

// boxSize returns the number of integer points in m's bounds box.
func boxSize(m *model.Model) float64 {
	total := 1.0
	for j := range m.NumVars() {
		lo, hi := m.Bounds(model.Var(j))
		total *= math.Floor(hi) - math.Ceil(lo) + 1
	}
	return total
}

// RandomCase returns a random MILP from RandomMILP with 2 to 12 columns and at most
// 2^15 integer points, so that BruteForce checks it in milliseconds.
func RandomCase(rng *rand.Rand) *model.Model {
	for {
		m := RandomMILP(rng, 2+rng.IntN(11))
		if boxSize(m) <= 1<<15 {
			return m
		}
	}
}

// testRandom compares the backend with BruteForce on count random MILPs.
func testRandom(t *testing.T, s backends.Solver, count int, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 99))
	for i := range count {
		m := RandomCase(rng)
		m.Name = fmt.Sprintf("random#%d", i)
		if err := compareBrute(s, m, backends.Options{}); err != nil {
			t.Error(err)
		}
	}
}

// compareBrute solves m and compares the outcome with BruteForce.
func compareBrute(s backends.Solver, m *model.Model, opts backends.Options) error {
	_, best, feasible, err := BruteForce(m)
	if err != nil {
		return err
	}
	res, err := s.Solve(context.Background(), m, opts)
	if err != nil {
		return fmt.Errorf("%s: %v", m.Name, err)
	}
	ct := &collect{}
	Check(ct, m, res)
	if ct.msg != "" {
		return fmt.Errorf("%s: %s", m.Name, ct.msg)
	}
	switch {
	case !feasible && res.Status != backends.Infeasible:
		return fmt.Errorf("%s: status %s (%s), brute force finds it infeasible", m.Name, res.Status, res.Message)
	case feasible && res.Status != backends.Optimal:
		return fmt.Errorf("%s: status %s (%s), brute force optimum %g", m.Name, res.Status, res.Message, best)
	case feasible && !closeTo(res.Objective, best):
		return fmt.Errorf("%s: objective %g, brute force optimum %g", m.Name, res.Objective, best)
	}
	return nil
}

func testParallel(t *testing.T, s backends.Solver) {
	const workers, each = 6, 4
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for i := range each {
				m := RandomCase(rng)
				m.Name = fmt.Sprintf("worker%d#%d", w, i)
				// Alternate thread counts: backends must not let one solve's thread
				// setting break another's.
				if err := compareBrute(s, m, backends.Options{Threads: 1 + (w+i)%2}); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// collect is a testing.TB that records the first failure instead of failing, so that
// Check can run inside goroutines and helpers that return errors.
type collect struct {
	testing.TB
	msg string
}

func (c *collect) Helper() {}
func (c *collect) Errorf(format string, args ...any) {
	if c.msg == "" {
		c.msg = fmt.Sprintf(format, args...)
	}
}
func (c *collect) Fatalf(format string, args ...any) { c.Errorf(format, args...) }

// testReproduce solves random mixed models serially, then all at once from several
// goroutines, and requires the same status and objective: a backend with hidden
// shared state (globals in the C library, a shared option) fails it.
func testReproduce(t *testing.T, s backends.Solver) {
	const count, workers = 48, 8
	rng := rand.New(rand.NewPCG(21, 22))
	models := make([]*model.Model, count)
	serial := make([]backends.Result, count)
	for i := range models {
		models[i] = RandomMixed(rng, 3+rng.IntN(8))
		models[i].Name = fmt.Sprintf("mixed#%d", i)
		serial[i] = solveOK(t, s, context.Background(), models[i], backends.Options{})
	}
	var wg sync.WaitGroup
	errs := make(chan error, count)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < count; i += workers {
				res, err := s.Solve(context.Background(), models[i], backends.Options{})
				switch {
				case err != nil:
					errs <- err
				case res.Status != serial[i].Status:
					errs <- fmt.Errorf("%s: parallel %s, serial %s", models[i].Name, res.Status, serial[i].Status)
				case res.HasSolution && !closeTo(res.Objective, serial[i].Objective):
					errs <- fmt.Errorf("%s: parallel %g, serial %g", models[i].Name, res.Objective, serial[i].Objective)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// testSemi solves small models whose semi-continuous or semi-integer column decides the
// optimum (its LP relaxation over [0, u] would give another answer).
func testSemi(t *testing.T, s backends.Solver) {
	for _, tc := range []struct {
		name  string
		kind  model.Kind
		sense model.Sense
		op    model.Op
		rhs   float64
		want  float64
	}{
		{"min x, x >= 0.5: the column jumps to its lower bound 2", model.SemiContinuous, model.Minimize, model.GE, 0.5, 2},
		{"max x, x <= 1.5: the column stays off", model.SemiContinuous, model.Maximize, model.LE, 1.5, 0},
		{"max x, x <= 3.5: continuous inside [2, 5]", model.SemiContinuous, model.Maximize, model.LE, 3.5, 3.5},
		{"semi-integer, max x, x <= 3.5: integral inside [2, 5]", model.SemiInteger, model.Maximize, model.LE, 3.5, 3},
		{"semi-integer, min x, x >= 0.2", model.SemiInteger, model.Minimize, model.GE, 0.2, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := model.New("semi")
			x := m.AddVar(tc.kind, 2, 5, "x")
			y := m.AddContinuous(0, 1, "y") // keeps the model from being a single column
			var e model.Expr
			e.Add(x, 1)
			m.AddConstr(e, tc.op, tc.rhs, "c")
			e.Add(y, 0.001)
			m.SetObjective(tc.sense, e)
			res := solveOK(t, s, context.Background(), m, backends.Options{})
			if res.Status != backends.Optimal {
				t.Fatalf("status %s (%s), want optimal", res.Status, res.Message)
			}
			if got := res.Values[x]; !closeTo(got, tc.want) {
				t.Errorf("x = %g, want %g", got, tc.want)
			}
		})
	}
	t.Run("no finite upper bound is an error", func(t *testing.T) {
		m := model.New("semi-unbounded")
		m.AddSemiContinuous(1, math.Inf(1), "x")
		if _, err := s.Solve(context.Background(), m, backends.Options{}); err == nil {
			t.Error("no error")
		}
	})
}

// testRandomSemi compares the backend with BruteForce on count random models with
// semi-integer columns, and solves each again after writing it to MPS and reading it
// back.
func testRandomSemi(t *testing.T, s backends.Solver, count int, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	for i := range count {
		m := RandomSemi(rng, 2+rng.IntN(5))
		m.Name = fmt.Sprintf("semi#%d", i)
		if err := compareBrute(s, m, backends.Options{}); err != nil {
			t.Error(err)
			continue
		}
		var buf bytes.Buffer
		if err := m.WriteMPS(&buf); err != nil {
			t.Fatal(err)
		}
		back, err := model.ReadMPS(&buf)
		if err != nil {
			t.Fatalf("%s: MPS does not read back: %v", m.Name, err)
		}
		back.Name = m.Name + " (MPS round trip)"
		if err := compareBrute(s, back, backends.Options{}); err != nil {
			t.Error(err)
		}
	}
}
