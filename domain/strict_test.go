package domain

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

type strictMachine struct {
	A1  float64 `json:"a1"`
	Rho float64 `json:"rho"`
}

type strictDoc struct {
	Kind        string          `json:"kind"`
	N           *float64        `json:"n"`
	FixedLength bool            `json:"fixed_length"`
	Machines    []strictMachine `json:"machines"`
	Matrix      [][]float64     `json:"matrix"`
	Extra       map[string]int  `json:"extra"`
}

func TestDecodeStrict(t *testing.T) {
	for _, tc := range []struct {
		name, data, field, reason string
	}{
		{"unknown top-level field with a near miss", `{"kind":"x","fixed_lenght":true}`, "fixed_lenght", `did you mean "fixed_length"?`},
		{"a key in the wrong case", `{"kind":"x","N":3}`, "N", `did you mean "n"?`},
		{"unknown nested field", `{"machines":[{"a1":1},{"a1":1,"rh0":2}]}`, "machines[1].rh0", `did you mean "rho"?`},
		{"unknown field far from every name", `{"zzzzzzzz":1}`, "zzzzzzzz", "known fields: extra, fixed_length, kind, machines, matrix, n"},
		{"duplicate key", `{"n":1,"n":2}`, "n", `duplicate key "n"`},
		{"duplicate nested key", `{"machines":[{"a1":1,"a1":2}]}`, "machines[0].a1", "duplicate key"},
		{"trailing object", `{"n":1} {"n":2}`, "", "data after the top-level value"},
		{"trailing garbage", `{"n":1} x`, "", "data after the top-level value"},
		{"empty document", ``, "", "empty"},
		{"string where a number belongs", `{"n":"3"}`, "n", "must be a number, got JSON string"},
		{"number where a string belongs", `{"kind":3}`, "kind", "must be a string"},
		{"number out of range", `{"n":1e400}`, "n", "number 1e400 is out of range"},
		{"number too large", `{"machines":[{"a1":1,"rho":1e308}]}`, "machines[0].rho", "number 1e308 is out of range"},
		{"number too small", `{"matrix":[[1,-1e-300]]}`, "matrix[0][1]", "number -1e-300 is out of range"},
		{"NaN", `{"n":NaN}`, "n", "NaN"},
		{"too deep", `{"matrix":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`, "matrix" + strings.Repeat("[0]", MaxDepth-1), "nested deeper than"},
		{"map keys are free, duplicates are not", `{"extra":{"a":1,"a":2}}`, "extra.a", "duplicate key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d strictDoc
			err := Decode([]byte(tc.data), &d)
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("got %v, want a FieldError", err)
			}
			if fe.Field != tc.field || !strings.Contains(fe.Reason, tc.reason) {
				t.Errorf("got field %q reason %q, want field %q and a reason with %q", fe.Field, fe.Reason, tc.field, tc.reason)
			}
			if !errors.Is(err, ErrBadInput) {
				t.Errorf("%v does not wrap ErrBadInput", err)
			}
		})
	}
	t.Run("a valid document decodes", func(t *testing.T) {
		var d strictDoc
		if err := Decode([]byte(`{"kind":"x","n":2,"machines":[{"a1":1,"rho":2}],"matrix":[[1,2]],"extra":{"q":1}}`), &d); err != nil {
			t.Fatal(err)
		}
		if *d.N != 2 || d.Machines[0].Rho != 2 || d.Extra["q"] != 1 {
			t.Errorf("decoded %+v", d)
		}
	})
}

// TestDecodeLinear: deeply nested and very long documents are refused or decoded in
// time linear in their size (a quadratic walk took 31 s on 1 MB of brackets).
func TestDecodeLinear(t *testing.T) {
	for _, data := range []string{
		strings.Repeat("[", 1<<20),
		`{"matrix":[` + strings.Repeat("[1,2,3],", 1<<17) + `[1]]}`,
		`{"n":1,"machines":[` + strings.Repeat(`{"a1":1},`, 1<<16) + `{"a1":NaN}]}`,
	} {
		var d strictDoc
		start := time.Now()
		_ = Decode([]byte(data), &d)
		if el := time.Since(start); el > 5*time.Second {
			t.Errorf("decoding %d bytes took %v", len(data), el)
		}
	}
}

func TestSuggest(t *testing.T) {
	names := []string{"C", "O", "a1", "a2", "deadline", "energy_limit", "fixed_length", "rho"}
	for _, tc := range []struct{ in, want string }{
		{"fixed_lenght", "fixed_length"}, {"dedline", "deadline"}, {"energy_limt", "energy_limit"},
		{"c", "C"}, {"a3", "a1"}, {"frobnicate", ""}, {"deadline_x", "deadline"}, {"foo_bar", ""},
	} {
		if got := Suggest(tc.in, names); got != tc.want {
			t.Errorf("Suggest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzCheckJSONScansAgree: on every well-formed document, the allocation-free scan
// CheckJSON uses and the encoding/json tokenizer it falls back to on malformed ones
// find the same fault (or none).
func FuzzCheckJSONScansAgree(f *testing.F) {
	for _, s := range []string{
		`{"kind":"x","fixed_lenght":true}`, `{"machines":[{"a1":1},{"a1":1,"rh0":2}]}`,
		`{"n":1,"n":2}`, `{"matrix":[[1,-1e-300]]}`, `{"extra":{"a":1,"a":2}}`,
		`{"fixed\u005flength":true,"ma\u0063hines":[{"a1":1,"a\u0031":2}]}`,
		`{"kind":"a \"quoted\\\" \\ string","n":-0.5e+3,"matrix":[[],[true,false,null]]}`,
		`[1, 2, {"x": "y"}]`, `"top"`, `3`, `null`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		data := []byte(s)
		if !json.Valid(data) {
			return
		}
		var d strictDoc
		run := func(scan func(*strictWalker, []byte) error) string {
			w := &strictWalker{root: reflect.TypeOf(&d)}
			if err := scan(w, data); err != nil {
				return err.Error()
			}
			return ""
		}
		fast, slow := run((*strictWalker).scanValid), run((*strictWalker).walkTokens)
		if fast != slow {
			t.Errorf("%q: scan says %q, tokenizer says %q", s, fast, slow)
		}
	})
}

func TestEscapedKeysAreTheirUnescapedNames(t *testing.T) {
	var d strictDoc
	if err := Decode([]byte(`{"fixed\u005flength":true,"n":2}`), &d); err != nil || !d.FixedLength {
		t.Fatalf("escaped known key: %v, %+v", err, d)
	}
	err := Decode([]byte(`{"n":1,"\u006e":2}`), &d)
	var fe *FieldError
	if !errors.As(err, &fe) || !strings.Contains(fe.Reason, "duplicate key") {
		t.Errorf("a key and its escaped spelling: got %v, want a duplicate key", err)
	}
}
