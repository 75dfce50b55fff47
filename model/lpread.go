package model

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
)

// ReadLP reads a model in CPLEX LP format: what WriteLP writes, and the common
// constructs of other writers (CPLEX, HiGHS, Gurobi, SCIP). It reads
//
//   - a "\" comment to the end of any line;
//   - the sections Minimize/Maximize (also min, max, minimise, maximum, ...), Subject
//     To (also such that, st, s.t.), Bounds, General (gen, generals, integers),
//     Binary (bin, binaries), Semi-continuous (semi, semis) and End, each starting a
//     line in any case; text after End is ignored, a missing End is accepted;
//   - an objective "[name:] terms", whose constant term ("+ 5") becomes the objective
//     constant and whose name is not kept;
//   - constraints "[name:] terms op rhs" with op one of <=, =<, <, >=, =>, >, =, and the
//     two-sided form "[name:] lo <= terms <= hi" (a ranged row); constants among the
//     terms move to the right-hand side; a statement may span lines;
//   - bounds "x >= l", "x <= u", "x = v", "l <= x <= u", "l <= x", "x free", with
//     -inf, +inf, inf and infinity (any case) as infinite values. The default bounds
//     are [0, +inf); a later bound overrides an earlier one;
//   - General columns are integer, Binary columns binary with bounds [0, 1], and
//     Semi-continuous columns semi-continuous (semi-integer when also General) with
//     their upper bound as the semi bound.
//
// Terms are "[+|-] [coefficient] name"; a name repeated in a row or the objective adds
// up. Columns are numbered in order of first appearance, which for WriteLP's output is
// the model's order. Names follow CPLEX: letters, digits and !"#$%&()/,.;?@_`'{}|~,
// not starting with a digit or a period. Quadratic terms ("[ ... ]"), SOS and
// indicator constraints are refused as unsupported.
//
// Errors are *ParseError values naming the line and section. Numbers are read as in
// ReadMPS (parseNumber); a coefficient of magnitude MaxMPSCoefficient or more is
// refused. Bounds and right-hand sides are read as written: LP spells infinity (inf),
// so unlike ReadMPS a finite 1e20 stays finite and WriteLP's output reads back exactly.
func ReadLP(r io.Reader) (*Model, error) {
	p := &lpParser{lex: newLPLexer(r), cols: newNameTable(), rows: newNameTable(), m: New("")}
	if err := p.parse(); err != nil {
		return nil, err
	}
	return p.build()
}

// LP token kinds.
const (
	lpEOF     = iota
	lpSection // a section keyword starting a line; tok.sec says which
	lpNumber
	lpName
	lpSign  // + or -
	lpOp    // <=, >=, =
	lpColon // :
	lpOther // a character that starts nothing we read
)

// LP sections.
const (
	lpNone = iota
	lpObjective
	lpConstraints
	lpBounds
	lpGeneral
	lpBinary
	lpSemi
	lpEnd
)

var lpSectionNames = [...]string{"", "objective", "Subject To", "Bounds", "General", "Binary", "Semi-continuous", "End"}

// lpToken is one token. text is valid until the token after the next one is read.
type lpToken struct {
	kind int
	text []byte
	op   Op   // for lpOp
	sec  int  // for lpSection
	max  bool // for lpSection lpObjective: Maximize
	line int
}

// lpLexer splits an LP file into tokens, one line at a time. It keeps two line
// buffers, so that a token stays valid while the parser looks one token ahead.
type lpLexer struct {
	sc     *bufio.Scanner
	bufs   [2][]byte
	cur    int // the buffer holding the current line
	hold   int // the buffer holding the line of the last token returned: kept intact
	line   []byte
	pos    int
	lineNo int
	err    error
	done   bool
	name   string // the model's name, from a first line "\ Model NAME" (WriteLP's)
}

func newLPLexer(r io.Reader) *lpLexer {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxMPSLine)
	return &lpLexer{sc: sc}
}

