package model

import (
	"math"
	"os"
	"strings"
	"testing"
)

// TestReadMPSDialects reads, one construct at a time, the MPS dialects other solvers'
// files use, and checks the column, row or objective each one means.
func TestReadMPSDialects(t *testing.T) {
	inf := math.Inf(1)
	ninf := math.Inf(-1)
	const rows = "ROWS\n N obj\n L c1\n"
	tests := []struct {
		name         string
		src          string
		col          string // column to check ("" for none)
		kind         Kind
		lo, hi       float64
		rowLo, rowHi float64 // bounds of row c1 (checked when the file has it)
		sense        Sense
		warns        int
	}{
		{"1e30 upper bound is infinite", rows + "COLUMNS\n    x c1 1\nBOUNDS\n UP BND x 1e30\nENDATA\n", "x", Continuous, 0, inf, ninf, 0, Minimize, 0},
		{"1e20 upper bound is infinite", rows + "COLUMNS\n    x c1 1\nBOUNDS\n UP BND x 1e20\nENDATA\n", "x", Continuous, 0, inf, ninf, 0, Minimize, 0},
		{"just below 1e20 is finite", rows + "COLUMNS\n    x c1 1\nBOUNDS\n UP BND x 9.9e19\nENDATA\n", "x", Continuous, 0, 9.9e19, ninf, 0, Minimize, 0},
		{"-1e30 lower bound is infinite", rows + "COLUMNS\n    x c1 1\nBOUNDS\n LO BND x -1e30\nENDATA\n", "x", Continuous, ninf, inf, ninf, 0, Minimize, 0},
		{"1e30 right-hand side is infinite", rows + "COLUMNS\n    x c1 1\nRHS\n    RHS c1 1e30\nENDATA\n", "x", Continuous, 0, inf, ninf, inf, Minimize, 0},
		{"Fortran exponent", rows + "COLUMNS\n    x c1 1.5D1\nRHS\n    RHS c1 2.0d-1\nENDATA\n", "x", Continuous, 0, inf, ninf, 0.2, Minimize, 0},
		{"OBJSENSE MAX on one line", "NAME t\nOBJSENSE MAX\n" + rows + "COLUMNS\n    x c1 1\nENDATA\n", "x", Continuous, 0, inf, ninf, 0, Maximize, 0},
		{"OBJSENSE MAXIMIZE on the next line", "NAME t\nOBJSENSE\n    MAXIMIZE\n" + rows + "COLUMNS\n    x c1 1\nENDATA\n", "x", Continuous, 0, inf, ninf, 0, Maximize, 0},
		{"OBJSENSE value at column 1", "NAME t\nOBJSENSE\nMAX\n" + rows + "COLUMNS\n    x c1 1\nENDATA\n", "x", Continuous, 0, inf, ninf, 0, Maximize, 0},
		{"OBJSENSE MIN in fixed format", "NAME          T\nOBJSENSE\n    MIN\n" + rows + "COLUMNS\n    x         c1        1\nENDATA\n", "x", Continuous, 0, inf, ninf, 0, Minimize, 0},
		{"E row, negative range", "ROWS\n N obj\n E c1\nCOLUMNS\n    x c1 1\nRHS\n    RHS c1 4\nRANGES\n    RNG c1 -3\nENDATA\n", "x", Continuous, 0, inf, 1, 4, Minimize, 0},
		{"E row, positive range", "ROWS\n N obj\n E c1\nCOLUMNS\n    x c1 1\nRHS\n    RHS c1 4\nRANGES\n    RNG c1 3\nENDATA\n", "x", Continuous, 0, inf, 4, 7, Minimize, 0},
		{"negative UP on an integer column: lower -inf, warned", rows + "COLUMNS\n    m 'MARKER' 'INTORG'\n    x c1 1\n    m 'MARKER' 'INTEND'\nBOUNDS\n UP BND x -2\nENDATA\n", "x", Integer, ninf, -2, ninf, 0, Minimize, 1},
		{"INTORG without INTEND: integer to the end of COLUMNS, warned", rows + "COLUMNS\n    m 'MARKER' 'INTORG'\n    x c1 1\nBOUNDS\n UP BND x 5\nENDATA\n", "x", Integer, 0, 5, ninf, 0, Minimize, 1},
		{"SC bound", rows + "COLUMNS\n    x c1 1\nBOUNDS\n LO BND x 2\n SC BND x 5\nENDATA\n", "x", SemiContinuous, 2, 5, ninf, 0, Minimize, 0},
		{"SC bound on an integer column is semi-integer", rows + "COLUMNS\n    m 'MARKER' 'INTORG'\n    x c1 1\n    m 'MARKER' 'INTEND'\nBOUNDS\n SC BND x 5\nENDATA\n", "x", SemiInteger, 0, 5, ninf, 0, Minimize, 0},
		{"SI bound", rows + "COLUMNS\n    x c1 1\nBOUNDS\n LO BND x 1\n SI BND x 6\nENDATA\n", "x", SemiInteger, 1, 6, ninf, 0, Minimize, 0},
		{"SC without a value keeps the upper bound", rows + "COLUMNS\n    x c1 1\nBOUNDS\n UP BND x 3\n SC BND x\nENDATA\n", "x", SemiContinuous, 0, 3, ninf, 0, Minimize, 0},
		{"MI PL", rows + "COLUMNS\n    x c1 1\nBOUNDS\n MI BND x\n PL BND x\nENDATA\n", "x", Continuous, ninf, inf, ninf, 0, Minimize, 0},
		{"FR", rows + "COLUMNS\n    x c1 1\nBOUNDS\n FR BND x\nENDATA\n", "x", Continuous, ninf, inf, ninf, 0, Minimize, 0},
		{"BV", rows + "COLUMNS\n    x c1 1\nBOUNDS\n BV BND x\nENDATA\n", "x", Binary, 0, 1, ninf, 0, Minimize, 0},
		{"LI UI", rows + "COLUMNS\n    x c1 1\nBOUNDS\n LI BND x -3\n UI BND x 7\nENDATA\n", "x", Integer, -3, 7, ninf, 0, Minimize, 0},
		{"later bound line overrides", rows + "COLUMNS\n    x c1 1\nBOUNDS\n UP BND x 3\n UP BND x 4\nENDATA\n", "x", Continuous, 0, 4, ninf, 0, Minimize, 0},
		{"empty sections", rows + "COLUMNS\n    x c1 1\nRHS\nRANGES\nBOUNDS\nENDATA\n", "x", Continuous, 0, inf, ninf, 0, Minimize, 0},
		{"tabs and CRLF", strings.ReplaceAll(rows+"COLUMNS\n\tx\tc1\t1\nRHS\n\tRHS\tc1\t2\nENDATA\n", "\n", "\r\n"), "x", Continuous, 0, inf, ninf, 2, Minimize, 0},
		{"OBJNAME picks the objective", "NAME t\nOBJNAME\n    o2\nROWS\n N o1\n N o2\n L c1\nCOLUMNS\n    x o2 3 c1 1\nENDATA\n", "x", Continuous, 0, inf, ninf, 0, Minimize, 0},
		{"fixed format, names with spaces", "NAME          T\nROWS\n N  obj\n L  c1\nCOLUMNS\n    my x      c1        1.0\nRHS\n    RHS       c1        2.0\nBOUNDS\n UP BND       my x      3.0\nENDATA\n", "my x", Continuous, 0, 3, ninf, 2, Minimize, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			warns := 0
			m, err := ReadMPSWarn(strings.NewReader(tc.src), func(int, string) { warns++ })
			if err != nil {
				t.Fatal(err)
			}
			if warns != tc.warns {
				t.Errorf("%d warnings, want %d", warns, tc.warns)
			}
			if m.Sense() != tc.sense {
				t.Errorf("sense %v, want %v", m.Sense(), tc.sense)
			}
			v := Var(-1)
			for j := range m.NumVars() {
				if m.VarName(Var(j)) == tc.col {
					v = Var(j)
				}
			}
			if v < 0 {
				t.Fatalf("no column %q", tc.col)
			}
			if lo, hi := m.Bounds(v); m.VarKind(v) != tc.kind || lo != tc.lo || hi != tc.hi {
				t.Errorf("column %s: %v [%g, %g], want %v [%g, %g]", tc.col, m.VarKind(v), lo, hi, tc.kind, tc.lo, tc.hi)
			}
			for i := range m.NumRows() {
				if m.RowName(Row(i)) == "c1" {
					if lo, hi := m.RowBounds(Row(i)); lo != tc.rowLo || hi != tc.rowHi {
						t.Errorf("row c1 [%g, %g], want [%g, %g]", lo, hi, tc.rowLo, tc.rowHi)
					}
				}
			}
		})
	}
}

