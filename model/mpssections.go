package model

import (
	"math"
	"runtime"
	"sync"
)

// The sections after the ROWS header (the ROWS lines, COLUMNS, RHS, RANGES and
// BOUNDS) are cut into pieces: a range of rows, a chunk of columns, a range of columns.
// Each piece is formatted into its own buffer by one goroutine per processor, and the
// buffers are written in order, so the bytes are those of a sequential writer. A small
// model is formatted on the calling goroutine, piece by piece, by the same code.

// maxSectionWorkers bounds the goroutines that format pieces.
const maxSectionWorkers = 8

// parallelEntries is the size (nonzeros plus rows plus columns) below which the
// pieces are formatted on the calling goroutine.
const parallelEntries = 4 * chunkNonzeros

// linesPerPiece is the number of rows (ROWS, RHS, RANGES) or columns (BOUNDS) of a
// piece: about 150-300 KB of text.
const linesPerPiece = 8192

// Sections of a piece.
const (
	pieceRows    = 'R' // ROWS lines of rows [lo, hi)
	pieceColumns = 'C' // COLUMNS lines of columns [lo, hi) of group g
	pieceRHS     = 'H' // RHS lines of rows [lo, hi)
	pieceObjRHS  = 'O' // the RHS line of the objective constant
	pieceRanges  = 'G' // RANGES lines of rows [lo, hi)
	pieceBounds  = 'B' // BOUNDS lines of columns [lo, hi)
)

// sectionHeader returns the line that opens the section of a piece: "" for the ROWS
// lines (WriteMPS writes their header), COLUMNS' always, the others' before their
// first line only.
func sectionHeader(sec byte) string {
	switch sec {
	case pieceColumns:
		return "COLUMNS\n"
	case pieceRHS, pieceObjRHS:
		return "RHS\n"
	case pieceRanges:
		return "RANGES\n"
	case pieceBounds:
		return "BOUNDS\n"
	}
	return ""
}

// piece is one piece of the sections on its way to the file.
type piece struct {
	sec    byte
	lo, hi int
	g      *colGroup   // COLUMNS: the group holding the columns
	out    chan []byte // receives the formatted piece (parallel path)
}

// writeMPSSections writes the ROWS lines and the COLUMNS, RHS, RANGES and BOUNDS
// sections to t, from cm (which newColMatrix returned with sorted, and whose names are
// set). When a write fails it stops, and leaves the error in t.
func (m *Model) writeMPSSections(t *textOut, cm *colMatrix, sorted bool) {
	groups := cm.groups(sorted)
	header := "" // the last section header written
	put := func(sec byte, buf []byte) {
		if h := sectionHeader(sec); h != "" && h != header && (sec == pieceColumns || len(buf) > 0) {
			t.str(h)
			header = h
		}
		if len(buf) >= outBuffer {
			t.write(buf) // a large piece goes to the writer as it is
		} else {
			t.bytes(buf)
		}
	}
	workers := min(runtime.GOMAXPROCS(0), maxSectionWorkers)
	if m.NumNonzeros()+m.NumRows()+m.NumVars() < parallelEntries || workers < 2 {
		var buf []byte
		cm.pieces(groups, sorted, func(p piece) bool {
			buf = cm.format(buf[:0], &p, &t.nums)
			put(p.sec, buf)
			return t.err == nil
		})
		return
	}

	jobs := make(chan piece)
	order := make(chan piece, 2*workers)
	free := make(chan []byte, 3*workers)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(workers + 1)
	for range workers {
		go func() {
			defer wg.Done()
			nums := new(numCache)
			for p := range jobs {
				var buf []byte
				select {
				case buf = <-free:
				default:
					buf = make([]byte, 0, cm.pieceBytes(&p))
				}
				p.out <- cm.format(buf[:0], &p, nums)
				if p.g != nil {
					p.g.pending.Done()
				}
			}
		}()
	}
	go func() {
		defer wg.Done()
		defer close(order)
		defer close(jobs)
		cm.pieces(groups, sorted, func(p piece) bool {
			p.out = make(chan []byte, 1)
			select {
			case order <- p:
			case <-stop:
				return false
			}
			if p.g != nil {
				p.g.pending.Add(1)
			}
			select {
			case jobs <- p:
				return true
			case <-stop:
				if p.g != nil {
					p.g.pending.Done()
				}
				return false
			}
		})
	}()
	t.spill()
	for p := range order {
		buf := <-p.out
		put(p.sec, buf)
		if t.err != nil {
			close(stop)
			break
		}
		select {
		case free <- buf:
		default:
		}
	}
	wg.Wait()
}

