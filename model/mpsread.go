package model

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
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

// MPSInfinity is the magnitude from which a value in RHS and BOUNDS means an
// infinite bound: |v| >= 1e20 is ±Inf. Writers use 1e20 (HiGHS's and CPLEX's
// infinity) or 1e30 (lp_solve's) for "no bound"; HiGHS reads the same threshold.
const MPSInfinity = 1e20

// MaxMPSCoefficient bounds the magnitude of a matrix or objective coefficient in
// COLUMNS: a larger value (1e300, an overflow, Inf) is refused with its line, because
// it is either a writer's infinity where none is meaningful or a scaling no solver
// survives. It is HiGHS's large_matrix_value, beyond which HiGHS refuses the model.
const MaxMPSCoefficient = 1e15

// ReadMPS reads a model in free or fixed MPS format, as ReadMPSWarn without warnings.
func ReadMPS(r io.Reader) (*Model, error) { return ReadMPSWarn(r, nil) }

// SCReading says how an SC bound on a column between the INTORG and INTEND markers
// is read. MPS dialects disagree (docs/spec.md, "Reading MPS files"), and a benchmark
// must read a file as its author meant it.
type SCReading int

// The readings of an SC bound on an integer column.
const (
	// SCSemiContinuous reads it as semi-continuous, as HiGHS's reader does: the bound
	// type sets the column's type and the markers are overridden.
	SCSemiContinuous SCReading = iota
	// SCSemiInteger reads it as semi-integer, as lp_solve's reader does (and as
	// WriteMPS writes a semi-integer column).
	SCSemiInteger
)

// String returns "semi-continuous" or "semi-integer", the names the command line and
// the sweep specs use.
func (s SCReading) String() string {
	if s == SCSemiInteger {
		return "semi-integer"
	}
	return "semi-continuous"
}

// ParseSCReading parses "semi-continuous" (or "highs") and "semi-integer" (or
// "lpsolve").
func ParseSCReading(s string) (SCReading, error) {
	switch s {
	case "semi-continuous", "highs":
		return SCSemiContinuous, nil
	case "semi-integer", "lpsolve":
		return SCSemiInteger, nil
	}
	return 0, fmt.Errorf("model: unknown SC reading %q (semi-continuous or semi-integer)", s)
}

// MPSOptions choose between the readings of MPS constructs that dialects disagree on.
// The zero value reads as HiGHS does.
type MPSOptions struct {
	// SCInInteger is the reading of an SC bound on a column between integer markers.
	SCInInteger SCReading
	// Warn, when not nil, is called for constructs read by a convention other readers
	// do not share.
	Warn func(line int, msg string)
	// Data, when not nil, receives every data line the reader accepted, as
	// ReadMPSFields describes.
	Data func(line int, section string, fields [][]byte)
}

// ReadMPSOptions reads a model in free or fixed MPS format as ReadMPSWarn does, with
// the readings o chooses.
func ReadMPSOptions(r io.Reader, o MPSOptions) (*Model, error) {
	return readMPSWith(r, o)
}

