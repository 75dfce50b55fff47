package cmdsolver

import (
	"math"
	"testing"

	"github.com/schedopt/schedopt/backends"
)

// Outputs as the programs write them (HiGHS 1.10, CBC 2.10.8, GLPK 5.0).
const (
	highsOptimal = "Model status\nOptimal\n\n# Primal solution values\nFeasible\nObjective -4.75\n# Columns 3\nx 2\ny 2\nz 1.5\n# Rows 2\nc1 7.5\nc2 8\n\n# Dual solution values\nNone\n\n# Basis\nHiGHS v1\nNone\n"
	highsLog     = "  Status            Optimal\n  Primal bound      -4.75\n  Dual bound        -4.75\n  Gap               0%\n"
	highsInfeas  = "Model status\nInfeasible\n\n# Primal solution values\nNone\n\n# Dual solution values\nNone\n"
	cbcAll       = "Optimal - objective value -4.00000000\n      0 c1                     6                       0\n      1 c2                     8                       0\n      0 x                      2                      -1\n      1 y                      2                      -1\n      2 z                      0                    -0.5\n"
	cbcNoRows    = "Stopped on time - objective value 12.5\n      0 x                      2                      -1\n**    1 y                    0.5                      -1\n"
	cbcNoInteger = "Stopped on time (no integer solution - continuous used) - objective value 12.0\n      0 x                    0.3                       0\n"
	cbcLog       = "Objective value:                12.5\nLower bound:                    10.25\nGap:                            0.2\n"
	glpkMIP      = "c Problem:    OPT\nc Status:     INTEGER OPTIMAL\nc\ns mip 2 3 o -4.75\ni 1 7.5\ni 2 8\nj 1 2\nj 2 2\nj 3 1.5\ne o f\n"
	glpkMIPLog   = "+     5: >>>>>  -4.750000000e+00 >=  -4.750000000e+00   0.0% (2; 0)\n+     5: mip =  -4.750000000e+00 >=     tree is empty   0.0% (0; 3)\nINTEGER OPTIMAL SOLUTION FOUND\n"
	glpkLP       = "c Problem:    L\ns bas 1 2 f f 3.5\ni 1 b 3.5 0\nj 1 b 1.5 0\nj 2 l 2 1\ne o f\n"
	glpkTimeLog  = "+  1200: mip =   1.000000000e+00 >=   0.000000000e+00 100.0% (52; 10)\nTIME LIMIT EXCEEDED; SEARCH TERMINATED\n"
	glpkTimeMIP  = "s mip 1 2 f 1\ni 1 3\nj 1 1\nj 2 0\ne o f\n"
)

