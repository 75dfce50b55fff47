package dlt

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/schedopt/schedopt/domain"
)

// decode unmarshals an instance and turns JSON errors into FieldErrors that name the
// offending field where the decoder tells us (type errors) or where it can be found
// (a syntax error such as a bare NaN names the key just before it).
func decode(data []byte, v any) error {
	err := json.Unmarshal(data, v)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return domain.Errorf(jsonPath(te.Field), "must be %s, got JSON %s", goTypeName(te.Type.String()), te.Value)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		field, token := keyBefore(data, se.Offset)
		if field != "" {
			if token != "" {
				return domain.Errorf(field, "invalid number %q (NaN and infinities are not allowed)", token)
			}
			return domain.Errorf(field, "invalid JSON: %v", se)
		}
	}
	return domain.Errorf("", "invalid JSON: %v", err)
}

// numberish are the bytes of numbers and of the non-JSON tokens NaN and Infinity.
const numberish = "+-.0123456789eEaAnNiIfFtTyY"

var keyRE = regexp.MustCompile(`"([A-Za-z0-9_]+)"\s*:\s*$`)

// keyBefore finds the object key whose value starts just before offset, and the bad
// token at that position (for example NaN), for error messages.
func keyBefore(data []byte, offset int64) (key, token string) {
	if offset < 1 || offset > int64(len(data)) {
		return "", ""
	}
	// The offset points just past the first bad byte; the value starts after the colon.
	start := offset - 1
	for start > 0 && strings.ContainsRune(numberish, rune(data[start-1])) {
		start--
	}
	if m := keyRE.FindStringSubmatch(string(data[:start])); m != nil {
		end := start
		for end < int64(len(data)) && strings.ContainsRune(numberish, rune(data[end])) {
			end++
		}
		return m[1], string(data[start:end])
	}
	return "", ""
}

// jsonPath turns the decoder's "machines.3.rho" into "machines[3].rho".
func jsonPath(field string) string {
	parts := strings.Split(field, ".")
	var b strings.Builder
	for i, p := range parts {
		if p != "" && strings.Trim(p, "0123456789") == "" && i > 0 {
			fmt.Fprintf(&b, "[%s]", p)
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

func goTypeName(t string) string {
	switch {
	case strings.Contains(t, "float"):
		return "a number"
	case strings.Contains(t, "int"):
		return "an integer"
	case strings.Contains(t, "bool"):
		return "true or false"
	case strings.Contains(t, "string"):
		return "a string"
	case strings.HasPrefix(t, "[]"):
		return "an array"
	}
	return "a " + t
}

// checker collects the first validation error, naming the field.
type checker struct{ err error }

func (c *checker) fail(field, format string, args ...any) {
	if c.err == nil {
		c.err = domain.Errorf(field, format, args...)
	}
}

// finite requires a finite number.
func (c *checker) finite(field string, v float64) bool {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		c.fail(field, "must be a finite number, got %g", v)
		return false
	}
	return true
}

// positive requires v > 0.
func (c *checker) positive(field string, v float64) {
	if c.finite(field, v) && v <= 0 {
		c.fail(field, "must be > 0, got %g", v)
	}
}

// nonNegative requires v >= 0.
func (c *checker) nonNegative(field string, v float64) {
	if c.finite(field, v) && v < 0 {
		c.fail(field, "must be >= 0, got %g", v)
	}
}
