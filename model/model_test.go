package model

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var inf = math.Inf(1)

func TestRowTermsAreMergedSortedAndZeroFree(t *testing.T) {
	tests := []struct {
		name    string
		vars    []Var
		coefs   []float64
		wantIdx []int32
		wantVal []float64
	}{
		{"duplicates are summed", []Var{1, 0, 1}, []float64{2, 3, 4}, []int32{0, 1}, []float64{3, 6}},
		{"terms that cancel are dropped", []Var{2, 0, 2}, []float64{1.5, 1, -1.5}, []int32{0}, []float64{1}},
		{"zero coefficients are dropped", []Var{0, 1}, []float64{0, 7}, []int32{1}, []float64{7}},
		{"terms are sorted by column", []Var{3, 1, 2, 0}, []float64{4, 2, 3, 1}, []int32{0, 1, 2, 3}, []float64{1, 2, 3, 4}},
		{"an empty expression gives an empty row", nil, nil, []int32{}, []float64{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := New("t")
			for range 4 {
				m.AddContinuous(0, 1, "")
			}
			r := m.AddConstr(Expr{Vars: tc.vars, Coefs: tc.coefs}, LE, 1, "r")
			idx, val := m.RowTerms(r)
			if !slices.Equal(idx, tc.wantIdx) || !slices.Equal(val, tc.wantVal) {
				t.Errorf("row = %v %v, want %v %v", idx, val, tc.wantIdx, tc.wantVal)
			}
			if err := m.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
}

func TestLongRowsAreSortedWithoutLosingTerms(t *testing.T) {
	m := New("t")
	const n = 200
	for range n {
		m.AddContinuous(0, 1, "")
	}
	var e Expr
	for k := range 3 * n { // each column three times, in a scrambled order
		j := Var((k * 7919) % n)
		e.Add(j, float64(j+1))
	}
	r := m.AddConstr(e, GE, 0, "long")
	idx, val := m.RowTerms(r)
	if len(idx) != n {
		t.Fatalf("row has %d terms, want %d", len(idx), n)
	}
	for k := range idx {
		if idx[k] != int32(k) || val[k] != 3*float64(k+1) {
			t.Fatalf("term %d = (%d, %g), want (%d, %g)", k, idx[k], val[k], k, 3*float64(k+1))
		}
	}
}

func TestConstantMovesToTheRightHandSide(t *testing.T) {
	m := New("t")
	x := m.AddContinuous(0, 10, "x")
	var e Expr
	e.Add(x, 1).AddConst(3)
	le := m.AddConstr(e, LE, 5, "le")
	eq := m.AddConstr(e, EQ, 5, "eq")
	rg := m.AddRange(e, 1, 5, "rg")
	for _, c := range []struct {
		r      Row
		lo, hi float64
	}{{le, math.Inf(-1), 2}, {eq, 2, 2}, {rg, -2, 2}} {
		if lo, hi := m.RowBounds(c.r); lo != c.lo || hi != c.hi {
			t.Errorf("row %s bounds [%g, %g], want [%g, %g]", m.RowName(c.r), lo, hi, c.lo, c.hi)
		}
	}
}

func TestValidationErrorsNameTheRowOrColumn(t *testing.T) {
	tests := []struct {
		name  string
		build func(m *Model)
		want  string
	}{
		{"NaN coefficient", func(m *Model) {
			x := m.AddContinuous(0, 1, "x")
			m.AddConstr(Term(x, math.NaN()), LE, 1, "cap")
		}, "row cap: coefficient of x is NaN"},
		{"infinite coefficient in an unnamed row", func(m *Model) {
			m.AddContinuous(0, 1, "x")
			y := m.AddContinuous(0, 1, "")
			m.AddConstr(Term(y, inf), LE, 1, "")
		}, "row c0: coefficient of x1 is +Inf"},
		{"lower bound above upper bound", func(m *Model) {
			m.AddContinuous(3, 2, "speed")
		}, "column speed: lower bound 3 > upper bound 2"},
		{"NaN bound", func(m *Model) {
			m.AddInteger(math.NaN(), 2, "n")
		}, "column n: bound is NaN"},
		{"SetBounds crossing", func(m *Model) {
			x := m.AddContinuous(0, 5, "x")
			m.SetBounds(x, 4, 1)
		}, "column x: lower bound 4 > upper bound 1"},
		{"unknown variable in a row", func(m *Model) {
			m.AddContinuous(0, 1, "x")
			m.AddConstr(Term(7, 1), GE, 0, "link")
		}, "row link: unknown variable 7"},
		{"unknown variable in the objective", func(m *Model) {
			m.SetObjective(Minimize, Term(-1, 1))
		}, "objective: unknown variable -1"},
		{"infeasible row bounds", func(m *Model) {
			x := m.AddContinuous(0, 1, "x")
			m.AddRange(Term(x, 1), 2, 1, "window")
		}, "row window: lower bound 2 > upper bound 1"},
		{"row upper bound -Inf", func(m *Model) {
			x := m.AddContinuous(0, 1, "x")
			m.AddConstr(Term(x, 1), LE, math.Inf(-1), "never")
		}, "row never: upper bound is -Inf"},
		{"NaN objective coefficient", func(m *Model) {
			x := m.AddContinuous(0, 1, "energy")
			m.SetObjective(Maximize, Term(x, math.NaN()))
		}, "objective: coefficient of energy is NaN"},
		{"mismatched expression", func(m *Model) {
			x := m.AddContinuous(0, 1, "x")
			m.AddConstr(Expr{Vars: []Var{x}}, LE, 1, "bad")
		}, "row bad: expression has 1 variables and 0 coefficients"},
		{"SetRowBounds on an unknown row", func(m *Model) {
			m.SetRowBounds(3, 0, 1)
		}, "SetRowBounds: unknown row 3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := New("t")
			tc.build(m)
			err := m.Validate()
			if err == nil {
				t.Fatal("Validate accepted the model")
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error %v does not wrap ErrInvalid", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			if m.Err() == nil {
				t.Error("Err() is nil after a recorded error")
			}
			var buf bytes.Buffer
			if m.WriteMPS(&buf) == nil || m.WriteLP(&buf) == nil {
				t.Error("a writer accepted an invalid model")
			}
		})
	}
}

func TestBinaryBoundsAreClippedToZeroOne(t *testing.T) {
	m := New("t")
	b := m.AddVar(Binary, -3, 7, "b")
	if lo, hi := m.Bounds(b); lo != 0 || hi != 1 {
		t.Errorf("binary bounds [%g, %g], want [0, 1]", lo, hi)
	}
	m.SetBounds(b, 1, 5)
	if lo, hi := m.Bounds(b); lo != 1 || hi != 1 {
		t.Errorf("after SetBounds(1, 5): [%g, %g], want [1, 1]", lo, hi)
	}
	if err := m.Validate(); err != nil {
		t.Error(err)
	}
}

func TestObjectiveSumsDuplicatesAndKeepsConstant(t *testing.T) {
	m := New("t")
	x := m.AddContinuous(0, 1, "x")
	y := m.AddContinuous(0, 1, "y")
	var e Expr
	e.Add(x, 2).Add(y, 1).Add(x, 3).AddConst(-4)
	m.SetObjective(Maximize, e)
	if m.ObjectiveCoef(x) != 5 || m.ObjectiveCoef(y) != 1 || m.ObjectiveConstant() != -4 || m.Sense() != Maximize {
		t.Errorf("objective = %g x + %g y + %g (%v)", m.ObjectiveCoef(x), m.ObjectiveCoef(y), m.ObjectiveConstant(), m.Sense())
	}
	m.SetObjective(Minimize, Term(y, 1))
	if m.ObjectiveCoef(x) != 0 || m.ObjectiveConstant() != 0 {
		t.Error("SetObjective did not replace the previous objective")
	}
}

func TestZeroModelIsAnEmptyMinimisation(t *testing.T) {
	var m Model
	if m.Sense() != Minimize || m.NumVars() != 0 || m.NumRows() != 0 {
		t.Errorf("zero Model: sense %v, %d vars, %d rows", m.Sense(), m.NumVars(), m.NumRows())
	}
	if got := m.Rows().Start; !slices.Equal(got, []int32{0}) {
		t.Errorf("Rows().Start = %v, want [0]", got)
	}
	if err := m.Validate(); err != nil {
		t.Error(err)
	}
	x := m.AddBinary("b")
	m.AddConstr(Term(x, 1), LE, 1, "")
	if got := m.Rows().Start; !slices.Equal(got, []int32{0, 1}) {
		t.Errorf("Rows().Start = %v, want [0 1]", got)
	}
}

// buildSample builds the same model every time it is called, exercising every kind of
// column and row.
func buildSample() *Model {
	m := New("sample")
	x := m.AddContinuous(0, inf, "x")
	y := m.AddContinuous(math.Inf(-1), 10, "y")
	z := m.AddInteger(-2, 3, "z")
	b := m.AddBinary("b")
	f := m.AddContinuous(math.Inf(-1), inf, "")
	var e Expr
	e.Add(x, 1).Add(y, 2).Add(x, 1)
	m.AddConstr(e, LE, 8, "cap")
	e.Reset()
	e.Add(z, 1).Add(b, -4).Add(f, 1)
	m.AddRange(e, -1, 2.5, "win")
	e.Reset()
	e.Add(x, 1).Add(z, -1)
	m.AddConstr(e, EQ, 1, "")
	e.Reset()
	e.Add(x, 3).Add(y, -1).Add(z, 1).Add(b, 2).AddConst(1.5)
	m.SetObjective(Maximize, e)
	return m
}

func TestOutputIsDeterministic(t *testing.T) {
	var first [2][]byte
	for run := range 3 {
		m := buildSample()
		var mps, lp bytes.Buffer
		if err := m.WriteMPS(&mps); err != nil {
			t.Fatal(err)
		}
		if err := m.WriteLP(&lp); err != nil {
			t.Fatal(err)
		}
		if run == 0 {
			first = [2][]byte{mps.Bytes(), lp.Bytes()}
			continue
		}
		if !bytes.Equal(first[0], mps.Bytes()) || !bytes.Equal(first[1], lp.Bytes()) {
			t.Fatalf("run %d wrote different bytes", run)
		}
	}
}

func TestVerify(t *testing.T) {
	m := buildSample() // x, y, z, b, f
	tests := []struct {
		name      string
		x         []float64
		feasible  bool
		objective float64
		worst     string
	}{
		{"a feasible point", []float64{1, 2, 0, 0, 1}, true, 1.5 + 3 - 2, ""},
		{"a row violation is named", []float64{1, 4, 0, 0, 1}, false, 1.5 + 3 - 4, "row cap"},
		{"an equality violation in an unnamed row", []float64{2, 2, 0, 0, 1}, false, 1.5 + 6 - 2, "row c2"},
		{"a bound violation is named", []float64{5, 0, 4, 0, -2}, false, 1.5 + 15 + 4, "column z"},
		{"fractional integer", []float64{1.5, 0, 0.5, 0, 1}, false, 1.5 + 4.5 + 0.5, "integer column z"},
		{"tiny violations pass", []float64{1 + 1e-9, 2, 0, 0, 1}, true, 1.5 + 3*(1+1e-9) - 2, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := m.Verify(tc.x)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Feasible() != tc.feasible {
				t.Errorf("Feasible() = %v, want %v (%+v)", rep.Feasible(), tc.feasible, rep)
			}
			if math.Abs(rep.Objective-tc.objective) > 1e-12 {
				t.Errorf("objective %g, want %g", rep.Objective, tc.objective)
			}
			if !strings.Contains(rep.Worst, tc.worst) {
				t.Errorf("worst %q does not mention %q", rep.Worst, tc.worst)
			}
		})
	}
	if _, err := m.Verify([]float64{1}); err == nil {
		t.Error("Verify accepted a short vector")
	}
	if _, err := m.Verify([]float64{1, 2, 0, 0, math.NaN()}); err == nil {
		t.Error("Verify accepted NaN")
	}
}

func TestGrowKeepsContentsAndAvoidsReallocation(t *testing.T) {
	m := New("t")
	x := m.AddContinuous(0, 1, "x")
	m.AddConstr(Term(x, 2), LE, 1, "r")
	m.Grow(10, 10, 100)
	before := cap(m.rowIndex)
	for range 10 {
		v := m.AddContinuous(0, 1, "")
		var e Expr
		e.Add(v, 1).Add(x, 1)
		m.AddConstr(e, LE, 1, "")
	}
	if cap(m.rowIndex) != before {
		t.Error("rows reallocated after Grow")
	}
	if idx, val := m.RowTerms(0); !slices.Equal(idx, []int32{0}) || !slices.Equal(val, []float64{2}) {
		t.Errorf("row 0 changed: %v %v", idx, val)
	}
}

func TestAppendNumMatchesShortestG(t *testing.T) {
	for _, v := range []float64{1, -1, 7, 999999, -999999, 1e6, -1e6, 123456, 0.5, -0.25, 1e-7, 1e21, 3e15, math.MaxInt32, -2147483648, 12345678} {
		want := strconv.FormatFloat(v, 'g', -1, 64)
		if got := string(appendNum(nil, v)); got != want {
			t.Errorf("appendNum(%g) = %q, want %q", v, got, want)
		}
	}
	if got := string(appendNum(nil, math.Copysign(0, -1))); got != "0" {
		t.Errorf("appendNum(-0) = %q, want 0", got)
	}
}

func TestAddConstrDoesNotAllocateAfterGrow(t *testing.T) {
	for _, terms := range []int{4, 40} { // the short-row and the scratch-array paths
		m := New("t")
		const cols, rows = 1000, 200
		m.Grow(cols, rows+1, (rows+1)*terms)
		for range cols {
			m.AddContinuous(0, 1, "")
		}
		var e Expr
		for k := range terms {
			e.Add(Var((k*37)%cols), 1).Add(Var((k*37)%cols), 1) // duplicates, unsorted
		}
		m.AddConstr(e, LE, 1, "") // sizes the scratch array
		allocs := testing.AllocsPerRun(rows-1, func() { m.AddConstr(e, LE, 1, "") })
		if allocs != 0 {
			t.Errorf("%d terms: %g allocations per AddConstr, want 0", terms, allocs)
		}
	}
}

func TestOpFlipSwapsTheSides(t *testing.T) {
	for _, c := range []struct{ op, want Op }{{LE, GE}, {GE, LE}, {EQ, EQ}} {
		if got := c.op.Flip(); got != c.want {
			t.Errorf("%v.Flip() = %v, want %v", c.op, got, c.want)
		}
	}
}
