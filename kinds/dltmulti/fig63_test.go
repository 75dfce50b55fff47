//go:build dltmultifig62

package dltmulti

// Figs. 6.3, 6.5, 6.6 and 6.8 of seed 004 from the results of the bench specs
// bench/specs/dltmulti-fig6.3-n.json (n = 4, 6, 8, 10), dltmulti-fig6.5-m.json (the
// available sets {M1..Mm}, m = 6..9, and the whole Table 6.1, m = 10, n = 12, which is
// also the n = 12 and "mixed" curve of the other figures) and
// dltmulti-fig6.8-variants.json (P^I / S variants). Run the sweeps from the
// repository root, then
//
//	DLTMULTI_FIG63_RESULTS=$PWD/out/dltmulti-fig6.3-n.jsonl \
//	DLTMULTI_FIG65_RESULTS=$PWD/out/dltmulti-fig6.5-m.jsonl \
//	DLTMULTI_FIG68_RESULTS=$PWD/out/dltmulti-fig6.8-variants.jsonl \
//	DLTMULTI_MINE_OUT=$PWD/docs/figures \
//	  go test -tags dltmultifig62 -run Fig63 -v ./kinds/dltmulti
//
// It prints a summary per series (feasible range, minimum energy, points proven,
// gaps) and, per T, the largest α_ij/ρ_i − 1 of the n series, and with
// DLTMULTI_MINE_OUT=DIR draws dltmulti-fig6.3-E-n, dltmulti-fig6.6-outofcore,
// dltmulti-fig6.5-E-m and dltmulti-fig6.8-E-variants (DLTMULTI_MINE_EXT=.png for PNG).

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/schedopt/schedopt/figure"
)

