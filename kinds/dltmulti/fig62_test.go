//go:build dltmultifig62

package dltmulti

// Figs. 6.2/6.4 and Table 6.2 of seed 004 from the results of the bench spec
// bench/specs/dltmulti-minenergy.json (minimum energy of Table 6.1, m = 10, n = 12, at
// fixed lengths T = 280..1000 s). Run the sweep, then
//
//	DLTMULTI_MINE_RESULTS=$PWD/out/dltmulti-minenergy.jsonl DLTMULTI_MINE_OUT=$PWD/docs/figures \
//	  go test -tags dltmultifig62 -run Fig62 -v ./kinds/dltmulti
//
// It prints one row per T (status, E, gap, omitted machines, M1's load, chunks at or
// above ρ) and the ranges of T with the same omitted machines (the form of Table 6.2),
// and with DLTMULTI_MINE_OUT=DIR plots E against T (DIR/dltmulti-fig6.2-E.svg) and the
// load of every machine against T (DIR/dltmulti-fig6.4-load.svg; DLTMULTI_MINE_EXT=.png
// for PNG).

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedopt/schedopt/figure"
)

func TestFig62MinEnergySweep(t *testing.T) {
	path := os.Getenv("DLTMULTI_MINE_RESULTS")
	if path == "" {
		t.Fatal("set DLTMULTI_MINE_RESULTS to the results of bench/specs/dltmulti-minenergy.json")
	}
	table := mustLoad(t, "dlt-multi-table6.1.json").(*Problem).Inst
	var pts []minePoint
	for _, p := range readMineSweep(t, path, table.Machines)[""] {
		if p.feasible() {
			pts = append(pts, p)
		}
	}
	if len(pts) == 0 {
		t.Fatal("no min-energy records")
	}
	for _, p := range pts {
		t.Logf("T %4g %-8s E %10.1f gap %.4f%% omitted %-16s M1 %6.0f MB  chunks >= rho %v", p.T, p.status, p.E, 100*p.gap, p.omitted, p.load[0], p.atRho)
	}
	for k := 0; k < len(pts); {
		l := k
		for l+1 < len(pts) && pts[l+1].omitted == pts[k].omitted {
			l++
		}
		t.Logf("T in [%g, %g]: omitted %s", pts[k].T, pts[l].T, pts[k].omitted)
		k = l + 1
	}
	dir, ext := mineOut()
	if dir == "" {
		return
	}
	e := mineCurve("min E (exact/dltbb)", pts, energyKJ)
	loads := make([]figure.Curve, table.M())
	for i := range loads {
		loads[i] = mineCurve(fmt.Sprintf("M%d", i+1), pts, func(p minePoint) float64 { return p.load[i] })
	}
	for _, c := range []struct {
		curves      []figure.Curve
		title, y, f string
	}{
		{[]figure.Curve{e}, "Table 6.1, n = 12: minimum energy at fixed T (P0N = 100 W)", "E [kJ]", "dltmulti-fig6.2-E"},
		{loads, "Table 6.1, n = 12: load per machine at minimum energy", "load [MB]", "dltmulti-fig6.4-load"},
	} {
		files, err := figure.TradeOff(c.curves, c.title, "schedule length T [s]", c.y, filepath.Join(dir, c.f+ext))
		if err != nil {
			t.Fatal(err)
		}
		t.Log(files)
	}
}
