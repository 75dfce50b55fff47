package model

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// ParseError is the error ReadMPS returns for a malformed file. It prints as
//
//	line 17: COLUMNS: unknown row "c9"
type ParseError struct {
	Line    int    // 1-based line number; the last line for errors found at the end
	Section string // the section being read ("ROWS", "COLUMNS", ...), "" outside one
	Reason  string
}

func (e *ParseError) Error() string {
	if e.Section == "" {
		return fmt.Sprintf("line %d: %s", e.Line, e.Reason)
	}
	return fmt.Sprintf("line %d: %s: %s", e.Line, e.Section, e.Reason)
}

// maxMPSLine is the longest line ReadMPS accepts.
const maxMPSLine = 1 << 20

// ReadMPS reads a model in free MPS format. Fixed-format files are accepted too when no
// name contains a space (fields are split at white space), and the RHS, RANGES and
// BOUNDS set names may be omitted as fixed MPS allows.
//
// Semantics, following the MPS standard and, where readers disagree, HiGHS:
//
//   - The first N row is the objective; its name is not kept. Later N rows are kept as
//     free rows (HiGHS drops them). An RHS entry v on the objective row sets the
//     objective constant to −v (HiGHS convention, see WriteMPS); RHS entries on other N
//     rows are ignored.
//   - OBJSENSE MAX (or MAXIMIZE, on the same line or the next) makes a maximisation.
//   - RANGES R on a row with RHS b: E rows get [b, b+|R|] when R > 0 and [b−|R|, b]
//     when R < 0; L rows [b−|R|, b]; G rows [b, b+|R|]. Other N rows cannot have one.
//   - Bounds: UP, LO, FX, FR, MI (lower −∞, upper unchanged), PL (upper +∞), BV
//     (binary), LI and UI (integer with a bound). An UP or UI bound below 0 on a column
//     whose lower bound was not set by an earlier line makes the lower bound −∞ (the
//     CPLEX rule; HiGHS 1.10 keeps 0 and reports inconsistent bounds). SC
//     (semi-continuous) is rejected.
//   - A column between MARKER INTORG and INTEND is integer; one without any bound line
//     gets bounds [0, 1], as HiGHS 1.10 reads it (lp_solve reads [0, +∞)). A BV column
//     whose later bounds leave [0, 1] becomes an integer column.
//
// Errors are *ParseError values naming the line and section: unknown or misplaced
// sections, unknown rows and columns, duplicate names or entries, numbers that are not
// finite (NaN, Inf, overflow), lower bounds above upper bounds, and a missing ENDATA.
// Quadratic, SOS and indicator sections are rejected as unsupported.
func ReadMPS(r io.Reader) (*Model, error) {
	p := &mpsParser{
		rowIndex: map[string]int32{},
		colIndex: map[string]int32{},
		objRow:   -1,
		lastCol:  -1,
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxMPSLine)
	done := false
	for sc.Scan() {
		p.line++
		if err := p.parseLine(sc.Text()); err != nil {
			return nil, err
		}
		if p.section == "ENDATA" {
			done = true
			break
		}
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return nil, &ParseError{Line: p.line + 1, Reason: fmt.Sprintf("line longer than %d bytes", maxMPSLine)}
		}
		return nil, fmt.Errorf("model: read MPS: %w", err)
	}
	if !done {
		return nil, &ParseError{Line: p.line, Reason: "missing ENDATA"}
	}
	return p.build()
}

// mpsParser holds the state of ReadMPS.
type mpsParser struct {
	line    int
	section string
	seen    [numSections]bool

	name  string
	sense Sense

	// Rows, in file order; the objective is not among them.
	objRow   int32 // -1 until the first N row
	objName  string
	rowNames []string
	rowType  []byte
	rowIndex map[string]int32
	rhs      []float64
	rhsSet   []bool
	rng      []float64
	rngSet   []bool
	objConst float64
	objRHS   bool

	// Columns, in file order, with their entries in column-major order.
	colNames []string
	colIndex map[string]int32
	colKind  []Kind
	colLo    []float64
	colHi    []float64
	colObj   []float64
	loSet    []bool
	bounded  []bool  // any bound line seen
	bndLine  []int32 // last bound line, for error messages
	colStart []int32
	entRow   []int32
	entVal   []float64
	lastCol  int32
	mark     []int32 // mark[row] == column + 1 when the current column has an entry there
	objMark  bool
	inInt    bool

	rhsName, rngName, bndName string
}

