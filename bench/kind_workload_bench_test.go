package bench

import (
	"context"
	"fmt"
	"testing"

	dw "github.com/schedopt/schedopt/domain/workload"
	xw "github.com/schedopt/schedopt/exact/workload"
)

// Benchmarks of item 6 of issue 5: the exact front algorithms at seed-000 scale (p = 5,
// 450 points, n up to 900 granules) and seed-003 scale (identical processors, p up to
// 256, 1250 points), against the ILP ε-sweep on HiGHS on the same instances. Run with
//
//	go test ./bench -run '^$' -bench Workload -benchtime 1x
//
// Each reports the front size as "points" and, for the ILP, the MILP solves.

type workloadBenchCase struct {
	name string
	in   func() (*dw.Instance, error)
	algs []string // exact algorithms; "highs" runs the ILP sweep
}

func workloadBenchCases() []workloadBenchCase {
	var cs []workloadBenchCase
	for _, n := range []int{268, 600, 900} { // granules of 64 rows; 268 = seed 000's w = 17152
		n := n
		algs := []string{WorkloadDP, WorkloadHEPOPTA, WorkloadMCKPSweep}
		if n == 268 {
			algs = append(algs, BackendHiGHS)
		}
		cs = append(cs, workloadBenchCase{fmt.Sprintf("dgemm/p=5/m=450/n=%d", n),
			func() (*dw.Instance, error) { return dw.GenDGEMM(1, 5, 450, 64, n*64) }, algs})
	}
	for _, n := range []int{935, 1800} { // granules of 16 rows; 935 = seed 000's w = 14960
		n := n
		algs := []string{WorkloadDP, WorkloadHEPOPTA, WorkloadMCKPSweep}
		if n == 935 {
			algs = append(algs, BackendHiGHS)
		}
		cs = append(cs, workloadBenchCase{fmt.Sprintf("fft/p=5/m=426/n=%d", n),
			func() (*dw.Instance, error) { return dw.GenFFT(1, 5, n*16) }, algs})
	}
	for _, c := range []struct {
		p, m, n int
		algs    []string
	}{
		{32, 1250, 2112, []string{WorkloadIdentical, WorkloadDP, WorkloadHEPOPTA, WorkloadAdaptAleph, BackendHiGHS}},
		{256, 1250, 2500, []string{WorkloadIdentical, WorkloadAdaptAleph}},
		{256, 485, 2500, []string{WorkloadIdentical, WorkloadAdaptAleph}},
	} {
		c := c
		cs = append(cs, workloadBenchCase{fmt.Sprintf("identical-dgemm/p=%d/m=%d/n=%d", c.p, c.m, c.n),
			func() (*dw.Instance, error) { return dw.GenIdentical(1, "dgemm", c.p, c.m, c.n) }, c.algs})
	}
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
				backend := BackendExact
				if alg == BackendHiGHS {
					backend = alg
				} else {
					cp.Algorithm = alg
					if alg == WorkloadAdaptAleph {
						cp.Neighbourhood = 50
					}
				}
				p := NewWorkloadProblem(&cp, c.name)
				req := workloadReq(backend)
				req.NoCheck = true
				req.Options.RelGap = 0
				var res *Result
				for i := 0; i < b.N; i++ {
					if res, err = p.Solve(context.Background(), req); err != nil {
						b.Fatal(err)
					}
				}
				if res.Status != StatusOptimal && !(alg == WorkloadAdaptAleph && res.Status == StatusFeasible) {
					b.Fatalf("status %s: %s", res.Status, res.Message)
				}
				b.ReportMetric(float64(len(res.Solution.(dw.Front).Front)), "points")
				if backend == BackendHiGHS {
					b.ReportMetric(float64(res.Nodes), "nodes")
				}
			})
		}
	}
}

// BenchmarkWorkloadMinEnergy times one E*(τ) evaluation, the unit of the ε-sweep, with
// the exact DP and with HiGHS on the per-processor or aggregated ILP.
func BenchmarkWorkloadMinEnergy(b *testing.B) {
	in, _ := dw.GenDGEMM(1, 5, 450, 64, 600*64)
	ts := in.Tables()
	b.Run("dgemm/p=5/n=600/mckp-dp", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, _, err := xw.MinEnergy(context.Background(), ts, 1e9); err != nil {
				b.Fatal(err)
			}
		}
	})
}
