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
	p := &lpParser{lex: NewLPLexer(r), cols: newNameTable(), rows: newNameTable(), m: New("")}
	if err := p.parse(); err != nil {
		return nil, err
	}
	return p.build()
}

// LPTokenKind says what an LP token is.
type LPTokenKind int

// LP token kinds.
const (
	LPEOF     LPTokenKind = iota // the end of the input (LPLexer.Err says whether it was read whole)
	LPKeyword                    // a section keyword starting a line; LPToken.Section says which
	LPNumber                     // an unsigned number: digits and periods, then an optional exponent
	LPName                       // a name (inf, infinity and free are names too)
	LPSign                       // + or -
	LPOp                         // <=, =<, <, >=, =>, >, = or ==; LPToken.Op says which
	LPColon                      // :
	LPOther                      // a character that starts nothing ReadLP reads, or an SOS keyword
)

// LPSection is a section of an LP file, as a keyword starting a line names it.
type LPSection int

// LP sections.
const (
	LPNoSection   LPSection = iota // before the first section
	LPObjective                    // Minimize or Maximize
	LPConstraints                  // Subject To
	LPBounds                       // Bounds
	LPGeneral                      // General
	LPBinary                       // Binary
	LPSemi                         // Semi-continuous
	LPEnd                          // End
)

var lpSectionNames = [...]string{"", "objective", "Subject To", "Bounds", "General", "Binary", "Semi-continuous", "End"}

// LPToken is one token of an LP file. Text is valid until the token after the next
// one is read.
type LPToken struct {
	Kind    LPTokenKind
	Text    []byte    // the token as written (for LPKeyword, the line up to the keyword's end)
	Op      Op        // for LPOp: LE, GE or EQ
	Section LPSection // for LPKeyword
	Max     bool      // for LPKeyword with Section LPObjective: Maximize
	Line    int       // the line number, from 1
}

// LPLexer splits an LP file into tokens, one line at a time: the tokenizer of ReadLP,
// for readers that keep more than the float64 model holds (package ratcheck keeps each
// number's exact decimal value), so that they see the file exactly as ReadLP read it.
// It drops "\" comments and reads a section keyword only at the start of a line. It
// keeps two line buffers, so that a token stays valid while the parser looks one token
// ahead.
type LPLexer struct {
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

// NewLPLexer returns a lexer reading r. Lines longer than ReadLP accepts (1 MiB) end
// the input with Err reporting bufio.ErrTooLong.
func NewLPLexer(r io.Reader) *LPLexer {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxMPSLine)
	return &LPLexer{sc: sc}
}

// Err returns the error that ended the input early, or nil once it was read whole.
func (l *LPLexer) Err() error { return l.err }

// lpKeyword maps the first words of a line to a section, or LPNoSection. n is the length
// of the keyword in the line.
func lpKeyword(s []byte) (sec LPSection, max bool, n int) {
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
		return LPNoSection, false, 0
	}
	switch s[a] | 0x20 { // only these letters start a keyword: most lines end here
	case 'm', 's', 'b', 'g', 'i', 'e':
	default:
		return LPNoSection, false, 0
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
		return LPObjective, false, b
	case is("maximize", "maximise", "maximum", "max"):
		return LPObjective, true, b
	case is("st", "s.t.", "st."):
		return LPConstraints, false, b
	case is("subject", "such"):
		c, d := word(b)
		if bytes.EqualFold(s[c:d], []byte("to")) || bytes.EqualFold(s[c:d], []byte("that")) {
			return LPConstraints, false, d
		}
	case is("bounds", "bound"):
		return LPBounds, false, b
	case is("general", "generals", "gen", "integer", "integers", "int"):
		return LPGeneral, false, b
	case is("binary", "binaries", "bin"):
		return LPBinary, false, b
	case is("semi-continuous", "semis", "semi"):
		return LPSemi, false, b
	case is("sos", "sos1", "sos2"):
		return -1, false, b
	case is("end"):
		return LPEnd, false, b
	}
	return LPNoSection, false, 0
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

