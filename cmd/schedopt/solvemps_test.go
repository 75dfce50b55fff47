package main

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/model"
	"github.com/schedopt/schedopt/solve"
)

func TestMPSResultWithholdsUnprovenOptimum(t *testing.T) {
	m := model.New("cover")
	x := m.AddContinuous(0, 2, "x")
	var e model.Expr
	e.Add(x, 1)
	m.AddConstr(e, model.GE, 1, "r")
	m.SetObjective(model.Minimize, e)
	for _, tc := range []struct {
		name  string
		x     float64
		bound float64
		want  string
	}{
		{"an optimum at its bound stays optimal", 1, 1, solve.StatusOptimal},
		{"a point far from the bound is only feasible", 2, 1, solve.StatusFeasible},
		{"a point violating the model is an error", 0.5, 0.5, solve.StatusError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw := backends.Result{Status: backends.Optimal, HasSolution: true, Values: []float64{tc.x}, Objective: tc.bound, Bound: tc.bound}
			if got := mpsResult("cover.mps", m, "highs", raw, backends.DefaultOptions()).Status; got != tc.want {
				t.Errorf("status %q, want %q", got, tc.want)
			}
		})
	}
}

func TestWriteJSONPrintsOneObjectEvenForNaN(t *testing.T) {
	var buf bytes.Buffer
	res := &solve.Result{Kind: "workload", Name: "w", Backend: "highs", Status: solve.StatusOptimal,
		Check: solve.Check{Evaluator: &solve.EvaluatorCheck{OK: true, Objective: math.NaN()}}}
	if err := writeJSON(&buf, res); err == nil {
		t.Fatal("NaN encoded without an error")
	}
	var got map[string]any
	dec := json.NewDecoder(&buf)
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("stdout holds no JSON object: %v", err)
	}
	if dec.More() {
		t.Error("more than one JSON value on stdout")
	}
	if got["status"] != solve.StatusError || got["name"] != "w" {
		t.Errorf("fallback object %v, want status error for w", got)
	}
}

// knapsackLP is knapsackMPS in CPLEX LP format.
const knapsackLP = `\ the knapsack of knapsackMPS
Maximize
 value: 5 x + 4 y + 3 z
Subject To
 cap: 2 x + 3 y + z <= 4
Binary
 x y z
End
`

func TestSolveLPFiles(t *testing.T) {
	dir := t.TempDir()
	lp := writeFile(t, dir, "knap.lp", knapsackLP)
	noExt := writeFile(t, dir, "knap.txt", knapsackLP)
	for _, args := range [][]string{{"solve-mps", lp}, {"solve-lp", lp}, {"solve-lp", noExt}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, out, errs := schedopt(t, append(args, "--json")...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			obj := oneObject(t, out)
			if obj["status"] != "optimal" || obj["objective"] != 8.0 {
				t.Errorf("status %v objective %v, want optimal 8", obj["status"], obj["objective"])
			}
		})
	}
}

func TestBadLPExitsTwoNamingFileAndLine(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.lp", "Minimize\n x\nSubject To\n c: x >= oops\nEnd\n")
	code, out, errs := schedopt(t, "solve-lp", bad)
	if code != 2 || out != "" {
		t.Fatalf("exit %d, stdout %q, want 2 and nothing", code, out)
	}
	for _, want := range []string{"bad.lp", "line 4", "expected a number"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr %q does not name %q", errs, want)
		}
	}
}
