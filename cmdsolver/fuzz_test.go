package cmdsolver

import (
	"testing"

	"github.com/schedopt/schedopt/backends"
)

// known lists the statuses a parser may return.
var known = map[backends.Status]bool{backends.Optimal: true, backends.Infeasible: true, backends.Unbounded: true,
	backends.InfeasibleOrUnbounded: true, backends.TimeLimit: true, backends.Interrupted: true,
	backends.NumericalError: true, backends.Other: true}

// fuzzParser checks that a parser never panics and returns a known status.
func fuzzParser(f *testing.F, parse func(sol, log []byte, info ModelInfo) (Answer, error), seeds [][2]string) {
	for _, s := range seeds {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, sol, log []byte) {
		ans, err := parse(sol, log, ModelInfo{Format: "mps", Names: []string{"x", "y", "z"}, ObjConst: 0.5})
		if err == nil && !known[ans.Status] {
			t.Fatalf("unknown status %q", ans.Status)
		}
	})
}

func FuzzParseHiGHS(f *testing.F) {
	fuzzParser(f, ParseHiGHS, [][2]string{{highsOptimal, highsLog}, {highsInfeas, ""}})
}

func FuzzParseCBC(f *testing.F) {
	fuzzParser(f, ParseCBC, [][2]string{{cbcAll, ""}, {cbcNoRows, cbcLog}, {cbcNoInteger, ""}})
}

func FuzzParseGLPK(f *testing.F) {
	fuzzParser(f, ParseGLPK, [][2]string{{glpkMIP, glpkMIPLog}, {glpkLP, "OPTIMAL LP SOLUTION FOUND"}, {glpkTimeMIP, glpkTimeLog}})
}
