package model

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readLP reads LP data, failing the test on an error.
func readLP(t testing.TB, data []byte) *Model {
	t.Helper()
	m, err := ReadLP(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("ReadLP: %v\n%s", err, data)
	}
	return m
}

// writeLP writes m as LP, failing the test on an error.
func writeLP(t testing.TB, m *Model) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := m.WriteLP(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestReadLPGoldenFiles reads every LP golden file and checks that it is the model
// of the MPS golden file of the same name, and that writing it gives the file back.
func TestReadLPGoldenFiles(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.lp"))
	if len(files) == 0 {
		t.Fatal("no LP golden files")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			m := readLP(t, data)
			if got := writeLP(t, m); !bytes.Equal(got, data) {
				t.Errorf("writing the model read gives a different file:\n%s\n--- want\n%s", got, data)
			}
			mpsData, err := os.ReadFile(strings.TrimSuffix(file, ".lp") + ".mps")
			if err != nil {
				return
			}
			want := lpExpected(readMPS(t, mpsData))
			if d := equalModels(lpExpected(m), want, false); d != "" {
				t.Errorf("differs from the MPS file's model: %s", d)
			}
		})
	}
}

// TestReadLPRoundTrip: random models (every column kind, bound shape and row type)
// written as LP read back as the model WriteLP describes (ranged rows split in two).
func TestReadLPRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 11))
	for i := range 300 {
		data := make([]byte, 8+rng.IntN(120))
		for k := range data {
			data[k] = byte(rng.UintN(256))
		}
		m := fuzzModel(data)
		if m.validateStructure() != nil || hugeCoefficient(m) {
			continue // coefficients beyond MaxMPSCoefficient are refused by both readers
		}
		lp := writeLP(t, m)
		got := readLP(t, lp)
		if d := equalModels(lpExpected(got), lpExpected(m), false); d != "" {
			t.Fatalf("model %d: %s\n%s", i, d, lp)
		}
		if again := writeLP(t, got); !bytes.Equal(again, lp) {
			t.Fatalf("model %d: second write differs:\n%s\n---\n%s", i, lp, again)
		}
	}
}

// hugeCoefficient reports whether m has a coefficient the readers refuse.
func hugeCoefficient(m *Model) bool {
	for j := range m.NumVars() {
		if math.Abs(m.ObjectiveCoef(Var(j))) >= MaxMPSCoefficient {
			return true
		}
	}
	for r := range m.NumRows() {
		_, val := m.RowTerms(Row(r))
		for _, v := range val {
			if math.Abs(v) >= MaxMPSCoefficient {
				return true
			}
		}
	}
	return false
}

