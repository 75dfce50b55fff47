package model

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Kind is the domain of a variable.
type Kind uint8

// Variable kinds.
const (
	Continuous Kind = iota // any real value within the bounds
	Integer                // an integer within the bounds
	Binary                 // 0 or 1; the bounds are intersected with [0, 1]
	// SemiContinuous is 0 or any real value in [lo, hi]: a quantity that is either off
	// or between a minimum and a maximum (a machine's load, a lot size). It needs
	// 0 <= lo and a finite hi; see ErrSemiBounds and WithoutSemi.
	SemiContinuous
	// SemiInteger is 0 or an integer in [lo, hi], with the bound rules of
	// SemiContinuous.
	SemiInteger
)

// String returns the kind's name.
func (k Kind) String() string {
	switch k {
	case Continuous:
		return "continuous"
	case Integer:
		return "integer"
	case Binary:
		return "binary"
	case SemiContinuous:
		return "semi-continuous"
	case SemiInteger:
		return "semi-integer"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// IsInteger reports whether the kind requires integral values.
// A semi-integer column is integral (its values are 0 and the integers of [lo, hi]).
func (k Kind) IsInteger() bool { return k == Integer || k == Binary || k == SemiInteger }

// IsSemi reports whether the kind is semi-continuous or semi-integer: a column whose
// value is 0 or within its bounds.
func (k Kind) IsSemi() bool { return k == SemiContinuous || k == SemiInteger }

// ErrSemiBounds is wrapped by the error recorded for a semi-continuous or semi-integer
// column whose bounds are not 0 <= lo <= hi < +Inf: without a finite upper bound no
// solver (and no reformulation with a binary) can represent the column exactly, and a
// negative lower bound would make 0 an interior point, which no solver agrees on.
var ErrSemiBounds = errors.New("model: semi-continuous column needs 0 <= lower bound <= upper bound < +Inf")

// Var identifies a column of a Model. Vars are dense indices from 0, in creation order.
type Var int32

// Row identifies a constraint of a Model. Rows are dense indices from 0, in creation order.
type Row int32

// Sense is the optimisation direction of the objective.
type Sense int8

// Objective senses. The values match the HiGHS convention.
const (
	Minimize Sense = 1
	Maximize Sense = -1
)

// String returns "min" or "max".
func (s Sense) String() string {
	if s == Maximize {
		return "max"
	}
	return "min"
}

// Op is the relation of a one-sided or equality constraint.
type Op uint8

// Constraint relations.
const (
	LE Op = iota // expression <= rhs
	GE           // expression >= rhs
	EQ           // expression == rhs
)

// String returns the relation as written in LP files.
func (o Op) String() string {
	switch o {
	case LE:
		return "<="
	case GE:
		return ">="
	case EQ:
		return "="
	}
	return fmt.Sprintf("Op(%d)", uint8(o))
}

// Flip returns the relation with its sides swapped: "a o b" is "b o.Flip() a" (LE
// and GE swap, EQ stays).
func (o Op) Flip() Op {
	switch o {
	case LE:
		return GE
	case GE:
		return LE
	}
	return o
}

// ErrInvalid is wrapped by every validation error, so callers can test with errors.Is.
var ErrInvalid = errors.New("model: invalid model")

// Model is a mixed-integer linear program. The zero value is an empty minimisation model
// ready for use. A Model is not safe for concurrent modification; concurrent reads (for
// example two backends solving the same model) are safe.
type Model struct {
	// Name is written into MPS and LP files. It may be empty.
	Name string

	colNames nameList // the names given to AddVar ("" included), back to back
	colLo    []float64
	colHi    []float64
	colObj   []float64
	colKind  []Kind

	rowStart []int32 // len NumRows()+1 once a row exists; rowStart[0] == 0
	rowIndex []int32
	rowValue []float64
	rowLo    []float64
	rowHi    []float64
	rowNames nameList // the names given to AddConstr and AddRange

	sense    Sense
	objConst float64

	start   []float64 // MIP start; NaN marks an unset entry; nil when no start is given
	reforms []Reformulation

	err error // first error recorded while building

	pos []int32 // scratch: position of each column in the row being merged, -1 if absent
}

// New returns an empty minimisation model with the given name.
func New(name string) *Model { return &Model{Name: name, sense: Minimize} }

// NumVars returns the number of columns.
func (m *Model) NumVars() int { return len(m.colLo) }

// NumRows returns the number of constraints.
func (m *Model) NumRows() int { return len(m.rowLo) }

// NumNonzeros returns the number of nonzero constraint coefficients.
func (m *Model) NumNonzeros() int { return len(m.rowIndex) }

// NumSemi returns the number of semi-continuous and semi-integer columns. A model with
// one is a MIP even when NumIntegers is 0: its feasible set is not convex.
func (m *Model) NumSemi() int {
	n := 0
	for _, k := range m.colKind {
		if k.IsSemi() {
			n++
		}
	}
	return n
}

// IsMIP reports whether the model has integer, binary or semi columns.
func (m *Model) IsMIP() bool { return m.NumIntegers() > 0 || m.NumSemi() > 0 }

// NumIntegers returns the number of integer, binary and semi-integer columns.
func (m *Model) NumIntegers() int {
	n := 0
	for _, k := range m.colKind {
		if k.IsInteger() {
			n++
		}
	}
	return n
}

// Err returns the first error recorded while building the model, or nil.
func (m *Model) Err() error { return m.err }

func (m *Model) fail(format string, args ...any) {
	if m.err == nil {
		m.err = fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
	}
}

// AddVar adds a column with bounds [lo, hi] (use math.Inf for an absent bound) and
// returns it. Binary columns have their bounds intersected with [0, 1]. Invalid bounds
// (NaN, lo > hi, lo = +Inf or hi = -Inf) are recorded and reported by Err and Validate.
func (m *Model) AddVar(kind Kind, lo, hi float64, name string) Var {
	if kind == Binary {
		lo, hi = math.Max(lo, 0), math.Min(hi, 1)
	}
	v := Var(len(m.colLo))
	if len(m.colLo) == cap(m.colLo) {
		m.Grow(max(len(m.colLo), 64), 0, 0)
	}
	if !m.colNames.add(name) {
		m.fail("column %d: %v", v, errNameArena)
	}
	m.colLo = append(m.colLo, lo)
	m.colHi = append(m.colHi, hi)
	m.colObj = append(m.colObj, 0)
	m.colKind = append(m.colKind, kind)
	if m.start != nil {
		m.start = append(m.start, math.NaN())
	}
	if m.pos != nil {
		m.pos = append(m.pos, -1)
	}
	m.checkColBounds(v, lo, hi)
	return v
}

// AddContinuous adds a continuous column with bounds [lo, hi].
func (m *Model) AddContinuous(lo, hi float64, name string) Var {
	return m.AddVar(Continuous, lo, hi, name)
}

// AddInteger adds an integer column with bounds [lo, hi].
func (m *Model) AddInteger(lo, hi float64, name string) Var { return m.AddVar(Integer, lo, hi, name) }

// AddSemiContinuous adds a column that is 0 or in [lo, hi] (0 <= lo <= hi < +Inf).
func (m *Model) AddSemiContinuous(lo, hi float64, name string) Var {
	return m.AddVar(SemiContinuous, lo, hi, name)
}

// AddSemiInteger adds a column that is 0 or an integer in [lo, hi] (0 <= lo <= hi < +Inf).
func (m *Model) AddSemiInteger(lo, hi float64, name string) Var {
	return m.AddVar(SemiInteger, lo, hi, name)
}

// AddBinary adds a binary column.
func (m *Model) AddBinary(name string) Var { return m.AddVar(Binary, 0, 1, name) }

// checkColBounds records an error when [lo, hi] is not a valid interval for column v.
// The column's name is formatted only on failure, so the build path does not allocate.
func (m *Model) checkColBounds(v Var, lo, hi float64) {
	if m.err == nil && badBounds(lo, hi) {
		m.checkBounds("column "+m.VarName(v), lo, hi)
	}
	if m.err == nil && m.colKind[v].IsSemi() && badSemi(lo, hi) {
		m.err = semiError(m.VarName(v), m.colKind[v], lo, hi)
	}
}

// badSemi reports whether [lo, hi] are not valid bounds of a semi column.
func badSemi(lo, hi float64) bool { return !(lo >= 0) || math.IsInf(hi, 0) }

// semiError is the error for a semi column with bounds [lo, hi].
func semiError(name string, k Kind, lo, hi float64) error {
	return fmt.Errorf("%w: column %s (%s): bounds [%g, %g]: %w", ErrInvalid, name, k, lo, hi, ErrSemiBounds)
}

// checkRowBounds is checkColBounds for row r.
func (m *Model) checkRowBounds(r Row, lo, hi float64) {
	if m.err == nil && badBounds(lo, hi) {
		m.checkBounds("row "+m.RowName(r), lo, hi)
	}
}

// badBounds reports whether [lo, hi] is not a valid interval.
func badBounds(lo, hi float64) bool {
	return math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 1) || math.IsInf(hi, -1) || lo > hi
}

// rowWhat names row r for an error message.
func rowWhat(r Row, name string) string {
	if name == "" {
		return fmt.Sprintf("row c%d", r)
	}
	return "row " + name
}

func (m *Model) checkBounds(what string, lo, hi float64) {
	switch {
	case math.IsNaN(lo) || math.IsNaN(hi):
		m.fail("%s: bound is NaN", what)
	case math.IsInf(lo, 1):
		m.fail("%s: lower bound is +Inf", what)
	case math.IsInf(hi, -1):
		m.fail("%s: upper bound is -Inf", what)
	case lo > hi:
		m.fail("%s: lower bound %g > upper bound %g", what, lo, hi)
	}
}

// VarName returns the column's name, or a generated "x<index>" when it has none.
func (m *Model) VarName(v Var) string {
	if v >= 0 && int(v) < m.colNames.len() {
		if n := m.colNames.name(int(v)); len(n) > 0 {
			return string(n)
		}
	}
	return fmt.Sprintf("x%d", v)
}

// RowName returns the row's name, or a generated "c<index>" when it has none.
func (m *Model) RowName(r Row) string {
	if r >= 0 && int(r) < m.rowNames.len() {
		if n := m.rowNames.name(int(r)); len(n) > 0 {
			return string(n)
		}
	}
	return fmt.Sprintf("c%d", r)
}

// Bounds returns the column's bounds.
func (m *Model) Bounds(v Var) (lo, hi float64) { return m.colLo[v], m.colHi[v] }

// VarKind returns the column's kind.
func (m *Model) VarKind(v Var) Kind { return m.colKind[v] }

// SetBounds changes the column's bounds.
func (m *Model) SetBounds(v Var, lo, hi float64) {
	if !m.validVar(v) {
		m.fail("SetBounds: unknown variable %d", v)
		return
	}
	if m.colKind[v] == Binary {
		lo, hi = math.Max(lo, 0), math.Min(hi, 1)
	}
	m.colLo[v], m.colHi[v] = lo, hi
	m.checkColBounds(v, lo, hi)
}

// Fix sets both bounds of v to value.
func (m *Model) Fix(v Var, value float64) { m.SetBounds(v, value, value) }

func (m *Model) validVar(v Var) bool { return v >= 0 && int(v) < len(m.colLo) }

// AddConstr adds the row  e op rhs  and returns it. The expression's constant is moved
// to the right-hand side and duplicate terms are summed; terms that sum to zero are
// dropped.
func (m *Model) AddConstr(e Expr, op Op, rhs float64, name string) Row {
	rhs -= e.Constant
	lo, hi := math.Inf(-1), math.Inf(1)
	switch op {
	case LE:
		hi = rhs
	case GE:
		lo = rhs
	case EQ:
		lo, hi = rhs, rhs
	default:
		m.fail("row %q: unknown relation %d", strings.Clone(name), op) // a copy: name does not escape
	}
	return m.addRow(e, lo, hi, name)
}

// AddRange adds the row  lo <= e <= hi  (either side may be infinite) and returns it.
// The expression's constant is moved to both sides.
func (m *Model) AddRange(e Expr, lo, hi float64, name string) Row {
	return m.addRow(e, lo-e.Constant, hi-e.Constant, name)
}

func (m *Model) addRow(e Expr, lo, hi float64, name string) Row {
	r := Row(len(m.rowLo))
	if len(m.rowLo) == cap(m.rowLo) || len(m.rowStart) == cap(m.rowStart) {
		m.Grow(0, max(len(m.rowLo), 64), 0)
	}
	if len(m.rowStart) == 0 {
		m.rowStart = append(m.rowStart, 0)
	}
	if len(e.Vars) != len(e.Coefs) {
		m.fail("%s: expression has %d variables and %d coefficients", rowWhat(r, name), len(e.Vars), len(e.Coefs))
	} else {
		m.appendMerged(e, r, name)
	}
	m.rowStart = append(m.rowStart, int32(len(m.rowIndex)))
	m.rowLo = append(m.rowLo, lo)
	m.rowHi = append(m.rowHi, hi)
	if !m.rowNames.add(name) {
		m.fail("row %d: %v", r, errNameArena)
	}
	m.checkRowBounds(r, lo, hi)
	return r
}

// appendMerged appends e's terms to the row arrays, summing duplicates and dropping
// zeros, then sorts the new row by column index so that the stored form is canonical.
//
// It allocates nothing per term: the row arrays grow by doubling, and duplicates are
// found by linear search in short rows and through the reusable scratch slice m.pos in
// long ones. Error messages are formatted only when a term is bad.
func (m *Model) appendMerged(e Expr, r Row, name string) {
	begin := len(m.rowIndex)
	if need := begin + len(e.Vars); need > cap(m.rowIndex) || need > cap(m.rowValue) {
		// Double rather than let append grow by 1.25: a large model then copies its
		// nonzeros about once instead of about four times.
		m.Grow(0, 0, max(len(e.Vars), begin))
	}
	if len(e.Vars) <= shortRow {
		if m.appendShort(e, r, name) {
			m.dropZeros(begin)
		}
		return
	}
	m.appendLong(e, r, name)
	// Drop exact zeros and note whether the row is sorted, in one pass.
	idx, val := m.rowIndex, m.rowValue
	w := begin
	sorted := true
	for i := begin; i < len(idx); i++ {
		if val[i] != 0 {
			if w > begin && idx[i] < idx[w-1] {
				sorted = false
			}
			idx[w], val[w] = idx[i], val[i]
			w++
		}
	}
	m.rowIndex, m.rowValue = idx[:w], val[:w]
	if !sorted {
		sortTerms(m.rowIndex[begin:], m.rowValue[begin:])
	}
}

// shortRow is the longest expression merged by linear search instead of the
// column-indexed scratch array: for a few terms, comparing with the terms already in the
// row is faster than touching a scratch entry per column, which is a cache miss on a
// large model.
const shortRow = 12

// appendShort appends e's terms to the row that starts at len(m.rowIndex) before the
// call, keeping the row sorted by column as it goes (insertion from the end) and
// summing a duplicate into the entry it meets on the way. Each sum is taken in the
// order the terms come, as a merge followed by a sort would. It reports whether an
// entry may be zero. Capacity has been reserved by the caller.
func (m *Model) appendShort(e Expr, r Row, name string) (zero bool) {
	begin := len(m.rowIndex)
	idx, val := m.rowIndex, m.rowValue
	coefs := e.Coefs[:len(e.Vars)]
	ncol := Var(len(m.colLo))
	for i, v := range e.Vars {
		c := coefs[i]
		if v < 0 || v >= ncol {
			m.fail("%s: unknown variable %d", rowWhat(r, name), v)
			continue
		}
		if c-c != 0 { // NaN or ±Inf
			m.fail("%s: coefficient of %s is %g", rowWhat(r, name), m.VarName(v), c)
			continue
		}
		j := int32(v)
		k := len(idx)
		for k > begin && idx[k-1] > j {
			k--
		}
		if k > begin && idx[k-1] == j {
			val[k-1] += c
			zero = zero || val[k-1] == 0
			continue
		}
		idx = append(idx, j)
		val = append(val, c)
		for p := len(idx) - 1; p > k; p-- {
			idx[p], val[p] = idx[p-1], val[p-1]
		}
		idx[k], val[k] = j, c
		zero = zero || c == 0
	}
	m.rowIndex, m.rowValue = idx, val
	return zero
}

// dropZeros removes the zero entries of the row that starts at begin, keeping the
// order of the others.
func (m *Model) dropZeros(begin int) {
	idx, val := m.rowIndex, m.rowValue
	w := begin
	for i := begin; i < len(idx); i++ {
		if val[i] != 0 {
			idx[w], val[w] = idx[i], val[i]
			w++
		}
	}
	m.rowIndex, m.rowValue = idx[:w], val[:w]
}

// appendLong is appendShort for long expressions, using the scratch array m.pos (the
// position of each column in the current row, -1 when absent) to find duplicates.
func (m *Model) appendLong(e Expr, r Row, name string) {
	if len(m.pos) < len(m.colLo) {
		old := len(m.pos)
		m.pos = append(m.pos, make([]int32, len(m.colLo)-old)...)
		for i := old; i < len(m.pos); i++ {
			m.pos[i] = -1
		}
	}
	begin := len(m.rowIndex)
	idx, val := m.rowIndex, m.rowValue
	coefs := e.Coefs[:len(e.Vars)]
	pos := m.pos
	ncol := Var(len(m.colLo))
	for i, v := range e.Vars {
		c := coefs[i]
		if v < 0 || v >= ncol {
			m.fail("%s: unknown variable %d", rowWhat(r, name), v)
			continue
		}
		if c-c != 0 { // NaN or ±Inf
			m.fail("%s: coefficient of %s is %g", rowWhat(r, name), m.VarName(v), c)
			continue
		}
		if p := pos[v]; p >= 0 {
			val[p] += c
			continue
		}
		pos[v] = int32(len(idx))
		idx = append(idx, int32(v))
		val = append(val, c)
	}
	for _, j := range idx[begin:] {
		pos[j] = -1
	}
	m.rowIndex, m.rowValue = idx, val
}

// sortTerms sorts parallel index/value slices by index without allocating: insertion
// sort for short rows, heapsort for long ones (indices are distinct, so stability does
// not matter).
func sortTerms(idx []int32, val []float64) {
	n := len(idx)
	if n <= 24 {
		for i := 1; i < n; i++ {
			for j := i; j > 0 && idx[j] < idx[j-1]; j-- {
				idx[j], idx[j-1] = idx[j-1], idx[j]
				val[j], val[j-1] = val[j-1], val[j]
			}
		}
		return
	}
	siftDown := func(root, end int) {
		for {
			child := 2*root + 1
			if child >= end {
				return
			}
			if child+1 < end && idx[child] < idx[child+1] {
				child++
			}
			if idx[root] >= idx[child] {
				return
			}
			idx[root], idx[child] = idx[child], idx[root]
			val[root], val[child] = val[child], val[root]
			root = child
		}
	}
	for i := n/2 - 1; i >= 0; i-- {
		siftDown(i, n)
	}
	for end := n - 1; end > 0; end-- {
		idx[0], idx[end] = idx[end], idx[0]
		val[0], val[end] = val[end], val[0]
		siftDown(0, end)
	}
}

// RowBounds returns the row's lower and upper bounds.
func (m *Model) RowBounds(r Row) (lo, hi float64) { return m.rowLo[r], m.rowHi[r] }

// SetRowBounds changes the row's bounds, for example to move a deadline between solves.
func (m *Model) SetRowBounds(r Row, lo, hi float64) {
	if r < 0 || int(r) >= len(m.rowLo) {
		m.fail("SetRowBounds: unknown row %d", r)
		return
	}
	m.rowLo[r], m.rowHi[r] = lo, hi
	m.checkRowBounds(r, lo, hi)
}

// RowTerms returns the row's column indices and coefficients, sorted by column. The
// slices alias the model's storage and must not be modified.
func (m *Model) RowTerms(r Row) (idx []int32, val []float64) {
	b, e := m.rowStart[r], m.rowStart[r+1]
	return m.rowIndex[b:e:e], m.rowValue[b:e:e]
}

// SetObjective replaces the objective by  sense e . Duplicate terms are summed.
func (m *Model) SetObjective(sense Sense, e Expr) {
	if sense != Minimize && sense != Maximize {
		m.fail("objective: unknown sense %d", sense)
	}
	m.sense = sense
	clear(m.colObj)
	m.objConst = e.Constant
	if math.IsNaN(e.Constant) || math.IsInf(e.Constant, 0) {
		m.fail("objective: constant is %g", e.Constant)
	}
	if len(e.Vars) != len(e.Coefs) {
		m.fail("objective: expression has %d variables and %d coefficients", len(e.Vars), len(e.Coefs))
		return
	}
	for i, v := range e.Vars {
		c := e.Coefs[i]
		if !m.validVar(v) {
			m.fail("objective: unknown variable %d", v)
			continue
		}
		if math.IsNaN(c) || math.IsInf(c, 0) {
			m.fail("objective: coefficient of %s is %g", m.VarName(v), c)
			continue
		}
		m.colObj[v] += c
	}
}

// Sense returns the objective sense. The zero value of Model minimises.
func (m *Model) Sense() Sense {
	if m.sense == 0 {
		return Minimize
	}
	return m.sense
}

// ObjectiveConstant returns the objective's constant term.
func (m *Model) ObjectiveConstant() float64 { return m.objConst }

// ObjectiveCoef returns the objective coefficient of v.
func (m *Model) ObjectiveCoef(v Var) float64 { return m.colObj[v] }

// Columns is a read-only view of a model's columns as flat slices, indexed by Var. The
// slices alias the model's storage: a backend passes them to its solver without copying.
// Names are not part of the view (the model keeps them in one byte arena); VarName
// returns one.
type Columns struct {
	Lower, Upper, Cost []float64
	Kind               []Kind
}

// Columns returns the columns as flat slices. They must not be modified.
func (m *Model) Columns() Columns {
	return Columns{Lower: m.colLo, Upper: m.colHi, Cost: m.colObj, Kind: m.colKind}
}

// Rows is a read-only view of a model's constraint matrix in compressed sparse row form:
// row r has the terms Index[Start[r]:Start[r+1]] and Value[Start[r]:Start[r+1]], sorted by
// column, with no duplicates and no zeros. Start has NumRows()+1 entries (or none when
// the model has no rows). Names are not part of the view; RowName returns one.
type Rows struct {
	Start        []int32
	Index        []int32
	Value        []float64
	Lower, Upper []float64
}

// Rows returns the constraint matrix as flat slices. They must not be modified.
func (m *Model) Rows() Rows {
	start := m.rowStart
	if len(start) == 0 {
		start = []int32{0}
	}
	return Rows{Start: start, Index: m.rowIndex, Value: m.rowValue, Lower: m.rowLo, Upper: m.rowHi}
}

// SetStart records value as the MIP start (warm start) of v. Backends pass the start to
// solvers that accept one; columns without a start value are left to the solver.
func (m *Model) SetStart(v Var, value float64) {
	if !m.validVar(v) {
		m.fail("SetStart: unknown variable %d", v)
		return
	}
	if m.start == nil {
		m.start = make([]float64, len(m.colLo))
		for i := range m.start {
			m.start[i] = math.NaN()
		}
	}
	m.start[v] = value
}

// ClearStart removes the MIP start.
func (m *Model) ClearStart() { m.start = nil }

// Start returns the MIP start, one entry per column with NaN where no value is given, or
// nil when the model has no start. The slice must not be modified.
func (m *Model) Start() []float64 { return m.start }

// Validate reports the first error recorded while building, or a structural problem
// (NaN or infinite coefficients, inconsistent bounds). The error names the row or column.
func (m *Model) Validate() error {
	if err := m.validateStructure(); err != nil {
		return err
	}
	return m.checkEpigraphs()
}

// validateStructure is Validate without the epigraph exactness check: what a writer
// needs to emit a well-formed file.
func (m *Model) validateStructure() error {
	if m.err != nil {
		return m.err
	}
	for v := range m.colLo {
		lo, hi := m.colLo[v], m.colHi[v]
		if math.IsNaN(lo) || math.IsNaN(hi) || lo > hi || math.IsInf(lo, 1) || math.IsInf(hi, -1) {
			return fmt.Errorf("%w: column %s: bounds [%g, %g]", ErrInvalid, m.VarName(Var(v)), lo, hi)
		}
		if m.colKind[v].IsSemi() && badSemi(lo, hi) {
			return semiError(m.VarName(Var(v)), m.colKind[v], lo, hi)
		}
		if c := m.colObj[v]; math.IsNaN(c) || math.IsInf(c, 0) {
			return fmt.Errorf("%w: column %s: objective coefficient %g", ErrInvalid, m.VarName(Var(v)), c)
		}
	}
	for r := range m.rowLo {
		lo, hi := m.rowLo[r], m.rowHi[r]
		if math.IsNaN(lo) || math.IsNaN(hi) || lo > hi || math.IsInf(lo, 1) || math.IsInf(hi, -1) {
			return fmt.Errorf("%w: row %s: bounds [%g, %g]", ErrInvalid, m.RowName(Row(r)), lo, hi)
		}
	}
	for r := range m.rowLo {
		for k := m.rowStart[r]; k < m.rowStart[r+1]; k++ {
			if c := m.rowValue[k]; math.IsNaN(c) || math.IsInf(c, 0) {
				return fmt.Errorf("%w: row %s: coefficient of %s is %g", ErrInvalid,
					m.RowName(Row(r)), m.VarName(Var(m.rowIndex[k])), c)
			}
		}
	}
	if c := m.objConst; math.IsNaN(c) || math.IsInf(c, 0) {
		return fmt.Errorf("%w: objective: constant is %g", ErrInvalid, c)
	}
	return nil
}

// Grow reserves room for cols more columns, rows more rows and nnz more nonzeros, so
// that building a model of known size does not reallocate its arrays. It is only a hint:
// the model grows as needed without it.
func (m *Model) Grow(cols, rows, nnz int) {
	if cols > 0 {
		m.colNames.grow(cols)
		m.colLo = reserve(m.colLo, cols)
		m.colHi = reserve(m.colHi, cols)
		m.colObj = reserve(m.colObj, cols)
		m.colKind = reserve(m.colKind, cols)
	}
	if rows > 0 {
		m.rowStart = reserve(m.rowStart, rows+1)
		m.rowLo = reserve(m.rowLo, rows)
		m.rowHi = reserve(m.rowHi, rows)
		m.rowNames.grow(rows)
	}
	if nnz > 0 {
		m.rowIndex = reserve(m.rowIndex, nnz)
		m.rowValue = reserve(m.rowValue, nnz)
	}
}

// Clone returns a deep copy of m: columns, rows, objective, MIP start and recorded
// reformulations. Changes to the copy (an extra row, new bounds, another objective)
// leave m untouched; the certification policy uses it to build confirmation models.
func (m *Model) Clone() *Model {
	c := *m
	c.colLo = slices.Clone(m.colLo)
	c.colHi = slices.Clone(m.colHi)
	c.colObj = slices.Clone(m.colObj)
	c.colKind = slices.Clone(m.colKind)
	c.colNames = m.colNames.clone()
	c.rowStart = slices.Clone(m.rowStart)
	c.rowIndex = slices.Clone(m.rowIndex)
	c.rowValue = slices.Clone(m.rowValue)
	c.rowLo = slices.Clone(m.rowLo)
	c.rowHi = slices.Clone(m.rowHi)
	c.rowNames = m.rowNames.clone()
	c.start = slices.Clone(m.start)
	c.reforms = slices.Clone(m.reforms)
	c.pos = nil
	return &c
}