// ReadMPSWarn reads a model in free MPS format, or fixed format. Fixed-format files are
// read with the free rules (fields split at white space, the RHS, RANGES and BOUNDS set
// names optional) and a data line that does not parse that way is read again by the
// fixed column positions (2-3, 5-12, 15-22, 25-36, 40-47, 50-61), so names with spaces
// work. The file is streamed line by line: names are interned once, and the nonzeros
// are kept once in column order until they are transposed into the model. warn, when
// not nil, is called for constructs read by a convention other readers do not share
// (see docs/spec.md, "Reading MPS files", for the reader table).
//
// Semantics, following the MPS standard and, where readers disagree, HiGHS:
//
//   - The first N row is the objective (or the one OBJNAME names); its name is not
//     kept. Later N rows are kept as free rows (HiGHS drops them). An RHS entry v on
//     the objective row sets the objective constant to −v (HiGHS convention, see
//     WriteMPS); RHS entries on other N rows are ignored.
//   - OBJSENSE MAX (or MAXIMIZE; on the same line or the next, indented or not) makes a
//     maximisation.
//   - Numbers may use Fortran exponents (1.5D3). In RHS and BOUNDS, |v| >=
//     MPSInfinity is infinite (a RANGES value is a width and is read as written). In COLUMNS, |v| >= MaxMPSCoefficient is refused. NaN
//     is refused everywhere.
//   - RANGES R on a row with RHS b: E rows get [b, b+|R|] when R > 0 and [b−|R|, b]
//     when R < 0; L rows [b−|R|, b]; G rows [b, b+|R|]. Other N rows cannot have one.
//   - Bounds: UP, LO, FX, FR, MI (lower −∞, upper unchanged), PL (upper +∞), BV
//     (binary), LI and UI (integer with a bound), SC (semi-continuous, the value is the
//     upper bound; semi-integer on an integer column, lp_solve's reading and the one
//     WriteMPS relies on, so that its files read back; ReadMPSOptions can choose
//     HiGHS's semi-continuous instead) and SI (semi-integer). An UP or UI
//     bound below 0 on a column whose lower bound was not set by an earlier line makes
//     the lower bound −∞ (the classic CPLEX rule, also lp_solve's; warned). A later
//     bound line overrides an earlier one.
//   - A column between MARKER INTORG and INTEND is integer; an INTORG left open is
//     closed at the end of COLUMNS (warned). An integer column without any bound line
//     gets bounds [0, 1], as HiGHS 1.10 reads it (lp_solve, CBC and GLPK read
//     [0, +∞)). A BV column whose later bounds leave [0, 1] becomes an integer column.
//
// Errors are *ParseError values naming the line and section: unknown or misplaced
// sections, unknown rows and columns, duplicate names or entries, NaN, coefficients
// beyond MaxMPSCoefficient, lower bounds above upper bounds, semi columns without a
// finite upper bound, and a missing ENDATA. Quadratic (QUADOBJ, QSECTION, QMATRIX,
// QCMATRIX), SOS and indicator sections are refused as unsupported.
func ReadMPSWarn(r io.Reader, warn func(line int, msg string)) (*Model, error) {
	return ReadMPSFields(r, warn, nil)
}

// ReadMPSFields reads a model as ReadMPSWarn and, when data is not nil, hands it every
// data line the reader accepted: its line number, its section ("OBJNAME", "ROWS",
// "COLUMNS", "RHS", "RANGES", "BOUNDS", ...) and its fields as the reader split them
// (by white space, or by the fixed columns when the line needed them). The fields are
// valid only during the call. It is the hook for readers that keep more than the
// float64 model holds (package ratcheck keeps each number's exact decimal value): they
// see the file exactly as this reader read it, with no second tokenizer. Lines of a
// file that fails to read may already have been passed.
func ReadMPSFields(r io.Reader, warn func(line int, msg string), data func(line int, section string, fields [][]byte)) (*Model, error) {
	return readMPSWith(r, MPSOptions{SCInInteger: SCSemiInteger, Warn: warn, Data: data})
}