// TestReadMPSDialectFile reads testdata/dialects.mps (CRLF, tabs, fixed format with
// spaces in names, D exponents, 1e30, SC, an open INTORG block) as one file.
func TestReadMPSDialectFile(t *testing.T) {
	data, err := os.ReadFile("testdata/dialects.mps")
	if err != nil {
		t.Fatal(err)
	}
	var warns []string
	m, err := ReadMPSWarn(strings.NewReader(string(data)), func(line int, msg string) { warns = append(warns, msg) })
	if err != nil {
		t.Fatal(err)
	}
	if m.Sense() != Maximize || m.NumVars() != 3 || m.NumRows() != 2 {
		t.Fatalf("sense %v, %d columns, %d rows; want max, 3, 2", m.Sense(), m.NumVars(), m.NumRows())
	}
	want := []struct {
		name   string
		kind   Kind
		lo, hi float64
	}{{"X ONE", Continuous, 0, math.Inf(1)}, {"Y", Integer, math.Inf(-1), -1}, {"S", SemiInteger, 2, 4}}
	for j, w := range want {
		lo, hi := m.Bounds(Var(j))
		if m.VarName(Var(j)) != w.name || m.VarKind(Var(j)) != w.kind || lo != w.lo || hi != w.hi {
			t.Errorf("column %d: %q %v [%g, %g], want %+v", j, m.VarName(Var(j)), m.VarKind(Var(j)), lo, hi, w)
		}
	}
	if lo, hi := m.RowBounds(0); lo != math.Inf(-1) || hi != 10 {
		t.Errorf("LIM 1: [%g, %g], want [-inf, 10]", lo, hi)
	}
	if lo, hi := m.RowBounds(1); lo != 1 || hi != 3 {
		t.Errorf("EQ: [%g, %g], want [1, 3]", lo, hi)
	}
	if len(warns) != 2 {
		t.Errorf("warnings %q, want 2 (open INTORG, negative UP)", warns)
	}
}

