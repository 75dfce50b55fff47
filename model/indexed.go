package model

import "strconv"

// Indexed returns the name base[i1,i2,...] ("x[3,7]"), or base alone without indices:
// the name fmt.Sprintf("%s[%d,%d]", base, i1, i2) gives, in one allocation. Formulations
// name hundreds of thousands of variables and rows this way, and Sprintf was a third
// of building a large model.
func Indexed(base string, idx ...int) string {
	if len(idx) == 0 {
		return base
	}
	var buf [64]byte
	b := append(buf[:0], base...)
	for k, i := range idx {
		if k == 0 {
			b = append(b, '[')
		} else {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(i), 10)
	}
	b = append(b, ']')
	return string(b)
}