// lpKeyword maps the first words of a line to a section, or lpNone. n is the length
// of the keyword in the line.
func lpKeyword(s []byte) (sec int, max bool, n int) {
	word := func(i int) (int, int) { // the word starting at or after i: start, end
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		j := i
		for j < len(s) && !isSpace(s[j]) && s[j] != ':' {
			j++
		}
		return i, j
	}
	a, b := word(0)
	if a == b {
		return lpNone, false, 0
	}
	switch s[a] | 0x20 { // only these letters start a keyword: most lines end here
	case 'm', 's', 'b', 'g', 'i', 'e':
	default:
		return lpNone, false, 0
	}
	w := s[a:b]
	is := func(names ...string) bool {
		for _, n := range names {
			if bytes.EqualFold(w, []byte(n)) {
				return true
			}
		}
		return false
	}
	switch {
	case is("minimize", "minimise", "minimum", "min"):
		return lpObjective, false, b
	case is("maximize", "maximise", "maximum", "max"):
		return lpObjective, true, b
	case is("st", "s.t.", "st."):
		return lpConstraints, false, b
	case is("subject", "such"):
		c, d := word(b)
		if bytes.EqualFold(s[c:d], []byte("to")) || bytes.EqualFold(s[c:d], []byte("that")) {
			return lpConstraints, false, d
		}
	case is("bounds", "bound"):
		return lpBounds, false, b
	case is("general", "generals", "gen", "integer", "integers", "int"):
		return lpGeneral, false, b
	case is("binary", "binaries", "bin"):
		return lpBinary, false, b
	case is("semi-continuous", "semis", "semi"):
		return lpSemi, false, b
	case is("sos", "sos1", "sos2"):
		return -1, false, b
	case is("end"):
		return lpEnd, false, b
	}
	return lpNone, false, 0
}

// lpNameBytes marks the bytes that may appear in a name: CPLEX's list (letters,
// digits, !"#$%&()/,.;?@_`'{}|~) and any non-ASCII byte. It is never modified.
var lpNameBytes = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= 0x80 || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			bytes.IndexByte([]byte("!\"#$%&()/,.;?@_`'{}|~"), byte(c)) >= 0
	}
	return t
}()

// lpNameByte reports whether c may appear in a name.
func lpNameByte(c byte) bool { return lpNameBytes[c] }

// next returns the next token.
func (l *lpLexer) next() lpToken {
	for {
		for l.pos < len(l.line) && isSpace(l.line[l.pos]) {
			l.pos++
		}
		if l.pos < len(l.line) && l.line[l.pos] != '\\' {
			break
		}
		if l.done || !l.sc.Scan() {
			l.done = true
			if err := l.sc.Err(); err != nil && l.err == nil {
				l.err = err
			}
			return lpToken{kind: lpEOF, line: l.lineNo}
		}
		l.lineNo++
		// Read into the buffer that does not hold the last token's line, however many
		// blank or comment lines come first: flipping per line would overwrite the
		// text of the token the parser still holds (a name after a comment line).
		l.cur = l.hold ^ 1
		l.bufs[l.cur] = append(l.bufs[l.cur][:0], l.sc.Bytes()...)
		l.line, l.pos = l.bufs[l.cur], 0
		if l.lineNo == 1 && bytes.HasPrefix(l.line, []byte("\\ Model ")) {
			l.name = string(bytes.TrimSpace(l.line[len("\\ Model "):]))
		}
		if sec, max, n := lpKeyword(l.line); sec != lpNone {
			l.pos = n
			l.hold = l.cur
			if sec < 0 {
				return lpToken{kind: lpOther, text: l.line[:n], line: l.lineNo}
			}
			return lpToken{kind: lpSection, sec: sec, max: max, text: l.line[:n], line: l.lineNo}
		}
	}
	s, i := l.line, l.pos
	l.hold = l.cur
	t := lpToken{line: l.lineNo}
	c := s[i]
	switch {
	case c == '+' || c == '-':
		t.kind, l.pos = lpSign, i+1
	case c == ':':
		t.kind, l.pos = lpColon, i+1
	case c == '<' || c == '>' || c == '=':
		j := i + 1
		if j < len(s) && (s[j] == '=' || s[j] == '<' || s[j] == '>') {
			j++
		}
		t.kind, l.pos = lpOp, j
		switch op := string(s[i:j]); op {
		case "<=", "=<", "<":
			t.op = LE
		case ">=", "=>", ">":
			t.op = GE
		case "=", "==":
			t.op = EQ
		default:
			t.kind = lpOther
		}
	case c >= '0' && c <= '9' || c == '.':
		j := i
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
			j++
		}
		if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
			k := j + 1
			if k < len(s) && (s[k] == '+' || s[k] == '-') {
				k++
			}
			if k < len(s) && s[k] >= '0' && s[k] <= '9' {
				for k < len(s) && s[k] >= '0' && s[k] <= '9' {
					k++
				}
				j = k
			}
		}
		t.kind, l.pos = lpNumber, j
	case lpNameByte(c):
		j := i
		for j < len(s) && lpNameByte(s[j]) {
			j++
		}
		t.kind, l.pos = lpName, j
	default:
		t.kind, l.pos = lpOther, i+1
	}
	t.text = s[i:l.pos]
	return t
}

