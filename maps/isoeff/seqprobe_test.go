package isoeff

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
	"github.com/schedopt/schedopt/exact/dltseq"
)

// randomMachine draws one machine of the §6.4 generator, with S, O and C scaled up
// at random so that startup, overhead and link matter as much as in §5.2.4.
func randomMachine(t *testing.T, r *rand.Rand, seed uint64) dm.Machine {
	t.Helper()
	in, err := dm.Generate(dm.GenConfig{M: 1, N: 1, V: 1000, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	mc := in.Machines[0]
	mc.S *= 0.1 + 2*r.Float64()
	mc.O *= 1 + 100*r.Float64()
	mc.C *= 0.5 + 3*r.Float64()
	return mc
}

// The lower bounds are below the exact optimum of (5.17)-(5.26) (the sequence
// enumeration of the §6 model, the same problem on identical machines) on random
// small probes: m > n, m < n, V below and above nρ (out-of-core chunks).
func TestHomogeneousLowerBoundIsBelowTheOptimum(t *testing.T) {
	r := rand.New(rand.NewPCG(52, 0))
	shapes := [][2]int{{1, 3}, {2, 2}, {2, 4}, {2, 5}, {3, 3}, {3, 4}, {4, 2}, {4, 3}, {5, 3}, {6, 2}}
	tight := 0
	for k := range 80 {
		mc := randomMachine(t, r, uint64(k+1))
		if k%4 == 0 {
			mc = Reference()
		}
		sh := shapes[k%len(shapes)]
		m, n := sh[0], sh[1]
		V := mc.Rho * float64(n) * (0.05 + 2.5*r.Float64())
		t.Run(fmt.Sprintf("%d/m%d-n%d-V%.0f", k, m, n, V), func(t *testing.T) {
			res, err := dltseq.Solve(context.Background(), Instance(mc, m, n, V), dltseq.Options{})
			if err != nil || !res.Feasible {
				t.Fatalf("enumeration: %v (feasible %v)", err, res != nil && res.Feasible)
			}
			lb, err := HomogeneousLowerBound(mc, m, n, V)
			if err != nil {
				t.Fatal(err)
			}
			suffix, err := SuffixLowerBound(mc, m, n, V)
			if err != nil {
				t.Fatal(err)
			}
			if lb > res.Objective*(1+1e-9) {
				t.Errorf("lower bound %.9g above the optimum %.9g (suffix %.9g, chain %.9g, capacity %.9g)",
					lb, res.Objective, suffix, ChainLowerBound(mc, n, V), CapacityLowerBound(mc, m, V))
			}
			// The suffix program contains the chain rows, so it is never below the greedy chain.
			if ch := ChainLowerBound(mc, n, V); suffix < ch*(1-1e-5) {
				t.Errorf("suffix bound %.9g below the chain bound %.9g", suffix, ch)
			}
			if lb >= res.Objective*(1-1e-3) {
				tight++
			}
		})
	}
	// Not vacuous: the bound closes some probes to 0.1 %.
	t.Logf("%d of 80 probes closed to 0.1 %% by the bound", tight)
	if tight == 0 {
		t.Errorf("the lower bound is never within 0.1 %% of the optimum")
	}
}

// The sequence branch-and-bound probe (the §6 model) gives the T* of the MIP
// (5.17)-(5.26) (BuildHomogeneous) solved by HiGHS at gap 0, on probes too large for
// the enumeration (so exact/dltbb runs), and its efficiency interval contains the
// MIP's efficiency.
func TestSeqBBProbeMatchesTheMIP(t *testing.T) {
	if testing.Short() {
		t.Skip("solves MIPs")
	}
	mc := Reference()
	mc.Rho *= 0.25 // more chunks out of core at small V
	seq := SeqBBProbe(SeqBBConfig{Machine: mc, Gap: 0})
	mip := MIPProbe(MIPConfig{Machine: mc, Backend: "highs"})
	for _, c := range []struct {
		m, n int
		V    float64
	}{{3, 5, 6000}, {3, 5, 12000}, {2, 7, 15000}, {4, 5, 5000}} {
		t.Run(fmt.Sprintf("m%d-n%d-V%.0f", c.m, c.n, c.V), func(t *testing.T) {
			ctx := context.Background()
			ps, err := seq(ctx, c.m, c.n, c.V)
			if err != nil {
				t.Fatal(err)
			}
			pm, err := mip(ctx, c.m, c.n, c.V)
			if err != nil {
				t.Fatal(err)
			}
			if pm.Status != "optimal" || ps.Status != "optimal" {
				t.Fatalf("status: MIP %s, branch-and-bound %s", pm.Status, ps.Status)
			}
			// exact/dltbb lowers every node bound by 1e-4 (relative), hence the tolerance.
			if math.Abs(ps.T-pm.T) > 2e-4*pm.T {
				t.Errorf("T*: branch-and-bound %.6f, (5.17)-(5.26) %.6f", ps.T, pm.T)
			}
			lo, hi := ps.EInterval(mc)
			if pm.E < lo*(1-2e-4) || pm.E > hi*(1+1e-9) {
				t.Errorf("MIP efficiency %.6f outside the probe's interval [%.6f, %.6f]", pm.E, lo, hi)
			}
			if ps.Bound > pm.T*(1+1e-9) {
				t.Errorf("probe bound %.6f above the MIP's optimum %.6f", ps.Bound, pm.T)
			}
		})
	}
}
