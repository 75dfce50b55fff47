package model

import (
	"bufio"
	"io"
	"math"
	"strconv"
)

// textOut is the buffered writer shared by the MPS and LP writers. Write errors are
// sticky in bufio.Writer and reported by flush.
type textOut struct {
	w   *bufio.Writer
	buf []byte
}

func newTextOut(w io.Writer) *textOut {
	return &textOut{w: bufio.NewWriterSize(w, 64<<10), buf: make([]byte, 0, 32)}
}

func (t *textOut) str(s string) { t.w.WriteString(s) }

func (t *textOut) byte(c byte) { t.w.WriteByte(c) }

// num writes v in the shortest form that parses back to exactly v ('g' format, so
// 1e+06 rather than 1000000). Negative zero is written as 0. v must be finite.
func (t *textOut) num(v float64) {
	t.buf = appendNum(t.buf[:0], v)
	t.w.Write(t.buf)
}

func (t *textOut) flush() error { return t.w.Flush() }

// appendNum appends the shortest exact decimal form of v, as strconv's 'g' format with
// precision -1 writes it. Integers below 1e6 in magnitude, which 'g' writes without an
// exponent, take a faster path with the same result.
func appendNum(b []byte, v float64) []byte {
	if v == 0 {
		return append(b, '0')
	}
	if v > -1e6 && v < 1e6 && v == float64(int32(v)) {
		return strconv.AppendInt(b, int64(v), 10)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// rowKind classifies a row by its bounds for the writers.
type rowKind uint8

const (
	rowFree  rowKind = iota // (−∞, +∞)
	rowLE                   // (−∞, hi]
	rowGE                   // [lo, +∞)
	rowEQ                   // lo == hi
	rowRange                // lo < hi, both finite
)

func classifyRow(lo, hi float64) rowKind {
	loInf, hiInf := math.IsInf(lo, -1), math.IsInf(hi, 1)
	switch {
	case loInf && hiInf:
		return rowFree
	case loInf:
		return rowLE
	case hiInf:
		return rowGE
	case lo == hi:
		return rowEQ
	}
	return rowRange
}
