package cmdsolver

import (
	"compress/gzip"
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/model"
)

// optModel: min −x − y − 0.5z + 1 s.t. 2x + y + z <= 7.5, x + 3y <= 9, x, y integer
// in [0, 10], z in [0, 1.5]. The unique optimum is x = y = 2, z = 1.5, objective −3.75
// (the constant 1 checks each program's reading of it).
func optModel() *model.Model {
	m := model.New("opt")
	x := m.AddInteger(0, 10, "x")
	y := m.AddInteger(0, 10, "y")
	z := m.AddContinuous(0, 1.5, "z")
	var e model.Expr
	m.AddConstr(*e.Add(x, 2).Add(y, 1).Add(z, 1), model.LE, 7.5, "c1")
	e.Reset()
	m.AddConstr(*e.Add(x, 1).Add(y, 3), model.LE, 9, "c2")
	e.Reset()
	e.Add(x, -1).Add(y, -1).Add(z, -0.5).AddConst(1)
	m.SetObjective(model.Minimize, e)
	return m
}

// infModel: 2x = 3 with x integer in [0, 10]: the relaxation is feasible, the MILP not.
func infModel() *model.Model {
	m := model.New("inf")
	x := m.AddInteger(0, 10, "x")
	m.AddConstr(model.Term(x, 2), model.EQ, 3, "half")
	m.SetObjective(model.Minimize, model.Term(x, 1))
	return m
}

// unbModel: min −x with x integer, x >= 1, no upper bound.
func unbModel() *model.Model {
	m := model.New("unb")
	x := m.AddInteger(0, math.Inf(1), "x")
	y := m.AddContinuous(0, 5, "y")
	var e model.Expr
	m.AddConstr(*e.Add(x, 1).Add(y, 1), model.GE, 1, "c")
	m.SetObjective(model.Minimize, model.Term(x, -1))
	return m
}

// hardModel is a market split instance (Cornuéjols and Dawande): 4 rows of 30
// binaries with coefficients in [0, 99] and right-hand sides half their sums, with
// slacks whose sum is minimised. Proving its optimum takes every solver here far
// longer than a second.
func hardModel() *model.Model {
	rng := rand.New(rand.NewPCG(7, 7))
	m := model.New("marketsplit")
	const rows, cols = 4, 30
	x := make([]model.Var, cols)
	for j := range x {
		x[j] = m.AddBinary("x" + string(rune('a'+j/26)) + string(rune('a'+j%26)))
	}
	var obj model.Expr
	for i := range rows {
		var e model.Expr
		sum := 0.0
		for j := range x {
			a := float64(rng.IntN(100))
			sum += a
			e.Add(x[j], a)
		}
		sp := m.AddContinuous(0, math.Inf(1), "sp"+string(rune('a'+i)))
		sm := m.AddContinuous(0, math.Inf(1), "sm"+string(rune('a'+i)))
		e.Add(sp, 1).Add(sm, -1)
		obj.Add(sp, 1).Add(sm, 1)
		m.AddConstr(e, model.EQ, math.Floor(sum/2), "r"+string(rune('a'+i)))
	}
	m.SetObjective(model.Minimize, obj)
	return m
}

