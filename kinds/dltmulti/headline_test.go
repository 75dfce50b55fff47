//go:build dltbbheadline

package dltmulti

// The headline measurement of docs/reproduction/dltmulti.md: Table 6.1 (m = 10,
// n = 12) and the §6.4 generator's m = 10, n = 12 instances (seeds 1-10), min-time
// to a proven 0.2 % gap in at most 120 s each with the sequence branch-and-bound on
// 2 threads. Run with
//
//	go test -tags dltbbheadline -run Headline -v -timeout 60m ./kinds/dltmulti
//
// It prints one line per instance (status, T, bound, gap, wall and CPU seconds, load)
// and fails when Table 6.1 is not proven within the gap in the limit, or when the median
// time to the gap over the generator instances (an unproven one counts as +Inf)
// exceeds 120 s. TestHeadlineMinEnergyGap02 does the same for minimum energy of
// Table 6.1 at fixed lengths T = 300, 432, 700 and 1000 s (each must be proven).

import (
	"context"
	"math"
	"os"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/schedopt/schedopt/backends"
	dm "github.com/schedopt/schedopt/domain/dltmulti"
	"github.com/schedopt/schedopt/solve"
)

func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	if len(b) > 14 {
		return string(b[:14])
	}
	return string(b)
}

func TestHeadlineMinTimeGap02(t *testing.T) {
	data, err := os.ReadFile("../../instances/dlt-multi-table6.1.json")
	if err != nil {
		t.Fatal(err)
	}
	table, err := dm.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	ins := []*dm.Instance{table}
	for seed := uint64(1); seed <= 10; seed++ {
		in, err := dm.Generate(dm.GenConfig{M: 10, N: 12, V: 24000, P0N: 100, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		ins = append(ins, in)
	}
	var walls []float64
	for _, in := range ins {
		c0, t0, l0 := cpuSeconds(), time.Now(), loadavg()
		res, err := solveHeadline(in)
		if err != nil {
			t.Fatalf("%s: %v", in.Name, err)
		}
		wall := time.Since(t0).Seconds()
		if res.Status != solve.StatusOptimal {
			if in == table {
				t.Errorf("%s: not proven within 0.2%% in 120 s", in.Name)
			}
			wall = math.Inf(1)
		}
		if in != table {
			walls = append(walls, wall)
		}
		t.Logf("%s: %s T %.4f bound %.4f gap %.4f%% wall %.1f s cpu %.1f s nodes %d load %s -> %s",
			in.Name, res.Status, *res.Objective, *res.Bound, 100**res.Gap, time.Since(t0).Seconds(), cpuSeconds()-c0, res.Nodes, l0, loadavg())
	}
	sort.Float64s(walls)
	med := (walls[len(walls)/2-1] + walls[len(walls)/2]) / 2
	t.Logf("median time to 0.2%% over the generator instances: %.1f s", med)
	if med > 120 {
		t.Errorf("median time to 0.2%% %.1f s > 120 s", med)
	}
}

func TestHeadlineMinEnergyGap02(t *testing.T) {
	data, err := os.ReadFile("../../instances/dlt-multi-table6.1.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, T := range []float64{300, 432, 700, 1000} {
		in, err := dm.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		in.Objective, in.Deadline, in.FixedLength = dm.MinEnergy, &T, true
		c0, t0, l0 := cpuSeconds(), time.Now(), loadavg()
		res, err := solveHeadline(in)
		if err != nil {
			t.Fatalf("T = %g: %v", T, err)
		}
		if res.Status != solve.StatusOptimal || !res.Check.Evaluator.OK {
			t.Errorf("T = %g: %s (%s), not proven within 0.2%% in 120 s", T, res.Status, res.Message)
		}
		t.Logf("T = %g: %s E %.1f bound %.1f gap %.4f%% wall %.1f s cpu %.1f s nodes %d load %s -> %s",
			T, res.Status, *res.Objective, *res.Bound, 100**res.Gap, time.Since(t0).Seconds(), cpuSeconds()-c0, res.Nodes, l0, loadavg())
	}
}

// solveHeadline solves in by the backend exact as the headline command does: gap
// 0.2 %, 2 threads, 120 s.
func solveHeadline(in *dm.Instance) (*solve.Result, error) {
	p := &Problem{Inst: in}
	p.KindName, p.InstName = dm.Kind, in.Name
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	return p.Solve(ctx, solve.Request{Backend: solve.Exact, Options: backends.Options{RelGap: 0.002, Threads: 2}})
}
