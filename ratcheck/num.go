package ratcheck

import (
	"bytes"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// maxExponent is the largest decimal exponent magnitude read exactly; beyond it a
// literal is read as float64 reads it (0 or ±Inf), which bounds the size of the
// rationals a file can make.
const maxExponent = 1000

// xnum is a number of the extended real line: a rational, or ±∞ when inf != 0.
type xnum struct {
	r   *big.Rat // nil when inf != 0
	inf int      // -1, 0, +1
}

var (
	posInf = xnum{inf: 1}
	negInf = xnum{inf: -1}
)

func finite(r *big.Rat) xnum { return xnum{r: r} }

func zero() xnum { return xnum{r: new(big.Rat)} }

// sign returns -1, 0 or +1.
func (a xnum) sign() int {
	if a.inf != 0 {
		return a.inf
	}
	return a.r.Sign()
}

// neg returns −a.
func (a xnum) neg() xnum {
	if a.inf != 0 {
		return xnum{inf: -a.inf}
	}
	return finite(new(big.Rat).Neg(a.r))
}

// abs returns |a|.
func (a xnum) abs() xnum {
	if a.sign() < 0 {
		return a.neg()
	}
	return a
}

// add returns a + b; ∞ − ∞ is reported by ok = false.
func add(a, b xnum) (xnum, bool) {
	switch {
	case a.inf != 0 && b.inf != 0 && a.inf != b.inf:
		return xnum{}, false
	case a.inf != 0:
		return a, true
	case b.inf != 0:
		return b, true
	}
	return finite(new(big.Rat).Add(a.r, b.r)), true
}

// cmp compares a and b.
func cmp(a, b xnum) int {
	switch {
	case a.inf != 0 || b.inf != 0:
		return compareInt(a.inf, b.inf)
	}
	return a.r.Cmp(b.r)
}

func compareInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// isInfWord reports whether s spells an infinity: [+-]inf or [+-]infinity, any case.
func isInfWord(s []byte) (sign int, ok bool) {
	sign = 1
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		if s[0] == '-' {
			sign = -1
		}
		s = s[1:]
	}
	return sign, bytes.EqualFold(s, []byte("inf")) || bytes.EqualFold(s, []byte("infinity"))
}

var maxFloat = new(big.Rat).SetFloat64(math.MaxFloat64)

// parseNum reads a numeric literal as the float readers accept it (decimal, with an
// e/E or Fortran d/D exponent, hexadecimal floats, inf and infinity) into the exact
// rational it spells. A value beyond ±MaxFloat64 is infinite, as float64 overflows.
// ok is false for text that is not a number.
func parseNum(s []byte) (xnum, bool) {
	if sign, ok := isInfWord(s); ok {
		return xnum{inf: sign}, true
	}
	t := string(s)
	if i := bytes.IndexAny(s, "dD"); i > 0 && !bytes.Contains(bytes.ToLower(s), []byte("0x")) {
		t = t[:i] + "e" + t[i+1:]
	}
	if !smallExponent(t) {
		f, err := strconv.ParseFloat(t, 64)
		if err != nil && !isRange(err) || math.IsNaN(f) {
			return xnum{}, false
		}
		if math.IsInf(f, 0) {
			return xnum{inf: int(math.Copysign(1, f))}, true
		}
		return finite(new(big.Rat).SetFloat64(f)), true
	}
	if strings.Contains(t, "_") {
		// strconv reads Go's digit separators ("0_0"), and so does the float reader.
		if _, err := strconv.ParseFloat(t, 64); err != nil && !isRange(err) {
			return xnum{}, false
		}
		t = strings.ReplaceAll(t, "_", "")
	}
	r, ok := new(big.Rat).SetString(t)
	if !ok || strings.Contains(t, "/") {
		return xnum{}, false
	}
	if new(big.Rat).Abs(r).Cmp(maxFloat) > 0 {
		return xnum{inf: r.Sign()}, true
	}
	return finite(r), true
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// smallExponent reports whether t is decimal with an exponent of magnitude at most
// maxExponent (or none); hexadecimal literals count as large, so that they go through
// strconv, which reads them exactly when they fit float64.
func smallExponent(t string) bool {
	if len(t) > 2 && (t[0] == '+' || t[0] == '-') {
		t = t[1:]
	}
	if len(t) > 1 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X') {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] == 'e' || t[i] == 'E' {
			e, err := strconv.Atoi(t[i+1:])
			return err == nil && e >= -maxExponent && e <= maxExponent
		}
	}
	return true
}
