package ratcheck

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"strings"

	"github.com/schedopt/schedopt/model"
)

// Model is a MILP read from a file with every number kept as the exact rational of
// its decimal text. Bounds are nil when infinite. Rows and columns are in the order
// of the float reading (Float), which has the same names.
type Model struct {
	Name     string
	Sense    model.Sense
	ObjConst *big.Rat // the objective constant
	Cols     []Col
	Rows     []Row
	// Float is the float64 reading of the same file (model.ReadMPSWarn or
	// model.ReadLP), kept so that a caller can compare a float check with the exact one.
	Float *model.Model

	colIndex map[string]int
}

// Col is one column: its kind, bounds (nil: infinite) and objective coefficient.
type Col struct {
	Name   string
	Kind   model.Kind
	Lo, Hi *big.Rat
	Obj    *big.Rat
}

// Row is one constraint Lo <= Σ Coefs[k]·x[Cols[k]] <= Hi (nil bounds are infinite);
// zero coefficients are not stored.
type Row struct {
	Name   string
	Lo, Hi *big.Rat
	Cols   []int32
	Coefs  []*big.Rat
}

// ColumnIndex returns the index of the column named name, or -1.
func (m *Model) ColumnIndex(name string) int {
	if j, ok := m.colIndex[name]; ok {
		return j
	}
	return -1
}

// ErrFormat wraps every refusal of a file: ReadFile's error names the file and, for a
// malformed file, the float reader's line and reason.
var ErrFormat = errors.New("ratcheck: cannot read the model")

// IsLP reports whether path names a CPLEX LP file (".lp" or ".lp.gz", any case);
// every other file is read as MPS.
func IsLP(path string) bool {
	p := strings.ToLower(path)
	p = strings.TrimSuffix(p, ".gz")
	return strings.HasSuffix(p, ".lp")
}

// ReadFile reads an MPS (free or fixed) or CPLEX LP file, gzip-compressed when its
// name ends in ".gz", with the float readers' semantics and exact numbers (see the
// package documentation). The file is read twice: once by the float reader, which
// decides whether it is valid, and once for the exact numbers.
func ReadFile(path string) (*Model, error) { return ReadFileWith(path, model.SCSemiInteger) }

// ReadFileWith reads as ReadFile, reading an SC bound on a column between MPS integer
// markers as sc says (model.MPSOptions.SCInInteger), so that the checker sees the
// column kinds the solvers were given.
func ReadFileWith(path string, sc model.SCReading) (*Model, error) {
	lp := IsLP(path)
	var fm *model.Model
	err := withFile(path, func(r io.Reader) error {
		var err error
		if lp {
			fm, err = model.ReadLP(r)
		} else {
			fm, err = model.ReadMPSOptions(r, model.MPSOptions{SCInInteger: sc})
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrFormat, path, err)
	}
	var m *Model
	err = withFile(path, func(r io.Reader) error {
		var err error
		if lp {
			m, err = readLP(r, fm)
		} else {
			m, err = readMPS(r, fm)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrFormat, path, err)
	}
	return m, nil
}

// ReadMPS reads an MPS model from r (not compressed) as ReadFile does.
func ReadMPS(data []byte) (*Model, error) {
	fm, err := model.ReadMPSWarn(strings.NewReader(string(data)), nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	return readMPS(strings.NewReader(string(data)), fm)
}

// ReadLP reads a CPLEX LP model from data (not compressed) as ReadFile does.
func ReadLP(data []byte) (*Model, error) {
	fm, err := model.ReadLP(strings.NewReader(string(data)))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	return readLP(strings.NewReader(string(data)), fm)
}

// withFile opens path, decompressing a ".gz" file, and hands the reader to read.
func withFile(path string, read func(io.Reader) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(strings.ToLower(path), ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			return fmt.Errorf("gzip: %w", err)
		}
		defer z.Close()
		r = z
	}
	return read(r)
}

// newModel starts an exact model with the float model's names, kinds and sense;
// numbers are filled in by the reader.
func newModel(fm *model.Model) *Model {
	m := &Model{Name: fm.Name, Sense: fm.Sense(), ObjConst: new(big.Rat),
		Cols: make([]Col, fm.NumVars()), Rows: make([]Row, fm.NumRows()),
		colIndex: make(map[string]int, fm.NumVars()), Float: fm}
	for j := range m.Cols {
		name := fm.VarName(model.Var(j))
		m.Cols[j] = Col{Name: name, Kind: fm.VarKind(model.Var(j)), Lo: new(big.Rat), Obj: new(big.Rat)}
		m.colIndex[name] = j
	}
	for i := range m.Rows {
		m.Rows[i].Name = fm.RowName(model.Row(i))
	}
	return m
}

// ratOf returns the rational of a finite xnum and nil for an infinite one.
func ratOf(a xnum) *big.Rat {
	if a.inf != 0 {
		return nil
	}
	return a.r
}
