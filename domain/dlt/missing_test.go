package dlt

import (
	"strings"
	"testing"
)

func TestMissingRequiredFieldsAreReportedAsMissing(t *testing.T) {
	flat := `{"kind":"dlt-flat","V":1000,"machines":[{"a":0.1,"C":0.01,"S":1},{"a":0.1,"C":0.01,"S":1}],"objective":"min-time"}`
	single := `{"kind":"dlt-single","V":10000,"m":10,"C":0.006,"S":70,"PS":101,"PI":6,"PN":91,` +
		`"a1":0.082,"a2":2.366,"k1":13,"k2":294.43,"rho":996,"objective":"min-time"}`
	for _, tc := range []struct {
		name, doc, drop, keep, want string
		parse                       func([]byte) error
	}{
		{"flat V", flat, `"V":1000,`, "", "V: missing", parseFlat},
		{"flat machine a", flat, `{"a":0.1,"C":0.01,"S":1},{"a":0.1,`, `{"a":0.1,"C":0.01,"S":1},{`, "machines[1].a: missing", parseFlat},
		{"flat machine C", flat, `"C":0.01,"S":1}]`, `"S":1}]`, "machines[1].C: missing", parseFlat},
		{"single a1", single, `"a1":0.082,`, "", "a1: missing", parseSingle},
		{"single rho", single, `,"rho":996`, "", "rho: missing", parseSingle},
		{"single m", single, `"m":10,`, "", "m: missing", parseSingle},
		{"single PS", single, `"PS":101,`, "", "PS: missing", parseSingle},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.parse([]byte(tc.doc)); err != nil {
				t.Fatalf("the complete document is rejected: %v", err)
			}
			doc := strings.Replace(tc.doc, tc.drop, tc.keep, 1)
			err := tc.parse([]byte(doc))
			if err == nil || err.Error() != tc.want {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}

func parseFlat(b []byte) error   { _, err := ParseFlat(b); return err }
func parseSingle(b []byte) error { _, err := ParseSingle(b); return err }
