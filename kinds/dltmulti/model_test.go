package dltmulti

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/solve"
)

// TestFormulateModelWritesTheSameModel: export builds without the MIP start where the
// start cannot change the model; the written model must be byte-identical to the one
// solve builds, and where the start sets the horizon, the start must still be made.
func TestFormulateModelWritesTheSameModel(t *testing.T) {
	ptr := func(v float64) *float64 { return &v }
	for seed := uint64(1); seed <= 4; seed++ {
		for _, tc := range []struct {
			name     string
			set      func(in *dm.Instance)
			startSet bool // the start shapes the model
		}{
			{"min-time", func(in *dm.Instance) { in.Objective = dm.MinTime }, true},
			{"min-time with a deadline", func(in *dm.Instance) { in.Objective, in.Deadline = dm.MinTime, ptr(1e5) }, false},
			{"min-time under an energy cap", func(in *dm.Instance) { in.Objective, in.EnergyLimit = dm.MinTime, ptr(1e9) }, false},
			{"min-energy", func(in *dm.Instance) { in.Objective, in.Deadline = dm.MinEnergy, ptr(1e5) }, false},
		} {
			t.Run(fmt.Sprintf("seed %d %s", seed, tc.name), func(t *testing.T) {
				in, err := dm.Generate(dm.GenConfig{M: 4, N: 5, V: 500, P0N: 50, Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				tc.set(in)
				p := &Problem{Base: kinds.Base{KindName: dm.Kind, InstName: in.Name}, Inst: in}
				if p.startShapesModel() != tc.startSet {
					t.Fatalf("startShapesModel = %v, want %v", p.startShapesModel(), tc.startSet)
				}
				var a, b bytes.Buffer
				full, err := p.FormulateContext(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				lean, err := kinds.FormulateModel(context.Background(), p)
				if err != nil {
					t.Fatal(err)
				}
				if err := full.Model.WriteMPS(&a); err != nil {
					t.Fatal(err)
				}
				if err := lean.Model.WriteMPS(&b); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(a.Bytes(), b.Bytes()) {
					t.Errorf("the exported model differs from the solved one (%d vs %d bytes)", b.Len(), a.Len())
				}
			})
		}
	}
}

func TestAdviceOnlyForUnprovenSolvesTheSequenceSearchTakes(t *testing.T) {
	big, err := dm.Generate(dm.GenConfig{M: 10, N: 12, V: 24000, P0N: 50, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	big.Objective = dm.MinTime
	tiny, err := dm.Generate(dm.GenConfig{M: 2, N: 2, V: 100, P0N: 50, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	tiny.Objective = dm.MinTime
	energy := *big
	energy.Objective, energy.Deadline = dm.MinEnergy, func() *float64 { v := 1e5; return &v }()
	capped := *big
	capped.EnergyLimit = func() *float64 { v := 1e9; return &v }()
	for _, tc := range []struct {
		name    string
		in      *dm.Instance
		backend string
		status  string
		want    bool
	}{
		{"a MILP solve stopped with a gap", big, "highs", solve.StatusFeasible, true},
		{"a MILP solve with no solution", big, "cbc", solve.StatusTimeLimit, true},
		{"a proven MILP solve", big, "highs", solve.StatusOptimal, false},
		{"the exact backend itself", big, solve.Exact, solve.StatusFeasible, false},
		{"an instance small enough to enumerate", tiny, "highs", solve.StatusFeasible, false},
		{"min-energy, which the search takes too", &energy, "highs", solve.StatusFeasible, true},
		{"min-time under an energy limit, which it does not take", &capped, "highs", solve.StatusFeasible, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &Problem{Base: kinds.Base{KindName: dm.Kind, InstName: "x"}, Inst: tc.in}
			got := p.Advice(tc.backend, &solve.Result{Status: tc.status})
			if (got != "") != tc.want {
				t.Errorf("advice %q, want one: %v", got, tc.want)
			}
		})
	}
}
