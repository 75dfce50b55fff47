//go:build dltmultitable63

package dltmulti

// Table 6.3 of seed 004: the fraction of the schedule length each machine spends idle
// or busy-waiting, (idleStart_i + busy_i)/T, 1 for a machine that is never started; its
// quartiles over the machines of the §6.4 generator's m = 10, n = 12 instances, for the
// best min-time schedules (the sequence branch-and-bound, within its time limit) and
// for SSC and GSS over all 14 processor sorting rules. Run with
//
//	go test -tags dltmultitable63 -run Table63 -v -timeout 60m ./kinds/dltmulti
//
// DLTMULTI_T63_SEEDS (default 10) and DLTMULTI_T63_LIMIT (default 30s) set the
// instance count and the branch-and-bound's time limit per instance.

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/schedopt/schedopt/backends"
	dm "github.com/schedopt/schedopt/domain/dltmulti"
	hdlt "github.com/schedopt/schedopt/heuristics/dlt"
	"github.com/schedopt/schedopt/solve"
)

// idleFractions returns (idleStart_i + busy_i)/T per machine (1 when unused) and the
// same for the used machines only.
func idleFractions(in *dm.Instance, s dm.Schedule) (all, active []float64) {
	r := dm.Evaluate(in, s, dm.EvalOptions{AnyCount: true})
	for _, mr := range r.Machines {
		if !mr.Used {
			all = append(all, 1)
			continue
		}
		f := (mr.IdleStart + mr.Busy) / r.T
		all = append(all, f)
		active = append(active, f)
	}
	return all, active
}

func TestTable63IdleFractions(t *testing.T) {
	seeds, limit := 10, 30*time.Second
	if v, err := strconv.Atoi(os.Getenv("DLTMULTI_T63_SEEDS")); err == nil && v > 0 {
		seeds = v
	}
	if v, err := time.ParseDuration(os.Getenv("DLTMULTI_T63_LIMIT")); err == nil && v > 0 {
		limit = v
	}
	type acc struct{ all, active []float64 }
	res := map[string]*acc{"B&B": {}, "SSC": {}, "GSS": {}}
	for seed := 1; seed <= seeds; seed++ {
		in, err := dm.Generate(dm.GenConfig{M: 10, N: 12, V: 24000, P0N: 100, Seed: uint64(seed)})
		if err != nil {
			t.Fatal(err)
		}
		p := &Problem{Inst: in}
		p.KindName, p.InstName = dm.Kind, in.Name
		ctx, cancel := context.WithTimeout(context.Background(), limit)
		r, err := p.Solve(ctx, solve.Request{Backend: solve.Exact, Options: backends.Options{RelGap: 0.002, Threads: 2}})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		a, b := idleFractions(in, r.Solution.(dm.Solution).Schedule())
		res["B&B"].all, res["B&B"].active = append(res["B&B"].all, a...), append(res["B&B"].active, b...)
		t.Logf("seed %d: %s T %.3f gap %.3f%%", seed, r.Status, *r.Objective, 100**r.Gap)
		for _, rule := range []hdlt.Rule{hdlt.SSC, hdlt.GSS} {
			for _, psr := range hdlt.PSRs() {
				s, err := hdlt.Online(context.Background(), in, rule, psr, uint64(seed))
				if err != nil {
					t.Fatal(err)
				}
				a, b := idleFractions(in, s)
				k := map[hdlt.Rule]string{hdlt.SSC: "SSC", hdlt.GSS: "GSS"}[rule]
				res[k].all, res[k].active = append(res[k].all, a...), append(res[k].active, b...)
			}
		}
	}
	fmt.Println("| quartile | all: B&B | SSC | GSS | active: B&B | SSC | GSS |")
	fmt.Println("|---|---|---|---|---|---|---|")
	q := map[string][3]float64{}
	for k, v := range res {
		a1, a2, a3 := quartiles(v.all)
		b1, b2, b3 := quartiles(v.active)
		q[k+"a"], q[k+"b"] = [3]float64{a1, a2, a3}, [3]float64{b1, b2, b3}
	}
	for i, name := range []string{"Q1", "Q2", "Q3"} {
		fmt.Printf("| %s | %.4f | %.4f | %.4f | %.4f | %.4f | %.4f |\n", name,
			q["B&Ba"][i], q["SSCa"][i], q["GSSa"][i], q["B&Bb"][i], q["SSCb"][i], q["GSSb"][i])
	}
}
