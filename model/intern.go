package model

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"math"
	"strconv"
)

// nameTable interns the names of a file being read: each name is stored once, in one
// byte arena, and looked up by its bytes without allocating. It is an open-addressing
// hash table, at most half full, whose 16-byte slots hold the first 8 bytes of the
// name, its length, 24 bits of its hash and its index: a lookup of a name of up to 8
// bytes (every name of a fixed-format MPS file) touches one slot and nothing else,
// and a longer name also its bytes in the arena. A Go map[string]int32 costs a string
// header and a separate allocation per name, and about three cache misses per lookup
// on large files (the first profile of ReadMPS spent 48% of its time in map lookups).
type nameTable struct {
	seed  maphash.Seed
	arena []byte  // the names, back to back
	ends  []int32 // ends[i] is the end of name i in arena
	slots []nameSlot
	mask  uint64
}

// nameSlot is one slot of a nameTable; meta == 0 marks an empty slot.
type nameSlot struct {
	prefix uint64 // the first 8 bytes of the name, little-endian, zero-padded
	meta   uint64 // hash tag (24 bits) << 40 | min(len, 255) << 32 | index+1
}

func newNameTable() *nameTable {
	return &nameTable{seed: maphash.MakeSeed(), slots: make([]nameSlot, 64), mask: 63}
}

// len returns the number of names.
func (t *nameTable) len() int { return len(t.ends) }

// name returns the bytes of name i.
func (t *nameTable) name(i int32) []byte {
	start := int32(0)
	if i > 0 {
		start = t.ends[i-1]
	}
	return t.arena[start:t.ends[i]]
}

// namePrefix returns the first 8 bytes of b, little-endian, zero-padded.
func namePrefix(b []byte) uint64 {
	if len(b) >= 8 {
		return binary.LittleEndian.Uint64(b)
	}
	var p uint64
	for i, c := range b {
		p |= uint64(c) << (8 * i)
	}
	return p
}

// nameMeta returns a slot's meta word without the index.
func nameMeta(h uint64, n int) uint64 { return h>>40<<40 | uint64(min(n, 255))<<32 }

// find returns the index of name b and true, or the hash of b and false.
func (t *nameTable) find(b []byte) (int32, uint64, bool) {
	h := maphash.Bytes(t.seed, b)
	want, prefix := nameMeta(h, len(b)), namePrefix(b)
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		s := &t.slots[i]
		if s.meta == 0 {
			return -1, h, false
		}
		if s.meta&^0xffffffff == want && s.prefix == prefix {
			idx := int32(uint32(s.meta) - 1)
			if len(b) <= 8 || bytes.Equal(t.name(idx), b) {
				return idx, h, true
			}
		}
	}
}

// lookup returns the index of name b, or -1.
func (t *nameTable) lookup(b []byte) int32 {
	i, _, _ := t.find(b)
	return i
}

// add stores name b, which must not be in the table, and returns its index.
func (t *nameTable) add(b []byte) int32 {
	_, h, _ := t.find(b)
	return t.addHashed(b, h)
}

// addHashed is add with the hash find returned.
func (t *nameTable) addHashed(b []byte, h uint64) int32 {
	idx := int32(len(t.ends))
	t.arena = grow2(t.arena, len(b))
	t.arena = append(t.arena, b...)
	t.ends = push(t.ends, int32(len(t.arena)))
	if 2*len(t.ends) > len(t.slots) {
		t.grow()
		return idx
	}
	t.place(h, b, idx)
	return idx
}

func (t *nameTable) place(h uint64, b []byte, idx int32) {
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		if t.slots[i].meta == 0 {
			t.slots[i] = nameSlot{prefix: namePrefix(b), meta: nameMeta(h, len(b)) | uint64(uint32(idx)+1)}
			return
		}
	}
}

// grow doubles the slots and places every name again.
func (t *nameTable) grow() {
	t.slots = make([]nameSlot, 2*len(t.slots))
	t.mask = uint64(len(t.slots) - 1)
	for i := range int32(len(t.ends)) {
		b := t.name(i)
		t.place(maphash.Bytes(t.seed, b), b, i)
	}
}