// pieces hands emit the pieces of the sections in file order, until emit returns
// false. The COLUMNS pieces are made a group at a time into two alternating group
// buffers (a buffer is filled again once the pieces of the group it held are
// formatted); there is at least one, so that the COLUMNS header is written.
func (cm *colMatrix) pieces(groups []int, sorted bool, emit func(piece) bool) {
	rangePieces := func(sec byte, n int) bool {
		for lo := 0; lo < n; lo += linesPerPiece {
			if !emit(piece{sec: sec, lo: lo, hi: min(lo+linesPerPiece, n)}) {
				return false
			}
		}
		return true
	}
	nr, nc := cm.m.NumRows(), cm.m.NumVars()
	if !rangePieces(pieceRows, nr) {
		return
	}
	var slots [2]colGroup
	size := cm.largestGroup(groups)
	for k := range slots {
		slots[k].index, slots[k].value = make([]int32, 0, size), make([]float64, 0, size)
	}
	if !emit(piece{sec: pieceColumns}) { // opens the section, even without columns
		return
	}
	for k := 0; k+1 < len(groups); k++ {
		g := &slots[k%2]
		g.pending.Wait()
		if sorted {
			cm.fill(g, groups[k], groups[k+1])
		} else {
			cm.fillAll(g)
		}
		for _, c := range cm.chunks(g) {
			if !emit(piece{sec: pieceColumns, lo: c[0], hi: c[1], g: g}) {
				return
			}
		}
	}
	_ = rangePieces(pieceRHS, nr) && emit(piece{sec: pieceObjRHS}) &&
		rangePieces(pieceRanges, nr) && rangePieces(pieceBounds, nc)
}

// format appends the text of piece p to buf.
func (cm *colMatrix) format(buf []byte, p *piece, nums *numCache) []byte {
	m, rows := cm.m, cm.rows
	switch p.sec {
	case pieceRows:
		for i := p.lo; i < p.hi; i++ {
			typ, _, _, _ := m.mpsRow(i) // mpsRepresentable has checked every row
			buf = append(rows.append(append(buf, ' ', typ, ' ', ' '), i), '\n')
		}
	case pieceColumns:
		if p.g != nil {
			buf = cm.appendColumns(buf, p.g, p.lo, p.hi, nums)
		}
	case pieceRHS:
		for i := p.lo; i < p.hi; i++ {
			if typ, rhs, _, _ := m.mpsRow(i); typ != 'N' && rhs != 0 {
				buf = appendNamedEntry(buf, rhsName, rows, i, rhs, nums)
			}
		}
	case pieceObjRHS:
		if m.objConst != 0 {
			buf = appendEntry(buf, rhsName, objRowBytes, -m.objConst, nums)
		}
	case pieceRanges:
		for i := p.lo; i < p.hi; i++ {
			if _, _, rng, _ := m.mpsRow(i); rng != 0 {
				buf = appendNamedEntry(buf, rngName, rows, i, rng, nums)
			}
		}
	case pieceBounds:
		for j := p.lo; j < p.hi; j++ {
			buf = m.appendMPSBounds(buf, cm.cols, Var(j), nums)
		}
	}
	return buf
}

// appendNamedEntry appends the data line "    a  name  v", name being file name i of
// names.
func appendNamedEntry(buf, a []byte, names *writtenNames, i int, v float64, nums *numCache) []byte {
	buf = append(append(buf, "    "...), a...)
	buf = append(names.append(append(buf, "  "...), i), "  "...)
	return append(nums.append(buf, v), '\n')
}

// pieceBytes is room for the text of piece p (see chunkBytes): the room reserved but
// not written is never touched.
func (cm *colMatrix) pieceBytes(p *piece) int {
	const number = 24
	switch p.sec {
	case pieceColumns:
		return cm.chunkBytes(p.lo, p.hi)
	case pieceBounds:
		return (p.hi - p.lo) * 2 * (cm.cols.averageLen() + 16 + number)
	}
	return (p.hi - p.lo) * (cm.rows.averageLen() + 16 + number)
}

// appendMPSBounds appends the BOUNDS lines of column j (see WriteMPS for the rules).
func (m *Model) appendMPSBounds(buf []byte, cols *writtenNames, j Var, nums *numCache) []byte {
	lo, hi := m.colLo[j], m.colHi[j]
	kind := m.colKind[j]
	loInf, hiInf := math.IsInf(lo, -1), math.IsInf(hi, 1)
	b := boundLines{buf: buf, cols: cols, j: int(j), nums: nums}
	if kind.IsSemi() {
		// SC sets the upper bound; the lower bound is an LO line. A semi-integer
		// column is an SC column between the integer markers (CPLEX, CBC, HiGHS).
		if lo != 0 {
			b.line("LO", lo, true)
		}
		b.line("SC", hi, true)
		return b.buf
	}
	if kind == Binary && lo == 0 && hi == 1 {
		b.line("BV", 0, false)
		return b.buf
	}
	explicit := kind.IsInteger()
	switch {
	case lo == hi:
		b.line("FX", lo, true)
	case loInf && hiInf:
		b.line("FR", 0, false)
	case loInf:
		b.line("MI", 0, false)
		b.line("UP", hi, true)
	case hiInf:
		if lo != 0 || explicit {
			b.line("LO", lo, true)
		}
		if explicit {
			b.line("PL", 0, false)
		}
	default:
		if lo != 0 || explicit {
			b.line("LO", lo, true)
		}
		b.line("UP", hi, true)
	}
	return b.buf
}

// boundLines appends the BOUNDS lines of one column to buf.
type boundLines struct {
	buf  []byte
	cols *writtenNames
	j    int
	nums *numCache
}

// line appends " typ BND  name  v"; hasValue is false for FR, MI, PL and BV.
func (b *boundLines) line(typ string, v float64, hasValue bool) {
	b.buf = append(append(append(b.buf, ' '), typ...), " BND  "...)
	b.buf = b.cols.append(b.buf, b.j)
	if hasValue {
		b.buf = b.nums.append(append(b.buf, "  "...), v)
	}
	b.buf = append(b.buf, '\n')
}
