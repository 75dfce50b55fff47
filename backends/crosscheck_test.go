package backends_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/backendtest"
	"github.com/schedopt/schedopt/backends/cbc"
	"github.com/schedopt/schedopt/backends/highs"
	"github.com/schedopt/schedopt/backends/lpsolve"
	"github.com/schedopt/schedopt/model"
)

// crossTol is the relative tolerance within which the two backends' optima agree.
const crossTol = 1e-6

func solvers() []backends.Solver { return []backends.Solver{highs.New(), lpsolve.New(), cbc.New()} }

// TestCrossCheckPureInteger solves random pure-integer MILPs with both backends at
// gap 0 and compares each with brute-force enumeration.
func TestCrossCheckPureInteger(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for i := range 60 {
		m := backendtest.RandomCase(rng)
		m.Name = fmt.Sprintf("pure#%d", i)
		_, best, feasible, err := backendtest.BruteForce(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range solvers() {
			res := solve(t, s, m)
			switch {
			case !feasible && res.Status != backends.Infeasible:
				t.Errorf("%s %s: status %s, brute force: infeasible", s.Name(), m.Name, res.Status)
			case feasible && (res.Status != backends.Optimal || !agree(res.Objective, best)):
				t.Errorf("%s %s: %s %g, brute force optimum %g", s.Name(), m.Name, res.Status, res.Objective, best)
			}
		}
	}
}

// TestCrossCheckMixed solves random mixed-integer models, which have no enumeration
// oracle, with both backends at gap 0 and requires the same status and optimum.
func TestCrossCheckMixed(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	optimal := 0
	for i := range 80 {
		m := backendtest.RandomMixed(rng, 2+rng.IntN(9))
		m.Name = fmt.Sprintf("mixed#%d", i)
		a, b := solve(t, highs.New(), m), solve(t, lpsolve.New(), m)
		if a.Status != b.Status {
			t.Errorf("%s: highs %s (%s), lpsolve %s (%s)", m.Name, a.Status, a.Message, b.Status, b.Message)
			continue
		}
		if a.Status == backends.Optimal {
			optimal++
			if !agree(a.Objective, b.Objective) {
				t.Errorf("%s: highs %g, lpsolve %g", m.Name, a.Objective, b.Objective)
			}
		}
	}
	// The generator must produce enough feasible models for the comparison to mean
	// something.
	if optimal < 20 {
		t.Errorf("only %d of 80 random models were feasible", optimal)
	}
}

func solve(t *testing.T, s backends.Solver, m *model.Model) backends.Result {
	t.Helper()
	res, err := s.Solve(context.Background(), m, backends.Options{})
	if err != nil {
		t.Fatalf("%s %s: %v", s.Name(), m.Name, err)
	}
	backendtest.Check(t, m, res)
	return res
}

func agree(a, b float64) bool { return math.Abs(a-b) <= crossTol*math.Max(1, math.Abs(b)) }

// TestCrossCheckRecordedModels solves models that once made a backend claim a wrong
// optimum and requires both backends to prove the same optimum at gap 0.
//   - dltmulti-scaled-integers.mps: a dlt-multi MIP on which lp_solve with its default
//     scaling (which scales integer columns) claimed OPTIMAL at 277.72 while the
//     proven optimum is 277.37.
func TestCrossCheckRecordedModels(t *testing.T) {
	for _, name := range []string{"dltmulti-scaled-integers.mps"} {
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			m, err := model.ReadMPS(f)
			if err != nil {
				t.Fatal(err)
			}
			a, b := solve(t, highs.New(), m), solve(t, lpsolve.New(), m)
			if a.Status != backends.Optimal || b.Status != backends.Optimal {
				t.Fatalf("highs %s (%s), lpsolve %s (%s): both must prove optimality", a.Status, a.Message, b.Status, b.Message)
			}
			if !agree(a.Objective, b.Objective) {
				t.Errorf("highs %.10g, lpsolve %.10g", a.Objective, b.Objective)
			}
		})
	}
}
