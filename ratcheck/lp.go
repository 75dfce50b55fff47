package ratcheck

import (
	"bytes"
	"fmt"
	"io"
	"math/big"

	"github.com/schedopt/schedopt/model"
)

// The LP reader: a compact re-reading of the grammar of model.ReadLP (which has
// accepted the file before this runs), with exact sums. It reads the tokens of
// model.LPLexer, ReadLP's own tokenizer, so both readers see the same file.

// lpReader re-reads the tokens with exact numbers.
type lpReader struct {
	lex       *model.LPLexer
	tok, peek model.LPToken // the current token and the next
	m         *Model
	section   model.LPSection
	cols      map[string]int
	nrow      int
	lo, hi    []xnum
	terms     map[int]*big.Rat // the current expression
	order     []int
}

func (p *lpReader) advance() {
	p.tok = p.peek
	p.peek = p.lex.Next()
}

func isInfTok(t model.LPToken) bool {
	_, ok := isInfWord(t.Text)
	return t.Kind == model.LPName && ok && t.Text[0] != '+' && t.Text[0] != '-'
}

// isMinus reports whether the sign token t is a minus.
func isMinus(t model.LPToken) bool { return t.Text[0] == '-' }

// readLP re-reads the LP file behind the float model fm for its exact numbers.
func readLP(r io.Reader, fm *model.Model) (*Model, error) {
	m := newModel(fm)
	p := &lpReader{lex: model.NewLPLexer(r), m: m, cols: make(map[string]int, len(m.Cols))}
	p.peek = p.lex.Next()
	p.advance()
	if err := p.parse(); err != nil {
		return nil, err
	}
	if err := p.lex.Err(); err != nil {
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

func (p *lpReader) col(name []byte) (int, error) {
	if j, ok := p.cols[string(name)]; ok {
		return j, nil
	}
	j := len(p.cols)
	if p.m.ColumnIndex(string(name)) != j {
		return 0, fmt.Errorf("column %q is not the float reader's column %d", name, j)
	}
	p.cols[string(name)] = j
	p.lo = append(p.lo, zero())
	p.hi = append(p.hi, posInf)
	return j, nil
}

func (p *lpReader) parse() error {
	for {
		t := p.tok
		switch t.Kind {
		case model.LPEOF:
			return nil
		case model.LPKeyword:
			if t.Section == model.LPEnd {
				return nil
			}
			p.section = t.Section
			p.advance()
			continue
		}
		var err error
		switch p.section {
		case model.LPObjective:
			err = p.objective()
		case model.LPConstraints:
			err = p.constraint()
		case model.LPBounds:
			err = p.bound()
		case model.LPGeneral, model.LPBinary, model.LPSemi:
			if t.Kind != model.LPName {
				return fmt.Errorf("expected a column, got %q", t.Text)
			}
			_, err = p.col(t.Text)
			p.advance()
		default:
			return fmt.Errorf("unexpected %q", t.Text)
		}
		if err != nil {
			return err
		}
	}
}

func (p *lpReader) statementName() bool {
	if p.tok.Kind == model.LPName && p.peek.Kind == model.LPColon {
		p.advance()
		p.advance()
		return true
	}
	return false
}

// number reads an optionally signed number, inf included.
func (p *lpReader) number() (xnum, error) {
	neg := false
	for p.tok.Kind == model.LPSign {
		neg = neg != isMinus(p.tok)
		p.advance()
	}
	t := p.tok
	var v xnum
	switch {
	case isInfTok(t):
		v = posInf
	case t.Kind == model.LPNumber:
		var ok bool
		if v, ok = parseNum(t.Text); !ok {
			return v, fmt.Errorf("bad number %q", t.Text)
		}
	default:
		return v, fmt.Errorf("expected a number, got %q", t.Text)
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
		for p.tok.Kind == model.LPSign {
			neg = neg != isMinus(p.tok)
			signed = true
			p.advance()
		}
		coef, hasCoef := finite(big.NewRat(1, 1)), false
		if isInfTok(p.tok) {
			coef, hasCoef = posInf, true
			p.advance()
		} else if p.tok.Kind == model.LPNumber {
			v, ok := parseNum(p.tok.Text)
			if !ok {
				return constant, false, fmt.Errorf("bad number %q", p.tok.Text)
			}
			coef, hasCoef = v, true
			p.advance()
		}
		if neg {
			coef = coef.neg()
		}
		t := p.tok
		switch {
		case t.Kind == model.LPName && !isInfTok(t) && p.peek.Kind != model.LPColon:
			if coef.inf != 0 {
				return constant, false, fmt.Errorf("infinite coefficient of %q", t.Text)
			}
			j, err := p.col(t.Text)
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
			return constant, false, fmt.Errorf("expected a term after the sign, got %q", t.Text)
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
	if t := p.tok; t.Kind != model.LPKeyword && t.Kind != model.LPEOF {
		return fmt.Errorf("unexpected %q in the objective", t.Text)
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
	if p.tok.Kind != model.LPOp {
		return fmt.Errorf("expected an operator, got %q", p.tok.Text)
	}
	if len(p.terms) == 0 && any {
		op := p.tok.Op
		p.advance()
		left := c
		c2, _, err := p.expr()
		if err != nil {
			return err
		}
		if len(p.terms) == 0 {
			op, left, c2 = op.Flip(), c2, left
		}
		v, err := sub(left, c2)
		if err != nil {
			return err
		}
		setSide(op.Flip(), v, &lo, &hi) // "v op terms" is "terms op' v"
		if p.tok.Kind == model.LPOp {
			op2, w, err := p.opNumber()
			if err != nil {
				return err
			}
			if w, err = sub(w, c2); err != nil {
				return err
			}
			setSide(op2, w, &lo, &hi) // ReadLP has refused = here
		}
	} else {
		op, v, err := p.opNumber()
		if err != nil {
			return err
		}
		if v, err = sub(v, c); err != nil {
			return err
		}
		setSide(op, v, &lo, &hi)
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

// opNumber reads an operator and the optionally signed number after it.
func (p *lpReader) opNumber() (model.Op, xnum, error) {
	op := p.tok.Op
	p.advance()
	v, err := p.number()
	return op, v, err
}

// setSide applies "x op v" to the interval [lo, hi]: LE sets its upper end, GE its
// lower end, EQ both.
func setSide(op model.Op, v xnum, lo, hi *xnum) {
	switch op {
	case model.LE:
		*hi = v
	case model.GE:
		*lo = v
	case model.EQ:
		*lo, *hi = v, v
	}
}

func (p *lpReader) bound() error {
	apply := func(j int, op model.Op, v xnum, colLeft bool) {
		if !colLeft {
			op = op.Flip() // "v op x" is "x op' v"
		}
		setSide(op, v, &p.lo[j], &p.hi[j])
	}
	if t := p.tok; t.Kind == model.LPName && !isInfTok(t) {
		j, err := p.col(t.Text)
		if err != nil {
			return err
		}
		p.advance()
		if t := p.tok; t.Kind == model.LPName && bytes.EqualFold(t.Text, []byte("free")) {
			p.lo[j], p.hi[j] = negInf, posInf
			p.advance()
			return nil
		}
		if p.tok.Kind != model.LPOp {
			return fmt.Errorf("expected an operator after %q", p.m.Cols[j].Name)
		}
		op, v, err := p.opNumber()
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
	if p.tok.Kind != model.LPOp {
		return fmt.Errorf("expected an operator, got %q", p.tok.Text)
	}
	op := p.tok.Op
	p.advance()
	j, err := p.col(p.tok.Text)
	if err != nil {
		return err
	}
	p.advance()
	apply(j, op, v, false)
	if p.tok.Kind == model.LPOp {
		op2, w, err := p.opNumber()
		if err != nil {
			return err
		}
		apply(j, op2, w, true)
	}
	return nil
}