// Section identifiers, in the order they must appear (RHS, RANGES and BOUNDS may come
// in any order after COLUMNS).
const (
	secName = iota
	secObjSense
	secRows
	secColumns
	secRHS
	secRanges
	secBounds
	numSections
)

func (p *mpsParser) errorf(format string, args ...any) error {
	return &ParseError{Line: p.line, Section: p.section, Reason: fmt.Sprintf(format, args...)}
}

// fields splits s at white space into at most len(dst) fields and returns how many
// there were (which may exceed len(dst)).
func fields(s string, dst []string) int {
	n := 0
	for i := 0; i < len(s); {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
			i++
		}
		if i == len(s) {
			break
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' && s[j] != '\r' {
			j++
		}
		if n < len(dst) {
			dst[n] = s[i:j]
		}
		n++
		i = j
	}
	return n
}

func (p *mpsParser) parseLine(s string) error {
	if len(s) == 0 || s[0] == '*' {
		return nil
	}
	var buf [6]string
	n := fields(s, buf[:])
	if n == 0 {
		return nil
	}
	if s[0] != ' ' && s[0] != '\t' {
		return p.header(s, buf[:min(n, len(buf))])
	}
	if n > len(buf) {
		return p.errorf("too many fields (%d)", n)
	}
	f := buf[:n]
	switch p.section {
	case "":
		return p.errorf("data line before the first section")
	case "NAME":
		return p.errorf("unexpected data line")
	case "OBJSENSE":
		return p.objSense(f)
	case "ROWS":
		return p.row(f)
	case "COLUMNS":
		return p.column(f)
	case "RHS":
		return p.rhsLine(f)
	case "RANGES":
		return p.rangeLine(f)
	case "BOUNDS":
		return p.boundLine(f)
	}
	return p.errorf("unexpected data line")
}

// header starts a new section.
func (p *mpsParser) header(s string, f []string) error {
	if p.section == "COLUMNS" && p.inInt {
		return p.errorf("MARKER INTORG without INTEND")
	}
	key := strings.ToUpper(f[0])
	order := map[string]int{"NAME": secName, "OBJSENSE": secObjSense, "ROWS": secRows,
		"COLUMNS": secColumns, "RHS": secRHS, "RANGES": secRanges, "BOUNDS": secBounds}
	switch key {
	case "ENDATA":
		p.section = "ENDATA"
		return nil
	case "QUADOBJ", "QMATRIX", "QSECTION", "QCMATRIX":
		return &ParseError{Line: p.line, Reason: fmt.Sprintf("section %s: quadratic terms are not supported", key)}
	case "SOS", "INDICATORS", "CSECTION", "CONE", "GENCONS", "PWLOBJ", "PWLNAM", "PWLCON":
		return &ParseError{Line: p.line, Reason: fmt.Sprintf("section %s is not supported", key)}
	}
	sec, ok := order[key]
	if !ok {
		return &ParseError{Line: p.line, Reason: fmt.Sprintf("unknown section %q", f[0])}
	}
	if p.seen[sec] {
		return &ParseError{Line: p.line, Reason: fmt.Sprintf("section %s appears twice", key)}
	}
	switch {
	case sec <= secRows && p.seen[secColumns]:
		return &ParseError{Line: p.line, Reason: fmt.Sprintf("section %s after COLUMNS", key)}
	case sec == secColumns && !p.seen[secRows]:
		return &ParseError{Line: p.line, Reason: "section COLUMNS before ROWS"}
	case sec > secColumns && !p.seen[secColumns]:
		return &ParseError{Line: p.line, Reason: fmt.Sprintf("section %s before COLUMNS", key)}
	}
	p.seen[sec] = true
	p.section = key
	switch sec {
	case secName:
		p.name = strings.TrimSpace(s[len(f[0]):])
	case secObjSense:
		if len(f) > 1 {
			if err := p.objSense(f[1:]); err != nil {
				return err
			}
		}
	default:
		if len(f) > 1 {
			return p.errorf("unexpected text %q after the section name", f[1])
		}
	}
	return nil
}

