package partition

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/highs"
	"github.com/schedopt/schedopt/backends/lpsolve"
	"github.com/schedopt/schedopt/backends/registry"
	"github.com/schedopt/schedopt/domain/partition"
	exactpartition "github.com/schedopt/schedopt/exact/partition"
	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/kinds/kindtest"
	"github.com/schedopt/schedopt/solve"
)

var partitionUpdate = flag.Bool("partition-update", false, "rewrite instances/partition-*.json from the paper's tables")

// partitionCase is one instance file built from the tables of seed 002.
type partitionCase struct {
	platform, app string
	split         partition.Split
	chunks        int
	merged        bool
	objective     string
	deadline      float64 // 0 for none
}

func (c partitionCase) instance() (*partition.Instance, error) {
	var dl *float64
	if c.deadline > 0 {
		d := c.deadline
		dl = &d
	}
	return Paper(c.platform, c.app, c.split, c.chunks, c.merged, c.objective, dl)
}

func (c partitionCase) path() string {
	in, err := c.instance()
	if err != nil {
		panic(err) // the table below is static
	}
	return kindtest.InstancePath("partition-" + in.Name + ".json")
}

var partitionCases = []partitionCase{
	{platform: "i7+titan", app: "sa", split: partition.Divisible, merged: true, objective: partition.ObjMinTime},
	{platform: "i7+750", app: "sa", split: partition.Divisible, merged: true, objective: partition.ObjMinEnergy},
	{platform: "i3+titan", app: "sa", split: partition.Whole, objective: partition.ObjMinTime},
	{platform: "i7+titan", app: "sa", split: partition.Divisible, objective: partition.ObjMinEnergy},
	{platform: "i7+750", app: "la", split: partition.Divisible, objective: partition.ObjMinTime},
	{platform: "i3+750", app: "la", split: partition.Whole, objective: partition.ObjMinEnergy},
	{platform: "i3+750", app: "da", split: partition.Chunks, chunks: 64, objective: partition.ObjMinTime},
	{platform: "i7+titan", app: "da", split: partition.Chunks, chunks: 16, objective: partition.ObjMinEnergy, deadline: 0.004},
}