// lpParser holds the state of ReadLP.
type lpParser struct {
	lex       *lpLexer
	tok, peek lpToken
	section   int
	m         *Model
	cols      *nameTable // column names → column index, the model's order
	rows      *nameTable // row names, to refuse duplicates
	rowNames  []int32    // the index in rows of each row's name, -1 for none
	bndLine   []int32    // last bound line of each column
	isInt     []bool
	isBin     []bool
	isSemi    []bool
	e         Expr
}

func (p *lpParser) advance() {
	p.tok = p.peek
	p.peek = p.lex.next()
}

func (p *lpParser) errorf(format string, args ...any) error {
	sec := ""
	if p.section != lpNone {
		sec = lpSectionNames[p.section]
	}
	return &ParseError{Line: p.tok.line, Section: sec, Reason: fmt.Sprintf(format, args...)}
}

// describe names the current token for an error message.
func (p *lpParser) describe() string {
	switch p.tok.kind {
	case lpEOF:
		return "the end of the file"
	case lpSection:
		return fmt.Sprintf("section %q", p.tok.text)
	}
	return fmt.Sprintf("%q", p.tok.text)
}

// col returns the column named b, adding it on first sight.
func (p *lpParser) col(b []byte) Var {
	j, h, ok := p.cols.find(b)
	if ok {
		return Var(j)
	}
	p.cols.addHashed(b, h)
	p.bndLine = append(p.bndLine, 0)
	p.isInt = append(p.isInt, false)
	p.isBin = append(p.isBin, false)
	p.isSemi = append(p.isSemi, false)
	return p.m.AddVar(Continuous, 0, math.Inf(1), "") // named in build
}

func (p *lpParser) parse() error {
	p.peek = p.lex.next()
	p.advance()
	for {
		switch p.tok.kind {
		case lpEOF:
			if p.lex.err != nil {
				if p.lex.err == bufio.ErrTooLong {
					return &ParseError{Line: p.tok.line + 1, Reason: fmt.Sprintf("line longer than %d bytes", maxMPSLine)}
				}
				return fmt.Errorf("model: read LP: %w", p.lex.err)
			}
			if p.section == lpNone {
				return &ParseError{Line: p.tok.line, Reason: "no objective section (Minimize or Maximize)"}
			}
			return nil
		case lpSection:
			if err := p.startSection(); err != nil {
				return err
			}
			if p.section == lpEnd {
				return nil
			}
			continue
		}
		var err error
		switch p.section {
		case lpNone:
			if p.tok.kind == lpOther && bytes.HasPrefix(bytes.ToLower(p.tok.text), []byte("sos")) {
				return p.errorf("SOS constraints are not supported")
			}
			err = p.errorf("expected Minimize or Maximize, got %s", p.describe())
		case lpObjective:
			err = p.objective()
		case lpConstraints:
			err = p.constraint()
		case lpBounds:
			err = p.bound()
		case lpGeneral, lpBinary, lpSemi:
			err = p.declaration()
		}
		if err != nil {
			return err
		}
	}
}