// TestReadLPConstructs checks the constructs of other writers, one file each.
func TestReadLPConstructs(t *testing.T) {
	inf := math.Inf(1)
	type col struct {
		kind   Kind
		lo, hi float64
		obj    float64
	}
	type row struct {
		lo, hi float64
		terms  map[string]float64
	}
	tests := []struct {
		name  string
		src   string
		sense Sense
		cst   float64
		cols  map[string]col
		rows  map[string]row
	}{
		{"cplex style", `\ a comment
MAXIMIZE
 value: 3x + 2 y - z \ trailing comment
SUBJECT TO
 cap1: x + y <= 4
 cap2: x +
     z >= 1
 -x + y = 0
BOUNDS
 x <= 10
 -5 <= z <= 5
 y free
GENERALS
 x
END`, Maximize, 0, map[string]col{"x": {Integer, 0, 10, 3}, "y": {Continuous, -inf, inf, 2}, "z": {Continuous, -5, 5, -1}},
			map[string]row{"cap1": {-inf, 4, map[string]float64{"x": 1, "y": 1}}, "cap2": {1, inf, map[string]float64{"x": 1, "z": 1}}}},
		{"ranges, constants and infinities", `min
 obj: 2 a + b + 7 - 2
st
 r: -1 <= a - b <= 2
 s: 2 >= a
 t: a + 3 + b <= 5
 u: b >= -infinity
bounds
 a >= -INF
 b <= +Inf
 3 >= a
end`, Minimize, 5, map[string]col{"a": {Continuous, -inf, 3, 2}, "b": {Continuous, 0, inf, 1}},
			map[string]row{"r": {-1, 2, map[string]float64{"a": 1, "b": -1}}, "s": {-inf, 2, map[string]float64{"a": 1}},
				"t": {-inf, 2, map[string]float64{"a": 1, "b": 1}}, "u": {-inf, inf, map[string]float64{"b": 1}}}},
		{"binary, semi and repeated terms", `Minimize
 x + x + s + k + b
Subject To
 c: x + 2 x + s >= 1
Bounds
 s <= 8
 2 <= k <= 9
Binary
 b
General
 k
Semi-continuous
 s k
End`, Minimize, 0, map[string]col{"x": {Continuous, 0, inf, 2}, "s": {SemiContinuous, 0, 8, 1},
			"k": {SemiInteger, 2, 9, 1}, "b": {Binary, 0, 1, 1}},
			map[string]row{"c": {1, inf, map[string]float64{"x": 3, "s": 1}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := readLP(t, []byte(tt.src))
			if m.Sense() != tt.sense || m.ObjectiveConstant() != tt.cst {
				t.Errorf("sense %v constant %v, want %v %v", m.Sense(), m.ObjectiveConstant(), tt.sense, tt.cst)
			}
			if m.NumVars() != len(tt.cols) {
				t.Errorf("%d columns, want %d", m.NumVars(), len(tt.cols))
			}
			for j := range m.NumVars() {
				v := Var(j)
				want, ok := tt.cols[m.VarName(v)]
				lo, hi := m.Bounds(v)
				if got := (col{m.VarKind(v), lo, hi, m.ObjectiveCoef(v)}); !ok || got != want {
					t.Errorf("column %s: %+v, want %+v", m.VarName(v), got, want)
				}
			}
			for r := range m.NumRows() {
				want, ok := tt.rows[m.RowName(Row(r))]
				if !ok {
					continue
				}
				lo, hi := m.RowBounds(Row(r))
				idx, val := m.RowTerms(Row(r))
				terms := map[string]float64{}
				for k, j := range idx {
					terms[m.VarName(Var(j))] += val[k]
				}
				if lo != want.lo || hi != want.hi || len(terms) != len(want.terms) {
					t.Errorf("row %s: [%v, %v] %v, want %+v", m.RowName(Row(r)), lo, hi, terms, want)
				}
				for n, c := range want.terms {
					if terms[n] != c {
						t.Errorf("row %s: %s has %v, want %v", m.RowName(Row(r)), n, terms[n], c)
					}
				}
			}
		})
	}
}

// TestReadLPErrors checks that malformed files give a *ParseError naming the line.
func TestReadLPErrors(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
		reason    string
	}{
		{"no objective", "Subject To\n c: x >= 1\nEnd\n", 1, "before the objective"},
		{"empty", "", 0, "no objective"},
		{"missing operator", "min\n x\nst\n c: x + y\nEnd\n", 5, "expected <=, >= or ="},
		{"missing rhs", "min\n x\nst\n c: x >=\nbounds\nEnd\n", 5, "expected a number"},
		{"bad number", "min\n x\nst\n c: x >= 1.2.3\nEnd\n", 4, "bad number"},
		{"duplicate row", "min\n x\nst\n c: x >= 1\n c: x <= 3\nEnd\n", 5, "duplicate constraint"},
		{"empty bounds", "min\n x\nbounds\n x <= -1\nEnd\n", 4, "bounds [0, -1]"},
		{"semi without upper bound", "min\n x\nsemi\n x\nEnd\n", 4, "needs 0 <= lower bound"},
		{"quadratic", "min\n obj: x + [ x ^ 2 ] / 2\nEnd\n", 2, "quadratic"},
		{"sign alone", "min\n x +\nst\n c: x >= 1\nEnd\n", 3, "expected a term"},
		{"huge coefficient", "min\n 1e16 x\nEnd\n", 2, "beyond the largest"},
		{"two objectives", "min\n x\nmax\n x\nEnd\n", 3, "second objective"},
		{"two-sided mixed", "min\n x\nst\n c: 1 <= x >= 2\nEnd\n", 4, "same operator twice"},
		{"bound without operator", "min\n x\nbounds\n x 3\nEnd\n", 4, "expected an operator"},
		{"sos", "min\n x\nst\n c: x >= 1\nSOS\n s1: x:1\nEnd\n", 5, "SOS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadLP(strings.NewReader(tt.src))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v, want a *ParseError", err)
			}
			if pe.Line != tt.line || !strings.Contains(pe.Error(), tt.reason) {
				t.Errorf("error %q (line %d), want line %d and %q", pe, pe.Line, tt.line, tt.reason)
			}
		})
	}
}