func TestPartitionInstancesAreThePaperTables(t *testing.T) {
	for _, c := range partitionCases {
		in, err := c.instance()
		if err != nil {
			t.Fatal(err)
		}
		t.Run(in.Name, func(t *testing.T) {
			want, err := json.MarshalIndent(in, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, '\n')
			if *partitionUpdate {
				if err := os.WriteFile(c.path(), want, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := os.ReadFile(c.path())
			if err != nil {
				t.Fatalf("%v (run go test ./kinds/partition -run TestPartitionInstances -partition-update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the tables of seed 002", c.path())
			}
		})
	}
}

func partitionSolver(name string) backends.Solver {
	if name == registry.LPSolve {
		return lpsolve.New()
	}
	return highs.New()
}

// solvePartition solves p with gap 0 and fails unless the result is consistent: an
// optimal status with an accepted schedule, agreement with the exact algorithm, and
// the model's objective equal to the evaluator's; or infeasibility confirmed by it.
func solvePartition(t *testing.T, p *Problem, backend string) *solve.Result {
	t.Helper()
	res, err := p.Solve(context.Background(), solve.Request{Backend: backend, Solver: partitionSolver(backend), Options: backends.Options{}})
	if err != nil {
		t.Fatalf("%s with %s: %v", p.Name(), backend, err)
	}
	js, _ := json.Marshal(p.Inst)
	if res.Check.Exact == nil {
		t.Fatalf("%s: no exact check (instance %s)", p.Name(), js)
	}
	if !res.Check.Exact.Agree {
		t.Fatalf("%s with %s: status %s objective %v, exact %s says %v (instance %s)", p.Name(), backend, res.Status,
			fmtPtr(res.Objective), res.Check.Exact.Algorithm, fmtPtr(res.Check.Exact.Objective), js)
	}
	if res.Status == solve.StatusInfeasible {
		return res
	}
	if res.Status != solve.StatusOptimal || res.Check.Evaluator == nil || !res.Check.Evaluator.OK {
		t.Fatalf("%s with %s: status %s, evaluator %+v, message %q (instance %s)", p.Name(), backend, res.Status, res.Check.Evaluator, res.Message, js)
	}
	ex, obj, ev := *res.Check.Exact.Objective, *res.Objective, res.Check.Evaluator.Objective
	if partition.RelDiff(obj, ex) > 1e-6 || partition.RelDiff(ev, ex) > 1e-6 {
		t.Fatalf("%s with %s: model %v, evaluator %v, exact %v (instance %s)", p.Name(), backend, obj, ev, ex, js)
	}
	return res
}

func fmtPtr(p *float64) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

func TestPartitionPaperInstancesOnBothBackends(t *testing.T) {
	for _, c := range partitionCases {
		for _, backend := range registry.Names() {
			t.Run(filepath.Base(c.path())+"/"+backend, func(t *testing.T) {
				pr, err := testKinds().LoadFile(c.path())
				if err != nil {
					t.Fatal(err)
				}
				solvePartition(t, pr.(*Problem), backend)
			})
		}
	}
}

// Random small instances: both backends with gap 0 against the exact algorithms
// (enumeration of placements, zonotope vertices, single-intensity breakpoints), which
// are themselves checked against brute force in exact/partition.
func TestPartitionRandomInstancesAgreeWithExact(t *testing.T) {
	r := rand.New(rand.NewPCG(2017, 41))
	mixed := []partition.Split{partition.Divisible, partition.Whole, partition.Chunks}
	discrete := []partition.Split{partition.Whole, partition.Chunks}
	seen := map[string]int{}
	for it := 0; it < 120; it++ {
		obj := partition.ObjMinTime
		if it%2 == 1 {
			obj = partition.ObjMinEnergy
		}
		var in *partition.Instance
		switch it % 6 {
		case 0, 1, 2: // two processors, any splits
			in = randomPartition(r, 2, 1+r.IntN(5), mixed, obj)
		case 3: // three processors, whole and chunked portions
			in = randomPartition(r, 3, 1+r.IntN(4), discrete, obj)
		case 4: // up to four processors, one divisible intensity plus whole portions
			in = randomPartition(r, 2+r.IntN(3), 1+r.IntN(3), discrete, obj)
			q := partition.Portion{Flops: float64(1 + r.IntN(50)), Bytes: float64(1 + r.IntN(50)), Split: partition.Divisible}
			in.Portions = append(in.Portions, q, partition.Portion{Flops: 2 * q.Flops, Bytes: 2 * q.Bytes, Split: partition.Divisible})
		case 5: // two processors, divisible only
			in = randomPartition(r, 2, 2+r.IntN(5), []partition.Split{partition.Divisible}, obj)
		}
		if r.IntN(3) == 0 {
			lo, hi := in.FreeSplitTime(), in.MaxTime()
			d := lo*0.9 + r.Float64()*(hi-lo*0.9)
			in.Deadline = &d
		}
		in.Name = fmt.Sprintf("random-%d", it)
		p := &Problem{Base: kinds.Base{KindName: "partition", InstName: in.Name}, Inst: in}
		res := solvePartition(t, p, registry.HiGHS)
		seen[res.Status]++
		if res.Model.Integers > 0 {
			seen["mip"]++
		}
		if it%3 == 0 {
			solvePartition(t, p, registry.LPSolve)
		}
	}
	// The sample must exercise both outcomes and both model classes.
	if seen[solve.StatusInfeasible] == 0 || seen[solve.StatusOptimal] < 60 || seen["mip"] < 30 || seen["mip"] == 120 {
		t.Errorf("sample too narrow: %v", seen)
	}
	t.Logf("outcomes: %v", seen)
}

func TestPartitionExactBackendNeedsNoSolver(t *testing.T) {
	pr, err := testKinds().LoadFile(partitionCases[0].path())
	if err != nil {
		t.Fatal(err)
	}
	res, err := pr.Solve(context.Background(), solve.Request{Backend: solve.Exact})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != solve.StatusOptimal || res.Check.Evaluator == nil || !res.Check.Evaluator.OK {
		t.Fatalf("status %s, evaluator %+v", res.Status, res.Check.Evaluator)
	}
}

// Table VI (L414–L420) labels from the Table IV processors of the instance files,
// under the reconstructed E-Paw rules; Table V's P-Paw category for all four.
func TestPartitionTableVILabelsFromTableIV(t *testing.T) {
	want := map[string]string{
		"i7+titan": partition.EPawMemMem,
		"i7+750":   partition.EPawRaceToHalt,
		"i3+titan": partition.EPawGPUOnly,
		"i3+750":   partition.EPawGPUOnly,
	}
	for platform, label := range want {
		t.Run(platform+" is "+label, func(t *testing.T) {
			in, err := Paper(platform, "sa", partition.Divisible, 0, true, partition.ObjMinTime, nil)
			if err != nil {
				t.Fatal(err)
			}
			cpu, gpu := in.Processors[0], in.Processors[1]
			if got := partition.ClassifyEPaw(cpu, gpu, partition.Reconstructed).Category; got != label {
				t.Errorf("E-Paw %s, want %s", got, label)
			}
			if got := partition.ClassifyPPaw(cpu, gpu).Category; got != partition.PPawMemComp {
				t.Errorf("P-Paw %s, want %s (Table V)", got, partition.PPawMemComp)
			}
		})
	}
}

// designed returns the four WPs of the case studies (L426) as fractions of the two
// portions: CO, GO, DP (p-DP: both portions at the merged workload's split) and CP
// (portion 0 on the CPU, portion 1 on the GPU).
func designed(t *testing.T, platform, app string) (*partition.Instance, map[string]partition.Measurement) {
	t.Helper()
	in, err := Paper(platform, app, partition.Divisible, 0, false, partition.ObjMinTime, nil)
	if err != nil {
		t.Fatal(err)
	}
	nf, nb := in.Totals()
	var w []float64
	for _, p := range in.Processors {
		w = append(w, p.Work(nf, nb))
	}
	_, x := exactpartition.PDP(w)
	wps := map[string][][]float64{
		"CO": {{1, 0}, {1, 0}}, "GO": {{0, 1}, {0, 1}}, "DP": {x, x}, "CP": {{1, 0}, {0, 1}},
	}
	out := map[string]partition.Measurement{}
	for n, fr := range wps {
		ms, err := in.Measure(fr)
		if err != nil {
			t.Fatal(err)
		}
		out[n] = ms
	}
	return in, out
}

// The model predictions of seed 002 that the text states (reference 002 §4.2 R4–R7).
func TestPartitionCaseStudyPredictions(t *testing.T) {
	t.Run("R4 SA and LA essential parameters", func(t *testing.T) {
		in, _ := Paper("i7+titan", "sa", partition.Whole, 0, false, partition.ObjMinTime, nil)
		nf, nb := in.Totals()
		ic, ig := in.Portions[0].Intensity(), in.Portions[1].Intensity()
		if math.Abs(nf/nb-2049.0/268) > 1e-12 || ic != 1.0/12 || ig != 8 {
			t.Errorf("SA I=%v I_C=%v I_G=%v, want 7.65, 1/12, 8", nf/nb, ic, ig)
		}
		la, _ := Paper("i7+titan", "la", partition.Whole, 0, false, partition.ObjMinTime, nil)
		nf, nb = la.Totals()
		if math.Round(nf/nb*100) != 24 || math.Round(la.Portions[1].Intensity()*100) != 25 || la.Portions[0].Intensity() != 0 {
			t.Errorf("LA I=%v I_G=%v, want 0.24, 0.25", nf/nb, la.Portions[1].Intensity())
		}
	})
	t.Run("R5 p-DP performance is the sum of CO and GO (Eq. 19)", func(t *testing.T) {
		pr, err := testKinds().LoadFile(partitionCases[0].path())
		if err != nil {
			t.Fatal(err)
		}
		res := solvePartition(t, pr.(*Problem), registry.HiGHS)
		nf, _ := pr.(*Problem).Inst.Totals()
		got := nf / *res.Objective / 1e9
		_, wp := designed(t, "i7+titan", "sa")
		co, gop := nf/wp["CO"].T/1e9, nf/wp["GO"].T/1e9
		if math.Abs(got-1925.6) > 0.002*1925.6 || math.Abs(got-(co+gop)) > 1e-6*got {
			t.Errorf("P_DP = %.1f GF/s, CO + GO = %.1f + %.1f; want 1925.6", got, co, gop)
		}
	})
	t.Run("R6 CP against DP as the paper estimates it, within 2.5 points", func(t *testing.T) {
		cases := []struct {
			app, platform string
			perf          bool
			pct           float64
		}{
			{"sa", "i7+titan", true, -1}, {"sa", "i7+750", true, -16}, {"sa", "i3+titan", true, 3},
			{"la", "i7+titan", true, -1}, {"la", "i3+titan", true, -8}, {"la", "i7+750", true, -15}, {"la", "i3+750", true, -13},
			{"sa", "i7+titan", false, 2}, {"sa", "i3+titan", false, 1}, {"sa", "i3+750", false, 2}, {"sa", "i7+750", false, -1},
		}
		for _, c := range cases {
			_, wp := designed(t, c.platform, c.app)
			d := (wp["DP"].E/wp["CP"].E - 1) * 100 // EE_CP/EE_DP − 1
			what := "EE"
			if c.perf {
				d = (wp["DP"].T/wp["CP"].T - 1) * 100 // P_CP/P_DP − 1
				what = "performance"
			}
			if math.Abs(d-c.pct) > 2.5 {
				t.Errorf("%s on %s: CP vs DP %s %+.1f%%, paper %+.0f%%", c.app, c.platform, what, d, c.pct)
			}
		}
	})
	t.Run("R6 CP is the fastest WP only for SA on i3+Titan and DA on i3+750", func(t *testing.T) {
		for _, app := range partition.PaperWorkloads() {
			for _, platform := range partition.PaperPlatforms() {
				_, wp := designed(t, platform, app)
				best := wp["CP"].T < wp["DP"].T && wp["CP"].T < wp["GO"].T && wp["CP"].T < wp["CO"].T
				want := (app == "sa" && platform == "i3+titan") || (app == "da" && platform == "i3+750")
				if best != want {
					t.Errorf("%s on %s: CP fastest = %v, want %v", app, platform, best, want)
				}
			}
		}
	})
	t.Run("R6 GO is the lowest-energy WP on the i3 platforms", func(t *testing.T) {
		for _, app := range partition.PaperWorkloads() {
			for _, platform := range []string{"i3+titan", "i3+750"} {
				_, wp := designed(t, platform, app)
				for _, o := range []string{"CO", "DP", "CP"} {
					if wp[o].E <= wp["GO"].E {
						t.Errorf("%s on %s: %s energy %g <= GO %g", app, platform, o, wp[o].E, wp["GO"].E)
					}
				}
			}
		}
	})
	t.Run("R7 the hybrid optimum beats every designed WP and the free split bounds it", func(t *testing.T) {
		for _, app := range partition.PaperWorkloads() {
			for _, platform := range partition.PaperPlatforms() {
				in, wp := designed(t, platform, app)
				for _, obj := range partition.Objectives() {
					in.Objective = obj
					p := &Problem{Base: kinds.Base{KindName: "partition", InstName: app + "-" + platform + "-" + obj}, Inst: in}
					res := solvePartition(t, p, registry.HiGHS)
					for n, ms := range wp {
						if v := ms.Objective(obj); *res.Objective > v*(1+1e-9) {
							t.Errorf("%s: hybrid %g worse than %s %g", p.Name(), *res.Objective, n, v)
						}
					}
					if obj == partition.ObjMinTime && *res.Objective < in.FreeSplitTime()*(1-1e-9) {
						t.Errorf("%s: hybrid %g below the free-split bound %g", p.Name(), *res.Objective, in.FreeSplitTime())
					}
				}
			}
		}
	})
	t.Run("Race-to-halt on i7+750: the energy optimum is also time-optimal", func(t *testing.T) {
		for _, app := range partition.PaperWorkloads() {
			for _, platform := range []string{"i7+750", "i3+750"} {
				in, _ := designed(t, platform, app)
				tmin := *solvePartition(t, &Problem{Base: kinds.Base{KindName: "partition", InstName: app + "-" + platform}, Inst: in}, registry.HiGHS).Objective
				in.Objective = partition.ObjMinEnergy
				res := solvePartition(t, &Problem{Base: kinds.Base{KindName: "partition", InstName: app + "-" + platform}, Inst: in}, registry.HiGHS)
				tE := res.Solution.(partition.Solution).T
				race := partition.RelDiff(tE, tmin) <= 1e-6
				if want := platform == "i7+750"; race != want {
					t.Errorf("%s on %s: energy optimum at T = %g, time optimum %g (race to halt: %v, want %v)", app, platform, tE, tmin, race, want)
				}
			}
		}
	})
	t.Run("Observation 5.2: on GPU-only platforms GO is the energy optimum", func(t *testing.T) {
		for _, app := range partition.PaperWorkloads() {
			for _, platform := range []string{"i3+titan", "i3+750"} {
				in, wp := designed(t, platform, app)
				in.Objective = partition.ObjMinEnergy
				res := solvePartition(t, &Problem{Base: kinds.Base{KindName: "partition", InstName: app + "-" + platform}, Inst: in}, registry.HiGHS)
				if partition.RelDiff(*res.Objective, wp["GO"].E) > 1e-9 {
					t.Errorf("%s on %s: optimum %g, GO %g", app, platform, *res.Objective, wp["GO"].E)
				}
			}
		}
	})
}

// testKinds is a registry of this package's kinds, for the tests that load JSON.
func testKinds() *kinds.Registry { return kinds.NewRegistry(Kind()) }