// write writes m to dir/name in the format its extension names (.mps, .lp, .gz).
func write(t *testing.T, m *model.Model, dir, name string) string {
	t.Helper()
	if err := m.Err(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var w interface {
		Write([]byte) (int, error)
	} = f
	var z *gzip.Writer
	if filepath.Ext(name) == ".gz" {
		z = gzip.NewWriter(f)
		w = z
	}
	if formatOf(name) == "lp" {
		err = m.WriteLP(w)
	} else {
		err = m.WriteMPS(w)
	}
	if err != nil {
		t.Fatal(err)
	}
	if z != nil {
		if err := z.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func TestSolve(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"opt.mps":    write(t, optModel(), dir, "opt.mps"),
		"opt.mps.gz": write(t, optModel(), dir, "opt.mps.gz"),
		"opt.lp":     write(t, optModel(), dir, "opt.lp"),
		"opt.lp.gz":  write(t, optModel(), dir, "opt.lp.gz"),
		"inf.mps":    write(t, infModel(), dir, "inf.mps"),
		"unb.mps":    write(t, unbModel(), dir, "unb.mps"),
		"hard.mps":   write(t, hardModel(), dir, "hard.mps"),
	}
	optimal := map[string]float64{"x": 2, "y": 2, "z": 1.5}
	tests := []struct {
		solver, file string
		limit        time.Duration
		want         []backends.Status // any of these
		values       bool              // expect optModel's optimum
	}{
		{"highs", "opt.mps", 0, []backends.Status{backends.Optimal}, true},
		{"highs", "opt.mps.gz", 0, []backends.Status{backends.Optimal}, true},
		{"highs", "opt.lp", 0, []backends.Status{backends.Optimal}, true},
		{"highs", "inf.mps", 0, []backends.Status{backends.Infeasible}, false},
		{"highs", "unb.mps", 0, []backends.Status{backends.Unbounded, backends.InfeasibleOrUnbounded}, false},
		{"highs", "hard.mps", time.Second, []backends.Status{backends.TimeLimit}, false},
		{"cbc", "opt.mps", 0, []backends.Status{backends.Optimal}, true},
		{"cbc", "opt.mps.gz", 0, []backends.Status{backends.Optimal}, true},
		{"cbc", "opt.lp", 0, []backends.Status{backends.Optimal}, true},
		{"cbc", "opt.lp.gz", 0, []backends.Status{backends.Optimal}, true},
		{"cbc", "inf.mps", 0, []backends.Status{backends.Infeasible}, false},
		{"cbc", "unb.mps", 0, []backends.Status{backends.InfeasibleOrUnbounded}, false},
		{"cbc", "hard.mps", time.Second, []backends.Status{backends.TimeLimit}, false},
		{"glpsol", "opt.mps", 0, []backends.Status{backends.Optimal}, true},
		{"glpsol", "opt.mps.gz", 0, []backends.Status{backends.Optimal}, true},
		// GLPK's LP reader refuses the objective's constant term.
		{"glpsol", "opt.lp", 0, []backends.Status{backends.Other}, false},
		{"glpsol", "inf.mps", 0, []backends.Status{backends.Infeasible}, false},
		{"glpsol", "unb.mps", 0, []backends.Status{backends.InfeasibleOrUnbounded}, false},
		{"glpsol", "hard.mps", time.Second, []backends.Status{backends.TimeLimit}, false},
	}
	for _, tc := range tests {
		t.Run(tc.solver+"/"+tc.file, func(t *testing.T) {
			a, ok := Lookup(tc.solver)
			if !ok {
				t.Fatalf("no adapter %q", tc.solver)
			}
			res, err := a.Solve(context.Background(), Run{File: files[tc.file], TimeLimit: tc.limit, Gap: 0, Threads: 1, WorkDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			okStatus := false
			for _, s := range tc.want {
				okStatus = okStatus || res.Status == s
			}
			if !okStatus {
				t.Fatalf("status %s, want one of %v\n%s", res.Status, tc.want, res.Log)
			}
			if res.Version == "" || res.PeakRSS <= 0 || res.Wall <= 0 {
				t.Errorf("version %q, peak RSS %d, wall %v: want all set", res.Version, res.PeakRSS, res.Wall)
			}
			if !tc.values {
				return
			}
			if math.Abs(res.Objective-(-3.75)) > 1e-9 {
				t.Errorf("objective %g, want -3.75", res.Objective)
			}
			if !math.IsNaN(res.Bound) && res.Bound > res.Objective+1e-9 {
				t.Errorf("bound %g above the objective %g of a minimisation", res.Bound, res.Objective)
			}
			if len(res.Values) != len(optimal) {
				t.Errorf("values %v, want %v", res.Values, optimal)
			}
			for name, v := range optimal {
				if got, ok := res.Values[name]; !ok || math.Abs(got-v) > 1e-9 {
					t.Errorf("%s = %g (present %v), want %g", name, got, ok, v)
				}
			}
		})
	}
}

// TestSolveCancelled: when the context ends, the program's process group is killed
// and the run reports Interrupted.
func TestSolveCancelled(t *testing.T) {
	file := write(t, hardModel(), t.TempDir(), "hard.mps")
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			a, _ := Lookup(name)
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			res, err := a.Solve(ctx, Run{File: file, Gap: 0, Threads: 1, WorkDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != backends.Interrupted {
				t.Errorf("status %s, want interrupted", res.Status)
			}
		})
	}
}

func TestLookup(t *testing.T) {
	for _, name := range []string{"highs", "cbc", "glpsol"} {
		if a, ok := Lookup(name); !ok || a.Name != name || a.Parse == nil || a.Command == nil {
			t.Errorf("Lookup(%q) = %v, %v", name, a, ok)
		}
	}
	if _, ok := Lookup("gurobi"); ok {
		t.Error("Lookup(gurobi) found an adapter")
	}
}

func TestSolveRefusesBadRuns(t *testing.T) {
	a, _ := Lookup("highs")
	if _, err := a.Solve(context.Background(), Run{File: "x.mps", Gap: -1}); err == nil {
		t.Error("negative gap accepted")
	}
	b := *a
	b.Program = "no-such-solver-program"
	if _, err := b.Solve(context.Background(), Run{File: "x.mps"}); err == nil {
		t.Error("missing program accepted")
	}
}
