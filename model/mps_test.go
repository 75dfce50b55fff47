package model

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// equalModels describes the first difference between a and b, or returns "" when they
// are the same model. Binary columns compare equal to integer columns with the same
// bounds (a binary column is an integer column whose bounds lie in [0, 1]). Names are
// compared only when names is true.
func equalModels(a, b *Model, names bool) string {
	if a.NumVars() != b.NumVars() || a.NumRows() != b.NumRows() || a.NumNonzeros() != b.NumNonzeros() {
		return fmt.Sprintf("size %d×%d/%d vs %d×%d/%d", a.NumRows(), a.NumVars(), a.NumNonzeros(),
			b.NumRows(), b.NumVars(), b.NumNonzeros())
	}
	if a.Sense() != b.Sense() || a.ObjectiveConstant() != b.ObjectiveConstant() {
		return fmt.Sprintf("objective %v%+g vs %v%+g", a.Sense(), a.ObjectiveConstant(), b.Sense(), b.ObjectiveConstant())
	}
	kind := func(k Kind) Kind {
		if k == Binary {
			return Integer
		}
		return k
	}
	for j := range a.NumVars() {
		v := Var(j)
		alo, ahi := a.Bounds(v)
		blo, bhi := b.Bounds(v)
		if alo != blo || ahi != bhi || kind(a.VarKind(v)) != kind(b.VarKind(v)) || a.ObjectiveCoef(v) != b.ObjectiveCoef(v) {
			return fmt.Sprintf("column %d: %v [%g, %g] cost %g vs %v [%g, %g] cost %g", j,
				a.VarKind(v), alo, ahi, a.ObjectiveCoef(v), b.VarKind(v), blo, bhi, b.ObjectiveCoef(v))
		}
		if names && a.VarName(v) != b.VarName(v) {
			return fmt.Sprintf("column %d: name %q vs %q", j, a.VarName(v), b.VarName(v))
		}
	}
	for i := range a.NumRows() {
		r := Row(i)
		alo, ahi := a.RowBounds(r)
		blo, bhi := b.RowBounds(r)
		ai, av := a.RowTerms(r)
		bi, bv := b.RowTerms(r)
		if alo != blo || ahi != bhi || !slices.Equal(ai, bi) || !slices.Equal(av, bv) {
			return fmt.Sprintf("row %d: [%g, %g] %v %v vs [%g, %g] %v %v", i, alo, ahi, ai, av, blo, bhi, bi, bv)
		}
		if names && a.RowName(r) != b.RowName(r) {
			return fmt.Sprintf("row %d: name %q vs %q", i, a.RowName(r), b.RowName(r))
		}
	}
	return ""
}

