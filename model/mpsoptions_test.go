package model

import (
	"strings"
	"testing"
)

// TestSCInIntegerReadings reads an SC bound on a column between integer markers under
// each reading: HiGHS's (semi-continuous, the zero MPSOptions) and lp_solve's
// (semi-integer, also ReadMPS's for backward compatibility with WriteMPS).
func TestSCInIntegerReadings(t *testing.T) {
	const file = "NAME sc\nROWS\n N obj\n G c1\nCOLUMNS\n    m 'MARKER' 'INTORG'\n    x obj 1 c1 1\n    m 'MARKER' 'INTEND'\n    y obj 1 c1 1\nBOUNDS\n LO BND x 2\n SC BND x 5\n SC BND y 4\nENDATA\n"
	for _, tc := range []struct {
		name  string
		read  func() (*Model, error)
		wantX Kind
	}{
		{"zero options read as HiGHS", func() (*Model, error) { return ReadMPSOptions(strings.NewReader(file), MPSOptions{}) }, SemiContinuous},
		{"semi-continuous", func() (*Model, error) {
			return ReadMPSOptions(strings.NewReader(file), MPSOptions{SCInInteger: SCSemiContinuous})
		}, SemiContinuous},
		{"semi-integer", func() (*Model, error) {
			return ReadMPSOptions(strings.NewReader(file), MPSOptions{SCInInteger: SCSemiInteger})
		}, SemiInteger},
		{"ReadMPS keeps lp_solve's reading", func() (*Model, error) { return ReadMPS(strings.NewReader(file)) }, SemiInteger},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := tc.read()
			if err != nil {
				t.Fatal(err)
			}
			if k := m.VarKind(0); k != tc.wantX {
				t.Errorf("x is %v, want %v", k, tc.wantX)
			}
			if lo, hi := m.Bounds(0); lo != 2 || hi != 5 {
				t.Errorf("x bounds [%g, %g], want [2, 5]", lo, hi)
			}
			if k := m.VarKind(1); k != SemiContinuous {
				t.Errorf("y (no markers) is %v, want semi-continuous under every reading", k)
			}
		})
	}
}

func TestParseSCReading(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want SCReading
		ok   bool
	}{{"semi-continuous", SCSemiContinuous, true}, {"highs", SCSemiContinuous, true},
		{"semi-integer", SCSemiInteger, true}, {"lpsolve", SCSemiInteger, true}, {"sc", 0, false}} {
		got, err := ParseSCReading(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseSCReading(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
		if tc.ok && got.String() != map[SCReading]string{SCSemiContinuous: "semi-continuous", SCSemiInteger: "semi-integer"}[got] {
			t.Errorf("String of %v", got)
		}
	}
}