func (p *mpsParser) objSense(f []string) error {
	if len(f) != 1 {
		return p.errorf("expected MIN or MAX, got %d fields", len(f))
	}
	switch strings.ToUpper(f[0]) {
	case "MAX", "MAXIMIZE", "MAXIMISE":
		p.sense = Maximize
	case "MIN", "MINIMIZE", "MINIMISE":
		p.sense = Minimize
	default:
		return p.errorf("unknown sense %q", f[0])
	}
	return nil
}

func (p *mpsParser) row(f []string) error {
	if len(f) != 2 {
		return p.errorf("expected a type and a name, got %d fields", len(f))
	}
	typ := strings.ToUpper(f[0])
	if len(typ) != 1 || !strings.Contains("NLGE", typ) {
		return p.errorf("unknown row type %q", f[0])
	}
	name := f[1]
	if _, dup := p.rowIndex[name]; dup || (p.objRow >= 0 && name == p.objName) {
		return p.errorf("duplicate row %q", name)
	}
	if typ == "N" && p.objRow < 0 {
		p.objRow = 0
		p.objName = name
		return nil
	}
	p.rowIndex[name] = int32(len(p.rowNames))
	p.rowNames = append(p.rowNames, name)
	p.rowType = append(p.rowType, typ[0])
	p.rhs = append(p.rhs, 0)
	p.rhsSet = append(p.rhsSet, false)
	p.rng = append(p.rng, 0)
	p.rngSet = append(p.rngSet, false)
	return nil
}

// number parses a finite float64.
func (p *mpsParser) number(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, p.errorf("value %q is not finite", s)
		}
		return 0, p.errorf("bad number %q", s)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, p.errorf("value %q is not finite", s)
	}
	return v, nil
}

func (p *mpsParser) column(f []string) error {
	if len(f) == 3 && f[1] == "'MARKER'" {
		switch f[2] {
		case "'INTORG'":
			if p.inInt {
				return p.errorf("MARKER INTORG inside an integer block")
			}
			p.inInt = true
		case "'INTEND'":
			if !p.inInt {
				return p.errorf("MARKER INTEND without INTORG")
			}
			p.inInt = false
		default:
			return p.errorf("unknown marker %s", f[2])
		}
		return nil
	}
	if len(f) != 3 && len(f) != 5 {
		return p.errorf("expected a column and one or two row/value pairs, got %d fields", len(f))
	}
	name := f[0]
	if p.lastCol < 0 || name != p.colNames[p.lastCol] {
		if _, dup := p.colIndex[name]; dup {
			return p.errorf("column %q appears again after other columns", name)
		}
		p.newColumn(name)
	}
	j := p.lastCol
	for k := 1; k < len(f); k += 2 {
		v, err := p.number(f[k+1])
		if err != nil {
			return err
		}
		row := f[k]
		if p.objRow >= 0 && row == p.objName {
			if p.objMark {
				return p.errorf("duplicate entry for column %q in row %q", name, row)
			}
			p.objMark = true
			p.colObj[j] = v
			continue
		}
		i, ok := p.rowIndex[row]
		if !ok {
			return p.errorf("unknown row %q", row)
		}
		if p.mark[i] == j+1 {
			return p.errorf("duplicate entry for column %q in row %q", name, row)
		}
		p.mark[i] = j + 1
		if v != 0 {
			p.entRow = append(p.entRow, i)
			p.entVal = append(p.entVal, v)
		}
	}
	return nil
}

func (p *mpsParser) newColumn(name string) {
	if p.mark == nil {
		p.mark = make([]int32, len(p.rowNames))
	}
	j := int32(len(p.colNames))
	p.colIndex[name] = j
	p.colNames = append(p.colNames, name)
	kind := Continuous
	if p.inInt {
		kind = Integer
	}
	p.colKind = append(p.colKind, kind)
	p.colLo = append(p.colLo, 0)
	p.colHi = append(p.colHi, math.Inf(1))
	p.colObj = append(p.colObj, 0)
	p.loSet = append(p.loSet, false)
	p.bounded = append(p.bounded, false)
	p.bndLine = append(p.bndLine, 0)
	p.colStart = append(p.colStart, int32(len(p.entRow)))
	p.lastCol = j
	p.objMark = false
}