func readMPSWith(r io.Reader, o MPSOptions) (*Model, error) {
	p := &mpsParser{
		rows:    newNameTable(),
		cols:    newNameTable(),
		objRow:  -1,
		lastCol: -1,
		warn:    o.Warn,
		scInt:   o.SCInInteger,
		onData:  o.Data,
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxMPSLine)
	done := false
	for sc.Scan() {
		p.line++
		if err := p.parseLine(sc.Bytes()); err != nil {
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
	warn    func(line int, msg string)
	scInt   SCReading
	onData  func(line int, section string, fields [][]byte) // ReadMPSFields' hook, or nil

	name    string
	sense   Sense
	objWant string // OBJNAME, "" when absent

	// Rows, in file order; the objective is not among them.
	objRow   int32 // -1 until the first N row
	objName  string
	rows     *nameTable // row names, interned once
	rowType  []byte
	rhs      []float64
	rhsSet   []bool
	rng      []float64
	rngSet   []bool
	objConst float64
	objRHS   bool

	// Columns, in file order, with their entries in column-major order.
	cols     *nameTable // column names, interned once
	colKind  []Kind
	colLo    []float64
	colHi    []float64
	colObj   []float64
	loSet    []bool
	bounded  []bool  // any bound line seen
	bndLine  []int32 // last bound line, for error messages
	colStart []int32
	ents     []*entryChunk // the nonzeros, once, in chunks that never move
	nnz      int
	lastCol  int32
	mark     []int32 // mark[row] == column + 1 when the current column has an entry there
	objMark  bool
	inInt    bool
	intLine  int // line of the open INTORG marker

	rhsName, rngName, bndName string
}

// Section identifiers, in the order they must appear (RHS, RANGES and BOUNDS may come
// in any order after COLUMNS).
const (
	secName = iota
	secObjSense
	secObjName
	secRows
	secColumns
	secRHS
	secRanges
	secBounds
	numSections
)

// sectionOrder maps a section keyword to its identifier.
var sectionOrder = map[string]int{"NAME": secName, "OBJSENSE": secObjSense, "OBJSENS": secObjSense,
	"OBJNAME": secObjName, "ROWS": secRows, "COLUMNS": secColumns, "RHS": secRHS,
	"RANGES": secRanges, "BOUNDS": secBounds}

func (p *mpsParser) errorf(format string, args ...any) error {
	return &ParseError{Line: p.line, Section: p.section, Reason: fmt.Sprintf(format, args...)}
}

func (p *mpsParser) warnf(format string, args ...any) {
	if p.warn != nil {
		p.warn(p.line, fmt.Sprintf(format, args...))
	}
}

// isSpace reports whether c separates fields.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'
}

// fields splits s at white space into at most len(dst) fields and returns how many
// there were (which may exceed len(dst)).
func fields(s []byte, dst [][]byte) int {
	n := 0
	for i := 0; i < len(s); {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i == len(s) {
			break
		}
		j := i
		for j < len(s) && !isSpace(s[j]) {
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

// fixedField returns columns [a, b) of s (0-based), trimmed of white space.
func fixedField(s []byte, a, b int) []byte {
	if a >= len(s) {
		return nil
	}
	return bytes.TrimFunc(s[a:min(b, len(s))], func(r rune) bool { return r < 128 && isSpace(byte(r)) })
}

// fixedFields splits a fixed-format data line of the current section by column
// positions into the field list the free-format handlers take. ok is false when the
// line does not look like fixed format (text between the fields, or a name that has
// no room).
func (p *mpsParser) fixedFields(s []byte, dst [][]byte) ([][]byte, bool) {
	for _, gap := range [][2]int{{0, 1}, {3, 4}, {12, 14}, {22, 24}, {36, 39}, {47, 49}} {
		if len(fixedField(s, gap[0], gap[1])) > 0 {
			return nil, false
		}
	}
	f1, f2, f3 := fixedField(s, 1, 3), fixedField(s, 4, 12), fixedField(s, 14, 22)
	f4, f5, f6 := fixedField(s, 24, 36), fixedField(s, 39, 47), fixedField(s, 49, 61)
	if len(s) > 61 && len(bytes.TrimSpace(s[61:])) > 0 {
		return nil, false
	}
	out := dst[:0]
	add := func(fs ...[]byte) {
		for _, f := range fs {
			if len(f) > 0 {
				out = append(out, f)
			}
		}
	}
	switch p.section {
	case "ROWS":
		add(f1, f2)
	case "COLUMNS", "RHS", "RANGES":
		if len(f1) > 0 {
			return nil, false
		}
		add(f2, f3, f4, f5, f6)
	case "BOUNDS":
		add(f1, f2, f3, f4)
	default:
		return nil, false
	}
	return out, true
}

func (p *mpsParser) parseLine(s []byte) error {
	if len(s) == 0 || s[0] == '*' {
		return nil
	}
	var buf [8][]byte
	n := fields(s, buf[:])
	if n == 0 {
		return nil
	}
	if !isSpace(s[0]) {
		return p.header(s, buf[:min(n, len(buf))])
	}
	var err error
	if n > 6 {
		err = p.errorf("too many fields (%d)", n)
	} else {
		err = p.data(buf[:n])
	}
	if err != nil && len(s) > 4 {
		// A fixed-format line whose names hold spaces: read it by column positions.
		var fbuf [6][]byte
		if f, ok := p.fixedFields(s, fbuf[:]); ok && len(f) > 0 && !sameFields(f, buf[:min(n, len(buf))]) {
			if p.data(f) == nil {
				return nil
			}
		}
	}
	return err
}

// sameFields reports whether a and b hold the same fields.
func sameFields(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// data reads one data line split into fields. A handler changes nothing when it
// returns an error, so that parseLine may try the line again as fixed format. An
// accepted line goes to the onData hook.
func (p *mpsParser) data(f [][]byte) error {
	err := p.dataLine(f)
	if err == nil && p.onData != nil {
		p.onData(p.line, p.section, f)
	}
	return err
}

func (p *mpsParser) dataLine(f [][]byte) error {
	switch p.section {
	case "":
		return p.errorf("data line before the first section")
	case "NAME":
		return p.errorf("unexpected data line")
	case "OBJSENSE":
		return p.objSense(f)
	case "OBJNAME":
		if len(f) != 1 {
			return p.errorf("expected the objective row's name, got %d fields", len(f))
		}
		p.objWant = string(f[0])
		return nil
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
func (p *mpsParser) header(s []byte, f [][]byte) error {
	key := strings.ToUpper(string(f[0]))
	if p.section == "OBJSENSE" && len(f) == 1 {
		// OBJSENSE's value written at column 1 (some writers do).
		if _, ok := senseOf(key); ok {
			return p.objSense(f)
		}
	}
	if p.section == "COLUMNS" && p.inInt {
		p.warnf("MARKER INTORG on line %d has no INTEND: its columns are integer up to the end of COLUMNS", p.intLine)
		p.inInt = false
	}
	switch key {
	case "ENDATA":
		p.section = "ENDATA"
		return nil
	case "QUADOBJ", "QMATRIX", "QSECTION", "QCMATRIX":
		return &ParseError{Line: p.line, Reason: fmt.Sprintf("section %s: quadratic terms are not supported", key)}
	case "SOS", "SETS", "INDICATORS", "CSECTION", "CONE", "GENCONS", "PWLOBJ", "PWLNAM", "PWLCON", "USERCUTS", "LAZYCONS":
		return &ParseError{Line: p.line, Reason: fmt.Sprintf("section %s is not supported", key)}
	}
	sec, ok := sectionOrder[key]
	if !ok {
		return &ParseError{Line: p.line, Reason: fmt.Sprintf("unknown section %q", f[0])}
	}
	if sec == secObjSense {
		key = "OBJSENSE"
	}
	if p.seen[sec] {
		return &ParseError{Line: p.line, Reason: fmt.Sprintf("section %s appears twice", key)}
	}
	switch {
	case sec <= secRows && p.seen[secColumns]:
		return &ParseError{Line: p.line, Reason: fmt.Sprintf("section %s after COLUMNS", key)}
	case sec == secObjName && p.seen[secRows]:
		return &ParseError{Line: p.line, Reason: "section OBJNAME after ROWS"}
	case sec == secColumns && !p.seen[secRows]:
		return &ParseError{Line: p.line, Reason: "section COLUMNS before ROWS"}
	case sec > secColumns && !p.seen[secColumns]:
		return &ParseError{Line: p.line, Reason: fmt.Sprintf("section %s before COLUMNS", key)}
	}
	p.seen[sec] = true
	p.section = key
	switch sec {
	case secName:
		p.name = string(bytes.TrimSpace(s[len(f[0]):]))
	case secObjSense:
		if len(f) > 1 {
			if err := p.objSense(f[1:]); err != nil {
				return err
			}
		}
	case secObjName:
		if len(f) > 1 {
			return p.data(f[1:])
		}
	default:
		if len(f) > 1 {
			return p.errorf("unexpected text %q after the section name", f[1])
		}
	}
	return nil
}

// senseOf maps an OBJSENSE value to a sense.
func senseOf(s string) (Sense, bool) {
	switch s {
	case "MAX", "MAXIMIZE", "MAXIMISE":
		return Maximize, true
	case "MIN", "MINIMIZE", "MINIMISE":
		return Minimize, true
	}
	return 0, false
}

func (p *mpsParser) objSense(f [][]byte) error {
	if len(f) != 1 {
		return p.errorf("expected MIN or MAX, got %d fields", len(f))
	}
	sense, ok := senseOf(strings.ToUpper(string(f[0])))
	if !ok {
		return p.errorf("unknown sense %q", f[0])
	}
	p.sense = sense
	return nil
}

func (p *mpsParser) row(f [][]byte) error {
	if len(f) != 2 {
		return p.errorf("expected a type and a name, got %d fields", len(f))
	}
	if len(f[0]) != 1 || !strings.Contains("NLGEnlge", string(f[0])) {
		return p.errorf("unknown row type %q", f[0])
	}
	typ := f[0][0] &^ 0x20 // upper case
	_, h, dup := p.rows.find(f[1])
	if dup || (p.objRow >= 0 && string(f[1]) == p.objName) {
		return p.errorf("duplicate row %q", f[1])
	}
	if typ == 'N' && p.objRow < 0 && (p.objWant == "" || p.objWant == string(f[1])) {
		p.objRow = 0
		p.objName = string(f[1])
		return nil
	}
	p.rows.addHashed(f[1], h)
	p.rowType = push(p.rowType, typ)
	p.rhs = push(p.rhs, 0)
	p.rhsSet = push(p.rhsSet, false)
	p.rng = push(p.rng, 0)
	p.rngSet = push(p.rngSet, false)
	return nil
}

// coefficient parses a COLUMNS value: finite and below MaxMPSCoefficient.
func (p *mpsParser) coefficient(s []byte) (float64, error) {
	v, ok := parseNumber(s)
	switch {
	case !ok && isNaN(s):
		return 0, p.errorf("value %q is NaN", s)
	case !ok:
		return 0, p.errorf("bad number %q", s)
	case math.Abs(v) >= MaxMPSCoefficient:
		return 0, p.errorf("coefficient %q is beyond the largest accepted magnitude %g", s, MaxMPSCoefficient)
	}
	return v, nil
}

// boundValue parses an RHS, RANGES or BOUNDS value: |v| >= MPSInfinity is infinite.
func (p *mpsParser) boundValue(s []byte) (float64, error) {
	v, ok := parseNumber(s)
	switch {
	case !ok && isNaN(s):
		return 0, p.errorf("value %q is NaN", s)
	case !ok:
		return 0, p.errorf("bad number %q", s)
	case v >= MPSInfinity:
		return math.Inf(1), nil
	case v <= -MPSInfinity:
		return math.Inf(-1), nil
	}
	return v, nil
}

// isNaN reports whether s spells NaN.
func isNaN(s []byte) bool {
	t := bytes.TrimLeft(s, "+-")
	return bytes.EqualFold(t, []byte("nan"))
}

// entry is one row/value pair of a data line, resolved.
type entry struct {
	row int32 // -1 for the objective
	val float64
}

func (p *mpsParser) column(f [][]byte) error {
	if len(f) == 3 && string(f[1]) == "'MARKER'" {
		switch string(f[2]) {
		case "'INTORG'":
			if p.inInt {
				return p.errorf("MARKER INTORG inside an integer block")
			}
			p.inInt = true
			p.intLine = p.line
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
	isNew := p.lastCol < 0 || !bytes.Equal(name, p.cols.name(p.lastCol))
	var hash uint64
	if isNew {
		var dup bool
		if _, hash, dup = p.cols.find(name); dup {
			return p.errorf("column %q appears again after other columns", name)
		}
	}
	// Resolve and check every pair before changing anything.
	var ents [2]entry
	next := int32(p.cols.len())
	if !isNew {
		next = p.lastCol
	}
	objSeen := p.objMark && !isNew
	for k := 1; k < len(f); k += 2 {
		v, err := p.coefficient(f[k+1])
		if err != nil {
			return err
		}
		row := f[k]
		e := entry{row: -1, val: v}
		if p.objRow >= 0 && string(row) == p.objName {
			if objSeen {
				return p.errorf("duplicate entry for column %q in row %q", name, row)
			}
			objSeen = true
		} else {
			i := p.rows.lookup(row)
			if i < 0 {
				return p.errorf("unknown row %q", row)
			}
			if (p.mark != nil && p.mark[i] == next+1 && !isNew) || (k == 3 && ents[0].row == i) {
				return p.errorf("duplicate entry for column %q in row %q", name, row)
			}
			e.row = i
		}
		ents[k/2] = e
	}
	if isNew {
		p.newColumn(name, hash)
	}
	j := p.lastCol
	for _, e := range ents[:len(f)/2] {
		if e.row < 0 {
			p.objMark = true
			p.colObj[j] = e.val
			continue
		}
		p.mark[e.row] = j + 1
		if e.val != 0 {
			p.addEntry(e.row, e.val)
		}
	}
	return nil
}

// entryChunkSize is the number of nonzeros in one chunk of the reader's storage.
const entryChunkSize = 1 << 14

// entryChunk holds entryChunkSize nonzeros (row, value) of the reader. Chunks are never
// reallocated, so the nonzeros are stored once while the file is read (a growing
// slice would hold two copies each time it grows).
type entryChunk struct {
	row [entryChunkSize]int32
	val [entryChunkSize]float64
}

// addEntry stores one nonzero of the current column.
func (p *mpsParser) addEntry(row int32, v float64) {
	c, k := p.nnz/entryChunkSize, p.nnz%entryChunkSize
	if c == len(p.ents) {
		p.ents = push(p.ents, new(entryChunk))
	}
	p.ents[c].row[k] = row
	p.ents[c].val[k] = v
	p.nnz++
}

func (p *mpsParser) newColumn(name []byte, hash uint64) {
	if p.mark == nil {
		p.mark = make([]int32, p.rows.len())
	}
	j := p.cols.addHashed(name, hash)
	kind := Continuous
	if p.inInt {
		kind = Integer
	}
	p.colKind = push(p.colKind, kind)
	p.colLo = push(p.colLo, 0)
	p.colHi = push(p.colHi, math.Inf(1))
	p.colObj = push(p.colObj, 0)
	p.loSet = push(p.loSet, false)
	p.bounded = push(p.bounded, false)
	p.bndLine = push(p.bndLine, 0)
	p.colStart = push(p.colStart, int32(p.nnz))
	p.lastCol = j
	p.objMark = false
}

// checkSet checks the RHS/RANGES/BOUNDS set name: only one set per section is
// supported. It changes nothing; useSet records the name.
func (p *mpsParser) checkSet(have string, name []byte) error {
	if have != "" && have != string(name) {
		return p.errorf("a second set %q (after %q) is not supported", name, have)
	}
	return nil
}

func useSet(have *string, name []byte) {
	if *have == "" && name != nil {
		*have = string(name)
	}
}

// pairs splits an RHS or RANGES line into its set name (nil when absent) and
// row/value pairs.
func (p *mpsParser) pairs(f [][]byte, set string) (name []byte, rest [][]byte, err error) {
	switch len(f) {
	case 2, 4:
	case 3, 5:
		if err := p.checkSet(set, f[0]); err != nil {
			return nil, nil, err
		}
		name, f = f[0], f[1:]
	default:
		return nil, nil, p.errorf("expected one or two row/value pairs, got %d fields", len(f))
	}
	return name, f, nil
}

func (p *mpsParser) rhsLine(f [][]byte) error {
	set, f, err := p.pairs(f, p.rhsName)
	if err != nil {
		return err
	}
	var ents [2]entry
	for k := 0; k < len(f); k += 2 {
		v, err := p.boundValue(f[k+1])
		if err != nil {
			return err
		}
		row := f[k]
		e := entry{row: -1, val: v}
		if p.objRow >= 0 && string(row) == p.objName {
			if p.objRHS || (k == 2 && ents[0].row < 0) {
				return p.errorf("duplicate entry for row %q", row)
			}
			if math.IsInf(v, 0) {
				return p.errorf("objective constant %q is infinite", f[k+1])
			}
		} else {
			i := p.rows.lookup(row)
			if i < 0 {
				return p.errorf("unknown row %q", row)
			}
			if p.rhsSet[i] || (k == 2 && ents[0].row == i) {
				return p.errorf("duplicate entry for row %q", row)
			}
			if p.rowType[i] == 'N' {
				e.row = -2 // ignored
			} else {
				if math.IsInf(v, 0) && p.rowType[i] == 'E' {
					return p.errorf("infinite right-hand side on the equality row %q", row)
				}
				e.row = i
			}
		}
		ents[k/2] = e
	}
	useSet(&p.rhsName, set)
	for _, e := range ents[:len(f)/2] {
		switch {
		case e.row == -1:
			p.objRHS = true
			p.objConst = -e.val
		case e.row >= 0:
			p.rhsSet[e.row] = true
			p.rhs[e.row] = e.val
		}
	}
	return nil
}

func (p *mpsParser) rangeLine(f [][]byte) error {
	set, f, err := p.pairs(f, p.rngName)
	if err != nil {
		return err
	}
	var ents [2]entry
	for k := 0; k < len(f); k += 2 {
		// A range is a width, not a bound: only an overflow is infinite.
		v, ok := parseNumber(f[k+1])
		if !ok {
			if isNaN(f[k+1]) {
				return p.errorf("value %q is NaN", f[k+1])
			}
			return p.errorf("bad number %q", f[k+1])
		}
		row := f[k]
		if p.objRow >= 0 && string(row) == p.objName {
			return p.errorf("range on the objective row %q", row)
		}
		i := p.rows.lookup(row)
		if i < 0 {
			return p.errorf("unknown row %q", row)
		}
		if p.rowType[i] == 'N' {
			return p.errorf("range on the free row %q", row)
		}
		if p.rngSet[i] || (k == 2 && ents[0].row == i) {
			return p.errorf("duplicate entry for row %q", row)
		}
		ents[k/2] = entry{row: i, val: v}
	}
	useSet(&p.rngName, set)
	for _, e := range ents[:len(f)/2] {
		p.rngSet[e.row] = true
		p.rng[e.row] = e.val
	}
	return nil
}

func (p *mpsParser) boundLine(f [][]byte) error {
	if len(f) < 2 {
		return p.errorf("expected a bound type and a column, got %d fields", len(f))
	}
	typ := boundType(f[0])
	var withValue bool
	switch typ {
	case "UP", "LO", "FX", "LI", "UI":
		withValue = true
	case "FR", "MI", "PL", "BV":
	case "SC", "SI": // the value is optional
	default:
		return p.errorf("unknown bound type %q", f[0])
	}
	var set, col, val []byte
	rest := f[1:]
	if withValue {
		switch len(rest) {
		case 3:
			set, col, val = rest[0], rest[1], rest[2]
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
			if p.cols.lookup(rest[1]) >= 0 {
				set, col = rest[0], rest[1]
			} else {
				col, val = rest[0], rest[1]
			}
		case 3:
			set, col, val = rest[0], rest[1], rest[2]
		default:
			return p.errorf("%s bound: expected [set] column, got %d fields", typ, len(f))
		}
	}
	if set != nil {
		if err := p.checkSet(p.bndName, set); err != nil {
			return err
		}
	}
	j := p.cols.lookup(col)
	if j < 0 {
		return p.errorf("unknown column %q", col)
	}
	var v float64
	if val != nil {
		var err error
		if v, err = p.boundValue(val); err != nil {
			return err
		}
	}
	useSet(&p.bndName, set)
	p.bounded[j] = true
	p.bndLine[j] = int32(p.line)
	switch typ {
	case "UP", "UI":
		p.colHi[j] = v
		if v < 0 && !p.loSet[j] {
			p.colLo[j] = math.Inf(-1)
			p.warnf("column %q: negative upper bound %g without a lower bound: lower bound set to -inf (the classic MPS rule)", col, v)
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
	case "SC", "SI":
		if val != nil {
			p.colHi[j] = v
		}
		if typ == "SI" || p.colKind[j].IsInteger() && p.scInt == SCSemiInteger {
			p.colKind[j] = SemiInteger
		} else {
			p.colKind[j] = SemiContinuous
		}
	}
	if typ == "LI" || typ == "UI" {
		p.colKind[j] = Integer
	}
	return nil
}

// boundTypes lists the bound types of the BOUNDS section.
var boundTypes = [...]string{"UP", "LO", "FX", "LI", "UI", "FR", "MI", "PL", "BV", "SC", "SI"}

// boundType returns the bound type b spells in any case, or "" (without allocating).
func boundType(b []byte) string {
	if len(b) == 2 {
		for _, t := range boundTypes {
			if b[0]&^0x20 == t[0] && b[1]&^0x20 == t[1] {
				return t
			}
		}
	}
	return ""
}

// build turns the parsed file into a Model. The column arrays become the model's;
// the nonzeros are transposed from the reader's chunks into the model's row-major
// arrays, which are allocated once at their final size.
func (p *mpsParser) build() (*Model, error) {
	m := New(p.name)
	if p.sense != 0 {
		m.sense = p.sense
	}
	nc, nr := p.cols.len(), p.rows.len()
	colNames, rowNames := p.cols.list(), p.rows.list()
	p.cols.release() // the tables' slots go before the nonzeros are copied
	p.rows.release()
	for j := range nc {
		kind, lo, hi := p.colKind[j], p.colLo[j], p.colHi[j]
		switch {
		case kind == Integer && !p.bounded[j]:
			hi = 1 // HiGHS reads an unbounded MARKER column as binary
		case kind == Binary && (lo < 0 || hi > 1):
			kind = Integer
		}
		if badBounds(lo, hi) {
			return nil, &ParseError{Line: int(p.bndLine[j]), Section: "BOUNDS",
				Reason: fmt.Sprintf("column %q: lower bound %g > upper bound %g", colNames.name(j), lo, hi)}
		}
		if kind.IsSemi() && badSemi(lo, hi) {
			return nil, &ParseError{Line: int(p.bndLine[j]), Section: "BOUNDS",
				Reason: fmt.Sprintf("%s column %q: bounds [%g, %g]: needs 0 <= lower bound <= upper bound < %g", kind, colNames.name(j), lo, hi, MPSInfinity)}
		}
		p.colKind[j], p.colHi[j] = kind, hi
	}
	m.colNames, m.colKind, m.colLo, m.colHi, m.colObj = colNames, p.colKind, p.colLo, p.colHi, p.colObj
	m.objConst = p.objConst

	// Rows: bounds from type, RHS and range; entries transposed to row-major order.
	nnz := p.nnz
	count := make([]int32, nr+1)
	for k := range nnz {
		count[p.ents[k/entryChunkSize].row[k%entryChunkSize]+1]++
	}
	for i := range nr {
		count[i+1] += count[i]
	}
	m.rowStart = count
	m.rowIndex = make([]int32, nnz)
	m.rowValue = make([]float64, nnz)
	next := make([]int32, nr)
	copy(next, count[:nr])
	colStart := append(p.colStart, int32(nnz))
	for j := range nc {
		for k := colStart[j]; k < colStart[j+1]; k++ {
			c := p.ents[k/entryChunkSize]
			i := c.row[k%entryChunkSize]
			q := next[i]
			next[i]++
			m.rowIndex[q] = int32(j)
			m.rowValue[q] = c.val[k%entryChunkSize]
			if (k+1)%entryChunkSize == 0 {
				p.ents[k/entryChunkSize] = nil // done: let the collector have it
			}
		}
	}
	p.ents = nil
	m.rowLo = make([]float64, 0, nr)
	m.rowHi = make([]float64, 0, nr)
	m.rowNames = rowNames
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
		if badBounds(lo, hi) {
			return nil, &ParseError{Line: p.line, Reason: fmt.Sprintf("row %q: right-hand side %g and range %g give the empty or undefined interval [%g, %g]",
				rowNames.name(i), b, r, lo, hi)}
		}
		m.rowLo = append(m.rowLo, lo)
		m.rowHi = append(m.rowHi, hi)
	}
	if len(m.rowStart) == 1 {
		m.rowStart = m.rowStart[:0]
	}
	if err := m.validateStructure(); err != nil {
		return nil, fmt.Errorf("model: read MPS: %w", err)
	}
	return m, nil
}
