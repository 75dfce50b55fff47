//go:build dltbbseeds

package dltbb

// The measurement behind the issue-26 table of docs/reproduction/dltmulti.md: the §6.4
// generator's instances (m = 10, n = 12, V = 24000 MB, the CLI's defaults) solved to
// 0.2 % on one thread with the certified simplex and the heuristic starts, each
// stopped after a budget of process CPU time (a wall-clock limit measures the other
// users of a shared machine as much as the search). Run with
//
//	DLTBB_SEEDS=1,2,3 DLTBB_CPU=120 go test -tags dltbbseeds -run Seeds -v ./exact/dltbb
//
// (DLTBB_THREADS, DLTBB_PLAIN=1 for Options.NoTighten, DLTBB_NOLINKTAIL=1 for
// Options.NoLinkTail, DLTBB_NOSPLIT=1 for Options.NoCountSplit, DLTBB_NOUSE=1 for Options.NoUseRows, DLTBB_ENERGY_T for min-energy at that fixed length, DLTBB_MAXNODES for Options.MaxNodes, DLTBB_M, DLTBB_GAP). It prints
// one line per seed: status, objective (T, or E for min-energy), bound, gap, nodes, LPs, CPU and wall seconds.

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
)

func TestSeeds(t *testing.T) {
	envInt := func(k string, d int) int {
		if v, err := strconv.Atoi(os.Getenv(k)); err == nil {
			return v
		}
		return d
	}
	gap := 0.002
	if v, err := strconv.ParseFloat(os.Getenv("DLTBB_GAP"), 64); err == nil {
		gap = v
	}
	budget := float64(envInt("DLTBB_CPU", 120))
	for _, f := range strings.Split(os.Getenv("DLTBB_SEEDS"), ",") {
		seed, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
		if err != nil {
			t.Fatalf("DLTBB_SEEDS: %v", err)
		}
		in, starts := genInstance(t, envInt("DLTBB_M", 10), seed)
		solver := certifiedSimplex
		if T, err := strconv.ParseFloat(os.Getenv("DLTBB_ENERGY_T"), 64); err == nil {
			// Min-energy's node LPs need the reference simplex as a fallback, as in
			// kinds/dltmulti (there HiGHS).
			in.Objective, in.Deadline, in.FixedLength = dm.MinEnergy, &T, true
			solver = chainLP
		}
		c0, t0 := cpuSeconds(), time.Now()
		ctx, cancel := cpuBudget(budget)
		res, err := Solve(ctx, in, solver, Options{Gap: gap, Starts: starts, Threads: envInt("DLTBB_THREADS", 1), NoTighten: os.Getenv("DLTBB_PLAIN") == "1",
			NoLinkTail: os.Getenv("DLTBB_NOLINKTAIL") == "1", NoCountSplit: os.Getenv("DLTBB_NOSPLIT") == "1", NoUseRows: os.Getenv("DLTBB_NOUSE") == "1", MaxNodes: envInt("DLTBB_MAXNODES", 0)})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if !res.Feasible || res.Bound > res.Objective {
			t.Fatalf("seed %d: feasible %v, objective %g, bound %g", seed, res.Feasible, res.Objective, res.Bound)
		}
		status := "feasible"
		if res.Optimal {
			status = "optimal"
		}
		t.Logf("seed %d: %s objective %.4f bound %.4f gap %.3f%% nodes %d splits %d LPs %d cpu %.1f s wall %.1f s", seed, status, res.Objective, res.Bound,
			100*(res.Objective-res.Bound)/res.Objective, res.Nodes, res.Splits, res.LPs, cpuSeconds()-c0, time.Since(t0).Seconds())
	}
}

// cpuBudget returns a context that is cancelled once the process has used seconds
// more CPU time.
func cpuBudget(seconds float64) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	start := cpuSeconds()
	go func() {
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if cpuSeconds()-start >= seconds {
					cancel()
					return
				}
			}
		}
	}()
	return ctx, cancel
}