func (p *lpParser) startSection() error {
	sec := p.tok.sec
	switch {
	case sec == lpObjective && p.section != lpNone:
		return p.errorf("a second objective section %q", p.tok.text)
	case sec != lpObjective && p.section == lpNone:
		return p.errorf("section %q before the objective (Minimize or Maximize)", p.tok.text)
	case sec == lpConstraints && p.section != lpObjective:
		return p.errorf("section %q after %s", p.tok.text, lpSectionNames[p.section])
	}
	if sec == lpObjective && p.tok.max {
		p.m.sense = Maximize
	}
	p.section = sec
	p.advance()
	return nil
}

// statementName skips "name:" if it comes next and reports whether it did.
func (p *lpParser) statementName() bool {
	if p.tok.kind == lpName && p.peek.kind == lpColon {
		p.advance()
		p.advance()
		return true
	}
	return false
}

// number reads an optionally signed number, inf and infinity included.
func (p *lpParser) number() (float64, error) {
	sign := 1.0
	for p.tok.kind == lpSign {
		if p.tok.text[0] == '-' {
			sign = -sign
		}
		p.advance()
	}
	switch {
	case p.tok.kind == lpName && (bytes.EqualFold(p.tok.text, []byte("inf")) || bytes.EqualFold(p.tok.text, []byte("infinity"))):
		p.advance()
		return sign * math.Inf(1), nil
	case p.tok.kind == lpNumber:
		v, ok := parseNumber(p.tok.text)
		if !ok {
			return 0, p.errorf("bad number %q", p.tok.text)
		}
		p.advance()
		return sign * v, nil
	}
	return 0, p.errorf("expected a number, got %s", p.describe())
}

// isInf reports whether the current token is inf or infinity.
func (p *lpParser) isInf(t lpToken) bool {
	return t.kind == lpName && (len(t.text) == 3 || len(t.text) == 8) && (bytes.EqualFold(t.text, []byte("inf")) || bytes.EqualFold(t.text, []byte("infinity")))
}

// expr reads terms into p.e until something that is not a term; it returns their
// constant and whether any term or constant was read.
func (p *lpParser) expr() (float64, bool, error) {
	p.e.Reset()
	constant, any := 0.0, false
	for {
		sign, signed := 1.0, false
		for p.tok.kind == lpSign {
			if p.tok.text[0] == '-' {
				sign = -sign
			}
			signed = true
			p.advance()
		}
		coef, hasCoef := 1.0, false
		if p.isInf(p.tok) {
			coef, hasCoef = math.Inf(1), true // only a constant: checked by the caller
			p.advance()
		} else if p.tok.kind == lpNumber {
			v, ok := parseNumber(p.tok.text)
			if !ok {
				return 0, false, p.errorf("bad number %q", p.tok.text)
			}
			coef, hasCoef = v, true
			p.advance()
		}
		switch {
		case p.tok.kind == lpName && !p.isInf(p.tok) && p.peek.kind != lpColon:
			if math.Abs(coef) >= MaxMPSCoefficient || math.IsNaN(coef) {
				return 0, false, p.errorf("coefficient %g of %q is beyond the largest accepted magnitude %g", coef, p.tok.text, MaxMPSCoefficient)
			}
			p.e.Add(p.col(p.tok.text), sign*coef)
			p.advance()
			any = true
		case p.tok.kind == lpOther && p.tok.text[0] == '[':
			return 0, false, p.errorf("quadratic terms are not supported")
		case hasCoef:
			constant += sign * coef
			any = true
		case signed:
			return 0, false, p.errorf("expected a term after the sign, got %s", p.describe())
		default:
			return constant, any, nil
		}
	}
}

