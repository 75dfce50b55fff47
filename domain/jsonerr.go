package domain

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// JSONError turns an error of encoding/json on data into a FieldError that names the
// JSON path of the offending value with its array indices ("processors[1].points[2].energy")
// and the line and column, so that a bare NaN, a string where a number belongs or a
// truncated file is reported as one line with its field. Errors that are not JSON
// errors are returned as a FieldError for the whole document.
func JSONError(data []byte, err error) error {
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		path, _ := jsonPathAt(data, te.Offset)
		line, col := lineCol(data, te.Offset)
		want := jsonTypeName(te.Type)
		if num, ok := strings.CutPrefix(te.Value, "number "); ok && (want == "a number" || want == "an integer") {
			return Errorf(path, "must be %s in range, got %s (line %d, column %d)", want, num, line, col)
		}
		return Errorf(path, "must be %s, got JSON %s (line %d, column %d)", want, te.Value, line, col)
	case errors.As(err, &se):
		path, bad := jsonPathAt(data, -1)
		line, col := lineCol(data, se.Offset-1) // Offset is just past the bad byte
		reason := fmt.Sprintf("invalid JSON at line %d, column %d: %v", line, col, se)
		if tok := badToken(data, se.Offset); tok != "" && bad {
			reason = fmt.Sprintf("invalid value %q at line %d, column %d (JSON has no NaN or infinities)", tok, line, col)
		}
		return Errorf(path, "%s", reason)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		path, _ := jsonPathAt(data, -1)
		return Errorf(path, "invalid JSON: the document ends early")
	}
	return Errorf("", "invalid JSON: %v", err)
}

// jsonFrame is one open object or array while walking the tokens.
type jsonFrame struct {
	obj     bool
	key     string // current key of an object
	wantKey bool   // an object expects a key next
	idx     int    // elements completed in an array
}

// jsonPathAt walks the tokens of data and returns the path of the value being read when
// the walk fails (stop < 0) or of the first scalar that ends at or after offset stop.
// bad reports that the walk stopped in a value position (not a key or delimiter).
func jsonPathAt(data []byte, stop int64) (path string, bad bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var stack []jsonFrame
	render := func() string {
		var b strings.Builder
		for _, f := range stack {
			if f.obj && (f.wantKey || f.key == "") {
				break
			}
			writePathStep(&b, f.obj, f.key, f.idx)
		}
		return b.String()
	}
	valueDone := func() {
		if len(stack) == 0 {
			return
		}
		top := &stack[len(stack)-1]
		if top.obj {
			top.wantKey = true
		} else {
			top.idx++
		}
	}
	for {
		before := render()
		inValue := len(stack) == 0 || !stack[len(stack)-1].obj || !stack[len(stack)-1].wantKey
		tok, err := dec.Token()
		if err != nil {
			return before, inValue
		}
		switch t := tok.(type) {
		case json.Delim:
			if stop >= 0 && (t == '{' || t == '[') && dec.InputOffset() >= stop {
				return before, true // an object or array where another type belongs
			}
			switch t {
			case '{':
				stack = append(stack, jsonFrame{obj: true, wantKey: true})
			case '[':
				stack = append(stack, jsonFrame{})
			default:
				stack = stack[:len(stack)-1]
				valueDone()
			}
		default:
			if n := len(stack); n > 0 && stack[n-1].obj && stack[n-1].wantKey {
				stack[n-1].key, _ = t.(string)
				stack[n-1].wantKey = false
				continue
			}
			if stop >= 0 && dec.InputOffset() >= stop {
				return before, true
			}
			valueDone()
		}
	}
}

// lineCol converts a byte offset into a 1-based line and column.
func lineCol(data []byte, offset int64) (line, col int) {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	if offset < 0 {
		offset = 0
	}
	head := data[:offset]
	line = 1 + bytes.Count(head, []byte("\n"))
	col = int(offset) - bytes.LastIndexByte(head, '\n')
	return line, col
}

// badToken returns the word (such as NaN or Infinity) at a syntax error's offset, or "".
func badToken(data []byte, offset int64) string {
	const word = "+-.0123456789eEaAnNiIfFtTyY"
	if offset < 1 || offset > int64(len(data)) {
		return ""
	}
	start, end := offset-1, offset-1
	for start > 0 && strings.IndexByte(word, data[start-1]) >= 0 {
		start--
	}
	for end < int64(len(data)) && strings.IndexByte(word, data[end]) >= 0 {
		end++
	}
	return string(data[start:end])
}

// jsonTypeName names the JSON type a Go type expects, for error messages.
func jsonTypeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32,
		reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return t.String()
}

// plainKey reports whether a key can be written bare in a path (letters, digits, _ and -).
func plainKey(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		if !(r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}
