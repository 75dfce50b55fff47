package builtin_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/kinds/builtin"
)

// The registry lists the kinds in the order of the spec, each with a loader.
func TestRegistryListsTheSpecKinds(t *testing.T) {
	want := []string{"dlt-flat", "dlt-single", "dlt-multi", "stencil", "workload", "partition"}
	if got := builtin.Registry().Names(); !slices.Equal(got, want) {
		t.Errorf("kinds %v, want %v", got, want)
	}
}

func TestBadInputNamesTheField(t *testing.T) {
	multi := func(old, new string) []byte {
		const good = `{"kind":"dlt-multi","V":100,"n":2,"P0N":100,"objective":"min-time",
 "machines":[{"a1":0.1,"a2":1,"k1":10,"k2":100,"rho":50,"C":0.01,"O":0.01,"S":1,"PI":5,"PN":100,"PS":100}]}`
		if !strings.Contains(good, old) {
			t.Fatalf("%q not in the instance", old)
		}
		return []byte(strings.Replace(good, old, new, 1))
	}
	single := func(edit func(map[string]any)) []byte {
		d := map[string]any{"kind": "dlt-single", "V": 10000, "m": 10, "C": 0.006, "S": 70, "PS": 101, "PI": 6, "PN": 91,
			"a1": 0.082, "a2": 2.366, "k1": 13, "k2": 294.43, "rho": 996, "objective": "min-time"}
		edit(d)
		b, _ := json.Marshal(d)
		return b
	}
	cases := []struct {
		name, field, reason string
		data                []byte
	}{
		{"a negative rate", "C", "must be >= 0", single(func(d map[string]any) { d["C"] = -1 })},
		{"rho zero", "rho", "must be > 0", single(func(d map[string]any) { d["rho"] = 0 })},
		{"b2 that disagrees with rho", "b2", "disagrees", single(func(d map[string]any) { d["b2"] = -2300 })},
		{"l2 that disagrees with rho", "l2", "disagrees", single(func(d map[string]any) { d["l2"] = -290000 })},
		{"NaN", "a1", "invalid value", []byte(`{"kind":"dlt-single","V":10000,"m":10,"C":0.006,"S":70,"PS":101,"PI":6,"PN":91,"a1":NaN,"a2":2.366,"k1":13,"k2":294.43,"rho":996,"objective":"min-time"}`)},
		{"min-energy without a deadline", "deadline", "required", single(func(d map[string]any) { d["objective"] = "min-energy" })},
		{"a deadline below the lower bound", "deadline", "infeasible", single(func(d map[string]any) {
			d["objective"] = "min-energy"
			d["deadline"] = 100
		})},
		{"m not an integer", "m", "integer", single(func(d map[string]any) { d["m"] = 2.5 })},
		{"a negative flat rate", "machines[1].a", "must be > 0", []byte(`{"kind":"dlt-flat","V":10,"machines":[{"a":1,"C":0,"S":0},{"a":-1,"C":0,"S":0}]}`)},
		{"a load beyond all memory", "V", "infeasible", []byte(`{"kind":"dlt-flat","V":10,"machines":[{"a":1,"C":0,"S":0,"B":4},{"a":1,"C":0,"S":0,"B":5}]}`)},
		{"NaN in a flat machine", "machines[1].C", "invalid value", []byte(`{"kind":"dlt-flat","V":10,"machines":[{"a":1,"C":0,"S":0},{"a":1,"C":NaN,"S":0}]}`)},
		{"NaN in a dlt-multi machine", "machines[0].rho", "invalid value", multi(`"rho":50`, `"rho":NaN`)},
		{"a dlt-multi rate below zero", "machines[0].PN", "must be >= 0", multi(`"PN":100`, `"PN":-1`)},
		{"a dlt-multi b2 that disagrees with rho", "machines[0].b2", "disagrees", multi(`"rho":50`, `"rho":50,"b2":-1`)},
		{"a dlt-multi n below one", "n", "integer >= 1", multi(`"n":2`, `"n":0`)},
		{"a dlt-multi deadline below the lower bound", "deadline", "infeasible", multi(`"objective":"min-time"`, `"objective":"min-energy","deadline":3`)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := builtin.Registry().Load(c.data, "x")
			var fe *domain.FieldError
			if !errors.As(err, &fe) || !errors.Is(err, domain.ErrBadInput) {
				t.Fatalf("err = %v, want a FieldError", err)
			}
			if fe.Field != c.field || !strings.Contains(fe.Reason, c.reason) {
				t.Fatalf("field %q reason %q; want %q containing %q", fe.Field, fe.Reason, c.field, c.reason)
			}
		})
	}
	t.Run("the deadline error gives the bound", func(t *testing.T) {
		_, err := builtin.Registry().Load(single(func(d map[string]any) {
			d["objective"] = "min-energy"
			d["deadline"] = 100
		}), "x")
		// S + max{CV, (C + a1)V/m} = 70 + max{60, 88} = 158.
		if err == nil || !strings.Contains(err.Error(), "158") {
			t.Fatalf("err = %v, want the bound 158 s", err)
		}
	})
}
