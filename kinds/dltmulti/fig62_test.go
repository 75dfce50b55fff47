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
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/figure"
)

// mineRecord holds the fields of a bench record this figure reads.
type mineRecord struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Result *struct {
		Objective *float64 `json:"objective"`
		Gap       *float64 `json:"gap"`
		Solution  struct {
			Used     []bool `json:"used"`
			Messages []struct {
				Machine int     `json:"machine"`
				Size    float64 `json:"size"`
			} `json:"messages"`
		} `json:"solution"`
	} `json:"result"`
}

func TestFig62MinEnergySweep(t *testing.T) {
	path := os.Getenv("DLTMULTI_MINE_RESULTS")
	if path == "" {
		t.Fatal("set DLTMULTI_MINE_RESULTS to the results of bench/specs/dltmulti-minenergy.json")
	}
	table := mustLoad(t, "dlt-multi-table6.1.json").(*Problem).Inst
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type point struct {
		T, E, gap float64
		status    string
		omitted   string
		load      []float64
		atRho     []string
	}
	var pts []point
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r mineRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		_, after, ok := strings.Cut(r.Name, "-T")
		if !ok || r.Result == nil || r.Result.Objective == nil {
			continue
		}
		T, err := strconv.ParseFloat(strings.TrimSuffix(after, "-fixed"), 64)
		if err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		p := point{T: T, E: *r.Result.Objective, status: r.Status, load: make([]float64, table.M())}
		if r.Result.Gap != nil {
			p.gap = *r.Result.Gap
		}
		var om []string
		for i, u := range r.Result.Solution.Used {
			if !u {
				om = append(om, strconv.Itoa(i+1))
			}
		}
		p.omitted = strings.Join(om, ",")
		if p.omitted == "" {
			p.omitted = "none"
		}
		for _, m := range r.Result.Solution.Messages {
			p.load[m.Machine] += m.Size
			if rho := table.Machines[m.Machine].Rho; m.Size >= rho*(1-1e-6) {
				p.atRho = append(p.atRho, fmt.Sprintf("M%d:%.0f", m.Machine+1, m.Size))
			}
		}
		pts = append(pts, p)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(pts) == 0 {
		t.Fatal("no min-energy records")
	}
	sort.Slice(pts, func(a, b int) bool { return pts[a].T < pts[b].T })
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
	dir := os.Getenv("DLTMULTI_MINE_OUT")
	if dir == "" {
		return
	}
	ext := os.Getenv("DLTMULTI_MINE_EXT") // ".svg" (default) or ".png"
	if ext == "" {
		ext = ".svg"
	}
	e := figure.Curve{Label: "min E (exact/dltbb)"}
	loads := make([]figure.Curve, table.M())
	for i := range loads {
		loads[i].Label = fmt.Sprintf("M%d", i+1)
	}
	for _, p := range pts {
		e.X, e.Y = append(e.X, p.T), append(e.Y, p.E/1000)
		for i := range loads {
			loads[i].X, loads[i].Y = append(loads[i].X, p.T), append(loads[i].Y, p.load[i])
		}
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
