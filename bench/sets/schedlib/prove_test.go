//go:build schedlib

package schedlib

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/cmdsolver"
	"github.com/schedopt/schedopt/model"
	"github.com/schedopt/schedopt/ratcheck"
)

// TestValuesReproven proves every value of schedlib.solu again from the files alone,
// with the HiGHS command line at gap 0 (not schedopt's binding) and the exact checker:
//
//	go test -tags schedlib -timeout 2h ./bench/sets/schedlib
//
// An =opt= value must be HiGHS's optimum within 1e-6 relative, at a point that the
// exact check finds feasible and whose exact objective is the value within 1e-6; an
// =best= value must not be beaten by more than that by a proven optimum.
func TestValuesReproven(t *testing.T) {
	highs, ok := cmdsolver.Lookup("highs")
	if !ok {
		t.Fatal("no highs adapter")
	}
	for _, e := range readSolu(t) {
		t.Run(e.name, func(t *testing.T) {
			file := e.name + ".mps.gz"
			m, err := ratcheck.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			limit := 20 * time.Minute
			if e.tag == "=best=" {
				limit = 2 * time.Minute
			}
			res, err := highs.Solve(context.Background(), cmdsolver.Run{File: file, TimeLimit: limit, Threads: 1, WorkDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			tol := 1e-6 * math.Max(1, math.Abs(e.value))
			if e.tag == "=opt=" && res.Status != backends.Optimal {
				t.Fatalf("status %s, want optimal", res.Status)
			}
			if res.Values == nil {
				return
			}
			names := make([]string, 0, len(res.Values))
			x := make([]float64, 0, len(res.Values))
			for k, v := range res.Values {
				names, x = append(names, k), append(x, v)
			}
			rep := m.Check(names, x, ratcheck.Tolerances{})
			if !rep.Feasible {
				t.Fatalf("HiGHS's point fails the exact check: %+v", rep.Worst)
			}
			// below: the point's objective is better than the value (for the model's sense).
			below := rep.ObjectiveFloat < e.value-tol
			above := rep.ObjectiveFloat > e.value+tol
			if m.Sense == model.Maximize {
				below, above = above, below
			}
			switch {
			case e.tag == "=opt=" && (below || above):
				t.Errorf("exact objective %.17g, the set says %.17g", rep.ObjectiveFloat, e.value)
			case e.tag == "=best=" && res.Status == backends.Optimal && above:
				t.Errorf("proven optimum %.17g is worse than the best known %.17g: that value is wrong", rep.ObjectiveFloat, e.value)
			case e.tag == "=best=" && below:
				t.Logf("better than the best known: %.17g against %.17g (update the set)", rep.ObjectiveFloat, e.value)
			}
		})
	}
}