// TestSemiColumnsRoundTrip writes semi-continuous and semi-integer columns to MPS and LP
// and reads them back.
func TestSemiColumnsRoundTrip(t *testing.T) {
	m := New("semi")
	x := m.AddSemiContinuous(2, 5, "x")
	y := m.AddSemiInteger(0, 7, "y")
	z := m.AddSemiInteger(3, 3, "z")
	var e Expr
	e.Add(x, 1)
	e.Add(y, 2)
	e.Add(z, 1)
	m.AddConstr(e, GE, 1, "c")
	m.SetObjective(Minimize, e)
	got := readMPS(t, writeMPS(t, m))
	if d := equalModels(m, got, true); d != "" {
		t.Fatalf("MPS round trip: %s\n%s", d, writeMPS(t, m))
	}
	checkLP(t, m)
}

func TestSemiBoundsNeedAFiniteUpperBound(t *testing.T) {
	for _, tc := range []struct {
		name   string
		lo, hi float64
	}{{"infinite upper", 1, math.Inf(1)}, {"negative lower", -1, 2}} {
		t.Run(tc.name, func(t *testing.T) {
			m := New("")
			m.AddSemiContinuous(tc.lo, tc.hi, "x")
			if err := m.Validate(); err == nil || !strings.Contains(err.Error(), "semi-continuous") {
				t.Errorf("Validate = %v, want the semi-continuous bound error", err)
			}
		})
	}
}

func TestVerifySemiColumns(t *testing.T) {
	m := New("")
	m.AddSemiContinuous(2, 5, "x")
	m.AddSemiInteger(2, 5, "y")
	for _, tc := range []struct {
		name string
		x, y float64
		ok   bool
	}{
		{"both off", 0, 0, true},
		{"both on", 2.5, 3, true},
		{"x in the gap", 1, 0, false},
		{"x nearly 0", 1e-9, 0, true},
		{"y fractional", 0, 3.5, false},
		{"x above", 6, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := m.Verify([]float64{tc.x, tc.y})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Feasible() != tc.ok {
				t.Errorf("feasible %v (%s), want %v", rep.Feasible(), rep.Worst, tc.ok)
			}
		})
	}
}
