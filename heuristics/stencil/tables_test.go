package stencil

import (
	"fmt"
	"testing"

	dom "github.com/schedopt/schedopt/domain/stencil"
)

// row is one deterministic row of Tables 6.6-6.11 (seed 001, L1315-L1433): #Edg, #Col,
// E [J] and t^t [ms] as printed (truncated to two decimals).
type row struct {
	alg    string
	edges  int64
	cols   int64
	energy float64
	millis float64
}

func thesisInstance(t testing.TB, grid, config string) (*dom.Instance, []dom.ThesisProc) {
	t.Helper()
	g, err := dom.ThesisGrid(grid)
	if err != nil {
		t.Fatal(err)
	}
	procs, err := dom.ThesisConfig(config)
	if err != nil {
		t.Fatal(err)
	}
	return dom.NewThesisInstance(grid+"-"+config, g, procs, 0), procs
}

// runAlg runs a heuristic named as in the tables.
func runAlg(t testing.TB, in *dom.Instance, alg string) []int {
	t.Helper()
	var f float64
	switch alg {
	case "Alg_1-IJK":
		a, err := LoadBalancing(in, IJK, 0)
		must(t, err)
		return a
	case "Alg_1-JIK":
		a, err := LoadBalancing(in, JIK, 0)
		must(t, err)
		return a
	case "Alg_1-KIJ":
		a, err := LoadBalancing(in, KIJ, 0)
		must(t, err)
		return a
	case "Alg_2":
		return DegreeMinimisation(in, true)
	case "Alg_2-pseudocode":
		return DegreeMinimisation(in, false)
	case "Alg_3":
		return MulticutMinimisation(in, true)
	case "Alg_3-pseudocode":
		return MulticutMinimisation(in, false)
	}
	if _, err := fmt.Sscanf(alg, "Alg_4-%g", &f); err != nil {
		t.Fatalf("unknown algorithm %q", alg)
	}
	return NeighboursAccumulation(in, f)
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func na(fs []string, edges, cols int64, e, ms float64) []row {
	var rs []row
	for _, f := range fs {
		rs = append(rs, row{"Alg_4-" + f, edges, cols, e, ms})
	}
	return rs
}

func cat(parts ...[]row) []row {
	var rs []row
	for _, p := range parts {
		rs = append(rs, p...)
	}
	return rs
}

var allF = []string{"0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1.0"}

var thesisTables = []struct {
	table, grid, config string
	rows                []row
}{
	{"6.6", "cuboid", "cpu-cpu", cat([]row{
		{"Alg_1-IJK", 256, 64, 7.05, 13.95}, {"Alg_1-JIK", 256, 64, 7.05, 13.95}, {"Alg_1-KIJ", 256, 64, 7.05, 13.95},
		{"Alg_2", 256, 64, 7.05, 13.95}, {"Alg_3", 256, 64, 7.05, 13.95},
	}, na(allF, 256, 64, 7.05, 13.95))},
	{"6.7", "cuboid", "cpu-gpu", cat([]row{
		{"Alg_1-IJK", 192, 48, 3.51, 3.48}, {"Alg_1-JIK", 160, 40, 3.06, 3.48}, {"Alg_1-KIJ", 160, 40, 3.06, 3.48},
		{"Alg_2", 192, 48, 3.51, 3.48}, {"Alg_3", 192, 48, 3.51, 3.48},
	}, na([]string{"0.1"}, 224, 56, 3.96, 3.48), na([]string{"0.2", "0.3", "0.4", "0.5", "0.6"}, 200, 50, 3.62, 3.48),
		na([]string{"0.7", "0.8"}, 192, 48, 3.51, 3.48), na([]string{"0.9"}, 176, 44, 3.29, 3.48), na([]string{"1.0"}, 160, 40, 3.06, 3.48))},
	{"6.8", "cuboid", "2cpu-2gpu", cat([]row{
		{"Alg_1-IJK", 576, 128, 8.86, 1.74}, {"Alg_1-JIK", 480, 112, 7.52, 1.74}, {"Alg_1-KIJ", 480, 112, 7.52, 1.74},
		{"Alg_2", 576, 128, 8.86, 1.74}, {"Alg_3", 576, 128, 8.86, 1.74},
	}, na([]string{"0.1"}, 568, 116, 8.75, 1.74), na([]string{"0.2"}, 504, 92, 7.85, 1.74), na([]string{"0.3"}, 584, 124, 8.97, 1.74),
		na([]string{"0.4", "0.5", "0.6"}, 480, 100, 7.52, 1.74), na([]string{"0.7"}, 472, 98, 7.41, 1.74),
		na([]string{"0.8"}, 456, 92, 7.19, 1.74), na([]string{"0.9", "1.0"}, 432, 84, 6.85, 1.74))},
	{"6.9", "sphere", "cpu-cpu", cat([]row{
		{"Alg_1-IJK", 256, 64, 7.05, 13.95}, {"Alg_1-JIK", 256, 64, 7.05, 13.95}, {"Alg_1-KIJ", 512, 128, 10.62, 13.95},
		{"Alg_2", 256, 64, 7.05, 13.95}, {"Alg_3", 256, 64, 7.05, 13.95},
	}, na(allF, 256, 64, 7.05, 13.95))},
	{"6.10", "sphere", "cpu-gpu", cat([]row{
		{"Alg_1-IJK", 256, 64, 4.40, 3.48}, {"Alg_1-JIK", 192, 48, 3.51, 3.48}, {"Alg_1-KIJ", 320, 80, 5.29, 3.48},
		{"Alg_2", 256, 64, 4.40, 3.48}, {"Alg_3", 256, 64, 4.40, 3.48},
	}, na([]string{"0.1"}, 296, 74, 4.96, 3.48), na([]string{"0.2", "0.3"}, 304, 76, 5.07, 3.48), na([]string{"0.4"}, 312, 78, 5.18, 3.48),
		na([]string{"0.5"}, 320, 80, 5.29, 3.48), na([]string{"0.6"}, 328, 82, 5.40, 3.48), na([]string{"0.7", "0.8"}, 336, 84, 5.51, 3.48),
		na([]string{"0.9", "1.0"}, 320, 80, 5.29, 3.48))},
	// Table 6.11's Alg_1-JIK row duplicates Alg_1-IJK in print; the recomputed row is
	// 544 / 128 / 8.41 (reference §4.2). Its Alg_1-KIJ #Col is misprinted 760 (= 160).
	{"6.11", "sphere", "2cpu-2gpu", cat([]row{
		{"Alg_1-IJK", 704, 160, 10.64, 1.74}, {"Alg_1-JIK", 544, 128, 8.41, 1.74}, {"Alg_1-KIJ", 800, 160, 11.98, 1.74},
		{"Alg_2", 704, 160, 10.64, 1.74}, {"Alg_3", 704, 160, 10.64, 1.74},
	}, na([]string{"0.1"}, 744, 164, 11.20, 1.74), na([]string{"0.2"}, 728, 158, 10.97, 1.74), na([]string{"0.3"}, 712, 152, 10.75, 1.74),
		na([]string{"0.4"}, 712, 156, 10.75, 1.74), na([]string{"0.5", "0.6"}, 720, 158, 10.86, 1.74),
		na([]string{"0.7", "0.8"}, 704, 158, 10.64, 1.74), na([]string{"0.9", "1.0"}, 672, 144, 10.19, 1.74))},
	// The pseudo-code DM (true degrees) differs from the published code only here.
	{"6.8 (pseudo-code DM)", "cuboid", "2cpu-2gpu", []row{{"Alg_2-pseudocode", 560, 124, 8.63, 1.74}}},
}

func TestThesisHeuristicTablesReproduce(t *testing.T) {
	for _, tab := range thesisTables {
		in, procs := thesisInstance(t, tab.grid, tab.config)
		for _, r := range tab.rows {
			t.Run(fmt.Sprintf("Table %s %s %s %s", tab.table, tab.grid, tab.config, r.alg), func(t *testing.T) {
				assign := runAlg(t, in, r.alg)
				res, err := dom.SimulateThesis(procs, in.Arcs, assign)
				must(t, err)
				got := row{r.alg, res.Edges, res.Colours, dom.Joules2(res.Energy), dom.Millis2(res.Micros)}
				if got != r {
					t.Fatalf("got #Edg %d #Col %d E %.2f J t %.2f ms, table says %d / %d / %.2f / %.2f",
						got.edges, got.cols, got.energy, got.millis, r.edges, r.cols, r.energy, r.millis)
				}
			})
		}
	}
}

func TestFigure65ExampleReproduces(t *testing.T) {
	// 5×4×5 blocks, one CPU and two GPUs (seed L1441-L1446): LB-JIK 4.65 J, NA-0.9 4.43 J.
	g := dom.Grid{NX: 5, NY: 4, NZ: 5}
	procs := []dom.ThesisProc{dom.ThesisCPU(), dom.ThesisGPU(), dom.ThesisGPU()}
	in := dom.NewThesisInstance("fig6.5", g, procs, 0)
	for _, c := range []struct {
		alg         string
		edges, cols int64
		energy      float64
	}{{"Alg_1-JIK", 296, 74, 4.65}, {"Alg_4-0.9", 280, 64, 4.43}} {
		t.Run(c.alg, func(t *testing.T) {
			res, err := dom.SimulateThesis(procs, in.Arcs, runAlg(t, in, c.alg))
			must(t, err)
			if res.Edges != c.edges || res.Colours != c.cols || dom.Joules2(res.Energy) != c.energy || res.Micros != 1526 {
				t.Fatalf("got %d / %d / %.2f J / %d µs, want %d / %d / %.2f / 1526", res.Edges, res.Colours, dom.Joules2(res.Energy), res.Micros, c.edges, c.cols, c.energy)
			}
		})
	}
}

func TestQuotasFollowIntegerSpeeds(t *testing.T) {
	for _, c := range []struct {
		config string
		blocks []int64
	}{{"cpu-cpu", []int64{64, 64}}, {"cpu-gpu", []int64{16, 112}}, {"2cpu-2gpu", []int64{8, 8, 56, 56}}} {
		in, procs := thesisInstance(t, "cuboid", c.config)
		a, err := LoadBalancing(in, IJK, 0)
		must(t, err)
		res, err := dom.SimulateThesis(procs, in.Arcs, a)
		must(t, err)
		for p, want := range c.blocks {
			if res.Blocks[p] != want {
				t.Fatalf("%s: blocks %v, want %v", c.config, res.Blocks, c.blocks)
			}
		}
	}
}
