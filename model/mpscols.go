package model

import (
	"math"
	"sync"
)

// The COLUMNS section is most of an MPS file (one line per nonzero). It is written
// from a column-wise copy of the matrix, made a group of columns at a time, in chunks
// of consecutive columns (see mpssections.go for how the pieces are formatted and
// written).

// chunkNonzeros is the number of nonzeros per chunk of the COLUMNS section: about
// 400 KB of text, large enough that handing a chunk to a goroutine costs nothing
// measurable, small enough that a few chunks in flight take little memory.
const chunkNonzeros = 4096

// The matrix is transposed (row-major to column-major) one group of consecutive
// columns at a time, into one of two buffers, so that the column-wise copy takes about
// 2/groups of the matrix's memory instead of all of it: with groupNonzeros nonzeros
// per group, and at most maxGroups groups. Each row keeps a cursor to its first entry
// not yet transposed; since a row's entries are sorted by column, a group takes the
// entries below its last column from every row's cursor on. Besides its entries, a
// group costs a scan of one int32 per row (the column at each row's cursor).
const (
	groupNonzeros = 64 << 10
	maxGroups     = 16
)

// colGroup is the column-wise copy of the columns [lo, hi).
type colGroup struct {
	lo, hi  int
	base    int32          // position of column lo's first entry in column-major order
	index   []int32        // the row of each entry, by column and then row
	value   []float64      // the coefficient of each entry
	pending sync.WaitGroup // chunks of the group not yet formatted
}

// colMatrix is the constraint matrix, transposed a group at a time, with the names
// the COLUMNS section needs.
type colMatrix struct {
	m          *Model
	start      []int32 // start[j] is the position of column j's first entry in column-major order
	cur        []int32 // cur[i] is the first entry of row i not yet transposed
	head       []int32 // head[i] is the column of entry cur[i], or MaxInt32 past the row's end
	next       []int32 // scratch: the next free position of each column of a group
	cols, rows *writtenNames
}

// newColMatrix counts the entries of each column. sorted reports whether every row's
// entries are in increasing column order (a Model keeps them so; the group-wise
// transposition needs it). The names are set before the columns are written.
func (m *Model) newColMatrix() (cm *colMatrix, sorted bool) {
	n := m.NumVars()
	start := make([]int32, n+1)
	sorted = true
	for i := range m.NumRows() {
		prev := int32(-1)
		for _, j := range m.rowIndex[m.rowStart[i]:m.rowStart[i+1]] {
			start[j+1]++
			if j <= prev {
				sorted = false
			}
			prev = j
		}
	}
	for j := range n {
		start[j+1] += start[j]
	}
	cur := make([]int32, m.NumRows())
	head := make([]int32, m.NumRows())
	for i := range cur {
		cur[i] = m.rowStart[i]
		head[i] = math.MaxInt32
		if cur[i] < m.rowStart[i+1] {
			head[i] = m.rowIndex[cur[i]]
		}
	}
	return &colMatrix{m: m, start: start, cur: cur, head: head}, sorted
}

// groups returns the first column of every group followed by NumVars.
func (cm *colMatrix) groups(sorted bool) []int {
	n := cm.m.NumVars()
	nnz := int(cm.start[n])
	g := min(max(nnz/groupNonzeros, 1), maxGroups)
	if !sorted {
		g = 1
	}
	b := []int{0}
	for j := range n {
		if len(b) < g && int(cm.start[j+1]) >= len(b)*nnz/g {
			b = append(b, j+1)
		}
	}
	if b[len(b)-1] != n {
		b = append(b, n)
	}
	return b
}

// largestGroup returns the number of entries of the largest group bounded by groups,
// the room a group buffer needs to hold any of them (sized once, not grown by copies).
func (cm *colMatrix) largestGroup(groups []int) int {
	size := 0
	for k := 0; k+1 < len(groups); k++ {
		size = max(size, int(cm.start[groups[k+1]]-cm.start[groups[k]]))
	}
	return size
}

