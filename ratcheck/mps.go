package ratcheck

import (
	"fmt"
	"io"
	"math/big"
	"strings"

	"github.com/schedopt/schedopt/model"
)

// mpsReader turns the data lines that model.ReadMPSFields accepted into exact numbers.
// Every line reaching it has been accepted by the float reader, so it only interprets
// them; anything it cannot interpret is a disagreement with the float reader and an
// error.
type mpsReader struct {
	m       *Model
	objWant string
	objName string
	hasObj  bool
	rows    map[string]int
	rowType []byte
	rhs     []xnum
	rng     []xnum
	rngSet  []bool
	ncols   int
	last    string
	loSet   []bool
	bounded []bool
	lo, hi  []xnum
	err     error
}

// readMPS re-reads the MPS file behind the float model fm for its exact numbers.
func readMPS(r io.Reader, fm *model.Model) (*Model, error) {
	m := newModel(fm)
	p := &mpsReader{m: m, rows: make(map[string]int, len(m.Rows))}
	for range m.Cols {
		p.lo = append(p.lo, zero())
		p.hi = append(p.hi, posInf)
	}
	p.loSet = make([]bool, len(m.Cols))
	p.bounded = make([]bool, len(m.Cols))
	_, err := model.ReadMPSFields(r, nil, func(line int, section string, f [][]byte) {
		if p.err == nil {
			if err := p.data(section, f); err != nil {
				p.err = fmt.Errorf("line %d: %s: %w", line, section, err)
			}
		}
	})
	if err == nil {
		err = p.err
	}
	if err != nil {
		return nil, err
	}
	if err := p.build(); err != nil {
		return nil, err
	}
	return m, nil
}

func (p *mpsReader) data(section string, f [][]byte) error {
	switch section {
	case "OBJNAME":
		p.objWant = string(f[0])
	case "ROWS":
		return p.row(f)
	case "COLUMNS":
		return p.column(f)
	case "RHS":
		return p.pairs(f, p.rhsEntry)
	case "RANGES":
		return p.pairs(f, p.rangeEntry)
	case "BOUNDS":
		return p.bound(f)
	}
	return nil
}

func (p *mpsReader) row(f [][]byte) error {
	typ := f[0][0] &^ 0x20
	name := string(f[1])
	if typ == 'N' && !p.hasObj && (p.objWant == "" || p.objWant == name) {
		p.hasObj, p.objName = true, name
		return nil
	}
	i := len(p.rowType)
	if i >= len(p.m.Rows) {
		return fmt.Errorf("more rows than the float reader read")
	}
	p.rows[name] = i
	p.rowType = append(p.rowType, typ)
	p.rhs = append(p.rhs, zero())
	p.rng = append(p.rng, zero())
	p.rngSet = append(p.rngSet, false)
	return nil
}

func (p *mpsReader) column(f [][]byte) error {
	if len(f) == 3 && string(f[1]) == "'MARKER'" {
		return nil // kinds come from the float reading
	}
	name := string(f[0])
	if p.ncols == 0 || name != p.last {
		if p.m.ColumnIndex(name) != p.ncols {
			return fmt.Errorf("column %q is not the float reader's column %d", name, p.ncols)
		}
		p.ncols++
		p.last = name
	}
	j := p.ncols - 1
	for k := 1; k+1 < len(f); k += 2 {
		v, ok := parseNum(f[k+1])
		if !ok || v.inf != 0 {
			return fmt.Errorf("bad coefficient %q", f[k+1])
		}
		row := string(f[k])
		if p.hasObj && row == p.objName {
			p.m.Cols[j].Obj = v.r
			continue
		}
		i, ok := p.rows[row]
		if !ok {
			return fmt.Errorf("unknown row %q", row)
		}
		if v.r.Sign() != 0 {
			p.m.Rows[i].Cols = append(p.m.Rows[i].Cols, int32(j))
			p.m.Rows[i].Coefs = append(p.m.Rows[i].Coefs, v.r)
		}
	}
	return nil
}

// pairs splits an RHS or RANGES line (an optional set name, then row/value pairs).
func (p *mpsReader) pairs(f [][]byte, entry func(row string, v []byte) error) error {
	if len(f)%2 == 1 {
		f = f[1:]
	}
	for k := 0; k+1 < len(f); k += 2 {
		if err := entry(string(f[k]), f[k+1]); err != nil {
			return err
		}
	}
	return nil
}

// boundValue reads an RHS or BOUNDS value: |v| >= model.MPSInfinity is infinite.
func boundValue(s []byte) (xnum, error) {
	v, ok := parseNum(s)
	if !ok {
		return xnum{}, fmt.Errorf("bad number %q", s)
	}
	if v.inf == 0 && new(big.Rat).Abs(v.r).Cmp(mpsInf) >= 0 {
		return xnum{inf: v.r.Sign()}, nil
	}
	return v, nil
}

