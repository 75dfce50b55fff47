package ratcheck

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/big"

	"github.com/schedopt/schedopt/model"
)

// The LP reader: a compact re-reading of the grammar of model.ReadLP (which has
// accepted the file before this runs), with exact sums. Token and section kinds
// follow model/lpread.go.

const (
	tEOF = iota
	tSection
	tNumber
	tName
	tSign
	tOp
	tColon
	tOther
)

const (
	sNone = iota
	sObjective
	sConstraints
	sBounds
	sGeneral
	sBinary
	sSemi
	sEnd
)

type lpTok struct {
	kind int
	text string
	op   model.Op
	sec  int
}

// lpLex splits the whole file into tokens (the files a checker reads are read once).
func lpLex(r io.Reader) ([]lpTok, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var toks []lpTok
	for sc.Scan() {
		s := sc.Bytes()
		pos := 0
		if sec, n := lpKeyword(s); sec != sNone {
			toks = append(toks, lpTok{kind: tSection, sec: sec, text: string(s[:n])})
			pos = n
		}
		if i := bytes.IndexByte(s[pos:], '\\'); i >= 0 {
			s = s[:pos+i] // a comment runs to the end of the line
		}
		for pos < len(s) {
			c := s[pos]
			if isSpace(c) {
				pos++
				continue
			}
			i := pos
			t := lpTok{}
			switch {
			case c == '+' || c == '-':
				t.kind, pos = tSign, i+1
			case c == ':':
				t.kind, pos = tColon, i+1
			case c == '<' || c == '>' || c == '=':
				j := i + 1
				if j < len(s) && (s[j] == '=' || s[j] == '<' || s[j] == '>') {
					j++
				}
				t.kind, pos = tOp, j
				switch string(s[i:j]) {
				case "<=", "=<", "<":
					t.op = model.LE
				case ">=", "=>", ">":
					t.op = model.GE
				case "=", "==":
					t.op = model.EQ
				default:
					t.kind = tOther
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
				t.kind, pos = tNumber, j
			case nameByte(c):
				j := i
				for j < len(s) && nameByte(s[j]) {
					j++
				}
				t.kind, pos = tName, j
			default:
				t.kind, pos = tOther, i+1
			}
			t.text = string(s[i:pos])
			toks = append(toks, t)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return append(toks, lpTok{kind: tEOF}), nil
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'
}

func nameByte(c byte) bool {
	return c >= 0x80 || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		bytes.IndexByte([]byte("!\"#$%&()/,.;?@_`'{}|~"), c) >= 0
}

// lpKeyword is model's section test: the first word of a line, any case.
func lpKeyword(s []byte) (sec, n int) {
	word := func(i int) (int, int) {
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
	w := string(bytes.ToLower(s[a:b]))
	switch w {
	case "minimize", "minimise", "minimum", "min", "maximize", "maximise", "maximum", "max":
		return sObjective, b
	case "st", "s.t.", "st.":
		return sConstraints, b
	case "subject", "such":
		c, d := word(b)
		if t := string(bytes.ToLower(s[c:d])); t == "to" || t == "that" {
			return sConstraints, d
		}
	case "bounds", "bound":
		return sBounds, b
	case "general", "generals", "gen", "integer", "integers", "int":
		return sGeneral, b
	case "binary", "binaries", "bin":
		return sBinary, b
	case "semi-continuous", "semis", "semi":
		return sSemi, b
	case "sos", "sos1", "sos2":
		return -1, b
	case "end":
		return sEnd, b
	}
	return sNone, 0
}

// lpReader re-reads the tokens with exact numbers.
type lpReader struct {
	toks    []lpTok
	k       int
	m       *Model
	section int
	cols    map[string]int
	nrow    int
	lo, hi  []xnum
	terms   map[int]*big.Rat // the current expression
	order   []int
}

func (p *lpReader) tok() lpTok  { return p.toks[p.k] }
func (p *lpReader) peek() lpTok { return p.toks[min(p.k+1, len(p.toks)-1)] }
func (p *lpReader) advance() {
	if p.k < len(p.toks)-1 {
		p.k++
	}
}

func isInfTok(t lpTok) bool {
	_, ok := isInfWord([]byte(t.text))
	return t.kind == tName && ok && t.text[0] != '+' && t.text[0] != '-'
}

// readLP re-reads the LP file behind the float model fm for its exact numbers.
func readLP(r io.Reader, fm *model.Model) (*Model, error) {
	toks, err := lpLex(r)
	if err != nil {
		return nil, err
	}
	m := newModel(fm)
	p := &lpReader{toks: toks, m: m, cols: make(map[string]int, len(m.Cols))}
	if err := p.parse(); err != nil {
		return nil, err
	}
	if len(p.cols) != len(m.Cols) || p.nrow != len(m.Rows) {
		return nil, fmt.Errorf("read %d columns and %d rows, the float reader %d and %d", len(p.cols), p.nrow, len(m.Cols), len(m.Rows))
	}
	for j := range m.Cols {
		lo, hi := p.lo[j], p.hi[j]
		if m.Cols[j].Kind == model.Binary {
			if lo.sign() < 0 {
				lo = zero()
			}
			if one := finite(big.NewRat(1, 1)); cmp(hi, one) > 0 {
				hi = one
			}
		}
		m.Cols[j].Lo, m.Cols[j].Hi = ratOf(lo), ratOf(hi)
	}
	return m, nil
}

func (p *lpReader) col(name string) (int, error) {
	if j, ok := p.cols[name]; ok {
		return j, nil
	}
	j := len(p.cols)
	if p.m.ColumnIndex(name) != j {
		return 0, fmt.Errorf("column %q is not the float reader's column %d", name, j)
	}
	p.cols[name] = j
	p.lo = append(p.lo, zero())
	p.hi = append(p.hi, posInf)
	return j, nil
}

func (p *lpReader) parse() error {
	for {
		t := p.tok()
		switch t.kind {
		case tEOF:
			return nil
		case tSection:
			if t.sec == sEnd {
				return nil
			}
			p.section = t.sec
			p.advance()
			continue
		}
		var err error
		switch p.section {
		case sObjective:
			err = p.objective()
		case sConstraints:
			err = p.constraint()
		case sBounds:
			err = p.bound()
		case sGeneral, sBinary, sSemi:
			if t.kind != tName {
				return fmt.Errorf("expected a column, got %q", t.text)
			}
			_, err = p.col(t.text)
			p.advance()
		default:
			return fmt.Errorf("unexpected %q", t.text)
		}
		if err != nil {
			return err
		}
	}
}

func (p *lpReader) statementName() bool {
	if p.tok().kind == tName && p.peek().kind == tColon {
		p.advance()
		p.advance()
		return true
	}
	return false
}

// number reads an optionally signed number, inf included.
func (p *lpReader) number() (xnum, error) {
	neg := false
	for p.tok().kind == tSign {
		neg = neg != (p.tok().text == "-")
		p.advance()
	}
	t := p.tok()
	var v xnum
	switch {
	case isInfTok(t):
		v = posInf
	case t.kind == tNumber:
		var ok bool
		if v, ok = parseNum([]byte(t.text)); !ok {
			return v, fmt.Errorf("bad number %q", t.text)
		}
	default:
		return v, fmt.Errorf("expected a number, got %q", t.text)
	}
	p.advance()
	if neg {
		v = v.neg()
	}
	return v, nil
}

// expr reads terms into p.terms (summed by column) and returns their constant and
// whether anything was read.
func (p *lpReader) expr() (xnum, bool, error) {
	p.terms, p.order = map[int]*big.Rat{}, p.order[:0]
	constant, any := zero(), false
	for {
		neg, signed := false, false
		for p.tok().kind == tSign {
			neg = neg != (p.tok().text == "-")
			signed = true
			p.advance()
		}
		coef, hasCoef := finite(big.NewRat(1, 1)), false
		if isInfTok(p.tok()) {
			coef, hasCoef = posInf, true
			p.advance()
		} else if p.tok().kind == tNumber {
			v, ok := parseNum([]byte(p.tok().text))
			if !ok {
				return constant, false, fmt.Errorf("bad number %q", p.tok().text)
			}
			coef, hasCoef = v, true
			p.advance()
		}
		if neg {
			coef = coef.neg()
		}
		t := p.tok()
		switch {
		case t.kind == tName && !isInfTok(t) && p.peek().kind != tColon:
			if coef.inf != 0 {
				return constant, false, fmt.Errorf("infinite coefficient of %q", t.text)
			}
			j, err := p.col(t.text)
			if err != nil {
				return constant, false, err
			}
			if c, ok := p.terms[j]; ok {
				c.Add(c, coef.r)
			} else {
				p.terms[j] = new(big.Rat).Set(coef.r)
				p.order = append(p.order, j)
			}
			p.advance()
			any = true
		case hasCoef:
			var ok bool
			if constant, ok = add(constant, coef); !ok {
				return constant, false, fmt.Errorf("undefined constant")
			}
			any = true
		case signed:
			return constant, false, fmt.Errorf("expected a term after the sign, got %q", t.text)
		default:
			return constant, any, nil
		}
	}
}

func (p *lpReader) objective() error {
	p.statementName()
	c, _, err := p.expr()
	if err != nil {
		return err
	}
	for _, j := range p.order {
		o := p.m.Cols[j].Obj
		o.Add(o, p.terms[j])
	}
	if c.inf != 0 {
		return fmt.Errorf("infinite objective constant")
	}
	p.m.ObjConst.Add(p.m.ObjConst, c.r)
	if t := p.tok(); t.kind != tSection && t.kind != tEOF {
		return fmt.Errorf("unexpected %q in the objective", t.text)
	}
	return nil
}

// sub returns a − b.
func sub(a, b xnum) (xnum, error) {
	v, ok := add(a, b.neg())
	if !ok {
		return v, fmt.Errorf("∞ − ∞")
	}
	return v, nil
}

func (p *lpReader) constraint() error {
	p.statementName()
	lo, hi := negInf, posInf
	c, any, err := p.expr()
	if err != nil {
		return err
	}
	if p.tok().kind != tOp {
		return fmt.Errorf("expected an operator, got %q", p.tok().text)
	}
	if len(p.terms) == 0 && any {
		op := p.tok().op
		p.advance()
		left := c
		c2, _, err := p.expr()
		if err != nil {
			return err
		}
		if len(p.terms) == 0 {
			op, left, c2 = flip(op), c2, left
		}
		v, err := sub(left, c2)
		if err != nil {
			return err
		}
		switch op {
		case model.LE:
			lo = v
		case model.GE:
			hi = v
		case model.EQ:
			lo, hi = v, v
		}
		if p.tok().kind == tOp {
			op2 := p.tok().op
			p.advance()
			w, err := p.number()
			if err != nil {
				return err
			}
			if w, err = sub(w, c2); err != nil {
				return err
			}
			if op2 == model.LE {
				hi = w
			} else {
				lo = w
			}
		}
	} else {
		op := p.tok().op
		p.advance()
		v, err := p.number()
		if err != nil {
			return err
		}
		if v, err = sub(v, c); err != nil {
			return err
		}
		switch op {
		case model.LE:
			hi = v
		case model.GE:
			lo = v
		case model.EQ:
			lo, hi = v, v
		}
	}
	i := p.nrow
	if i >= len(p.m.Rows) {
		return fmt.Errorf("more rows than the float reader read")
	}
	p.nrow++
	row := &p.m.Rows[i]
	row.Lo, row.Hi = ratOf(lo), ratOf(hi)
	for _, j := range p.order {
		if c := p.terms[j]; c.Sign() != 0 {
			row.Cols = append(row.Cols, int32(j))
			row.Coefs = append(row.Coefs, c)
		}
	}
	return nil
}

func flip(op model.Op) model.Op {
	switch op {
	case model.LE:
		return model.GE
	case model.GE:
		return model.LE
	}
	return op
}

func (p *lpReader) bound() error {
	apply := func(j int, op model.Op, v xnum, colLeft bool) {
		if !colLeft && op != model.EQ {
			op = flip(op)
		}
		switch op {
		case model.LE:
			p.hi[j] = v
		case model.GE:
			p.lo[j] = v
		case model.EQ:
			p.lo[j], p.hi[j] = v, v
		}
	}
	if t := p.tok(); t.kind == tName && !isInfTok(t) {
		j, err := p.col(t.text)
		if err != nil {
			return err
		}
		p.advance()
		if t := p.tok(); t.kind == tName && bytes.EqualFold([]byte(t.text), []byte("free")) {
			p.lo[j], p.hi[j] = negInf, posInf
			p.advance()
			return nil
		}
		if p.tok().kind != tOp {
			return fmt.Errorf("expected an operator after %q", t.text)
		}
		op := p.tok().op
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
	if p.tok().kind != tOp {
		return fmt.Errorf("expected an operator, got %q", p.tok().text)
	}
	op := p.tok().op
	p.advance()
	j, err := p.col(p.tok().text)
	if err != nil {
		return err
	}
	p.advance()
	apply(j, op, v, false)
	if p.tok().kind == tOp {
		op2 := p.tok().op
		p.advance()
		w, err := p.number()
		if err != nil {
			return err
		}
		apply(j, op2, w, true)
	}
	return nil
}