// FuzzReadLP checks that ReadLP never panics, that its errors are *ParseError values,
// and that what it accepts writes as LP and reads back as the same model.
func FuzzReadLP(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.lp"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("max\n v: 3x + 2 y - z + 4\nst\n c1: x + y <= 4\n r: -1 <= x - z <= 2\n 2 >= y\nbounds\n x <= 1e30\n 1 <= z <= 5\n y free\ngen\n x\nbin\n b\nsemi\n z\nend\n"))
	f.Add([]byte("Minimize\n obj:\nSubject To\nEnd\n"))
	f.Add([]byte("\\ comment\nMAXIMIZE\n value: 3x + 2 y - z \\ trailing\nSUBJECT TO\n cap1: x + y <= 4\n cap2: x +\n     z >= 1\n -x + y = 0\n 0 >= -1\nBOUNDS\n x <= 10\n 1 <= z <= 5\n y free\n 3 >= x\n y >= -Infinity\nGENERALS\n x\nSEMIS\n z\nEND\n"))
	f.Add([]byte("min\n obj: 2 a + b + 7 - 2\ns.t.\n r: -1 <= a - b <= 2\n s: 2 >= a\n t: a + 3 + b <= 5\n u: b >= -inf\nbounds\n a >= -INF\n b <= +inf\nbin\n c\nend\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m1, err := ReadLP(bytes.NewReader(data))
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			return
		}
		if err := m1.validateStructure(); err != nil {
			t.Fatalf("ReadLP returned an invalid model: %v", err)
		}
		var w1 bytes.Buffer
		if err := m1.WriteLP(&w1); err != nil {
			t.Fatalf("WriteLP: %v", err)
		}
		m2, err := ReadLP(bytes.NewReader(w1.Bytes()))
		if err != nil {
			t.Fatalf("the written file does not read back: %v\n%s", err, w1.Bytes())
		}
		if d := equalModels(lpExpected(m1), lpExpected(m2), false); d != "" {
			t.Fatalf("the written file reads back as a different model: %s\n%s", d, w1.Bytes())
		}
	})
}

// TestReadLPCommentLinesKeepTokens: a blank or comment line between two tokens must
// not overwrite the first token's text once the lexer's line buffers have grown (a
// column "A" read as "0", a right-hand side 10 as " >").
func TestReadLPCommentLinesKeepTokens(t *testing.T) {
	long := "\\ a long comment line that makes both line buffers grow large enough for later lines\n"
	tests := []struct {
		name, file string
		cols       []string
		hi         float64 // upper bound of the first row
	}{
		{"comment between rows", long + "Minimize\n obj: x\nSubject To\n c1: x + y <= 10\n\\ comment\n c2: 2 x + 3 y >= 2\nEnd\n", []string{"x", "y"}, 10},
		{"blank line inside the objective", "MAX\nA\n\n00\nSubject To\n c: A <= 3\n", []string{"A"}, 3},
		{"blank lines after a name", long + "Minimize\n obj: xyz\n\n\n\n + w\nSubject To\n c: xyz + w <= 4\nEnd\n", []string{"xyz", "w"}, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ReadLP(strings.NewReader(tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if m.NumVars() != len(tc.cols) {
				t.Fatalf("%d columns, want %v", m.NumVars(), tc.cols)
			}
			for j, name := range tc.cols {
				if got := m.VarName(Var(j)); got != name {
					t.Errorf("column %d is %q, want %q", j, got, name)
				}
			}
			if _, hi := m.RowBounds(0); hi != tc.hi {
				t.Errorf("first row's upper bound %g, want %g", hi, tc.hi)
			}
		})
	}
}
