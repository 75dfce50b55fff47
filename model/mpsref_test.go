package model

import (
	"bufio"
	"fmt"
	"io"
	"math"
)

// This file keeps the MPS writer as it was before issue 17 (names through a Go map,
// a full transposition, bufio and appendNum), as the reference the fast writer is
// compared with byte for byte on large and random models.

// refOut is the text writer of the reference.
type refOut struct {
	w   *bufio.Writer
	buf []byte
}

func (t *refOut) str(s string)  { t.w.WriteString(s) }
func (t *refOut) byte(c byte)   { t.w.WriteByte(c) }
func (t *refOut) num(v float64) { t.buf = appendNum(t.buf[:0], v); t.w.Write(t.buf) }
func (t *refOut) flush() error  { return t.w.Flush() }

func writeMPSReference(m *Model, w io.Writer) error {
	if err := m.validateStructure(); err != nil {
		return fmt.Errorf("model: write MPS: %w", err)
	}
	if err := m.mpsRepresentable(); err != nil {
		return fmt.Errorf("model: write MPS: %w", err)
	}
	cols, rows := m.fileNamesSlow()
	t := &refOut{w: bufio.NewWriter(w)}

	t.str("NAME")
	if name := m.fileModelName(); name != "" {
		t.str(" ")
		t.str(name)
	}
	t.byte('\n')
	if m.Sense() == Maximize {
		t.str("OBJSENSE\n    MAX\n")
	}

	// ROWS, with the encoding of every row.
	t.str("ROWS\n N  ")
	t.str(objRowName)
	t.byte('\n')
	nr := m.NumRows()
	typ := make([]byte, nr)
	rhs := make([]float64, nr)
	rng := make([]float64, nr)
	for i := range nr {
		lo, hi := m.rowLo[i], m.rowHi[i]
		switch classifyRow(lo, hi) {
		case rowFree:
			typ[i] = 'N'
		case rowLE:
			typ[i], rhs[i] = 'L', hi
		case rowGE:
			typ[i], rhs[i] = 'G', lo
		case rowEQ:
			typ[i], rhs[i] = 'E', lo
		case rowRange:
			var err error
			if typ[i], rhs[i], rng[i], err = encodeRange(lo, hi); err != nil {
				return fmt.Errorf("model: write MPS: row %s: %w", m.RowName(Row(i)), err)
			}
		}
		t.byte(' ')
		t.byte(typ[i])
		t.str("  ")
		t.str(rows[i])
		t.byte('\n')
	}

	// COLUMNS, from a column-wise copy of the matrix.
	start, index, value := refTranspose(m)
	t.str("COLUMNS\n")
	inInt := false
	for j := range m.NumVars() {
		isInt := m.colKind[j].IsInteger()
		if isInt != inInt {
			if isInt {
				t.str("    MARKER  'MARKER'  'INTORG'\n")
			} else {
				t.str("    MARKER  'MARKER'  'INTEND'\n")
			}
			inInt = isInt
		}
		b, e := start[j], start[j+1]
		if c := m.colObj[j]; c != 0 || b == e {
			t.entry(cols[j], objRowName, c)
		}
		for k := b; k < e; k++ {
			t.entry(cols[j], rows[index[k]], value[k])
		}
	}
	if inInt {
		t.str("    MARKER  'MARKER'  'INTEND'\n")
	}

	// RHS: nonzero right-hand sides, then the objective constant.
	header := false
	section := func(name string) {
		if !header {
			t.str(name)
			header = true
		}
	}
	for i := range nr {
		if typ[i] != 'N' && rhs[i] != 0 {
			section("RHS\n")
			t.entry("RHS", rows[i], rhs[i])
		}
	}
	if m.objConst != 0 {
		section("RHS\n")
		t.entry("RHS", objRowName, -m.objConst)
	}

	header = false
	for i := range nr {
		if rng[i] != 0 {
			section("RANGES\n")
			t.entry("RNG", rows[i], rng[i])
		}
	}

	header = false
	for j := range m.NumVars() {
		refMPSBounds(m, t, cols[j], Var(j), func() { section("BOUNDS\n") })
	}
	t.str("ENDATA\n")
	return t.flush()
}

// entry writes one data line "    a  b  v".
func (t *refOut) entry(a, b string, v float64) {
	t.str("    ")
	t.str(a)
	t.str("  ")
	t.str(b)
	t.str("  ")
	t.num(v)
	t.byte('\n')
}

// bound writes one BOUNDS line; hasValue is false for FR, MI, PL and BV.
func (t *refOut) bound(typ, col string, v float64, hasValue bool) {
	t.byte(' ')
	t.str(typ)
	t.str(" BND  ")
	t.str(col)
	if hasValue {
		t.str("  ")
		t.num(v)
	}
	t.byte('\n')
}

// writeMPSBounds writes the BOUNDS lines of column j (see WriteMPS for the rules).
// header is called before the first line.
func refMPSBounds(m *Model, t *refOut, name string, j Var, header func()) {
	lo, hi := m.colLo[j], m.colHi[j]
	kind := m.colKind[j]
	loInf, hiInf := math.IsInf(lo, -1), math.IsInf(hi, 1)
	if kind.IsSemi() {
		// SC sets the upper bound; the lower bound is an LO line. A semi-integer
		// column is an SC column between the integer markers (CPLEX, CBC, HiGHS).
		header()
		if lo != 0 {
			t.bound("LO", name, lo, true)
		}
		t.bound("SC", name, hi, true)
		return
	}
	if kind == Binary && lo == 0 && hi == 1 {
		header()
		t.bound("BV", name, 0, false)
		return
	}
	explicit := kind.IsInteger()
	switch {
	case lo == hi:
		header()
		t.bound("FX", name, lo, true)
	case loInf && hiInf:
		header()
		t.bound("FR", name, 0, false)
	case loInf:
		header()
		t.bound("MI", name, 0, false)
		t.bound("UP", name, hi, true)
	case hiInf:
		if lo != 0 || explicit {
			header()
			t.bound("LO", name, lo, true)
		}
		if explicit {
			t.bound("PL", name, 0, false)
		}
	default:
		header()
		if lo != 0 || explicit {
			t.bound("LO", name, lo, true)
		}
		t.bound("UP", name, hi, true)
	}
}

// transpose returns the constraint matrix in compressed sparse column form, each
// column's entries sorted by row.
func refTranspose(m *Model) (start, index []int32, value []float64) {
	n := m.NumVars()
	start = make([]int32, n+1)
	for _, j := range m.rowIndex {
		start[j+1]++
	}
	for j := range n {
		start[j+1] += start[j]
	}
	index = make([]int32, len(m.rowIndex))
	value = make([]float64, len(m.rowValue))
	next := make([]int32, n)
	copy(next, start[:n])
	for i := range m.NumRows() {
		for k := m.rowStart[i]; k < m.rowStart[i+1]; k++ {
			j := m.rowIndex[k]
			p := next[j]
			next[j]++
			index[p] = int32(i)
			value[p] = m.rowValue[k]
		}
	}
	return start, index, value
}
