//go:build dltmultifig62

package dltmulti

// Reading the results of the min-energy sweeps of Table 6.1 (bench/specs/dltmulti-
// minenergy.json, dltmulti-fig6.3-n.json, dltmulti-fig6.5-m.json,
// dltmulti-fig6.8-variants.json), shared by the figure tests of this build tag.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
	"github.com/schedopt/schedopt/figure"
)

// mineRecord holds the fields of a bench record the figures read.
type mineRecord struct {
	Name   string  `json:"name"`
	Status string  `json:"status"`
	Wall   float64 `json:"wall_seconds"`
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

// minePoint is one solve of a sweep: the minimum energy at fixed length T.
type minePoint struct {
	T, E, gap float64 // E is NaN when no schedule was found
	status    string
	wall      float64
	omitted   string    // machines left unused, "1,2,9" or "none"
	load      []float64 // per machine [MB]
	atRho     []string  // chunks at or above the machine's RAM, "M5:5274"
	overRho   float64   // max over chunks of α_ij/ρ_i − 1 (Fig. 6.6); NaN without a schedule
	chunks    string    // the schedule's chunks in link order, "M5:5274" (* above ρ)
}

// feasible reports whether the point has a schedule.
func (p minePoint) feasible() bool { return !math.IsNaN(p.E) }

// readMineSweep reads the min-energy records of a results file and groups them by
// series: the part of the instance name between the file's name ("table6.1") and
// "-min-energy" (e.g. "-n4", "-m8", "-hdd-s1"; "" for the file's instance itself).
// Each series is sorted by T. machines are Table 6.1's (a subset {M1..Mm} keeps the
// indices, a P^I / S variant keeps ρ). Records of other objectives are skipped; a
// record that errs fails the test.
func readMineSweep(t *testing.T, path string, machines []dm.Machine) map[string][]minePoint {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]minePoint{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r mineRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		before, after, ok := strings.Cut(r.Name, "-min-energy-T")
		if !ok {
			continue
		}
		series := before[strings.Index(before+"-", "-"):]
		T, err := strconv.ParseFloat(strings.TrimSuffix(after, "-fixed"), 64)
		if err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		p := minePoint{T: T, E: math.NaN(), overRho: math.NaN(), status: r.Status, wall: r.Wall}
		switch {
		case r.Status == "infeasible" || r.Status == "time_limit":
			// proven infeasible, or no schedule found within the limit
		case r.Result == nil || r.Result.Objective == nil:
			t.Fatalf("%s: status %s without a schedule", r.Name, r.Status)
		default:
			p.E = *r.Result.Objective
			if r.Result.Gap != nil {
				p.gap = *r.Result.Gap
			}
			p.load = make([]float64, len(r.Result.Solution.Used))
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
			p.overRho = math.Inf(-1)
			for _, m := range r.Result.Solution.Messages {
				if m.Machine >= len(p.load) || m.Machine >= len(machines) {
					t.Fatalf("%s: message to machine %d of %d", r.Name, m.Machine+1, len(p.load))
				}
				rho := machines[m.Machine].Rho
				p.load[m.Machine] += m.Size
				p.overRho = max(p.overRho, m.Size/rho-1)
				if m.Size >= rho*(1-1e-6) {
					p.atRho = append(p.atRho, fmt.Sprintf("M%d:%.0f", m.Machine+1, m.Size))
				}
				mark := ""
				if m.Size > rho*(1+1e-6) {
					mark = "*"
				}
				p.chunks += fmt.Sprintf(" M%d:%.0f%s", m.Machine+1, m.Size, mark)
			}
		}
		out[series] = append(out[series], p)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for s, pts := range out {
		sort.Slice(pts, func(a, b int) bool { return pts[a].T < pts[b].T })
		// A schedule of length T stays one of any longer fixed length (the machines
		// idle longer), so no T above a feasible one may be proven infeasible.
		for k := 1; k < len(pts); k++ {
			if pts[k-1].feasible() && pts[k].status == "infeasible" {
				t.Errorf("series %q: feasible at T = %g but infeasible at %g", s, pts[k-1].T, pts[k].T)
			}
		}
	}
	return out
}

// mineSummary describes a series in one line: the last infeasible and first feasible
// T, the T and E of the lowest energy, how many points were proven (within the gap
// the sweep asked for) and the largest gap left.
func mineSummary(pts []minePoint) string {
	lastInf, firstFeas := math.NaN(), math.NaN()
	best := minePoint{E: math.Inf(1)}
	proven, feasible, open, maxGap, wall := 0, 0, 0, 0.0, 0.0
	for _, p := range pts {
		wall += p.wall
		if !p.feasible() {
			if p.status == "infeasible" {
				lastInf = p.T
				proven++
			} else {
				open++
			}
			continue
		}
		feasible++
		if math.IsNaN(firstFeas) {
			firstFeas = p.T
		}
		if p.E < best.E {
			best = p
		}
		if p.status == "optimal" {
			proven++
		}
		maxGap = max(maxGap, p.gap)
	}
	return fmt.Sprintf("%d points (%d with a schedule, %d proven, %d without an answer), proven infeasible up to T = %g, feasible from %g; min E %.1f J at T = %g (gap %.3f%%, omitted %s); largest gap %.3f%%; solver wall %.0f s",
		len(pts), feasible, proven, open, lastInf, firstFeas, best.E, best.T, 100*best.gap, best.omitted, 100*maxGap, wall)
}

// mineCurve is y(p) against T over the feasible points of a series.
func mineCurve(label string, pts []minePoint, y func(minePoint) float64) figure.Curve {
	c := figure.Curve{Label: label}
	for _, p := range pts {
		if p.feasible() {
			c.X, c.Y = append(c.X, p.T), append(c.Y, y(p))
		}
	}
	return c
}

// energyKJ is a point's E in kJ, the y of the energy figures.
func energyKJ(p minePoint) float64 { return p.E / 1000 }

// mineOut returns where the min-energy figure tests draw their figures:
// DLTMULTI_MINE_OUT (empty: no figures) and the extension DLTMULTI_MINE_EXT (".svg",
// the default, or ".png").
func mineOut() (dir, ext string) {
	dir, ext = os.Getenv("DLTMULTI_MINE_OUT"), os.Getenv("DLTMULTI_MINE_EXT")
	if ext == "" {
		ext = ".svg"
	}
	return dir, ext
}