var mpsInf = new(big.Rat).SetFloat64(model.MPSInfinity)

func (p *mpsReader) rhsEntry(row string, s []byte) error {
	v, err := boundValue(s)
	if err != nil {
		return err
	}
	if p.hasObj && row == p.objName {
		if v.inf != 0 {
			return fmt.Errorf("infinite objective constant")
		}
		p.m.ObjConst = new(big.Rat).Neg(v.r)
		return nil
	}
	i, ok := p.rows[row]
	if !ok {
		return fmt.Errorf("unknown row %q", row)
	}
	p.rhs[i] = v
	return nil
}

func (p *mpsReader) rangeEntry(row string, s []byte) error {
	v, ok := parseNum(s) // a width: only an overflow is infinite
	if !ok {
		return fmt.Errorf("bad number %q", s)
	}
	i, ok := p.rows[row]
	if !ok {
		return fmt.Errorf("unknown row %q", row)
	}
	p.rng[i], p.rngSet[i] = v, true
	return nil
}

func (p *mpsReader) bound(f [][]byte) error {
	typ := strings.ToUpper(string(f[0]))
	rest := f[1:]
	var col, val []byte
	switch typ {
	case "UP", "LO", "FX", "LI", "UI":
		col, val = rest[len(rest)-2], rest[len(rest)-1]
	default:
		switch len(rest) {
		case 1:
			col = rest[0]
		case 2:
			if p.m.ColumnIndex(string(rest[1])) >= 0 {
				col = rest[1]
			} else {
				col, val = rest[0], rest[1]
			}
		default:
			col, val = rest[1], rest[2]
		}
	}
	j := p.m.ColumnIndex(string(col))
	if j < 0 {
		return fmt.Errorf("unknown column %q", col)
	}
	var v xnum
	if val != nil {
		var err error
		if v, err = boundValue(val); err != nil {
			return err
		}
	}
	p.bounded[j] = true
	switch typ {
	case "UP", "UI":
		p.hi[j] = v
		if v.sign() < 0 && !p.loSet[j] {
			p.lo[j] = negInf
		}
	case "LO", "LI":
		p.lo[j], p.loSet[j] = v, true
	case "FX":
		p.lo[j], p.hi[j], p.loSet[j] = v, v, true
	case "FR":
		p.lo[j], p.hi[j], p.loSet[j] = negInf, posInf, true
	case "MI":
		p.lo[j], p.loSet[j] = negInf, true
	case "PL":
		p.hi[j] = posInf
	case "BV":
		p.lo[j], p.hi[j], p.loSet[j] = zero(), finite(big.NewRat(1, 1)), true
	case "SC", "SI":
		if val != nil {
			p.hi[j] = v
		}
	default:
		return fmt.Errorf("unknown bound type %q", f[0])
	}
	return nil
}

// build sets the columns' bounds and the rows' intervals as model.ReadMPSWarn does.
func (p *mpsReader) build() error {
	m := p.m
	if p.ncols != len(m.Cols) || len(p.rowType) != len(m.Rows) {
		return fmt.Errorf("read %d columns and %d rows, the float reader %d and %d", p.ncols, len(p.rowType), len(m.Cols), len(m.Rows))
	}
	for j := range m.Cols {
		lo, hi := p.lo[j], p.hi[j]
		if m.Cols[j].Kind == model.Integer && !p.bounded[j] {
			hi = finite(big.NewRat(1, 1)) // an integer column without bounds is binary
		}
		m.Cols[j].Lo, m.Cols[j].Hi = ratOf(lo), ratOf(hi)
	}
	for i := range m.Rows {
		lo, hi := negInf, posInf
		b, r := p.rhs[i], p.rng[i]
		var ok1, ok2 = true, true
		switch p.rowType[i] {
		case 'E':
			lo, hi = b, b
			if p.rngSet[i] {
				if r.sign() > 0 {
					hi, ok1 = add(b, r)
				} else if r.sign() < 0 {
					lo, ok1 = add(b, r)
				}
			}
		case 'L':
			hi = b
			if p.rngSet[i] {
				lo, ok1 = add(b, r.abs().neg())
			}
		case 'G':
			lo = b
			if p.rngSet[i] {
				hi, ok2 = add(b, r.abs())
			}
		}
		if !ok1 || !ok2 || lo.inf > 0 || hi.inf < 0 {
			return fmt.Errorf("row %q: empty or undefined interval", m.Rows[i].Name)
		}
		m.Rows[i].Lo, m.Rows[i].Hi = ratOf(lo), ratOf(hi)
	}
	return nil
}
