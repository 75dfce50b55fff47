package model

import "strconv"

// Indexed returns the name base[i1,i2,...] ("x[3,7]"), or base alone without indices:
// the name fmt.Sprintf("%s[%d,%d]", base, i1, i2) gives. Formulations name hundreds of
// thousands of variables and rows this way, and Sprintf was a third of building a
// large model. Indexed is small enough to be inlined, so that a name handed straight
// to AddVar or AddConstr (which copy it) is formatted on the caller's stack and costs
// no allocation.
func Indexed(base string, idx ...int) string {
	var buf [64]byte
	return string(appendIndexed(buf[:0], base, idx))
}

// appendIndexed appends the name Indexed returns to b.
func appendIndexed(b []byte, base string, idx []int) []byte {
	b = append(b, base...)
	if len(idx) == 0 {
		return b
	}
	for k, i := range idx {
		if k == 0 {
			b = append(b, '[')
		} else {
			b = append(b, ',')
		}
		b = appendIndex(b, i)
	}
	return append(b, ']')
}

// appendIndex appends the decimal form of i, as strconv.AppendInt does, with a fast
// path for the indices below 1000 that most names carry (strconv was two thirds of
// Indexed).
func appendIndex(b []byte, i int) []byte {
	switch {
	case i < 0 || i >= 1000:
		return strconv.AppendInt(b, int64(i), 10)
	case i < 10:
		return append(b, byte('0'+i))
	case i < 100:
		return append(b, byte('0'+i/10), byte('0'+i%10))
	default:
		return append(b, byte('0'+i/100), byte('0'+i/10%10), byte('0'+i%10))
	}
}
