package solve

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/certify"
	"github.com/schedopt/schedopt/model"
)

// fakeSolver returns a fixed backend result, to test the pipeline's own checks.
type fakeSolver struct{ res backends.Result }

func (f fakeSolver) Name() string { return "fake" }
func (f fakeSolver) Solve(context.Context, *model.Model, backends.Options) (backends.Result, error) {
	return f.res, nil
}

// fakeFormulate builds min x + y, x + y >= 1, x, y in [0, 2].
func fakeFormulate() (*Formulated, error) {
	m := model.New("fake")
	x, y := m.AddContinuous(0, 2, "x"), m.AddContinuous(0, 2, "y")
	var e model.Expr
	e.Add(x, 1).Add(y, 1)
	m.AddConstr(e, model.GE, 1, "cover")
	m.SetObjective(model.Minimize, e)
	return &Formulated{Model: m, Decode: func(v []float64) (any, EvaluatorCheck, error) {
		return v, EvaluatorCheck{OK: true, Objective: v[0] + v[1]}, nil
	}}, nil
}

func TestSolveModelWithholdsUnprovenOptimum(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name   string
		raw    backends.Result
		status string
	}{
		{"an optimum at its bound stays optimal",
			backends.Result{Status: backends.Optimal, HasSolution: true, Values: []float64{0.5, 0.5}, Objective: 1, Bound: 1}, StatusOptimal},
		{"an optimum within the requested gap of its bound stays optimal",
			backends.Result{Status: backends.Optimal, HasSolution: true, Values: []float64{0.5, 0.5}, Objective: 1, Bound: 1 - 5e-7}, StatusOptimal},
		{"an optimum without a bound is taken at the backend's word",
			backends.Result{Status: backends.Optimal, HasSolution: true, Values: []float64{0.5, 0.5}, Objective: 1, Bound: nan}, StatusOptimal},
		{"a point whose verified objective is far above the bound is only feasible",
			backends.Result{Status: backends.Optimal, HasSolution: true, Values: []float64{1, 1}, Objective: 1, Bound: 1}, StatusFeasible},
		{"a point beating its bound is only feasible",
			backends.Result{Status: backends.Optimal, HasSolution: true, Values: []float64{0.5, 0.5}, Objective: 1, Bound: 1.5}, StatusFeasible},
		{"a point violating the model is an error",
			backends.Result{Status: backends.Optimal, HasSolution: true, Values: []float64{0.2, 0.2}, Objective: 0.4, Bound: 0.4}, StatusError},
		{"unbounded on a model with bounded columns is an error",
			backends.Result{Status: backends.Unbounded, Objective: nan, Bound: nan}, StatusError},
		{"infeasible-or-unbounded on a model with bounded columns is infeasible",
			backends.Result{Status: backends.InfeasibleOrUnbounded, Objective: nan, Bound: nan}, StatusInfeasible},
		{"optimal without a solution is an error",
			backends.Result{Status: backends.Optimal, Objective: nan, Bound: nan}, StatusError},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The policy is off: these cases test the pipeline's own checks.
			req := Request{Backend: "fake", Solver: fakeSolver{tc.raw}, Options: backends.DefaultOptions(), NoCheck: true, Policy: certify.Policy{Off: true}}
			res, err := SolveModel(context.Background(), "fake", "fake", fakeFormulate, req, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tc.status {
				t.Fatalf("status %q, want %q (message %q)", res.Status, tc.status, res.Message)
			}
			if tc.status == StatusFeasible && !strings.Contains(res.Message, "not optimal") {
				t.Errorf("message %q does not say why the optimum was withheld", res.Message)
			}
		})
	}
}

func TestAgree(t *testing.T) {
	obj := func(v float64) *float64 { return &v }
	opt := backends.Options{}
	cases := []struct {
		name string
		res  Result
		out  Outcome
		want bool
	}{
		{"equal optima agree", Result{Status: StatusOptimal, Objective: obj(10)}, Outcome{Optimal: true, Feasible: true, Objective: 10}, true},
		{"optima apart by more than AgreeTol disagree", Result{Status: StatusOptimal, Objective: obj(10.001)}, Outcome{Optimal: true, Feasible: true, Objective: 10}, false},
		{"a feasible point worse than the optimum agrees", Result{Status: StatusFeasible, Objective: obj(12)}, Outcome{Optimal: true, Feasible: true, Objective: 10}, true},
		{"a feasible point beating the optimum disagrees", Result{Status: StatusFeasible, Objective: obj(9)}, Outcome{Optimal: true, Feasible: true, Objective: 10}, false},
		{"an infeasibility claim against a feasible instance disagrees", Result{Status: StatusInfeasible}, Outcome{Optimal: true, Feasible: true, Objective: 10}, false},
		{"infeasible agrees with infeasible", Result{Status: StatusInfeasible}, Outcome{}, true},
		{"a solution of a proven infeasible instance disagrees", Result{Status: StatusFeasible, Objective: obj(3)}, Outcome{}, false},
		{"a time limit without a solution makes no claim", Result{Status: StatusTimeLimit}, Outcome{}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Agree(&tc.res, &tc.out, model.Minimize, opt); got != tc.want {
				t.Errorf("Agree = %v, want %v", got, tc.want)
			}
		})
	}
}
