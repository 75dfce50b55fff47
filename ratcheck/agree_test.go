package ratcheck

import (
	"bytes"
	"io"
	"math"
	mbig "math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/model"
)

// benchDir holds the MIPLIB 3 development set (public instances of 1996): in shared/,
// beside the clone in CI. Where it is not there (a clone on its own), the
// repository's copy of three of its files stands in (benchCopy).
const (
	benchDir  = "../../shared/benchsets/miplib3-dev"
	benchCopy = "../bench/testdata/miplib3"
)

// agree checks that the exact model reads as the float one: the same names, kinds,
// sense, and float64(rational) == the float reading for every number. Sums formed by
// the readers (a ranged row's other side, repeated LP terms) may differ from the
// float sums by rounding: those are compared within a relative 1e-15.
func agree(t *testing.T, name string, m *Model, fm *model.Model) {
	t.Helper()
	same := func(what string, exact *mbig.Rat, f float64, derived bool) {
		t.Helper()
		e := math.Inf(1)
		if f < 0 {
			e = math.Inf(-1)
		}
		if exact != nil {
			e = f64(exact)
		}
		if e == f || derived && math.Abs(e-f) <= 1e-15*math.Max(1, math.Abs(f)) {
			return
		}
		t.Errorf("%s: %s: exact %v (%g), float %g", name, what, exact, e, f)
	}
	if m.Sense != fm.Sense() || len(m.Cols) != fm.NumVars() || len(m.Rows) != fm.NumRows() {
		t.Fatalf("%s: sense/columns/rows %v/%d/%d, float %v/%d/%d", name, m.Sense, len(m.Cols), len(m.Rows), fm.Sense(), fm.NumVars(), fm.NumRows())
	}
	same("objective constant", m.ObjConst, fm.ObjectiveConstant(), true)
	for j, c := range m.Cols {
		v := model.Var(j)
		if c.Name != fm.VarName(v) || c.Kind != fm.VarKind(v) {
			t.Errorf("%s: column %d: %q %v, float %q %v", name, j, c.Name, c.Kind, fm.VarName(v), fm.VarKind(v))
		}
		lo, hi := fm.Bounds(v)
		same(c.Name+" lower", c.Lo, lo, false)
		same(c.Name+" upper", c.Hi, hi, false)
		same(c.Name+" objective", c.Obj, fm.ObjectiveCoef(v), true)
	}
	for i, r := range m.Rows {
		lo, hi := fm.RowBounds(model.Row(i))
		same(r.Name+" lower", r.Lo, lo, true)
		same(r.Name+" upper", r.Hi, hi, true)
		idx, val := fm.RowTerms(model.Row(i))
		floatTerm := map[int32]float64{}
		for k, j := range idx {
			floatTerm[j] = val[k]
		}
		exactTerm := map[int32]*mbig.Rat{}
		for k, j := range r.Cols {
			exactTerm[j] = r.Coefs[k]
		}
		for j := range floatTerm {
			if exactTerm[j] == nil {
				exactTerm[j] = new(mbig.Rat) // a float sum that is not exactly 0
			}
		}
		for j, c := range exactTerm {
			same(r.Name+"/"+m.Cols[j].Name, c, floatTerm[j], true)
		}
	}
}

// files lists the model files the agreement test reads.
func files(t *testing.T) []string {
	var out []string
	set := benchDir
	if _, err := os.Stat(set); err != nil {
		set = benchCopy
	}
	for _, pat := range []string{"../model/testdata/*.mps", "../model/testdata/*.lp", set + "/*.mps.gz", "../bench/sets/schedlib/*.mps.gz"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m...)
	}
	if len(out) < 20 {
		t.Fatalf("only %d test files found (MIPLIB files from %s)", len(out), set)
	}
	return out
}

func TestAgreesWithFloatReaders(t *testing.T) {
	for _, path := range files(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			var fm *model.Model
			ferr := withFile(path, func(r io.Reader) error {
				var err error
				if IsLP(path) {
					fm, err = model.ReadLP(r)
				} else {
					fm, err = model.ReadMPSWarn(r, nil)
				}
				return err
			})
			m, err := ReadFile(path)
			if (err != nil) != (ferr != nil) {
				t.Fatalf("exact reader error %v, float reader error %v", err, ferr)
			}
			if err != nil {
				return
			}
			agree(t, path, m, fm)
		})
	}
}

// TestAgreesOnFuzzCorpus reads the float MPS reader's fuzz corpus: odd files that
// found bugs there (fixed format, ranges, bounds, markers).
func TestAgreesOnFuzzCorpus(t *testing.T) {
	paths, _ := filepath.Glob("../model/testdata/fuzz/FuzzReadMPS/*")
	if len(paths) == 0 {
		t.Fatal("no fuzz corpus in ../model/testdata/fuzz/FuzzReadMPS")
	}
	read := 0
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		data, ok := corpusBytes(b)
		if !ok {
			continue
		}
		fm, ferr := model.ReadMPS(bytes.NewReader(data))
		m, err := ReadMPS(data)
		if (err != nil) != (ferr != nil) {
			t.Errorf("%s: exact reader error %v, float reader error %v", path, err, ferr)
			continue
		}
		if err == nil {
			read++
			agree(t, path, m, fm)
		}
	}
	t.Logf("%d of %d corpus files read", read, len(paths))
}

// corpusBytes extracts the []byte argument of a Go fuzz corpus file.
func corpusBytes(b []byte) ([]byte, bool) {
	lines := strings.Split(string(b), "\n")
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, "[]byte(") && strings.HasSuffix(l, ")") {
			s, err := strconv.Unquote(l[len("[]byte(") : len(l)-1])
			return []byte(s), err == nil
		}
	}
	return nil, false
}

// TestAgreesOnLPExports writes every MPS test file as LP (model.WriteLP) and checks
// that the exact LP reader agrees with model.ReadLP on the result: realistic LP files
// (MIPLIB's coefficients, ranges, bounds) beyond the few hand-written ones.
func TestAgreesOnLPExports(t *testing.T) {
	read := 0
	for _, path := range files(t) {
		if IsLP(path) {
			continue
		}
		var fm *model.Model
		if err := withFile(path, func(r io.Reader) error {
			var err error
			fm, err = model.ReadMPSWarn(r, nil)
			return err
		}); err != nil {
			continue // files the MPS reader refuses are covered by TestAgreesWithFloatReaders
		}
		var buf bytes.Buffer
		if err := fm.WriteLP(&buf); err != nil {
			continue // not every model is expressible in LP (the writer says so)
		}
		lm, lerr := model.ReadLP(bytes.NewReader(buf.Bytes()))
		m, err := ReadLP(buf.Bytes())
		if (err != nil) != (lerr != nil) {
			t.Errorf("%s as LP: exact reader error %v, float reader error %v", path, err, lerr)
			continue
		}
		if err == nil {
			read++
			agree(t, path+" as LP", m, lm)
		}
	}
	if read < 40 {
		t.Errorf("only %d files read back as LP", read)
	}
}