func TestParsers(t *testing.T) {
	nan := math.NaN()
	names := ModelInfo{Format: "mps", Names: []string{"x", "y", "z"}}
	tests := []struct {
		name       string
		parse      func(sol, log []byte, info ModelInfo) (Answer, error)
		sol, log   string
		nilSol     bool
		info       ModelInfo
		status     backends.Status
		obj, bound float64
		values     map[string]float64
	}{
		{"highs optimal", ParseHiGHS, highsOptimal, highsLog, false, ModelInfo{}, backends.Optimal, -4.75, -4.75, map[string]float64{"x": 2, "y": 2, "z": 1.5}},
		{"highs infeasible", ParseHiGHS, highsInfeas, "", false, ModelInfo{}, backends.Infeasible, nan, nan, nil},
		{"highs without a solution file", ParseHiGHS, "", "Model status        : Time limit reached\n", true, ModelInfo{}, backends.TimeLimit, nan, nan, nil},
		{"cbc rows and columns", ParseCBC, cbcAll, "", false, ModelInfo{Format: "mps"}, backends.Optimal, -4, nan, map[string]float64{"x": 2, "y": 2, "z": 0}},
		{"cbc time limit, no rows, marked line", ParseCBC, cbcNoRows, cbcLog, false, ModelInfo{Format: "mps"}, backends.TimeLimit, 12.5, 10.25, map[string]float64{"x": 2, "y": 0.5}},
		{"cbc lp constant added back", ParseCBC, cbcNoRows, cbcLog, false, ModelInfo{Format: "lp", ObjConst: 1}, backends.TimeLimit, 13.5, 11.25, map[string]float64{"x": 2, "y": 0.5}},
		{"cbc no integer solution", ParseCBC, cbcNoInteger, "", false, ModelInfo{Format: "mps"}, backends.TimeLimit, nan, nan, nil},
		{"cbc infeasible", ParseCBC, "Infeasible - objective value 5.00000000\n      0 x  5  0\n", "", false, ModelInfo{}, backends.Infeasible, nan, nan, nil},
		{"cbc unbounded", ParseCBC, "Unbounded - objective value 0.00000000\n      0 x  0  -1\n", "", false, ModelInfo{}, backends.InfeasibleOrUnbounded, nan, nan, nil},
		{"glpk mip optimal", ParseGLPK, glpkMIP, glpkMIPLog, false, names, backends.Optimal, -4.75, -4.75, map[string]float64{"x": 2, "y": 2, "z": 1.5}},
		{"glpk mps constant", ParseGLPK, glpkMIP, glpkMIPLog, false, ModelInfo{Format: "mps", Names: names.Names, ObjConst: 1}, backends.Optimal, -2.75, -2.75, map[string]float64{"x": 2, "y": 2, "z": 1.5}},
		{"glpk lp basic", ParseGLPK, glpkLP, "OPTIMAL LP SOLUTION FOUND\n", false, ModelInfo{Format: "lp", Names: []string{"a", "b"}}, backends.Optimal, 3.5, nan, map[string]float64{"a": 1.5, "b": 2}},
		{"glpk time limit", ParseGLPK, glpkTimeMIP, glpkTimeLog, false, ModelInfo{Format: "mps", Names: []string{"a", "b"}}, backends.TimeLimit, 1, 0, map[string]float64{"a": 1, "b": 0}},
	}
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var sol []byte
			if !tc.nilSol {
				sol = []byte(tc.sol)
			}
			ans, err := tc.parse(sol, []byte(tc.log), tc.info)
			if err != nil {
				t.Fatal(err)
			}
			if ans.Status != tc.status || !same(ans.Objective, tc.obj) || !same(ans.Bound, tc.bound) {
				t.Errorf("status %s, objective %g, bound %g; want %s, %g, %g", ans.Status, ans.Objective, ans.Bound, tc.status, tc.obj, tc.bound)
			}
			if (ans.Values == nil) != (tc.values == nil) || len(ans.Values) != len(tc.values) {
				t.Fatalf("values %v, want %v", ans.Values, tc.values)
			}
			for k, v := range tc.values {
				if ans.Values[k] != v {
					t.Errorf("%s = %g, want %g", k, ans.Values[k], v)
				}
			}
		})
	}
}

func TestParsersRefuseMalformedFiles(t *testing.T) {
	names := ModelInfo{Format: "mps", Names: []string{"x"}}
	for name, c := range map[string]struct {
		parse func(sol, log []byte, info ModelInfo) (Answer, error)
		sol   string
	}{
		"highs without status":    {ParseHiGHS, "# Primal solution values\n"},
		"highs bad column count":  {ParseHiGHS, "Model status\nOptimal\n# Primal solution values\nFeasible\nObjective 1\n# Columns 5\nx 1\n"},
		"highs bad value":         {ParseHiGHS, "Model status\nOptimal\n# Primal solution values\nFeasible\nObjective 1\n# Columns 1\nx one\n"},
		"cbc unknown status":      {ParseCBC, "Solved somehow\n 0 x 1 0\n"},
		"cbc bad index":           {ParseCBC, "Optimal - objective value 1\n a x 1 0\n"},
		"glpk column count":       {ParseGLPK, "s mip 1 2 o 1\nj 1 1\n"},
		"glpk index out of range": {ParseGLPK, "s mip 1 1 o 1\nj 2 1\n"},
	} {
		if _, err := c.parse([]byte(c.sol), nil, names); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