// setName checks the RHS/RANGES/BOUNDS set name: only one set per section is supported.
func (p *mpsParser) setName(have *string, name string) error {
	if *have == "" {
		*have = name
		return nil
	}
	if *have != name {
		return p.errorf("a second set %q (after %q) is not supported", name, *have)
	}
	return nil
}

// pairs splits an RHS or RANGES line into its set name (possibly "") and row/value
// pairs.
func (p *mpsParser) pairs(f []string, set *string) ([]string, error) {
	switch len(f) {
	case 2, 4:
	case 3, 5:
		if err := p.setName(set, f[0]); err != nil {
			return nil, err
		}
		f = f[1:]
	default:
		return nil, p.errorf("expected one or two row/value pairs, got %d fields", len(f))
	}
	return f, nil
}

func (p *mpsParser) rhsLine(f []string) error {
	f, err := p.pairs(f, &p.rhsName)
	if err != nil {
		return err
	}
	for k := 0; k < len(f); k += 2 {
		v, err := p.number(f[k+1])
		if err != nil {
			return err
		}
		row := f[k]
		if p.objRow >= 0 && row == p.objName {
			if p.objRHS {
				return p.errorf("duplicate entry for row %q", row)
			}
			p.objRHS = true
			p.objConst = -v
			continue
		}
		i, ok := p.rowIndex[row]
		if !ok {
			return p.errorf("unknown row %q", row)
		}
		if p.rhsSet[i] {
			return p.errorf("duplicate entry for row %q", row)
		}
		p.rhsSet[i] = true
		p.rhs[i] = v
	}
	return nil
}

func (p *mpsParser) rangeLine(f []string) error {
	f, err := p.pairs(f, &p.rngName)
	if err != nil {
		return err
	}
	for k := 0; k < len(f); k += 2 {
		v, err := p.number(f[k+1])
		if err != nil {
			return err
		}
		row := f[k]
		if p.objRow >= 0 && row == p.objName {
			return p.errorf("range on the objective row %q", row)
		}
		i, ok := p.rowIndex[row]
		if !ok {
			return p.errorf("unknown row %q", row)
		}
		if p.rowType[i] == 'N' {
			return p.errorf("range on the free row %q", row)
		}
		if p.rngSet[i] {
			return p.errorf("duplicate entry for row %q", row)
		}
		p.rngSet[i] = true
		p.rng[i] = v
	}
	return nil
}

func (p *mpsParser) boundLine(f []string) error {
	if len(f) < 2 {
		return p.errorf("expected a bound type and a column, got %d fields", len(f))
	}
	typ := strings.ToUpper(f[0])
	var withValue bool
	switch typ {
	case "UP", "LO", "FX", "LI", "UI":
		withValue = true
	case "FR", "MI", "PL", "BV":
	case "SC":
		return p.errorf("semi-continuous bound (SC) is not supported")
	default:
		return p.errorf("unknown bound type %q", f[0])
	}
	var col, val string
	rest := f[1:]
	if withValue {
		switch len(rest) {
		case 3:
			if err := p.setName(&p.bndName, rest[0]); err != nil {
				return err
			}
			col, val = rest[1], rest[2]
		case 2:
			col, val = rest[0], rest[1]
		default:
			return p.errorf("%s bound: expected [set] column value, got %d fields", typ, len(f))
		}
	} else {
		switch len(rest) {
		case 1:
			col = rest[0]
		case 2:
			// "set column" or "column value"
			if _, isCol := p.colIndex[rest[1]]; isCol {
				if err := p.setName(&p.bndName, rest[0]); err != nil {
					return err
				}
				col = rest[1]
			} else {
				col, val = rest[0], rest[1]
			}
		case 3:
			if err := p.setName(&p.bndName, rest[0]); err != nil {
				return err
			}
			col, val = rest[1], rest[2]
		default:
			return p.errorf("%s bound: expected [set] column, got %d fields", typ, len(f))
		}
	}
	j, ok := p.colIndex[col]
	if !ok {
		return p.errorf("unknown column %q", col)
	}
	var v float64
	if val != "" {
		var err error
		if v, err = p.number(val); err != nil {
			return err
		}
	}
	p.bounded[j] = true
	p.bndLine[j] = int32(p.line)
	switch typ {
	case "UP", "UI":
		p.colHi[j] = v
		if v < 0 && !p.loSet[j] {
			p.colLo[j] = math.Inf(-1)
		}
	case "LO", "LI":
		p.colLo[j] = v
		p.loSet[j] = true
	case "FX":
		p.colLo[j], p.colHi[j] = v, v
		p.loSet[j] = true
	case "FR":
		p.colLo[j], p.colHi[j] = math.Inf(-1), math.Inf(1)
		p.loSet[j] = true
	case "MI":
		p.colLo[j] = math.Inf(-1)
		p.loSet[j] = true
	case "PL":
		p.colHi[j] = math.Inf(1)
	case "BV":
		p.colKind[j] = Binary
		p.colLo[j], p.colHi[j] = 0, 1
		p.loSet[j] = true
	}
	if typ == "LI" || typ == "UI" {
		p.colKind[j] = Integer
	}
	return nil
}

