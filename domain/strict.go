package domain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// MaxDepth caps the nesting of objects and arrays in an input document. The deepest
// instance format (a stencil's link_time matrix inside the instance) needs 3 levels;
// the cap keeps every walk over a document linear in its size.
const MaxDepth = 64

// Decode decodes one JSON document into v strictly: beyond the checks of encoding/json
// it rejects unknown object keys (with a "did you mean" for near misses), keys whose
// case differs from the field's, duplicate keys, data after the top-level value and
// nesting deeper than MaxDepth. Every error is a *FieldError naming the JSON path of
// the offending key or value and the reason. Decoding is linear in the size of data.
func Decode(data []byte, v any) error {
	if err := CheckJSON(data, v); err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return JSONError(data, err)
	}
	return nil
}

// CheckJSON runs the strict checks of Decode on data without decoding it: the keys of
// every object that v's type maps to a struct must be the struct's JSON field names
// exactly. Objects decoded into maps, interfaces or json.RawMessage accept any key
// (the code that decodes a json.RawMessage later checks it again); duplicate keys,
// trailing data and the depth cap are checked everywhere. Syntax errors are reported as
// JSONError reports them.
func CheckJSON(data []byte, v any) error {
	var t reflect.Type
	if v != nil {
		t = reflect.TypeOf(v)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var stack []strictFrame
	path := func() string { return renderPath(stack) }
	// valueType is the type expected for the value about to start.
	valueType := func() reflect.Type {
		if len(stack) == 0 {
			return t
		}
		return stack[len(stack)-1].elem
	}
	valueDone := func() {
		if n := len(stack); n > 0 {
			if stack[n-1].obj {
				stack[n-1].wantKey = true
			} else {
				stack[n-1].idx++
			}
		}
	}
	started := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			if !started {
				return Errorf("", "invalid JSON: the document is empty")
			}
			return nil
		}
		if err != nil {
			if started && len(stack) == 0 {
				line, col := lineCol(data, dec.InputOffset())
				return Errorf("", "invalid JSON: data after the top-level value (line %d, column %d)", line, col)
			}
			// A syntax error: encoding/json's own message names the place.
			uerr := json.Unmarshal(data, new(any))
			if uerr == nil {
				uerr = err
			}
			return JSONError(data, uerr)
		}
		if started && len(stack) == 0 {
			line, col := lineCol(data, dec.InputOffset())
			return Errorf("", "invalid JSON: data after the top-level value (line %d, column %d)", line, col)
		}
		started = true
		if n := len(stack); n > 0 && stack[n-1].obj && stack[n-1].wantKey {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:n-1]
				valueDone()
				continue
			}
			key, _ := tok.(string)
			f := &stack[n-1]
			f.key, f.wantKey = key, false
			if f.seen == nil {
				f.seen = map[string]bool{}
			}
			if f.seen[key] {
				return Errorf(path(), "duplicate key %q", key)
			}
			f.seen[key] = true
			f.elem = nil
			if f.fields != nil {
				ft, ok := f.fields[key]
				if !ok {
					return Errorf(path(), "%s", unknownField(key, f.names))
				}
				f.elem = ft
			} else if f.mapElem != nil {
				f.elem = f.mapElem
			}
			continue
		}
		switch d := tok.(type) {
		case json.Delim:
			switch d {
			case '{', '[':
				if len(stack) >= MaxDepth {
					return Errorf(path(), "nested deeper than %d levels", MaxDepth)
				}
				stack = append(stack, newFrame(d == '{', valueType()))
			default:
				stack = stack[:len(stack)-1]
				valueDone()
			}
		case json.Number:
			if err := CheckNumber(path(), string(d)); err != nil {
				return err
			}
			valueDone()
		default:
			valueDone()
		}
	}
}

// The range of every number in an input document (docs/spec.md, "Ranges and limits"):
// zero, or a magnitude in [MinMagnitude, MaxMagnitude]. MaxMagnitude is above 2⁵³ (the
// largest cell count of a stencil task) and products of three parameters stay below
// 1e49, so times, energies and the derived quantities (b2 = ρ(a1 − a2), l2, V·a, Σ of
// up to 10⁷ terms) are finite; MinMagnitude keeps reciprocals (rates) below 1e15.
const (
	MaxMagnitude = 1e16
	MinMagnitude = 1e-15
)