func (p *lpParser) objective() error {
	p.statementName()
	c, _, err := p.expr()
	if err != nil {
		return err
	}
	for k, v := range p.e.Vars {
		p.m.colObj[v] += p.e.Coefs[k]
	}
	if math.IsInf(c, 0) || math.IsNaN(c) {
		return p.errorf("the objective constant is %g", c)
	}
	p.m.objConst += c
	if p.tok.kind != lpSection && p.tok.kind != lpEOF {
		return p.errorf("unexpected %s in the objective", p.describe())
	}
	return nil
}

func (p *lpParser) constraint() error {
	line := p.tok.line
	nameIdx := int32(-1)
	if p.tok.kind == lpName && p.peek.kind == lpColon {
		_, h, dup := p.rows.find(p.tok.text)
		if dup {
			return p.errorf("duplicate constraint name %q", p.tok.text)
		}
		nameIdx = p.rows.addHashed(p.tok.text, h)
		p.statementName()
	}
	lo, hi := math.Inf(-1), math.Inf(1)
	c, any, err := p.expr()
	if err != nil {
		return err
	}
	if p.tok.kind != lpOp {
		if !any {
			return p.errorf("expected a constraint, got %s", p.describe())
		}
		return p.errorf("expected <=, >= or = after the terms, got %s", p.describe())
	}
	if p.e.Len() == 0 && any {
		// "lo op terms [op hi]": the terms come after the operator.
		op := p.tok.op
		p.advance()
		left := c
		c2, _, err := p.expr()
		if err != nil {
			return err
		}
		if p.e.Len() == 0 {
			// "0 >= -1": a row without terms (WriteLP's form).
			op, left, c2 = flip(op), c2, left
		}
		switch op {
		case LE:
			lo = left - c2
		case GE:
			hi = left - c2
		case EQ:
			lo, hi = left-c2, left-c2
		}
		if p.tok.kind == lpOp {
			op2 := p.tok.op
			p.advance()
			v, err := p.number()
			if err != nil {
				return err
			}
			if op2 != op || op == EQ {
				return &ParseError{Line: line, Section: "Subject To", Reason: "a two-sided constraint needs the same operator twice (<= ... <= or >= ... >=)"}
			}
			if op2 == LE {
				hi = v - c2
			} else {
				lo = v - c2
			}
		}
	} else {
		op := p.tok.op
		p.advance()
		v, err := p.number()
		if err != nil {
			return err
		}
		v -= c
		switch op {
		case LE:
			hi = v
		case GE:
			lo = v
		case EQ:
			lo, hi = v, v
		}
	}
	if badBounds(lo, hi) {
		return &ParseError{Line: line, Section: "Subject To", Reason: fmt.Sprintf("%s: bounds [%g, %g] are empty or undefined", p.rowWhat(nameIdx), lo, hi)}
	}
	p.m.AddRange(p.e, lo, hi, "")
	p.rowNames = push(p.rowNames, nameIdx)
	return nil
}

