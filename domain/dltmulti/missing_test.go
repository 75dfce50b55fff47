package dltmulti

import (
	"strings"
	"testing"
)

func TestMissingMachineFieldsAreReportedAsMissing(t *testing.T) {
	const machine = `{"a1":1,"a2":2,"k1":1,"k2":2,"rho":100,"C":0.1,"O":0.01,"S":1,"PI":1,"PN":1,"PS":1}`
	doc := `{"kind":"dlt-multi","V":100,"n":2,"P0N":1,"machines":[` + machine + `,` + machine + `],"objective":"min-time"}`
	if _, err := Parse([]byte(doc)); err != nil {
		t.Fatalf("the complete document is rejected: %v", err)
	}
	for _, field := range []string{"a1", "a2", "k2", "rho", "C", "O", "S", "PI", "PN", "PS"} {
		t.Run(field, func(t *testing.T) {
			second := strings.Replace(machine, `"`+field+`":`, `"x":`, 1)
			second = strings.Replace(second, `"x":`+valueOf(machine, field)+`,`, ``, 1)
			second = strings.Replace(second, `,"x":`+valueOf(machine, field), ``, 1)
			bad := `{"kind":"dlt-multi","V":100,"n":2,"P0N":1,"machines":[` + machine + `,` + second + `],"objective":"min-time"}`
			_, err := Parse([]byte(bad))
			want := "machines[1]." + field + ": missing"
			if err == nil || err.Error() != want {
				t.Errorf("got %v, want %q", err, want)
			}
		})
	}
}

// valueOf returns the text of field's value in a flat JSON object.
func valueOf(obj, field string) string {
	rest := obj[strings.Index(obj, `"`+field+`":`)+len(field)+3:]
	return rest[:strings.IndexAny(rest, ",}")]
}