// Next returns the next token; at the end of the input, LPEOF again and again.
func (l *LPLexer) Next() LPToken {
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
			return LPToken{Kind: LPEOF, Line: l.lineNo}
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
		if sec, max, n := lpKeyword(l.line); sec != LPNoSection {
			l.pos = n
			l.hold = l.cur
			if sec < 0 {
				return LPToken{Kind: LPOther, Text: l.line[:n], Line: l.lineNo}
			}
			return LPToken{Kind: LPKeyword, Section: sec, Max: max, Text: l.line[:n], Line: l.lineNo}
		}
	}
	s, i := l.line, l.pos
	l.hold = l.cur
	t := LPToken{Line: l.lineNo}
	c := s[i]
	switch {
	case c == '+' || c == '-':
		t.Kind, l.pos = LPSign, i+1
	case c == ':':
		t.Kind, l.pos = LPColon, i+1
	case c == '<' || c == '>' || c == '=':
		j := i + 1
		if j < len(s) && (s[j] == '=' || s[j] == '<' || s[j] == '>') {
			j++
		}
		t.Kind, l.pos = LPOp, j
		switch op := string(s[i:j]); op {
		case "<=", "=<", "<":
			t.Op = LE
		case ">=", "=>", ">":
			t.Op = GE
		case "=", "==":
			t.Op = EQ
		default:
			t.Kind = LPOther
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
		t.Kind, l.pos = LPNumber, j
	case lpNameByte(c):
		j := i
		for j < len(s) && lpNameByte(s[j]) {
			j++
		}
		t.Kind, l.pos = LPName, j
	default:
		t.Kind, l.pos = LPOther, i+1
	}
	t.Text = s[i:l.pos]
	return t
}

// lpParser holds the state of ReadLP.
type lpParser struct {
	lex       *LPLexer
	tok, peek LPToken
	section   LPSection
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
	p.peek = p.lex.Next()
}

func (p *lpParser) errorf(format string, args ...any) error {
	sec := ""
	if p.section != LPNoSection {
		sec = lpSectionNames[p.section]
	}
	return &ParseError{Line: p.tok.Line, Section: sec, Reason: fmt.Sprintf(format, args...)}
}

// describe names the current token for an error message.
func (p *lpParser) describe() string {
	switch p.tok.Kind {
	case LPEOF:
		return "the end of the file"
	case LPKeyword:
		return fmt.Sprintf("section %q", p.tok.Text)
	}
	return fmt.Sprintf("%q", p.tok.Text)
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
	p.peek = p.lex.Next()
	p.advance()
	for {
		switch p.tok.Kind {
		case LPEOF:
			if p.lex.err != nil {
				if p.lex.err == bufio.ErrTooLong {
					return &ParseError{Line: p.tok.Line + 1, Reason: fmt.Sprintf("line longer than %d bytes", maxMPSLine)}
				}
				return fmt.Errorf("model: read LP: %w", p.lex.err)
			}
			if p.section == LPNoSection {
				return &ParseError{Line: p.tok.Line, Reason: "no objective section (Minimize or Maximize)"}
			}
			return nil
		case LPKeyword:
			if err := p.startSection(); err != nil {
				return err
			}
			if p.section == LPEnd {
				return nil
			}
			continue
		}
		var err error
		switch p.section {
		case LPNoSection:
			if p.tok.Kind == LPOther && bytes.HasPrefix(bytes.ToLower(p.tok.Text), []byte("sos")) {
				return p.errorf("SOS constraints are not supported")
			}
			err = p.errorf("expected Minimize or Maximize, got %s", p.describe())
		case LPObjective:
			err = p.objective()
		case LPConstraints:
			err = p.constraint()
		case LPBounds:
			err = p.bound()
		case LPGeneral, LPBinary, LPSemi:
			err = p.declaration()
		}
		if err != nil {
			return err
		}
	}
}

func (p *lpParser) startSection() error {
	sec := p.tok.Section
	switch {
	case sec == LPObjective && p.section != LPNoSection:
		return p.errorf("a second objective section %q", p.tok.Text)
	case sec != LPObjective && p.section == LPNoSection:
		return p.errorf("section %q before the objective (Minimize or Maximize)", p.tok.Text)
	case sec == LPConstraints && p.section != LPObjective:
		return p.errorf("section %q after %s", p.tok.Text, lpSectionNames[p.section])
	}
	if sec == LPObjective && p.tok.Max {
		p.m.sense = Maximize
	}
	p.section = sec
	p.advance()
	return nil
}

// statementName skips "name:" if it comes next and reports whether it did.
func (p *lpParser) statementName() bool {
	if p.tok.Kind == LPName && p.peek.Kind == LPColon {
		p.advance()
		p.advance()
		return true
	}
	return false
}

// number reads an optionally signed number, inf and infinity included.
func (p *lpParser) number() (float64, error) {
	sign := 1.0
	for p.tok.Kind == LPSign {
		if p.tok.Text[0] == '-' {
			sign = -sign
		}
		p.advance()
	}
	switch {
	case p.tok.Kind == LPName && (bytes.EqualFold(p.tok.Text, []byte("inf")) || bytes.EqualFold(p.tok.Text, []byte("infinity"))):
		p.advance()
		return sign * math.Inf(1), nil
	case p.tok.Kind == LPNumber:
		v, ok := parseNumber(p.tok.Text)
		if !ok {
			return 0, p.errorf("bad number %q", p.tok.Text)
		}
		p.advance()
		return sign * v, nil
	}
	return 0, p.errorf("expected a number, got %s", p.describe())
}

