package ratcheck

import (
	"math"
	"math/big"
	"strings"
	"testing"
)

// mps builds a small free-MPS file: rows "TYPE NAME", column lines, rhs lines and
// bound lines as written.
func mps(rows, cols, rhs, bounds []string) []byte {
	var b strings.Builder
	b.WriteString("NAME T\nROWS\n N obj\n")
	for _, r := range rows {
		b.WriteString(" " + r + "\n")
	}
	b.WriteString("COLUMNS\n")
	for _, c := range cols {
		b.WriteString("    " + c + "\n")
	}
	b.WriteString("RHS\n")
	for _, r := range rhs {
		b.WriteString("    rhs " + r + "\n")
	}
	b.WriteString("BOUNDS\n")
	for _, r := range bounds {
		b.WriteString(" " + r + "\n")
	}
	b.WriteString("ENDATA\n")
	return []byte(b.String())
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name       string
		file       []byte
		names      []string
		x          []float64
		exact, flt bool    // Feasible by Check and by CheckFloat
		kind       string  // the worst violation's kind, "" for none
		maxAbs     float64 // Check's MaxAbsViolation, compared exactly
		objective  string  // Check's exact objective, "" to skip
	}{
		{
			// 0.7 reads as 0.6999999999999999556 in float64: the float check sees a
			// violation of 0.99999999992e-6, the exact one 1.00000000000001e-6.
			name:  "float passes a row the exact check fails",
			file:  mps([]string{"L r"}, []string{"x obj 1 r 0.7"}, []string{"r 0.69999899999999999999"}, nil),
			names: []string{"x"}, x: []float64{1},
			exact: false, flt: true, kind: KindRow, maxAbs: 1.00000000000001e-06,
		},
		{
			// 0.1 + 0.2 = 0.30000000000000004 in float64: the float check rejects a
			// point that is exactly at the tolerance (violation exactly 1e-6).
			name:  "float rejects a row the exact check accepts",
			file:  mps([]string{"L r"}, []string{"x obj 0.1 r 0.1", "y obj 0.2 r 0.2"}, []string{"r 0.299999"}, nil),
			names: []string{"x", "y"}, x: []float64{1, 1},
			exact: true, flt: false, kind: KindRow, maxAbs: 1e-6, objective: "3/10",
		},
		{
			// The upper bound's text lies just below 0.001 − 1e-6 (for float64 0.001),
			// but rounds to the float64 just above it.
			name:  "float passes a bound the exact check fails",
			file:  mps([]string{"L r"}, []string{"x r 1"}, []string{"r 10"}, []string{"UP bnd x 0.00099900000000000002081658171172168513"}),
			names: []string{"x"}, x: []float64{0.001},
			exact: false, flt: true, kind: KindUpper, maxAbs: 1e-06, // 1e-6 + 2e-23, rounded
		},
		{
			// x + z − y with x = y = 1e16: float64 loses z = 0.9 (ulp 2), the exact
			// activity keeps it; relative to the row's parts (1e16) it is within tolerance.
			name:  "large-magnitude cancellation",
			file:  mps([]string{"L r"}, []string{"x r 1", "z r 1", "y r -1"}, nil, []string{"FR bnd x", "FR bnd y", "FR bnd z"}),
			names: []string{"x", "z", "y"}, x: []float64{1e16, 0.9, 1e16},
			exact: true, flt: true, kind: KindRow, maxAbs: 0.9,
		},
		{
			name:  "integrality within tolerance",
			file:  mps([]string{"L r"}, []string{"M1 'MARKER' 'INTORG'", "x r 1", "M2 'MARKER' 'INTEND'"}, []string{"r 10"}, []string{"UP bnd x 5"}),
			names: []string{"x"}, x: []float64{2.0000005},
			exact: true, flt: true, kind: KindIntegrality,
		},
		{
			name:  "integrality beyond tolerance",
			file:  mps([]string{"L r"}, []string{"M1 'MARKER' 'INTORG'", "x r 1", "M2 'MARKER' 'INTEND'"}, []string{"r 10"}, []string{"UP bnd x 5"}),
			names: []string{"x"}, x: []float64{2.000002},
			exact: false, flt: false, kind: KindIntegrality,
		},
		{
			name:  "missing column",
			file:  mps([]string{"L r"}, []string{"x r 1", "y r 1"}, []string{"r 10"}, nil),
			names: []string{"x"}, x: []float64{1},
			exact: false, flt: false, kind: KindMissing, maxAbs: math.Inf(1),
		},
		{
			name:  "NaN value",
			file:  mps([]string{"L r"}, []string{"x r 1"}, []string{"r 10"}, nil),
			names: []string{"x"}, x: []float64{math.NaN()},
			exact: false, flt: false, kind: KindNotFinite, maxAbs: math.Inf(1),
		},
		{
			name:  "unknown name",
			file:  mps([]string{"L r"}, []string{"x r 1"}, []string{"r 10"}, nil),
			names: []string{"x", "ghost"}, x: []float64{1, 2},
			exact: false, flt: false, kind: KindUnknown, maxAbs: math.Inf(1),
		},
		{
			name:  "semi-continuous at zero",
			file:  mps([]string{"L r"}, []string{"x r 1"}, []string{"r 10"}, []string{"LO bnd x 2", "SC bnd x 5"}),
			names: []string{"x"}, x: []float64{0},
			exact: true, flt: true,
		},
		{
			name:  "semi-continuous between zero and its lower bound",
			file:  mps([]string{"L r"}, []string{"x r 1"}, []string{"r 10"}, []string{"LO bnd x 2", "SC bnd x 5"}),
			names: []string{"x"}, x: []float64{0.5},
			exact: false, flt: false, kind: KindSemi, maxAbs: 0.5,
		},
		{
			name:  "ranged equality row and objective constant",
			file:  mps([]string{"E r"}, []string{"x obj 0.1 r 1"}, []string{"r 1", "obj -0.2"}, nil),
			names: []string{"x"}, x: []float64{1.5},
			exact: true, flt: true, objective: "7/20",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := tc.file
			if strings.Contains(tc.name, "ranged") {
				file = []byte(strings.Replace(string(file), "BOUNDS", "RANGES\n    rng r 0.5\nBOUNDS", 1))
			}
			m, err := ReadMPS(file)
			if err != nil {
				t.Fatal(err)
			}
			rep := m.Check(tc.names, tc.x, Tolerances{})
			frep := m.CheckFloat(tc.names, tc.x, Tolerances{})
			if rep.Feasible != tc.exact || frep.Feasible != tc.flt {
				t.Errorf("feasible: exact %v, float %v; want %v, %v (exact %+v, float %+v)", rep.Feasible, frep.Feasible, tc.exact, tc.flt, rep, frep)
			}
			kind := ""
			if len(rep.Worst) > 0 {
				kind = rep.Worst[0].Kind
			}
			if kind != tc.kind {
				t.Errorf("worst violation %q, want %q (%+v)", kind, tc.kind, rep.Worst)
			}
			if rep.MaxAbsViolation != tc.maxAbs {
				t.Errorf("MaxAbsViolation %g, want %g", rep.MaxAbsViolation, tc.maxAbs)
			}
			if tc.objective != "" {
				want, _ := new(big.Rat).SetString(tc.objective)
				if rep.Objective.Cmp(want) != 0 {
					t.Errorf("objective %v, want %v", rep.Objective, want)
				}
			}
		})
	}
}

// TestCheckTolerances: a looser tolerance accepts what the default refuses.
func TestCheckTolerances(t *testing.T) {
	m, err := ReadMPS(mps([]string{"L r"}, []string{"x r 1"}, []string{"r 1"}, nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tol  Tolerances
		want bool
	}{{Tolerances{}, false}, {Tolerances{Feasibility: 1e-4}, true}, {Tolerances{Feasibility: 1e-5}, false}} {
		if got := m.Check([]string{"x"}, []float64{1.00002}, tc.tol).Feasible; got != tc.want {
			t.Errorf("tolerance %+v: feasible %v, want %v", tc.tol, got, tc.want)
		}
	}
}
