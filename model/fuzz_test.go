package model

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadMPS checks that ReadMPS never panics, that its errors are *ParseError
// values, and that whatever it accepts writes and reads back as the same model, with a
// byte-identical second write.
func FuzzReadMPS(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.mps"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, seed := range mpsConstructSeeds {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m1, err := ReadMPS(bytes.NewReader(data))
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			return
		}
		if err := m1.Validate(); err != nil {
			t.Fatalf("ReadMPS returned an invalid model: %v", err)
		}
		w1 := writeMPS(t, m1)
		m2 := readMPS(t, w1)
		if d := equalModels(m1, m2, false); d != "" {
			t.Fatalf("the written file reads back as a different model: %s\n%s", d, w1)
		}
		if w2 := writeMPS(t, m2); !bytes.Equal(w1, w2) {
			t.Fatalf("second write differs:\n%s\n---\n%s", w1, w2)
		}
		checkLP(t, m1)
	})
}

// mpsConstructSeeds are seeds of FuzzReadMPS for the constructs of the dialects
// (issue 11): SC and SI bounds with and without a value, Fortran D exponents, the
// OBJSENSE forms, RANGES on E rows of both signs, an INTORG left open, OBJNAME, and a
// negative UP bound without a lower bound.
var mpsConstructSeeds = []string{
	"NAME SC\nROWS\n N obj\n L c\nCOLUMNS\n x obj 1 c 1\n y obj -1 c 1\n z obj 2 c 1\nRHS\n rhs c 5\nBOUNDS\n SC bnd x 4\n SI bnd y 3\n SC bnd z\n UP bnd z 2.5\n LO bnd x 1\nENDATA\n",
	"NAME D\nROWS\n N obj\n G c\nCOLUMNS\n x obj 1.5D0 c 2d-1\n y obj 1.0d+2 c -3.25D+01\nRHS\n rhs c 1D1 obj -2.5d0\nBOUNDS\n UP bnd x 1.0D30\n FR bnd y\nENDATA\n",
	"NAME S1\nOBJSENSE\n    MAX\nROWS\n N obj\n L c\nCOLUMNS\n x obj 1 c 1\nRHS\n rhs c 3\nENDATA\n",
	"NAME S2\nOBJSENSE MAXIMIZE\nROWS\n N obj\n L c\nCOLUMNS\n x obj 1 c 1\nRHS\n rhs c 3\nENDATA\n",
	"NAME S3\nOBJSENSE\nMIN\nOBJNAME\n cost\nROWS\n N other\n N cost\n L c\nCOLUMNS\n x cost 1 c 1\n x other 4\nRHS\n rhs c 3\nENDATA\n",
	"NAME R\nROWS\n N obj\n E e1\n E e2\n L l\n G g\nCOLUMNS\n x obj 1 e1 1\n x e2 1 l 1\n x g 1\nRHS\n rhs e1 2 e2 3\n rhs l 4 g -1\nRANGES\n rng e1 1.5 e2 -2\n rng l 3 g -4\nENDATA\n",
	"NAME I\nROWS\n N obj\n L c\nCOLUMNS\n MARKER 'MARKER' 'INTORG'\n x obj 1 c 1\n y obj 2 c 1\nRHS\n rhs c 3\nBOUNDS\n UP bnd y -1\n UI bnd x 5\nENDATA\n",
	"NAME I2\nROWS\n N obj\n L c\nCOLUMNS\n MARKER 'MARKER' 'INTORG'\n x obj 1 c 1\n MARKER 'MARKER' 'INTEND'\n y obj 2 c 1\nRHS\n rhs c 3\nBOUNDS\n BV bnd x\n LI bnd y -2\n MI bnd y\nENDATA\n",
}

