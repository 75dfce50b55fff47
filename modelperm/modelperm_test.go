package modelperm

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/schedopt/schedopt/model"
)

func sample() *model.Model {
	m := model.New("s")
	x := m.AddInteger(0, 10, "x")
	y := m.AddContinuous(math.Inf(-1), 5, "y")
	z := m.AddSemiContinuous(1, 4, "z")
	var e model.Expr
	e.Add(x, 2).Add(y, -1)
	m.AddConstr(e, model.LE, 7, "c1")
	e.Reset()
	e.Add(y, 1).Add(z, 3)
	m.AddRange(e, -2, 9, "c2")
	e.Reset()
	e.Add(x, 1).Add(z, 1)
	m.AddConstr(e, model.GE, 1, "c3")
	var obj model.Expr
	obj.Add(x, 1).Add(y, 2).Add(z, -1).AddConst(4)
	m.SetObjective(model.Maximize, obj)
	return m
}

func TestApplyKeepsTheProblem(t *testing.T) {
	m := sample()
	for k := 0; k < 6; k++ {
		p := Random("s", k, m.NumVars(), m.NumRows())
		if k == 0 && !p.Identity() {
			t.Fatal("permutation 0 is not the identity")
		}
		pm, err := p.Apply(m)
		if err != nil {
			t.Fatal(err)
		}
		if pm.Sense() != m.Sense() || pm.ObjectiveConstant() != 4 || pm.NumNonzeros() != m.NumNonzeros() {
			t.Fatalf("k=%d: sense, constant or nonzeros changed", k)
		}
		// Every point has the same objective and row activities in both orders.
		x := []float64{3, -1.5, 2}
		px := make([]float64, 3)
		for j := range px {
			px[j] = x[slices.Index([]string{"x", "y", "z"}, pm.VarName(model.Var(j)))]
		}
		back, err := p.Restore(px)
		if err != nil || !slices.Equal(back, x) {
			t.Fatalf("k=%d: Restore = %v, %v; want %v", k, back, err, x)
		}
		r1, _ := m.Verify(x)
		r2, _ := pm.Verify(px)
		if r1.Objective != r2.Objective || r1.Feasible() != r2.Feasible() {
			t.Errorf("k=%d: objective %g/%g, feasible %v/%v", k, r1.Objective, r2.Objective, r1.Feasible(), r2.Feasible())
		}
		for j := 0; j < pm.NumVars(); j++ {
			name := pm.VarName(model.Var(j))
			old := model.Var(slices.Index([]string{"x", "y", "z"}, name))
			lo, hi := pm.Bounds(model.Var(j))
			olo, ohi := m.Bounds(old)
			if lo != olo || hi != ohi || pm.VarKind(model.Var(j)) != m.VarKind(old) {
				t.Errorf("k=%d: column %s changed", k, name)
			}
		}
	}
}

func TestRandomIsSeededAndVaries(t *testing.T) {
	a := Random("p0033", 3, 50, 20)
	b := Random("p0033", 3, 50, 20)
	if !slices.Equal(a.Cols, b.Cols) || !slices.Equal(a.Rows, b.Rows) {
		t.Fatal("the same seed gave two permutations")
	}
	c := Random("p0033", 4, 50, 20)
	d := Random("lseu", 3, 50, 20)
	if slices.Equal(a.Cols, c.Cols) || slices.Equal(a.Cols, d.Cols) {
		t.Fatal("other seeds or names gave the same permutation")
	}
}

func TestShapeErrors(t *testing.T) {
	m := sample()
	if _, err := (Permutation{Cols: []int{1, 0}, Rows: []int{0, 1, 2}}).Apply(m); !errors.Is(err, ErrShape) {
		t.Errorf("Apply with 2 columns: %v", err)
	}
	if _, err := (Permutation{Cols: []int{1, 0, 2}}).Restore([]float64{1}); !errors.Is(err, ErrShape) {
		t.Errorf("Restore of 1 value: %v", err)
	}
}

func TestApplyAsRenames(t *testing.T) {
	m := sample()
	p := Random("s", 2, m.NumVars(), m.NumRows())
	pm, err := p.ApplyAs(m, func(old int) string { return "col" + string(rune('a'+old)) }, func(old int) string { return "row" + string(rune('a'+old)) })
	if err != nil {
		t.Fatal(err)
	}
	for j, old := range p.Cols {
		if got, want := pm.VarName(model.Var(j)), "col"+string(rune('a'+old)); got != want {
			t.Errorf("column %d named %q, want %q", j, got, want)
		}
	}
	for i, old := range p.Rows {
		if got, want := pm.RowName(model.Row(i)), "row"+string(rune('a'+old)); got != want {
			t.Errorf("row %d named %q, want %q", i, got, want)
		}
	}
	// The identity builds a copy too.
	id, err := (Permutation{}).ApplyAs(m, func(int) string { return "" }, func(int) string { return "" })
	if err != nil || id == m || id.NumNonzeros() != m.NumNonzeros() {
		t.Errorf("identity ApplyAs: %v, same model %v", err, id == m)
	}
}