func writeMPS(t testing.TB, m *Model) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := m.WriteMPS(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func readMPS(t testing.TB, data []byte) *Model {
	t.Helper()
	m, err := ReadMPS(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// namesModel has names that need every sanitising rule.
func namesModel() *Model {
	m := New("my model/v2")
	a := m.AddContinuous(0, 1, "x[1, 2]")
	b := m.AddContinuous(0, 1, "x_1__2_") // clashes with the sanitised name above
	c := m.AddContinuous(0, 1, "")        // x2
	d := m.AddContinuous(0, 1, "x2")      // clashes with the generated name
	e := m.AddContinuous(0, 1, "free")    // LP keyword
	f := m.AddContinuous(0, 1, "3d")      // starts with a digit
	g := m.AddContinuous(0, 1, "énergie") // non-ASCII
	all := Sum(a, b, c, d, e, f, g)
	m.AddConstr(all, LE, 5, "obj") // clashes with the objective row
	m.AddConstr(all, GE, 1, "")    // c1
	m.AddConstr(all, LE, 6, "c1")  // clashes with the generated name
	m.AddRange(all, 2, 4, "cap")
	m.AddConstr(all, LE, 7, "cap_lo") // clashes with the LP name of the range's lower row
	m.SetObjective(Minimize, all)
	return m
}

// goldenModels are written to testdata/<name>.mps and .lp.
var goldenModels = []struct {
	name  string
	build func() *Model
}{
	{"sample", buildSample},
	{"names", namesModel},
	{"bounds", boundsModel},
}

// boundsModel has one column of every bound shape and kind, and one row of every type.
func boundsModel() *Model {
	m := New("bounds")
	var cols []Var
	for _, c := range []struct {
		kind   Kind
		lo, hi float64
	}{
		{Continuous, 0, inf}, {Continuous, 2, inf}, {Continuous, -3, -1}, {Continuous, 0, 4},
		{Continuous, math.Inf(-1), 5}, {Continuous, math.Inf(-1), -2}, {Continuous, math.Inf(-1), inf},
		{Continuous, 1.5, 1.5}, {Continuous, 0, 0},
		{Integer, 0, inf}, {Integer, -2, inf}, {Integer, math.Inf(-1), 3}, {Integer, math.Inf(-1), inf},
		{Integer, 0, 1}, {Integer, 4, 4}, {Integer, -5, 7},
		{Binary, 0, 1}, {Binary, 1, 1}, {Binary, 0, 0},
	} {
		cols = append(cols, m.AddVar(c.kind, c.lo, c.hi, ""))
	}
	all := Sum(cols...)
	m.AddConstr(all, LE, 10, "le")
	m.AddConstr(all, GE, -10, "ge")
	m.AddConstr(all, EQ, 0.5, "eq")
	m.AddRange(all, -1, 2, "range")
	m.AddRange(all, 0.1, 0.3, "range_inexact")
	m.AddRange(all, -1e20, 3, "range_wide")
	m.AddRange(all, math.Inf(-1), inf, "free")
	m.AddConstr(Expr{}, LE, 1, "empty")
	m.SetObjective(Minimize, Term(cols[0], 1))
	return m
}

func TestWritersMatchGoldenFiles(t *testing.T) {
	for _, g := range goldenModels {
		for _, format := range []string{"mps", "lp"} {
			t.Run(g.name+"."+format, func(t *testing.T) {
				var buf bytes.Buffer
				m := g.build()
				var err error
				if format == "mps" {
					err = m.WriteMPS(&buf)
				} else {
					err = m.WriteLP(&buf)
				}
				if err != nil {
					t.Fatal(err)
				}
				path := filepath.Join("testdata", g.name+"."+format)
				if *update {
					if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test -update to create it)", err)
				}
				if !bytes.Equal(buf.Bytes(), want) {
					t.Errorf("output differs from %s (run go test -update after checking the change):\n%s", path, buf.String())
				}
			})
		}
	}
}

func TestMPSRoundTrip(t *testing.T) {
	for _, g := range goldenModels {
		t.Run(g.name, func(t *testing.T) {
			m := g.build()
			first := writeMPS(t, m)
			back := readMPS(t, first)
			if d := equalModels(m, back, false); d != "" {
				t.Errorf("read back a different model: %s", d)
			}
			if second := writeMPS(t, back); !bytes.Equal(first, second) {
				t.Errorf("second write differs:\n%s\n---\n%s", first, second)
			}
		})
	}
}

func TestMPSNamesAreSanitisedUniquely(t *testing.T) {
	m := readMPS(t, writeMPS(t, namesModel()))
	var cols, rows []string
	for j := range m.NumVars() {
		cols = append(cols, m.VarName(Var(j)))
	}
	for i := range m.NumRows() {
		rows = append(rows, m.RowName(Row(i)))
	}
	wantCols := []string{"x_1__2_", "x_1__2__2", "x2", "x2_2", "_free", "_3d", "_nergie"}
	wantRows := []string{"obj_2", "c1", "c1_2", "cap", "cap_lo"}
	if !slices.Equal(cols, wantCols) {
		t.Errorf("columns %q, want %q", cols, wantCols)
	}
	if !slices.Equal(rows, wantRows) {
		t.Errorf("rows %q, want %q", rows, wantRows)
	}
	if m.Name != "my_model_v2" {
		t.Errorf("model name %q", m.Name)
	}
}

func TestEncodeRangeIsExactWherePossible(t *testing.T) {
	for _, c := range [][2]float64{{0.1, 0.3}, {-1, 2}, {1e-300, 1}, {-1e20, 0.1}, {3, 1e15 + 0.5},
		{-7.25, -7.125}, {0.1, 0.7}, {1.1, 2.2}, {-0.25, 0.1}} {
		typ, rhs, r, err := encodeRange(c[0], c[1])
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := rhs, rhs+r
		if typ == 'L' {
			lo, hi = rhs-r, rhs
		}
		if lo != c[0] || hi != c[1] || r <= 0 {
			t.Errorf("[%g, %g] encoded as %c %g R %g, which reads back as [%g, %g]", c[0], c[1], typ, rhs, r, lo, hi)
		}
	}
	// [-0.3, 0.1] has no exact encoding: R = 0.4 is too coarse near either bound. The
	// bound read back is then within one ulp of R, and it re-encodes exactly, so a
	// model read from a file always round-trips.
	typ, rhs, r, _ := encodeRange(-0.3, 0.1)
	if typ != 'L' || rhs != 0.1 {
		t.Errorf("[-0.3, 0.1] encoded as %c %g R %g, want an L row with RHS 0.1", typ, rhs, r)
	}
	lo := rhs - r
	if math.Abs(lo+0.3) > math.Nextafter(r, inf)-r {
		t.Errorf("[-0.3, 0.1] reads back with lower bound %g", lo)
	}
	typ2, rhs2, r2, _ := encodeRange(lo, 0.1)
	if typ2 != 'L' || rhs2-r2 != lo {
		t.Errorf("[%g, 0.1] does not re-encode exactly: %c %g R %g", lo, typ2, rhs2, r2)
	}
	if _, _, _, err := encodeRange(-math.MaxFloat64, math.MaxFloat64); err == nil {
		t.Error("a range wider than MaxFloat64 was accepted")
	}
}

func TestReadMPSSemantics(t *testing.T) {
	data, err := os.ReadFile("testdata/semantics.mps")
	if err != nil {
		t.Fatal(err)
	}
	m := readMPS(t, data)
	ninf := math.Inf(-1)
	if m.Name != "SEMANTICS" || m.Sense() != Maximize || m.ObjectiveConstant() != -7.5 {
		t.Errorf("name %q, sense %v, constant %g; want SEMANTICS, max, -7.5", m.Name, m.Sense(), m.ObjectiveConstant())
	}
	type col struct {
		name   string
		kind   Kind
		lo, hi float64
		cost   float64
	}
	wantCols := []col{
		{"I1", Integer, 0, 1, 1}, // MARKER integer without bounds: binary, as in HiGHS
		{"I2", Integer, 0, 10, 0},
		{"X1", Continuous, ninf, -1, -2.5}, // negative UP without LO: lower bound -inf
		{"X2", Continuous, -3, -1, 0},      // negative UP after LO keeps LO
		{"X3", Continuous, ninf, 2, 0},
		{"X4", Continuous, ninf, inf, 0},
		{"X5", Continuous, 0, inf, 0},
		{"B1", Binary, 0, 1, 4},
		{"N1", Integer, 2, 8, 0},
	}
	if m.NumVars() != len(wantCols) {
		t.Fatalf("%d columns, want %d", m.NumVars(), len(wantCols))
	}
	for j, w := range wantCols {
		v := Var(j)
		lo, hi := m.Bounds(v)
		got := col{m.VarName(v), m.VarKind(v), lo, hi, m.ObjectiveCoef(v)}
		if got != w {
			t.Errorf("column %d = %+v, want %+v", j, got, w)
		}
	}
	type row struct {
		name   string
		lo, hi float64
		idx    []int32
		val    []float64
	}
	wantRows := []row{
		{"EPOS", 2, 3.5, []int32{0, 7}, []float64{1, -1}}, // E, R > 0: [rhs, rhs+R]
		{"ENEG", 1, 3, []int32{2}, []float64{1}},          // E, R < 0: [rhs+R, rhs]
		{"LRNG", 1, 4, []int32{1}, []float64{2}},          // L: [rhs-|R|, rhs]
		{"GRNG", -1, 1, []int32{2, 4}, []float64{1, -1}},  // G: [rhs, rhs+|R|]
		{"EZERO", 5, 5, []int32{8}, []float64{1}},         // zero entry dropped, R = 0
		{"FREE", ninf, inf, []int32{2}, []float64{3}},     // second N row kept as free
		{"PLAIN", ninf, 0, []int32{3, 6}, []float64{1, 1}},
	}
	if m.NumRows() != len(wantRows) {
		t.Fatalf("%d rows, want %d", m.NumRows(), len(wantRows))
	}
	for i, w := range wantRows {
		r := Row(i)
		lo, hi := m.RowBounds(r)
		idx, val := m.RowTerms(r)
		if m.RowName(r) != w.name || lo != w.lo || hi != w.hi || !slices.Equal(idx, w.idx) || !slices.Equal(val, w.val) {
			t.Errorf("row %d = %s [%g, %g] %v %v, want %+v", i, m.RowName(r), lo, hi, idx, val, w)
		}
	}
}

func TestReadMPSAcceptsFixedFormatWithoutSetNames(t *testing.T) {
	src := `NAME          FIXED
ROWS
 N  COST
 L  LIM1
COLUMNS
    X1        COST         1.0   LIM1         1.0
RHS
              LIM1         4.0
BOUNDS
 UP           X1           3.0
 MI           X1
ENDATA
`
	m := readMPS(t, []byte(src))
	if lo, hi := m.Bounds(0); lo != math.Inf(-1) || hi != 3 {
		t.Errorf("X1 bounds [%g, %g], want [-inf, 3]", lo, hi)
	}
	if _, hi := m.RowBounds(0); hi != 4 {
		t.Errorf("LIM1 upper bound %g, want 4", hi)
	}
}

func TestReadMPSErrors(t *testing.T) {
	const head = "NAME t\nROWS\n N obj\n L c1\nCOLUMNS\n"
	tests := []struct {
		name string
		src  string
		want string
	}{
		{"unknown row in COLUMNS", head + "    x c1 1\n    x c9 2\nENDATA\n", `line 7: COLUMNS: unknown row "c9"`},
		{"unknown section", "NAME t\nROWZ\n", `line 2: unknown section "ROWZ"`},
		{"missing ENDATA", head + "    x c1 1\n", "line 6: missing ENDATA"},
		{"NaN value", head + "    x c1 NaN\nENDATA\n", `line 6: COLUMNS: value "NaN" is NaN`},
		{"infinite RHS on an equality row", "NAME t\nROWS\n N obj\n E c1\nCOLUMNS\n    x c1 1\nRHS\n    RHS c1 1e30\nENDATA\n", `line 8: RHS: infinite right-hand side on the equality row "c1"`},
		{"overflowing value", head + "    x c1 1e999\nENDATA\n", `line 6: COLUMNS: coefficient "1e999" is beyond the largest accepted magnitude 1e+15`},
		{"huge coefficient", head + "    x c1 1e300\nENDATA\n", `line 6: COLUMNS: coefficient "1e300" is beyond the largest accepted magnitude 1e+15`},
		{"NaN bound", head + "    x c1 1\nBOUNDS\n UP BND x nan\nENDATA\n", `line 8: BOUNDS: value "nan" is NaN`},
		{"NaN right-hand side", head + "    x c1 1\nRHS\n    RHS c1 NaN\nENDATA\n", `line 8: RHS: value "NaN" is NaN`},
		{"semi-continuous without upper bound", head + "    x c1 1\nBOUNDS\n SC BND x\nENDATA\n", `line 8: BOUNDS: semi-continuous column "x": bounds [0, +Inf]: needs 0 <= lower bound <= upper bound < 1e+20`},
		{"semi-continuous with infinite upper bound", head + "    x c1 1\nBOUNDS\n SC BND x 1e30\nENDATA\n", `line 8: BOUNDS: semi-continuous column "x": bounds [0, +Inf]: needs 0 <= lower bound <= upper bound < 1e+20`},
		{"semi-integer with negative lower bound", head + "    x c1 1\nBOUNDS\n LO BND x -1\n SI BND x 4\nENDATA\n", `line 9: BOUNDS: semi-integer column "x": bounds [-1, 4]: needs 0 <= lower bound <= upper bound < 1e+20`},
		{"QSECTION", head + "    x c1 1\nQSECTION obj\n", "line 7: section QSECTION: quadratic terms are not supported"},
		{"QMATRIX", head + "    x c1 1\nQMATRIX\n", "line 7: section QMATRIX: quadratic terms are not supported"},
		{"QCMATRIX", head + "    x c1 1\nQCMATRIX c1\n", "line 7: section QCMATRIX: quadratic terms are not supported"},
		{"bad number", head + "    x c1 1..2\nENDATA\n", `line 6: COLUMNS: bad number "1..2"`},
		{"duplicate row", "NAME t\nROWS\n N obj\n L c1\n G c1\n", `line 5: ROWS: duplicate row "c1"`},
		{"row named like the objective", "NAME t\nROWS\n N obj\n L obj\n", `line 4: ROWS: duplicate row "obj"`},
		{"unknown row type", "NAME t\nROWS\n X c1\n", `line 3: ROWS: unknown row type "X"`},
		{"column split in two", head + "    x c1 1\n    y c1 1\n    x obj 1\nENDATA\n", `line 8: COLUMNS: column "x" appears again after other columns`},
		{"duplicate entry", head + "    x c1 1 c1 2\nENDATA\n", `line 6: COLUMNS: duplicate entry for column "x" in row "c1"`},
		{"unknown column in BOUNDS", head + "    x c1 1\nBOUNDS\n UP BND y 1\nENDATA\n", `line 8: BOUNDS: unknown column "y"`},
		{"unknown bound type", head + "    x c1 1\nBOUNDS\n XX BND x 1\nENDATA\n", `line 8: BOUNDS: unknown bound type "XX"`},
		{"lower above upper", head + "    x c1 1\nBOUNDS\n LO BND x 5\n UP BND x 3\nENDATA\n", `line 9: BOUNDS: column "x": lower bound 5 > upper bound 3`},
		{"range on a free row", "NAME t\nROWS\n N obj\n N f\nCOLUMNS\n    x f 1\nRANGES\n    RNG f 2\nENDATA\n", `line 8: RANGES: range on the free row "f"`},
		{"two RHS sets", head + "    x c1 1\nRHS\n    A c1 1\n    B c1 2\nENDATA\n", `line 9: RHS: a second set "B" (after "A") is not supported`},
		{"COLUMNS before ROWS", "NAME t\nCOLUMNS\n", "line 2: section COLUMNS before ROWS"},
		{"section twice", head + "    x c1 1\nRHS\nRHS\n", "line 8: section RHS appears twice"},
		{"quadratic section", head + "    x c1 1\nQUADOBJ\n", "line 7: section QUADOBJ: quadratic terms are not supported"},
		{"data before any section", " N obj\n", "line 1: data line before the first section"},
		{"bad objective sense", "NAME t\nOBJSENSE\n    UP\n", `line 3: OBJSENSE: unknown sense "UP"`},
		{"too many fields", head + "    x c1 1 c1 2 c1\nENDATA\n", "line 6: COLUMNS: expected a column and one or two row/value pairs, got 6 fields"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadMPS(strings.NewReader(tc.src))
			if err == nil {
				t.Fatal("no error")
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Errorf("error %v is not a *ParseError", err)
			}
			if err.Error() != tc.want {
				t.Errorf("error %q, want %q", err, tc.want)
			}
		})
	}
}
