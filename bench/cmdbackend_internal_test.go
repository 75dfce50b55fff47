package bench

import (
	"strings"
	"testing"
)

func TestWithRHSSection(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"NAME x\nROWS\n N obj\nCOLUMNS\n x obj 1\nBOUNDS\n UP BND x 1\nENDATA\n", "COLUMNS\n x obj 1\nRHS\nBOUNDS\n"},
		{"NAME x\nROWS\n N obj\nCOLUMNS\n x obj 1\nENDATA\n", " x obj 1\nRHS\nENDATA\n"},
		{"NAME x\nROWS\n N obj\nCOLUMNS\n x obj 1\nRHS\n RHS c 1\nBOUNDS\nENDATA\n", "RHS\n RHS c 1\nBOUNDS\n"},
	} {
		got := string(withRHSSection([]byte(tc.in)))
		if !strings.Contains(got, tc.want) || strings.Count(got, "RHS\n") != strings.Count(tc.in, "RHS\n")+map[bool]int{true: 0, false: 1}[strings.Contains(tc.in, "\nRHS\n")] {
			t.Errorf("withRHSSection(%q) = %q, want it to contain %q once", tc.in, got, tc.want)
		}
	}
}