func (p *lpParser) bound() error {
	line := int32(p.tok.line)
	setLo := func(j Var, v float64) { p.m.colLo[j] = v; p.bndLine[j] = line }
	setHi := func(j Var, v float64) { p.m.colHi[j] = v; p.bndLine[j] = line }
	apply := func(j Var, op Op, v float64, colLeft bool) {
		if !colLeft && op != EQ {
			op ^= 1 // LE <-> GE: "v <= x" is "x >= v"
		}
		switch op {
		case LE:
			setHi(j, v)
		case GE:
			setLo(j, v)
		case EQ:
			setLo(j, v)
			setHi(j, v)
		}
	}
	if p.tok.kind == lpName && !p.isInf(p.tok) {
		j := p.col(p.tok.text)
		p.advance()
		if p.tok.kind == lpName && bytes.EqualFold(p.tok.text, []byte("free")) {
			setLo(j, math.Inf(-1))
			setHi(j, math.Inf(1))
			p.advance()
			return nil
		}
		if p.tok.kind != lpOp {
			return p.errorf("expected an operator or free after %q, got %s", p.m.VarName(j), p.describe())
		}
		op := p.tok.op
		p.advance()
		v, err := p.number()
		if err != nil {
			return err
		}
		apply(j, op, v, true)
		return nil
	}
	v, err := p.number()
	if err != nil {
		return err
	}
	if p.tok.kind != lpOp {
		return p.errorf("expected an operator, got %s", p.describe())
	}
	op := p.tok.op
	p.advance()
	if p.tok.kind != lpName || p.isInf(p.tok) {
		return p.errorf("expected a column, got %s", p.describe())
	}
	j := p.col(p.tok.text)
	p.advance()
	apply(j, op, v, false)
	if p.tok.kind == lpOp {
		op2 := p.tok.op
		p.advance()
		w, err := p.number()
		if err != nil {
			return err
		}
		apply(j, op2, w, true)
	}
	return nil
}

func (p *lpParser) declaration() error {
	if p.tok.kind != lpName {
		return p.errorf("expected a column name, got %s", p.describe())
	}
	j := p.col(p.tok.text)
	switch p.section {
	case lpGeneral:
		p.isInt[j] = true
	case lpBinary:
		p.isBin[j] = true
	case lpSemi:
		p.isSemi[j] = true
		p.bndLine[j] = max(p.bndLine[j], int32(p.tok.line))
	}
	p.advance()
	return nil
}

// rowWhat names the row being read for an error message.
func (p *lpParser) rowWhat(nameIdx int32) string {
	if nameIdx < 0 {
		return fmt.Sprintf("constraint %d (unnamed)", p.m.NumRows()+1)
	}
	return fmt.Sprintf("constraint %q", p.rows.name(nameIdx))
}

// flip turns "a op b" into "b op' a".
func flip(op Op) Op {
	switch op {
	case LE:
		return GE
	case GE:
		return LE
	}
	return op
}

// build applies the declarations and checks the columns' bounds.
func (p *lpParser) build() (*Model, error) {
	m := p.m
	m.Name = p.lex.name
	m.colNames = p.cols.list()
	m.rowNames = nameList{}
	for _, k := range p.rowNames {
		if k >= 0 {
			m.rowNames.addBytes(p.rows.name(k))
		} else {
			m.rowNames.add("")
		}
	}
	for j := range m.NumVars() {
		lo, hi := m.colLo[j], m.colHi[j]
		kind := Continuous
		switch {
		case p.isSemi[j] && (p.isInt[j] || p.isBin[j]):
			kind = SemiInteger
		case p.isSemi[j]:
			kind = SemiContinuous
		case p.isBin[j]:
			kind = Binary
			lo, hi = math.Max(lo, 0), math.Min(hi, 1)
		case p.isInt[j]:
			kind = Integer
		}
		line := int(p.bndLine[j])
		if line == 0 {
			line = p.lex.lineNo
		}
		if badBounds(lo, hi) {
			return nil, &ParseError{Line: line, Section: "Bounds", Reason: fmt.Sprintf("column %q: bounds [%g, %g] are empty or undefined", m.colNames.name(j), lo, hi)}
		}
		if kind.IsSemi() && badSemi(lo, hi) {
			return nil, &ParseError{Line: line, Section: "Bounds", Reason: fmt.Sprintf("%s column %q: bounds [%g, %g]: needs 0 <= lower bound <= upper bound < %g", kind, m.colNames.name(j), lo, hi, MPSInfinity)}
		}
		m.colKind[j], m.colLo[j], m.colHi[j] = kind, lo, hi
	}
	if err := m.validateStructure(); err != nil {
		return nil, fmt.Errorf("model: read LP: %w", err)
	}
	return m, nil
}