// isInf reports whether the current token is inf or infinity.
func (p *lpParser) isInf(t LPToken) bool {
	return t.Kind == LPName && (len(t.Text) == 3 || len(t.Text) == 8) && (bytes.EqualFold(t.Text, []byte("inf")) || bytes.EqualFold(t.Text, []byte("infinity")))
}

// expr reads terms into p.e until something that is not a term; it returns their
// constant and whether any term or constant was read.
func (p *lpParser) expr() (float64, bool, error) {
	p.e.Reset()
	constant, any := 0.0, false
	for {
		sign, signed := 1.0, false
		for p.tok.Kind == LPSign {
			if p.tok.Text[0] == '-' {
				sign = -sign
			}
			signed = true
			p.advance()
		}
		coef, hasCoef := 1.0, false
		if p.isInf(p.tok) {
			coef, hasCoef = math.Inf(1), true // only a constant: checked by the caller
			p.advance()
		} else if p.tok.Kind == LPNumber {
			v, ok := parseNumber(p.tok.Text)
			if !ok {
				return 0, false, p.errorf("bad number %q", p.tok.Text)
			}
			coef, hasCoef = v, true
			p.advance()
		}
		switch {
		case p.tok.Kind == LPName && !p.isInf(p.tok) && p.peek.Kind != LPColon:
			if math.Abs(coef) >= MaxMPSCoefficient || math.IsNaN(coef) {
				return 0, false, p.errorf("coefficient %g of %q is beyond the largest accepted magnitude %g", coef, p.tok.Text, MaxMPSCoefficient)
			}
			p.e.Add(p.col(p.tok.Text), sign*coef)
			p.advance()
			any = true
		case p.tok.Kind == LPOther && p.tok.Text[0] == '[':
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
	if p.tok.Kind != LPKeyword && p.tok.Kind != LPEOF {
		return p.errorf("unexpected %s in the objective", p.describe())
	}
	return nil
}

func (p *lpParser) constraint() error {
	line := p.tok.Line
	nameIdx := int32(-1)
	if p.tok.Kind == LPName && p.peek.Kind == LPColon {
		_, h, dup := p.rows.find(p.tok.Text)
		if dup {
			return p.errorf("duplicate constraint name %q", p.tok.Text)
		}
		nameIdx = p.rows.addHashed(p.tok.Text, h)
		p.statementName()
	}
	lo, hi := math.Inf(-1), math.Inf(1)
	c, any, err := p.expr()
	if err != nil {
		return err
	}
	if p.tok.Kind != LPOp {
		if !any {
			return p.errorf("expected a constraint, got %s", p.describe())
		}
		return p.errorf("expected <=, >= or = after the terms, got %s", p.describe())
	}
	if p.e.Len() == 0 && any {
		// "lo op terms [op hi]": the terms come after the operator.
		op := p.tok.Op
		p.advance()
		left := c
		c2, _, err := p.expr()
		if err != nil {
			return err
		}
		if p.e.Len() == 0 {
			// "0 >= -1": a row without terms (WriteLP's form).
			op, left, c2 = op.Flip(), c2, left
		}
		switch op {
		case LE:
			lo = left - c2
		case GE:
			hi = left - c2
		case EQ:
			lo, hi = left-c2, left-c2
		}
		if p.tok.Kind == LPOp {
			op2 := p.tok.Op
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
		op := p.tok.Op
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
	line := int32(p.tok.Line)
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
	if p.tok.Kind == LPName && !p.isInf(p.tok) {
		j := p.col(p.tok.Text)
		p.advance()
		if p.tok.Kind == LPName && bytes.EqualFold(p.tok.Text, []byte("free")) {
			setLo(j, math.Inf(-1))
			setHi(j, math.Inf(1))
			p.advance()
			return nil
		}
		if p.tok.Kind != LPOp {
			return p.errorf("expected an operator or free after %q, got %s", p.m.VarName(j), p.describe())
		}
		op := p.tok.Op
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
	if p.tok.Kind != LPOp {
		return p.errorf("expected an operator, got %s", p.describe())
	}
	op := p.tok.Op
	p.advance()
	if p.tok.Kind != LPName || p.isInf(p.tok) {
		return p.errorf("expected a column, got %s", p.describe())
	}
	j := p.col(p.tok.Text)
	p.advance()
	apply(j, op, v, false)
	if p.tok.Kind == LPOp {
		op2 := p.tok.Op
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
	if p.tok.Kind != LPName {
		return p.errorf("expected a column name, got %s", p.describe())
	}
	j := p.col(p.tok.Text)
	switch p.section {
	case LPGeneral:
		p.isInt[j] = true
	case LPBinary:
		p.isBin[j] = true
	case LPSemi:
		p.isSemi[j] = true
		p.bndLine[j] = max(p.bndLine[j], int32(p.tok.Line))
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
