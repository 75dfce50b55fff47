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
	"sync"
	"unicode/utf8"
	"unsafe"
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
	w := &strictWalker{}
	if v != nil {
		w.root = reflect.TypeOf(v)
	}
	if json.Valid(data) {
		// The common case, a well-formed document, takes a scan with no allocation
		// per token; a malformed one takes encoding/json's tokenizer, whose errors
		// place the fault.
		return w.scanValid(data)
	}
	return w.walkTokens(data)
}

// strictWalker follows a document's objects and arrays against the Go type they
// decode into, for CheckJSON.
type strictWalker struct {
	root  reflect.Type
	stack []strictFrame
}

// structCache holds the field tables of struct types, built once per type and never
// changed after (as encoding/json caches its own): an array of 10⁵ objects, or 10⁵
// documents of one type, must not walk the type's fields 10⁵ times.
var structCache sync.Map // reflect.Type → *structFields

// path renders the JSON path of the value being read.
func (w *strictWalker) path() string { return renderPath(w.stack) }

// wantKey reports whether an object key (or its end) comes next.
func (w *strictWalker) wantKey() bool {
	n := len(w.stack)
	return n > 0 && w.stack[n-1].obj && w.stack[n-1].wantKey
}

// open starts an object or array value.
func (w *strictWalker) open(obj bool) error {
	if len(w.stack) >= MaxDepth {
		return Errorf(w.path(), "nested deeper than %d levels", MaxDepth)
	}
	t := w.root
	if n := len(w.stack); n > 0 {
		t = w.stack[n-1].elem
	}
	w.stack = append(w.stack, newFrame(obj, t))
	return nil
}

// close ends the innermost object or array, which completes a value.
func (w *strictWalker) close() {
	w.stack = w.stack[:len(w.stack)-1]
	w.valueDone()
}

// key checks an object key: no duplicate, and a field of the struct it decodes into.
func (w *strictWalker) key(key string) error {
	f := &w.stack[len(w.stack)-1]
	f.key, f.wantKey = key, false
	if f.seenKey(key) {
		return Errorf(w.path(), "duplicate key %q", key)
	}
	f.elem = nil
	if f.fields != nil {
		ft, ok := f.fields.types[key]
		if !ok {
			return Errorf(w.path(), "%s", unknownField(key, f.fields.names))
		}
		f.elem = ft
	} else if f.mapElem != nil {
		f.elem = f.mapElem
	}
	return nil
}

// number checks a number's range; the path is rendered only when it is out of range.
func (w *strictWalker) number(text string) error {
	if reason := numberRangeReason(text); reason != "" {
		return Errorf(w.path(), "%s", reason)
	}
	w.valueDone()
	return nil
}

// valueDone moves past a completed value.
func (w *strictWalker) valueDone() {
	if n := len(w.stack); n > 0 {
		if w.stack[n-1].obj {
			w.stack[n-1].wantKey = true
		} else {
			w.stack[n-1].idx++
		}
	}
}

// scanValid walks a document json.Valid accepted: one value, well formed, so the scan
// only has to find where each token ends.
func (w *strictWalker) scanValid(data []byte) error {
	for i := 0; i < len(data); {
		c := data[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ':':
			i++
		case c == '{' || c == '[':
			if err := w.open(c == '{'); err != nil {
				return err
			}
			i++
		case c == '}' || c == ']':
			w.close()
			i++
		case c == '"':
			j, escaped := i+1, false
			for data[j] != '"' {
				if data[j] == '\\' {
					escaped = true
					j++
				}
				j++
			}
			if w.wantKey() {
				// Keys and numbers are read in place (unsafe.String): nothing keeps
				// them past CheckJSON, and messages copy what they quote.
				key := unsafe.String(unsafe.SliceData(data[i+1:j]), j-i-1)
				if escaped || !utf8.ValidString(key) {
					// As encoding/json reads it: escapes decoded, bad UTF-8 as U+FFFD.
					if err := json.Unmarshal(data[i:j+1], &key); err != nil {
						return JSONError(data, err)
					}
				}
				if err := w.key(key); err != nil {
					return err
				}
			} else {
				w.valueDone()
			}
			i = j + 1
		case c == 't' || c == 'n':
			w.valueDone()
			i += 4
		case c == 'f':
			w.valueDone()
			i += 5
		default: // a number
			j := i + 1
			for j < len(data) && (data[j] >= '0' && data[j] <= '9' || data[j] == '.' || data[j] == 'e' || data[j] == 'E' || data[j] == '+' || data[j] == '-') {
				j++
			}
			if err := w.number(unsafe.String(&data[i], j-i)); err != nil {
				return err
			}
			i = j
		}
	}
	return nil
}