// fill makes g the column-wise copy of the columns [lo, hi), which follow the group
// filled before (or start at 0).
func (cm *colMatrix) fill(g *colGroup, lo, hi int) {
	m := cm.m
	g.lo, g.hi, g.base = lo, hi, cm.start[lo]
	size := int(cm.start[hi] - g.base)
	if cap(g.index) < size {
		g.index = make([]int32, size)
		g.value = make([]float64, size)
	}
	g.index, g.value = g.index[:size], g.value[:size]
	if cap(cm.next) < hi-lo {
		cm.next = make([]int32, hi-lo)
	}
	next := cm.next[:hi-lo]
	for j := range next {
		next[j] = cm.start[lo+j] - g.base
	}
	idx, val, rowStart := m.rowIndex, m.rowValue, m.rowStart
	top := int32(hi)
	// head makes the pass over the rows a sequential scan of one array: only the rows
	// with an entry in the group touch the matrix.
	for i, h := range cm.head {
		if h >= top {
			continue
		}
		k, e := cm.cur[i], rowStart[i+1]
		for ; k < e && idx[k] < top; k++ {
			j := idx[k] - int32(lo)
			p := next[j]
			next[j]++
			g.index[p] = int32(i)
			g.value[p] = val[k]
		}
		cm.cur[i] = k
		cm.head[i] = math.MaxInt32
		if k < e {
			cm.head[i] = idx[k]
		}
	}
}

// fillAll is fill for a model whose rows are not all sorted by column: the columns
// [0, n) as one group, by a full transposition.
func (cm *colMatrix) fillAll(g *colGroup) {
	m := cm.m
	n := m.NumVars()
	g.lo, g.hi, g.base = 0, n, 0
	g.index = make([]int32, m.NumNonzeros())
	g.value = make([]float64, m.NumNonzeros())
	next := make([]int32, n)
	copy(next, cm.start[:n])
	for i := range m.NumRows() {
		for k := m.rowStart[i]; k < m.rowStart[i+1]; k++ {
			j := m.rowIndex[k]
			p := next[j]
			next[j]++
			g.index[p] = int32(i)
			g.value[p] = m.rowValue[k]
		}
	}
}

// chunks splits the columns of g into chunks [j0, j1) of at least chunkNonzeros
// entries or chunkNonzeros columns (the last one may be smaller).
func (cm *colMatrix) chunks(g *colGroup) [][2]int {
	var out [][2]int
	first := g.lo
	for j := g.lo; j < g.hi; j++ {
		if int(cm.start[j+1]-cm.start[first]) >= chunkNonzeros || j+1-first >= chunkNonzeros {
			out = append(out, [2]int{first, j + 1})
			first = j + 1
		}
	}
	if first < g.hi {
		out = append(out, [2]int{first, g.hi})
	}
	return out
}

// chunkBytes is room for the COLUMNS text of the columns [j0, j1), so that a chunk's
// buffer is allocated once instead of growing by copies: every line (an objective entry
// and an integrality marker per column at most) with its column name, a row name of at
// most the average length plus 16, and the longest number (24 bytes). The room
// reserved but not written is never touched.
func (cm *colMatrix) chunkBytes(j0, j1 int) int {
	avgRow := cm.rows.averageLen() + 16
	col := cm.cols.averageLen() + 16
	size := 0
	for j := j0; j < j1; j++ {
		lines := int(cm.start[j+1]-cm.start[j]) + 1
		size += lines*(col+avgRow+len("      \n")+24) + len("    MARKER  'MARKER'  'INTORG'\n")
	}
	return size + len("    MARKER  'MARKER'  'INTEND'\n")
}

// appendColumns appends the COLUMNS lines of columns [j0, j1) of g to buf, with the
// integer markers that open or close before each column and, when j1 is the last
// column, after it.
func (cm *colMatrix) appendColumns(buf []byte, g *colGroup, j0, j1 int, nums *numCache) []byte {
	m := cm.m
	kind, obj := m.colKind, m.colObj
	start, index, value := cm.start, g.index, g.value
	rows := cm.rows
	inInt := j0 > 0 && kind[j0-1].IsInteger()
	lead := make([]byte, 0, 64)
	for j := j0; j < j1; j++ {
		if isInt := kind[j].IsInteger(); isInt != inInt {
			if isInt {
				buf = append(buf, "    MARKER  'MARKER'  'INTORG'\n"...)
			} else {
				buf = append(buf, "    MARKER  'MARKER'  'INTEND'\n"...)
			}
			inInt = isInt
		}
		// The line's start, "    name  ", is made once per column.
		lead = append(cm.cols.append(append(lead[:0], "    "...), j), "  "...)
		b, e := start[j]-g.base, start[j+1]-g.base
		if c := obj[j]; c != 0 || b == e {
			buf = append(append(buf, lead...), objRowName+"  "...)
			buf = append(nums.append(buf, c), '\n')
		}
		for k := b; k < e; k++ {
			buf = append(rows.append(append(buf, lead...), int(index[k])), "  "...)
			buf = append(nums.append(buf, value[k]), '\n')
		}
	}
	if j1 == m.NumVars() && inInt {
		buf = append(buf, "    MARKER  'MARKER'  'INTEND'\n"...)
	}
	return buf
}