// FuzzWriteLP builds models from the fuzz bytes (every kind of column, bound shape,
// row type, duplicate term and awkward name) and checks that the LP output parses back
// as the model, and that MPS output round-trips.
func FuzzWriteLP(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x03\x00\x01\x02\x01\x03\x04\x02\x02\x05\x06\x07\x02\x03\x01\x00\x02\x01\x05\x04"))
	f.Add([]byte("\x07\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff\x10\x20\x30\x40\x50"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m := fuzzModel(data)
		var lp bytes.Buffer
		lpErr := m.WriteLP(&lp)
		if m.validateStructure() != nil {
			if lpErr == nil {
				t.Fatal("WriteLP accepted an invalid model")
			}
			return
		}
		if lpErr != nil {
			t.Fatalf("WriteLP rejected a valid model: %v", lpErr)
		}
		checkLP(t, m)

		// MPS: exact round trip, except that a ranged row with bounds of opposite sign
		// may move by one ulp of its range (see encodeRange); then the second round
		// trip must be exact.
		if err := m.WriteMPS(io.Discard); errors.Is(err, ErrNotMPS) {
			return // a number MPS cannot carry; WriteMPS says so
		}
		w1 := writeMPS(t, m)
		m2 := readMPS(t, w1)
		if d := equalModels(m, m2, false); d != "" {
			if !rangesWithinUlp(m, m2) {
				t.Fatalf("MPS reads back as a different model: %s\n%s", d, w1)
			}
		}
		w2 := writeMPS(t, m2)
		m3 := readMPS(t, w2)
		if d := equalModels(m2, m3, true); d != "" {
			t.Fatalf("second MPS round trip changed the model: %s", d)
		}
		if w3 := writeMPS(t, m3); !bytes.Equal(w2, w3) {
			t.Fatal("third MPS write differs from the second")
		}
	})
}

// rangesWithinUlp reports whether a and b differ only in ranged row bounds, by at most
// one ulp of the range.
func rangesWithinUlp(a, b *Model) bool {
	c := New("")
	*c = *b
	c.rowLo = append([]float64(nil), b.rowLo...)
	c.rowHi = append([]float64(nil), b.rowHi...)
	for i := range a.NumRows() {
		alo, ahi := a.rowLo[i], a.rowHi[i]
		if classifyRow(alo, ahi) != rowRange {
			continue
		}
		r := ahi - alo
		ulp := math.Nextafter(r, math.Inf(1)) - r
		if math.Abs(c.rowLo[i]-alo) > ulp || math.Abs(c.rowHi[i]-ahi) > ulp {
			return false
		}
		c.rowLo[i], c.rowHi[i] = alo, ahi
	}
	return equalModels(a, c, false) == ""
}

// fuzzValues are the numbers fuzzModel draws from: awkward decimals, extremes and
// infinities.
var fuzzValues = []float64{0, 1, -1, 2, -2.5, 0.1, 0.3, -0.3, 1e6, -1e-7, 3.75, 1e20,
	-1e300, 123456.789, math.Inf(1), math.Inf(-1)}

// fuzzNames are the names fuzzModel draws from, including every case the sanitiser
// handles.
var fuzzNames = []string{"", "x", "x y", "free", "obj", "1a", "a[1]", "é", "c0", "x0",
	"_", ".", "obj_2", "e", "a:b", "-", "<=", "*", "x1", "c1_lo"}

// fuzzModel builds a model from fuzz bytes. Missing bytes read as 0.
func fuzzModel(data []byte) *Model {
	i := 0
	next := func() int {
		if i >= len(data) {
			return 0
		}
		i++
		return int(data[i-1])
	}
	value := func() float64 { return fuzzValues[next()%len(fuzzValues)] }
	finite := func() float64 {
		v := value()
		if math.IsInf(v, 0) {
			return 1
		}
		return v
	}
	name := func() string { return fuzzNames[next()%len(fuzzNames)] }
	m := New(name())
	ncols := next() % 8
	for range ncols {
		kind := Kind(next() % 5)
		lo, hi := value(), value()
		if lo > hi {
			lo, hi = hi, lo
		}
		if kind == Binary {
			v := m.AddBinary(name())
			if next()%4 == 0 {
				m.Fix(v, float64(next()%2))
			}
			continue
		}
		m.AddVar(kind, lo, hi, name())
	}
	expr := func() Expr {
		var e Expr
		if ncols == 0 {
			return e
		}
		for range next() % 6 {
			e.Add(Var(next()%ncols), finite())
		}
		return e
	}
	for range next() % 8 {
		e := expr()
		a, b := value(), value()
		switch next() % 5 {
		case 0:
			m.AddConstr(e, LE, a, name())
		case 1:
			m.AddConstr(e, GE, a, name())
		case 2:
			m.AddConstr(e, EQ, a, name())
		default:
			if a > b {
				a, b = b, a
			}
			m.AddRange(e, a, b, name())
		}
	}
	obj := expr()
	obj.AddConst(finite())
	sense := Minimize
	if next()%2 == 1 {
		sense = Maximize
	}
	m.SetObjective(sense, obj)
	return m
}
