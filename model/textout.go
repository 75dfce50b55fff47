package model

import (
	"io"
	"math"
	"strconv"
)

// textOut is the buffered writer shared by the MPS and LP writers: text is appended to
// one byte slice, which is handed to the io.Writer whenever it holds outBuffer bytes.
// Appending to a slice costs less per fragment than bufio.Writer's WriteString, and a
// write error is kept and reported by flush.
type textOut struct {
	w    io.Writer
	buf  []byte
	err  error
	nums numCache
}

// outBuffer is how many bytes textOut collects before writing them.
const outBuffer = 64 << 10

func newTextOut(w io.Writer) *textOut {
	return &textOut{w: w, buf: make([]byte, 0, outBuffer+4<<10)}
}

func (t *textOut) str(s string) {
	t.buf = append(t.buf, s...)
	if len(t.buf) >= outBuffer {
		t.spill()
	}
}

func (t *textOut) bytes(b []byte) {
	t.buf = append(t.buf, b...)
	if len(t.buf) >= outBuffer {
		t.spill()
	}
}

func (t *textOut) byte(c byte) { t.buf = append(t.buf, c) }

// num writes v in the shortest form that parses back to exactly v ('g' format, so
// 1e+06 rather than 1000000). Negative zero is written as 0. v must be finite.
func (t *textOut) num(v float64) { t.buf = t.nums.append(t.buf, v) }

// write writes b (a block formatted elsewhere) after the buffered text.
func (t *textOut) write(b []byte) {
	t.spill()
	if t.err == nil {
		_, t.err = t.w.Write(b)
	}
}

// spill writes the buffered text.
func (t *textOut) spill() {
	if t.err == nil && len(t.buf) > 0 {
		_, t.err = t.w.Write(t.buf)
	}
	t.buf = t.buf[:0]
}

func (t *textOut) flush() error {
	t.spill()
	return t.err
}

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

// numCache is appendNum with a direct-mapped cache of the last non-integer values
// formatted, keyed by their bits. A model's coefficients repeat a few constants per
// column and per row (a machine's parameters, a big-M), so most of them are copied
// from the cache instead of going through the shortest-decimal algorithm, which costs
// several times more than the copy. The output is appendNum's, byte for byte.
type numCache struct {
	slot [numCacheSize]numSlot
}

// numCacheSize is the number of cache slots (a power of two): 16 KiB, in L1 or L2.
const numCacheSize = 1 << numCacheBits

// numCacheBits is log2 of numCacheSize.
const numCacheBits = 9

// numSlot holds one formatted value; n == 0 marks an empty slot.
type numSlot struct {
	bits uint64
	n    uint8
	text [23]byte
}

// append appends appendNum(v) to b.
func (c *numCache) append(b []byte, v float64) []byte {
	if v > -1e6 && v < 1e6 && v == float64(int32(v)) {
		// ±1 and the other one-digit integers (a model's most common coefficients)
		// without strconv; 0 also covers -0.
		switch i := int32(v); {
		case i >= 0 && i <= 9:
			return append(b, byte('0'+i))
		case i < 0 && i >= -9:
			return append(b, '-', byte('0'-i))
		default:
			return strconv.AppendInt(b, int64(i), 10)
		}
	}
	bits := math.Float64bits(v)
	s := &c.slot[(bits*0x9e3779b97f4a7c15)>>(64-numCacheBits)]
	if s.n != 0 && s.bits == bits {
		return append(b, s.text[:s.n]...)
	}
	start := len(b)
	b = strconv.AppendFloat(b, v, 'g', -1, 64)
	if n := len(b) - start; n <= len(s.text) {
		s.bits, s.n = bits, uint8(n)
		copy(s.text[:], b[start:])
	}
	return b
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