// CheckNumber checks that the JSON number text lies in the range every input number
// must: zero or a magnitude in [MinMagnitude, MaxMagnitude].
func CheckNumber(field, text string) error {
	v, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(v, 0) {
		return Errorf(field, "number %s is out of range (magnitudes up to %g)", text, MaxMagnitude)
	}
	if a := math.Abs(v); a > MaxMagnitude {
		return Errorf(field, "number %s is out of range (magnitudes up to %g, see \"Ranges and limits\" in docs/spec.md)", text, MaxMagnitude)
	} else if a != 0 && a < MinMagnitude {
		return Errorf(field, "number %s is out of range (0 or magnitudes from %g, see \"Ranges and limits\" in docs/spec.md)", text, MinMagnitude)
	}
	return nil
}

// strictFrame is one open object or array while CheckJSON walks a document.
type strictFrame struct {
	obj     bool
	key     string // object: the current key
	wantKey bool   // object: a key (or '}') comes next
	idx     int    // array: index of the value being read
	seen    map[string]bool
	fields  map[string]reflect.Type // struct: JSON name → field type; nil: any key
	names   []string                // struct: the JSON names, sorted
	mapElem reflect.Type            // map: the element type
	elem    reflect.Type            // the type of the value being read; nil: unchecked
}

var rawMessageType = reflect.TypeOf(json.RawMessage{})

// newFrame opens an object or array whose Go type is t (nil: unchecked).
func newFrame(obj bool, t reflect.Type) strictFrame {
	f := strictFrame{obj: obj, wantKey: obj}
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t == rawMessageType {
		return f
	}
	switch {
	case obj && t.Kind() == reflect.Struct:
		f.fields = map[string]reflect.Type{}
		for _, sf := range reflect.VisibleFields(t) {
			if !sf.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			if sf.Anonymous && name == "" && sf.Type.Kind() == reflect.Struct {
				continue // its fields are promoted
			}
			if name == "" {
				name = sf.Name
			}
			if _, dup := f.fields[name]; !dup {
				f.fields[name] = sf.Type
				f.names = append(f.names, name)
			}
		}
		slices.Sort(f.names)
	case obj && t.Kind() == reflect.Map:
		f.mapElem = t.Elem()
	case !obj && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array):
		f.elem = t.Elem()
	}
	return f
}

// renderPath writes the JSON path of the value being read ("machines[3].rho").
func renderPath(stack []strictFrame) string {
	var b strings.Builder
	for _, f := range stack {
		if f.obj {
			if f.wantKey {
				break
			}
			if !plainKey(f.key) {
				b.WriteString("[" + strconv.Quote(f.key) + "]")
				continue
			}
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(f.key)
		} else {
			b.WriteString("[" + strconv.Itoa(f.idx) + "]")
		}
	}
	return b.String()
}

// unknownField is the reason for an unknown key: a suggestion when a known name is
// near it, else the list of known names.
func unknownField(key string, names []string) string {
	if s := Suggest(key, names); s != "" {
		return fmt.Sprintf("unknown field %q (did you mean %q?)", key, s)
	}
	if len(names) == 0 {
		return fmt.Sprintf("unknown field %q (this object takes no fields)", key)
	}
	return fmt.Sprintf("unknown field %q (known fields: %s)", key, strings.Join(names, ", "))
}

// Suggest returns the name among names nearest to s when it is a plausible typo of it
// (the same up to case, or at most max(1, min(2, len/3)) insertions, deletions,
// substitutions or swaps of neighbours apart), or "" when none is.
func Suggest(s string, names []string) string {
	best, bestD := "", 1<<30
	ls := strings.ToLower(s)
	for _, n := range names {
		if strings.EqualFold(n, s) {
			return n
		}
		if d := editDistance(ls, strings.ToLower(n)); d < bestD {
			best, bestD = n, d
		}
	}
	limit := min(2, max(len(s), 3)/3)
	if best != "" && bestD <= max(1, limit) {
		return best
	}
	return ""
}

// editDistance is the optimal-string-alignment distance of a and b (Levenshtein with
// swaps of neighbouring characters counting as one edit).
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > 64 || len(rb) > 64 {
		if a == b {
			return 0
		}
		return 1 << 20 // long keys are never typos worth a suggestion
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
