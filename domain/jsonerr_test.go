package domain

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestJSONErrorNamesThePath(t *testing.T) {
	type point struct {
		Size   *float64 `json:"size"`
		Energy *float64 `json:"energy"`
	}
	type doc struct {
		N          *float64 `json:"n"`
		Processors []struct {
			Points []point `json:"points"`
		} `json:"processors"`
	}
	for _, tc := range []struct {
		name, data, field, reason string
	}{
		{"bare NaN in a nested array", `{"n":4,"processors":[{"points":[{"size":1,"energy":2}]},{"points":[{"size":1},{"size":2,"energy":NaN}]}]}`,
			"processors[1].points[1].energy", `invalid value "NaN"`},
		{"Infinity at the top level", "{\n \"n\": Infinity}", "n", "line 2"},
		{"string where a number belongs", `{"n":4,"processors":[{"points":[{"size":"2"}]}]}`,
			"processors[0].points[0].size", "must be a number, got JSON string"},
		{"object where an array belongs", `{"n":4,"processors":{"points":[]}}`, "processors", "must be an array, got JSON object"},
		{"array where a number belongs", `{"n":4,"processors":[{"points":[{"size":[1]}]}]}`, "processors[0].points[0].size", "must be a number, got JSON array"},
		{"a key with a newline stays on one line", `{"n\nx":NaN}`, `["n\nx"]`, "NaN"},
		{"truncated document", `{"n":4,"processors":[{"points":[`, "processors[0].points[0]", "unexpected end"},
		{"missing comma", `{"n":4 "processors":[]}`, "", "line 1, column 8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d doc
			err := JSONError([]byte(tc.data), json.Unmarshal([]byte(tc.data), &d))
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("got %v, want a FieldError", err)
			}
			if fe.Field != tc.field || !strings.Contains(fe.Reason, tc.reason) {
				t.Errorf("got field %q reason %q, want field %q and a reason with %q", fe.Field, fe.Reason, tc.field, tc.reason)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("message spans lines: %q", err)
			}
		})
	}
}

// FuzzJSONError: any document that fails to decode gives one FieldError of one line.
func FuzzJSONError(f *testing.F) {
	f.Add(`{"n":4,"processors":[{"points":[{"size":1,"energy":NaN}]}]}`)
	f.Add(`{"n":[1,{"a":"b"}],"processors":"x"}`)
	f.Add(`[[[`)
	f.Fuzz(func(t *testing.T, data string) {
		var d struct {
			N          *float64 `json:"n"`
			Processors []struct {
				Points []struct {
					Size *float64 `json:"size"`
				} `json:"points"`
			} `json:"processors"`
		}
		err := json.Unmarshal([]byte(data), &d)
		if err == nil {
			return
		}
		got := JSONError([]byte(data), err)
		var fe *FieldError
		if !errors.As(got, &fe) || strings.ContainsAny(fe.Field, "\n") {
			t.Fatalf("JSONError(%q) = %v", data, got)
		}
	})
}
