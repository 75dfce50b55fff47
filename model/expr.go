package model

// Expr is a linear expression  Σ Coefs[i]·Vars[i] + Constant  stored as two flat
// buffers. Adding a term appends to both; duplicates are kept until the expression is
// turned into a row or objective, where they are summed. Reset keeps the buffers, so
// one Expr can build many rows without allocating. The zero value is the expression 0.
type Expr struct {
	Vars     []Var
	Coefs    []float64
	Constant float64
}

// Add appends the term c·v and returns e for chaining.
func (e *Expr) Add(v Var, c float64) *Expr {
	e.Vars = append(e.Vars, v)
	e.Coefs = append(e.Coefs, c)
	return e
}

// AddConst adds c to the constant and returns e.
func (e *Expr) AddConst(c float64) *Expr {
	e.Constant += c
	return e
}

// AddExpr appends scale·o and returns e.
func (e *Expr) AddExpr(o Expr, scale float64) *Expr {
	for i, v := range o.Vars {
		e.Vars = append(e.Vars, v)
		e.Coefs = append(e.Coefs, scale*o.Coefs[i])
	}
	e.Constant += scale * o.Constant
	return e
}

// Reset empties e, keeping its buffers for reuse.
func (e *Expr) Reset() {
	e.Vars = e.Vars[:0]
	e.Coefs = e.Coefs[:0]
	e.Constant = 0
}

// Clone returns a copy of e that shares no storage with it.
func (e Expr) Clone() Expr {
	return Expr{
		Vars:     append([]Var(nil), e.Vars...),
		Coefs:    append([]float64(nil), e.Coefs...),
		Constant: e.Constant,
	}
}

// Len returns the number of stored terms, duplicates included.
func (e Expr) Len() int { return len(e.Vars) }

// Value evaluates e at x, where x holds one value per column of the model.
func (e Expr) Value(x []float64) float64 {
	s := e.Constant
	for i, v := range e.Vars {
		s += e.Coefs[i] * x[v]
	}
	return s
}

// Term returns the expression c·v.
func Term(v Var, c float64) Expr { return Expr{Vars: []Var{v}, Coefs: []float64{c}} }

// Const returns the constant expression c.
func Const(c float64) Expr { return Expr{Constant: c} }

// Sum returns the expression Σ vars, each with coefficient 1.
func Sum(vars ...Var) Expr {
	e := Expr{Vars: append([]Var(nil), vars...), Coefs: make([]float64, len(vars))}
	for i := range e.Coefs {
		e.Coefs[i] = 1
	}
	return e
}
