package dlt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/schedopt/schedopt/domain"
)

// Decode unmarshals a JSON document into v and turns JSON errors into FieldErrors that
// name the JSON path of the offending value, array indices included (for example
// "machines[2].a1: must be a number, got JSON string" or "V: invalid number \"NaN\"").
// Every document first passes domain.CheckJSON: unknown or duplicate keys (with a "did
// you mean"), data after the top-level value and nesting beyond domain.MaxDepth are bad
// input. strict is kept for callers that decode a json.RawMessage part on its own; the
// checks are the same either way.
func Decode(data []byte, v any, strict bool) error {
	// The strict check and the decoding read the same bytes on two goroutines (a
	// large instance takes milliseconds each); the check's verdict comes first.
	// CheckJSON refuses unknown keys and data after the value, so Unmarshal (which
	// reads data in place, where a Decoder copies it into its buffer) decodes what was
	// checked. CheckJSON reads only v's type.
	checked := make(chan error, 1)
	go func() { checked <- domain.CheckJSON(data, v) }()
	err := json.Unmarshal(data, v)
	if cerr := <-checked; cerr != nil {
		return cerr
	}
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := pathAt(data, te.Offset, true)
		if field == "" {
			field = jsonPath(te.Field)
		}
		return domain.Errorf(field, "must be %s, got JSON %s", goTypeName(te.Type.String()), te.Value)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		if se.Offset >= int64(len(bytes.TrimRight(data, " \t\r\n"))) {
			// The document ends early: no field is at fault.
			return domain.Errorf("", "invalid JSON: %v", se)
		}
		field := pathAt(data, se.Offset, false)
		if token := badToken(data, se.Offset); token != "" {
			return domain.Errorf(field, "invalid number %q (NaN and infinities are not allowed)", token)
		}
		return domain.Errorf(field, "invalid JSON: %v", se)
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		if field := keyPath(data, strings.Trim(name, `"`)); field != "" {
			return domain.Errorf(field, "unknown field")
		}
		return domain.Errorf("", "unknown field %s", name)
	}
	return domain.Errorf("", "invalid JSON: %v", err)
}

// decode is Decode without the unknown-field check.
func decode(data []byte, v any) error { return Decode(data, v, false) }

// numberish are the bytes of numbers and of the non-JSON tokens NaN and Infinity.
const numberish = "+-.0123456789eEaAnNiIfFtTyY"

// badToken returns the number-like token around the byte just before offset (a
// syntax error's position), for example NaN, or "" when there is none.
func badToken(data []byte, offset int64) string {
	if offset < 1 || offset > int64(len(data)) {
		return ""
	}
	start, end := offset-1, offset-1
	if !strings.ContainsRune(numberish, rune(data[start])) {
		return ""
	}
	for start > 0 && strings.ContainsRune(numberish, rune(data[start-1])) {
		start--
	}
	for end < int64(len(data)) && strings.ContainsRune(numberish, rune(data[end])) {
		end++
	}
	return string(data[start:end])
}

// pathFrame is one open object or array while pathAt walks a document.
type pathFrame struct {
	array   bool
	key     string // object: the key of the value being read
	wantKey bool   // object: the next string is a key
	index   int    // array: index of the value being read (-1 before the first)
}

// pathAt returns the JSON path ("machines[3].rho") of the value being read at byte
// offset in data. With done, offset is just past a complete value (a type error's
// offset), and the path of the last value that started before offset is returned;
// otherwise offset is inside a value that does not parse (a syntax error), and the
// path of the value being read there is returned.
func pathAt(data []byte, offset int64, done bool) string {
	return walkPath(data, offset, done, "")
}

// keyPath returns the JSON path of the first object key equal to key, or "".
func keyPath(data []byte, key string) string {
	return walkPath(data, int64(len(data))+1, true, key)
}

// walkPath is pathAt, and keyPath when key is not empty.
func walkPath(data []byte, offset int64, done bool, key string) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	var stack []pathFrame
	format := func() string {
		var b strings.Builder
		for _, f := range stack {
			switch {
			case f.array && f.index >= 0:
				fmt.Fprintf(&b, "[%d]", f.index)
			case !f.array && !f.wantKey:
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(f.key)
			}
		}
		return b.String()
	}
	// startValue records that a value starts in the innermost container.
	startValue := func() {
		if n := len(stack); n > 0 && stack[n-1].array {
			stack[n-1].index++
		}
	}
	// endValue records that a value in the innermost container is complete.
	endValue := func() {
		if n := len(stack); n > 0 && !stack[n-1].array {
			stack[n-1].wantKey = true
		}
	}
	last := ""
	for {
		if done && dec.InputOffset() >= offset {
			return last
		}
		tok, err := dec.Token()
		if err != nil {
			// The value being read did not parse; an array's next element is one past
			// the last complete one.
			if n := len(stack); n > 0 && stack[n-1].array {
				stack[n-1].index++
			}
			if key != "" {
				return ""
			}
			if done {
				return last
			}
			return format()
		}
		if !done && dec.InputOffset() >= offset {
			return format()
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				startValue()
				last = format()
				stack = append(stack, pathFrame{array: t == '[', wantKey: t == '{', index: -1})
			default:
				stack = stack[:len(stack)-1]
				endValue()
			}
		case string:
			if n := len(stack); n > 0 && !stack[n-1].array && stack[n-1].wantKey {
				stack[n-1].key, stack[n-1].wantKey = t, false
				if key != "" && t == key {
					return format()
				}
				continue
			}
			startValue()
			last = format()
			endValue()
		default:
			startValue()
			last = format()
			endValue()
		}
	}
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
	t = strings.TrimLeft(t, "*")
	switch {
	case strings.HasPrefix(t, "[]") || strings.HasPrefix(t, "["):
		return "an array"
	case strings.HasPrefix(t, "map["):
		return "an object"
	case strings.HasPrefix(t, "float"):
		return "a number"
	case strings.HasPrefix(t, "int") || strings.HasPrefix(t, "uint"):
		return "an integer"
	case t == "bool":
		return "true or false"
	case t == "string":
		return "a string"
	}
	// A named type (a struct such as dltmulti.Machine): JSON calls it an object.
	return "an object"
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

// RequireFields reports the first required field that an object document lacks (or
// holds as null) as a *domain.FieldError "missing": top names the fields of the
// document itself and, when array is not empty, inArray those of every element of its
// array field array ("machines[2].rho: missing"). Without it a missing number decodes
// as 0 and is reported as "must be > 0, got 0". A document that is not an object of
// that shape is left to the decoder's own errors (nil).
func RequireFields(data []byte, top []string, array string, inArray []string) error {
	var doc map[string]json.RawMessage
	if json.Unmarshal(data, &doc) != nil {
		return nil
	}
	for _, k := range top {
		if missing(doc[k]) {
			return domain.Errorf(k, "missing")
		}
	}
	if array == "" || missing(doc[array]) {
		return nil
	}
	var elems []map[string]json.RawMessage
	if json.Unmarshal(doc[array], &elems) != nil {
		return nil
	}
	for i, e := range elems {
		for _, k := range inArray {
			if missing(e[k]) {
				return domain.Errorf(fmt.Sprintf("%s[%d].%s", array, i, k), "missing")
			}
		}
	}
	return nil
}

// missing reports whether a raw JSON value is absent or null.
func missing(v json.RawMessage) bool {
	return len(v) == 0 || bytes.Equal(bytes.TrimSpace(v), []byte("null"))
}
