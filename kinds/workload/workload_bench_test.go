package workload

import (
	"context"
	"fmt"
	"math"
	"sort"
	"testing"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/highs"
	"github.com/schedopt/schedopt/backends/registry"
	dw "github.com/schedopt/schedopt/domain/workload"
	xw "github.com/schedopt/schedopt/exact/workload"
	fw "github.com/schedopt/schedopt/formulations/workload"
	"github.com/schedopt/schedopt/solve"
)

// Benchmarks of item 6 of issue 5: the exact front algorithms at seed-000 scale (p = 5,
// 450 points, n up to 900 granules) and seed-003 scale (identical processors, p up to
// 256, 1250 points), against the ILP ε-sweep on HiGHS on the same instances. Run with
//
//	go test ./kinds/workload -run '^$' -bench Workload -benchtime 1x
//
// Each reports the front size as "points" and, for the ILP, the MILP solves.

type workloadBenchCase struct {
	name string
	in   func() (*dw.Instance, error)
	algs []string // exact algorithms; "highs" runs the ILP sweep
}

func workloadBenchCases() []workloadBenchCase {
	var cs []workloadBenchCase
	exact := []string{WorkloadDP, WorkloadHEPOPTA, WorkloadMCKPSweep}
	for _, n := range []int{268, 600, 900} { // granules of 64 rows; 268 = seed 000's w = 17152
		n := n
		cs = append(cs, workloadBenchCase{fmt.Sprintf("dgemm/p=5/m=450/n=%d", n),
			func() (*dw.Instance, error) { return dw.GenDGEMM(1, 5, 450, 64, n*64) }, exact})
	}
	for _, n := range []int{935, 1800} { // granules of 16 rows; 935 = seed 000's w = 14960
		n := n
		cs = append(cs, workloadBenchCase{fmt.Sprintf("fft/p=5/m=426/n=%d", n),
			func() (*dw.Instance, error) { return dw.GenFFT(1, 5, n*16) }, exact})
	}
	for _, c := range []struct {
		p, m, n int
		algs    []string
	}{
		{32, 1250, 2112, []string{WorkloadIdentical, WorkloadDP, WorkloadHEPOPTA, WorkloadAdaptAleph}},
		{256, 1250, 2500, []string{WorkloadIdentical, WorkloadAdaptAleph}},
		{256, 485, 2500, []string{WorkloadIdentical, WorkloadAdaptAleph}},
	} {
		c := c
		cs = append(cs, workloadBenchCase{fmt.Sprintf("identical-dgemm/p=%d/m=%d/n=%d", c.p, c.m, c.n),
			func() (*dw.Instance, error) { return dw.GenIdentical(1, "dgemm", c.p, c.m, c.n) }, c.algs})
	}
	// The whole ILP ε-sweep on HiGHS only on reduced instances (a sweep at seed-000
	// scale takes minutes: see BenchmarkWorkloadEpsilonStep for the cost per step
	// there), with the exact algorithms on the same instances for comparison.
	cs = append(cs,
		workloadBenchCase{"dgemm/p=5/m=100/n=100", func() (*dw.Instance, error) { return dw.GenDGEMM(1, 5, 100, 64, 100*64) },
			[]string{WorkloadDP, WorkloadHEPOPTA, registry.HiGHS}},
		workloadBenchCase{"identical-dgemm/p=64/m=200/n=400", func() (*dw.Instance, error) { return dw.GenIdentical(1, "dgemm", 64, 200, 400) },
			[]string{WorkloadIdentical, WorkloadDP, registry.HiGHS}},
	)
	return cs
}

func BenchmarkWorkloadFront(b *testing.B) {
	for _, c := range workloadBenchCases() {
		in, err := c.in()
		if err != nil {
			b.Fatal(err)
		}
		if err := in.Validate(); err != nil {
			b.Fatal(err)
		}
		for _, alg := range c.algs {
			b.Run(c.name+"/"+alg, func(b *testing.B) {
				cp := *in
				cp.Objective = dw.ObjPareto
				backend := solve.Exact
				if alg == registry.HiGHS {
					backend = alg
				} else {
					cp.Algorithm = alg
					if alg == WorkloadAdaptAleph {
						cp.Neighbourhood = 50
					}
				}
				p := NewProblem(&cp, c.name)
				req := workloadReq(backend)
				req.NoCheck = true
				req.Options.RelGap = 0
				var res *solve.Result
				for i := 0; i < b.N; i++ {
					if res, err = p.Solve(context.Background(), req); err != nil {
						b.Fatal(err)
					}
				}
				if res.Status != solve.StatusOptimal && !(alg == WorkloadAdaptAleph && res.Status == solve.StatusFeasible) {
					b.Fatalf("status %s: %s", res.Status, res.Message)
				}
				b.ReportMetric(float64(len(res.Solution.(dw.Front).Front)), "points")
				if backend == registry.HiGHS {
					b.ReportMetric(float64(res.Nodes), "nodes")
				}
			})
		}
	}
}

// BenchmarkWorkloadEpsilonStep times one step of the ε-constraint, E*(τ) at the
// median table time above T*, on the seed-000 and seed-003 scale instances: with
// HiGHS on the ILP (per-processor, or aggregated for identical processors; zero gap)
// and with the exact DP (MCKP, or min-plus doubling for identical processors).
func BenchmarkWorkloadEpsilonStep(b *testing.B) {
	cases := []struct {
		name string
		in   func() (*dw.Instance, error)
	}{
		{"dgemm/p=5/m=450/n=268", func() (*dw.Instance, error) { return dw.GenDGEMM(1, 5, 450, 64, 268*64) }},
		{"dgemm/p=5/m=450/n=900", func() (*dw.Instance, error) { return dw.GenDGEMM(1, 5, 450, 64, 900*64) }},
		{"fft/p=5/m=426/n=935", func() (*dw.Instance, error) { return dw.GenFFT(1, 5, 935*16) }},
		{"identical-dgemm/p=256/m=1250/n=2500", func() (*dw.Instance, error) { return dw.GenIdentical(1, "dgemm", 256, 1250, 2500) }},
	}
	for _, c := range cases {
		in, err := c.in()
		if err != nil {
			b.Fatal(err)
		}
		ts := in.Tables()
		ctx := context.Background()
		tstar, err := xw.MinMakespan(ctx, ts)
		if err != nil {
			b.Fatal(err)
		}
		th := xw.Thetas(ts)
		th = th[sort.SearchFloat64s(th, tstar):]
		tau := th[len(th)/2]
		p := NewProblem(in, c.name)
		oracle, oname := p.minEnergyOracle()
		ref, ok, err := oracle(ctx, tau)
		if err != nil || !ok {
			b.Fatal(ok, err)
		}
		want := ref.E
		b.Run(c.name+"/"+oname, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, _, err := oracle(ctx, tau); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/highs", func(b *testing.B) {
			f, err := fw.New(ts, 0, fw.Options{Aggregate: p.Aggregate})
			if err != nil {
				b.Fatal(err)
			}
			f.SetThreshold(tau)
			f.SetObjective(fw.MinEnergy)
			s := highs.New()
			for i := 0; i < b.N; i++ {
				raw, err := s.Solve(ctx, f.M, backends.Options{})
				if err != nil || raw.Status != backends.Optimal {
					b.Fatal(raw.Status, err)
				}
				if math.Abs(raw.Objective-want) > 1e-6*math.Max(1, want) {
					b.Fatalf("HiGHS E*(%g) = %g, DP %g", tau, raw.Objective, want)
				}
				b.ReportMetric(float64(raw.Nodes), "nodes")
			}
		})
	}
}