// build turns the parsed file into a Model.
func (p *mpsParser) build() (*Model, error) {
	m := New(p.name)
	if p.sense != 0 {
		m.sense = p.sense
	}
	nc := len(p.colNames)
	m.Grow(nc, len(p.rowNames), len(p.entRow))
	for j := range nc {
		kind, lo, hi := p.colKind[j], p.colLo[j], p.colHi[j]
		switch {
		case kind == Integer && !p.bounded[j]:
			hi = 1 // HiGHS reads an unbounded MARKER column as binary
		case kind == Binary && (lo < 0 || hi > 1):
			kind = Integer
		}
		if lo > hi {
			return nil, &ParseError{Line: int(p.bndLine[j]), Section: "BOUNDS",
				Reason: fmt.Sprintf("column %q: lower bound %g > upper bound %g", p.colNames[j], lo, hi)}
		}
		v := m.AddVar(kind, lo, hi, p.colNames[j])
		m.colObj[v] = p.colObj[j]
	}
	m.objConst = p.objConst

	// Rows: bounds from type, RHS and range; entries transposed to row-major order.
	nr := len(p.rowNames)
	count := make([]int32, nr+1)
	for _, i := range p.entRow {
		count[i+1]++
	}
	for i := range nr {
		count[i+1] += count[i]
	}
	m.rowStart = append(m.rowStart, count...)
	m.rowIndex = m.rowIndex[:len(p.entRow)]
	m.rowValue = m.rowValue[:len(p.entVal)]
	next := count[:nr]
	colStart := append(p.colStart, int32(len(p.entRow)))
	for j := range nc {
		for k := colStart[j]; k < colStart[j+1]; k++ {
			i := p.entRow[k]
			q := next[i]
			next[i]++
			m.rowIndex[q] = int32(j)
			m.rowValue[q] = p.entVal[k]
		}
	}
	for i := range nr {
		lo, hi := math.Inf(-1), math.Inf(1)
		b, r := p.rhs[i], p.rng[i]
		switch p.rowType[i] {
		case 'E':
			lo, hi = b, b
			if p.rngSet[i] {
				if r > 0 {
					hi = b + r
				} else if r < 0 {
					lo = b + r
				}
			}
		case 'L':
			hi = b
			if p.rngSet[i] {
				lo = b - math.Abs(r)
			}
		case 'G':
			lo = b
			if p.rngSet[i] {
				hi = b + math.Abs(r)
			}
		}
		m.rowLo = append(m.rowLo, lo)
		m.rowHi = append(m.rowHi, hi)
		m.rowName = append(m.rowName, p.rowNames[i])
	}
	if len(m.rowStart) == 1 {
		m.rowStart = m.rowStart[:0]
	}
	if err := m.validateStructure(); err != nil {
		return nil, fmt.Errorf("model: read MPS: %w", err)
	}
	return m, nil
}