func TestFig63Fig65Fig66Fig68Sweeps(t *testing.T) {
	paths := map[string]string{}
	for _, k := range []string{"DLTMULTI_FIG63_RESULTS", "DLTMULTI_FIG65_RESULTS", "DLTMULTI_FIG68_RESULTS"} {
		if paths[k] = os.Getenv(k); paths[k] == "" {
			t.Fatalf("set %s (see the file's comment)", k)
		}
	}
	table := mustLoad(t, "dlt-multi-table6.1.json").(*Problem).Inst
	bySize := readMineSweep(t, paths["DLTMULTI_FIG63_RESULTS"], table.Machines)
	bySet := readMineSweep(t, paths["DLTMULTI_FIG65_RESULTS"], table.Machines)
	byVariant := readMineSweep(t, paths["DLTMULTI_FIG68_RESULTS"], table.Machines)
	whole := bySet[""] // m = 10, n = 12, mixed
	if len(whole) == 0 {
		t.Fatal("no m = 10 series (the whole Table 6.1) in " + paths["DLTMULTI_FIG65_RESULTS"])
	}

	type series struct {
		label string
		pts   []minePoint
	}
	pick := func(from map[string][]minePoint, keys []string, label func(string) string) []series {
		var out []series
		for _, k := range keys {
			if len(from[k]) == 0 {
				t.Errorf("no series %q", k)
				continue
			}
			out = append(out, series{label(k), from[k]})
		}
		return out
	}
	sizes := append(pick(bySize, []string{"-n4", "-n6", "-n8", "-n10"}, func(k string) string { return "n = " + k[2:] }),
		series{"n = 12", whole})
	sets := append(pick(bySet, []string{"-m6", "-m7", "-m8", "-m9"}, func(k string) string { return "{M1..M" + k[2:] + "}" }),
		series{"{M1..M10}", whole})
	variantLabel := map[string]string{"-hdd-s1": "HDD (drawn, seed 1)", "-ram-s1": "RAM (drawn, seed 1)", "-cold": "cold", "-lb": "LB"}
	variants := append([]series{{"mixed (Table 6.1)", whole}},
		pick(byVariant, []string{"-hdd-s1", "-ram-s1", "-cold", "-lb"}, func(k string) string { return variantLabel[k] })...)

	for _, g := range []struct {
		fig string
		ss  []series
	}{{"Fig. 6.3", sizes}, {"Fig. 6.5", sets}, {"Fig. 6.8", variants}} {
		for _, s := range g.ss {
			t.Logf("%s %-18s %s", g.fig, s.label, mineSummary(s.pts))
		}
	}
	// Fig. 6.3, "n > 8 gives no substantial gain": E_n/E_12 − 1 over the common T.
	for _, s := range sizes[:len(sizes)-1] {
		r := relativeTo(s.pts, whole)
		t.Logf("Fig. 6.3 %s against n = 12: E_n/E_12 − 1 over %d common T: median %+.2f%%, max %+.2f%%, min %+.2f%%",
			s.label, len(r), 100*quantile(r, 0.5), 100*quantile(r, 1), 100*quantile(r, 0))
	}
	// Fig. 6.5: where the whole set lies against {M1..M8} and {M1..M9}.
	for _, p := range whole {
		e8, e9 := energyAt(sets[2].pts, p.T), energyAt(sets[3].pts, p.T)
		if p.T > 400 || math.IsNaN(e8) || math.IsNaN(e9) {
			continue
		}
		where := "between"
		switch {
		case p.E > max(e8, e9):
			where = "above both"
		case p.E < min(e8, e9):
			where = "below both"
		}
		t.Logf("Fig. 6.5 T %4g E(M1..M10) %.1f, E(M1..M8) %.1f, E(M1..M9) %.1f: %s", p.T, p.E, e8, e9, where)
	}
	// Fig. 6.8: the trade-off range of each variant (shortest feasible T to the
	// lowest E) and where it is below or above the original (mixed).
	for _, s := range variants {
		first, best := minePoint{E: math.NaN()}, minePoint{E: math.Inf(1)}
		below, above := 0, 0
		for _, p := range s.pts {
			if !p.feasible() {
				continue
			}
			if math.IsNaN(first.E) {
				first = p
			}
			if p.E < best.E {
				best = p
			}
			if e := energyAt(whole, p.T); !math.IsNaN(e) {
				switch {
				case p.E < e*(1-0.002):
					below++
				case p.E > e*(1+0.002):
					above++
				}
			}
		}
		t.Logf("Fig. 6.8 %-20s T from %g to %g (min E), E from %.1f to %.1f J (%.1f%% lower); against mixed at the same T (beyond 0.2 %%): %d below, %d above",
			s.label, first.T, best.T, first.E, best.E, 100*(1-best.E/first.E), below, above)
	}
	// Fig. 6.6: the largest chunk relative to its machine's RAM, per T and n.
	grid := map[float64]bool{}
	for _, s := range sizes {
		for _, p := range s.pts {
			grid[p.T] = true
		}
	}
	Ts := make([]float64, 0, len(grid))
	for T := range grid {
		Ts = append(Ts, T)
	}
	sort.Float64s(Ts)
	for _, T := range Ts {
		row := fmt.Sprintf("Fig. 6.6 T %4g max α/ρ − 1:", T)
		for _, s := range sizes {
			i := slices.IndexFunc(s.pts, func(p minePoint) bool { return p.T == T })
			if i < 0 || !s.pts[i].feasible() {
				row += fmt.Sprintf("  %s %6s", s.label, "-")
				continue
			}
			row += fmt.Sprintf("  %s %+.3f", s.label, s.pts[i].overRho)
		}
		t.Log(row)
	}
	// The schedules of the fewest messages (where the thesis sees out-of-core chunks).
	for _, p := range sizes[0].pts {
		if p.feasible() {
			t.Logf("%s T %4g E %9.1f %-8s chunks%s", sizes[0].label, p.T, p.E, p.status, p.chunks)
		}
	}
	// Every schedule carries the whole load V (a record is a solver's output, read
	// back from JSON: a truncated or mismatched record shows here).
	for _, g := range [][]series{sizes, sets, variants} {
		for _, s := range g {
			for _, p := range s.pts {
				if !p.feasible() {
					continue
				}
				var sum float64
				for _, l := range p.load {
					sum += l
				}
				if math.Abs(sum-table.V) > 1e-6*table.V {
					t.Errorf("%s, T = %g: load %g, want V = %g", s.label, p.T, sum, table.V)
				}
			}
		}
	}

	dir, ext := mineOut()
	if dir == "" {
		return
	}
	curves := func(ss []series, y func(minePoint) float64) []figure.Curve {
		var cs []figure.Curve
		for _, s := range ss {
			cs = append(cs, mineCurve(s.label, s.pts, y))
		}
		return cs
	}
	for _, c := range []struct {
		curves      []figure.Curve
		title, y, f string
	}{
		{curves(sizes, energyKJ), "Table 6.1, n messages: minimum energy at fixed T (P0N = 100 W)", "E [kJ]", "dltmulti-fig6.3-E-n"},
		{curves(sizes, func(p minePoint) float64 { return p.overRho }), "Table 6.1: largest chunk over its RAM at minimum energy", "max α/ρ − 1", "dltmulti-fig6.6-outofcore"},
		{curves(sets, energyKJ), "Table 6.1, n = 12, machines M1..Mm: minimum energy at fixed T", "E [kJ]", "dltmulti-fig6.5-E-m"},
		{curves(variants, energyKJ), "Table 6.1, n = 12, idle power / startup variants: minimum energy at fixed T", "E [kJ]", "dltmulti-fig6.8-E-variants"},
	} {
		files, err := figure.TradeOff(c.curves, c.title, "schedule length T [s]", c.y, filepath.Join(dir, c.f+ext))
		if err != nil {
			t.Fatal(err)
		}
		t.Log(files)
	}
}

// energyAt is the energy of the series at T, NaN when it has no schedule there.
func energyAt(pts []minePoint, T float64) float64 {
	for _, p := range pts {
		if p.T == T {
			return p.E
		}
	}
	return math.NaN()
}

// relativeTo is E/E_ref − 1 at every T where both series have a schedule.
func relativeTo(pts, ref []minePoint) []float64 {
	var r []float64
	for _, p := range pts {
		if e := energyAt(ref, p.T); p.feasible() && !math.IsNaN(e) {
			r = append(r, p.E/e-1)
		}
	}
	sort.Float64s(r)
	return r
}

// quantile is the q-quantile (nearest rank) of sorted values, NaN when empty.
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	return sorted[int(math.Round(q*float64(len(sorted)-1)))]
}