// walkTokens walks a malformed document with encoding/json's tokenizer, so that
// strictness errors before the fault are reported in document order and the fault
// itself as encoding/json places it.
func (w *strictWalker) walkTokens(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
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
			if started && len(w.stack) == 0 {
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
		if started && len(w.stack) == 0 {
			line, col := lineCol(data, dec.InputOffset())
			return Errorf("", "invalid JSON: data after the top-level value (line %d, column %d)", line, col)
		}
		started = true
		if w.wantKey() {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				w.close()
				continue
			}
			key, _ := tok.(string)
			if err := w.key(key); err != nil {
				return err
			}
			continue
		}
		switch d := tok.(type) {
		case json.Delim:
			switch d {
			case '{', '[':
				if err := w.open(d == '{'); err != nil {
					return err
				}
			default:
				w.close()
			}
		case json.Number:
			if err := w.number(string(d)); err != nil {
				return err
			}
		default:
			w.valueDone()
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
	if reason := numberRangeReason(text); reason != "" {
		return Errorf(field, "%s", reason)
	}
	return nil
}

// numberRangeReason is CheckNumber's reason for refusing text, "" when it is in range.
func numberRangeReason(text string) string {
	v, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(v, 0) {
		return fmt.Sprintf("number %s is out of range (magnitudes up to %g)", text, MaxMagnitude)
	}
	if a := math.Abs(v); a > MaxMagnitude {
		return fmt.Sprintf("number %s is out of range (magnitudes up to %g, see \"Ranges and limits\" in docs/spec.md)", text, MaxMagnitude)
	} else if a != 0 && a < MinMagnitude {
		return fmt.Sprintf("number %s is out of range (0 or magnitudes from %g, see \"Ranges and limits\" in docs/spec.md)", text, MinMagnitude)
	}
	return ""
}

// strictFrame is one open object or array while CheckJSON walks a document.
type strictFrame struct {
	obj     bool
	key     string          // object: the current key
	wantKey bool            // object: a key (or '}') comes next
	idx     int             // array: index of the value being read
	keys    []string        // object: the keys read so far, while there are few
	seen    map[string]bool // object: the keys read so far, once there are many
	fields  *structFields   // struct: its JSON fields; nil: any key
	mapElem reflect.Type    // map: the element type
	elem    reflect.Type    // the type of the value being read; nil: unchecked
}

// seenKey records key in the frame and reports whether it was there already. Small
// objects (every element of a long array of records) use a slice, not a map.
func (f *strictFrame) seenKey(key string) bool {
	const small = 16
	if f.seen == nil {
		if slices.Contains(f.keys, key) {
			return true
		}
		f.keys = append(f.keys, key)
		if len(f.keys) > small {
			f.seen = make(map[string]bool, 2*small)
			for _, k := range f.keys {
				f.seen[k] = true
			}
		}
		return false
	}
	if f.seen[key] {
		return true
	}
	f.seen[key] = true
	return false
}

// structFields are the JSON fields of a struct type.
type structFields struct {
	types map[string]reflect.Type // JSON name → field type
	names []string                // the JSON names, sorted
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
		if sf, ok := structCache.Load(t); ok {
			f.fields = sf.(*structFields)
			return f
		}
		f.fields = fieldsOf(t)
		structCache.Store(t, f.fields)
	case obj && t.Kind() == reflect.Map:
		f.mapElem = t.Elem()
	case !obj && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array):
		f.elem = t.Elem()
	}
	return f
}

// fieldsOf lists the JSON fields of struct type t as encoding/json sees them.
func fieldsOf(t reflect.Type) *structFields {
	fs := &structFields{types: map[string]reflect.Type{}}
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
		if _, dup := fs.types[name]; !dup {
			fs.types[name] = sf.Type
			fs.names = append(fs.names, name)
		}
	}
	slices.Sort(fs.names)
	return fs
}

// renderPath writes the JSON path of the value being read ("machines[3].rho").
func renderPath(stack []strictFrame) string {
	var b strings.Builder
	for _, f := range stack {
		if f.obj && f.wantKey {
			break
		}
		writePathStep(&b, f.obj, f.key, f.idx)
	}
	return b.String()
}

// writePathStep appends one step of a JSON path to b: ".key" (no dot first), a key
// that is not a plain name quoted in brackets (the path stays on one line), or "[i]".
func writePathStep(b *strings.Builder, obj bool, key string, idx int) {
	switch {
	case !obj:
		b.WriteString("[" + strconv.Itoa(idx) + "]")
	case !plainKey(key):
		b.WriteString("[" + strconv.Quote(key) + "]")
	default:
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(key)
	}
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