// grow2 returns s with room for n more elements, doubling its capacity when it must
// grow (append grows large slices by 1.25, which allocates about 5 times the final
// size in all; doubling allocates 2 times).
func grow2[T any](s []T, n int) []T {
	if len(s)+n <= cap(s) {
		return s
	}
	out := make([]T, len(s), max(2*cap(s), len(s)+n, 64))
	copy(out, s)
	return out
}

// push appends v to s, growing it by doubling.
func push[T any](s []T, v T) []T {
	if len(s) == cap(s) {
		s = grow2(s, 1)
	}
	return append(s, v)
}

// strings returns the names as strings that share one allocation.
func (t *nameTable) strings() []string {
	all := string(t.arena)
	out := make([]string, len(t.ends))
	start := int32(0)
	for i, end := range t.ends {
		out[i] = all[start:end]
		start = end
	}
	return out
}

// list returns the names as a nameList sharing the arena.
func (t *nameTable) list() nameList {
	end := make([]uint32, len(t.ends))
	for i, e := range t.ends {
		end[i] = uint32(e)
	}
	return nameList{arena: t.arena, end: end}
}

// release drops the arena and the slots; the strings already returned stay valid.
func (t *nameTable) release() { *t = nameTable{} }

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseDecimal parses a plain decimal number ([+-]digits[.digits][(e|E|d|D)[+-]digits])
// when its value is exactly computable with one float64 multiplication or division:
// a mantissa below 2^53 and a decimal exponent in [-22, 22] (Clinger's fast path, the
// one strconv takes too, so the result is bit for bit strconv.ParseFloat's). ok is false for anything else; the caller then
// uses strconv.
func parseDecimal(b []byte) (v float64, ok bool) {
	i, n := 0, len(b)
	neg := false
	if i < n && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	var mant uint64
	digits, exp := 0, 0
	sawDigit := false
	for ; i < n && b[i]-'0' < 10; i++ {
		sawDigit = true
		if mant == 0 && b[i] == '0' {
			continue
		}
		if digits == 19 {
			return 0, false
		}
		mant = mant*10 + uint64(b[i]-'0')
		digits++
	}
	if i < n && b[i] == '.' {
		i++
		for ; i < n && b[i]-'0' < 10; i++ {
			sawDigit = true
			if mant == 0 && b[i] == '0' {
				exp--
				continue
			}
			if digits == 19 {
				return 0, false
			}
			mant = mant*10 + uint64(b[i]-'0')
			digits++
			exp--
		}
	}
	if !sawDigit {
		return 0, false
	}
	if i < n && (b[i]|0x20 == 'e' || b[i]|0x20 == 'd') {
		i++
		eneg := false
		if i < n && (b[i] == '+' || b[i] == '-') {
			eneg = b[i] == '-'
			i++
		}
		if i == n {
			return 0, false
		}
		e := 0
		for ; i < n && b[i]-'0' < 10; i++ {
			if e > 1000 {
				return 0, false
			}
			e = e*10 + int(b[i]-'0')
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if i != n || mant >= 1<<53 {
		return 0, false
	}
	f := float64(mant)
	switch {
	case mant == 0:
	case exp == 0:
	case exp > 0 && exp <= 22:
		f *= pow10[exp]
	case exp < 0 && exp >= -22:
		f /= pow10[-exp]
	default:
		return 0, false
	}
	if neg {
		f = -f
	}
	return f, true
}

// parseNumber parses a number of an MPS or LP file: Go syntax plus Fortran exponents
// (1.5D3, 2d-1). It returns ±Inf for an overflow and false for anything else that is
// not a number, NaN included. Plain decimals take parseDecimal's path.
func parseNumber(b []byte) (float64, bool) {
	if v, ok := parseDecimal(b); ok {
		return v, true
	}
	var tmp [64]byte
	if i := bytes.IndexAny(b, "dD"); i > 0 && len(b) <= len(tmp) {
		n := copy(tmp[:], b)
		tmp[i] = 'e'
		b = tmp[:n]
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		// ErrRange: an overflow gives ±Inf, an underflow 0 or a subnormal.
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return v, true
		}
		return 0, false
	}
	if math.IsNaN(v) {
		return 0, false
	}
	return v, true
}
