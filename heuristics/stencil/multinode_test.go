package stencil

import (
	"context"
	"slices"
	"testing"

	"github.com/schedopt/schedopt/domain/stencil/multinode"
)

// The LB rows of Tables 7.5-7.7 come out exactly on the 16×8×8 grid with the
// simulator's processor order: edges (all, intra-, inter-node), CPUs and GPUs used,
// computation time, rounds (Δ for the fat-tree and the dragonfly, Δ+μ for the torus,
// as printed) and, where the energy model is the generator's, the energy.
func TestPublishedLoadBalancingRowsReproduce(t *testing.T) {
	cases := []struct {
		sys               *multinode.System
		delta             bool
		all, intra, inter int64
		cpus, gpus        int
		comp, comm        float64 // s, as printed
		energy            int     // J, truncated as printed; < 0: not the generator's model
	}{
		{multinode.FatTree(), true, 32448, 7080, 25368, 16, 48, 0.456e-4, 1.776e-4, 139},
		{multinode.Dragonfly(), true, 654934, 2242, 652692, 69, 69, 0.342e-4, 19.500e-4, 257},
		{multinode.Torus(), false, 25984, 0, 25984, 128, 0, 0.152e-4, 0.574e-4, -1},
	}
	for _, c := range cases {
		in := c.sys.Instance(multinode.PublishedGrid(), 1)
		a, err := LoadBalancing(in, IJK, 0)
		must(t, err)
		r, err := multinode.Evaluate(c.sys, in, a, c.delta)
		must(t, err)
		near := func(x, y float64) bool { return x > y*(1-1e-9) && x < y*(1+1e-9) }
		if r.Edges != c.all || r.IntraEdges != c.intra || r.InterEdges != c.inter || r.CPUs != c.cpus || r.GPUs != c.gpus ||
			!near(r.CompTime, c.comp) || !near(r.CommTime, c.comm) {
			t.Fatalf("%s: LB gives %d/%d/%d edges, %d CPUs, %d GPUs, %g/%g s; the table prints %d/%d/%d, %d, %d, %g/%g",
				c.sys.Name, r.Edges, r.IntraEdges, r.InterEdges, r.CPUs, r.GPUs, r.CompTime, r.CommTime,
				c.all, c.intra, c.inter, c.cpus, c.gpus, c.comp, c.comm)
		}
		if c.energy >= 0 && int(r.E) != c.energy {
			t.Fatalf("%s: LB energy %.3f J, the table prints %d", c.sys.Name, r.E, c.energy)
		}
	}
}

// Task Movement with all neighbourhoods improves on every start of the driver on the
// published fat-tree instance, within the deadline, and never reports a mapping the
// independent evaluator disagrees with.
func TestDriverImprovesEveryStartOnTheFatTree(t *testing.T) {
	sys := multinode.FatTree()
	in := sys.Instance(multinode.PublishedGrid(), 1)
	res, err := TaskMovementDriver(context.Background(), in, TMOptions{Iterations: 300, Seed: 1, Rounds: RoundsDelta})
	must(t, err)
	if len(res.Runs) != 4 || res.Best < 0 {
		t.Fatalf("%d runs, best %d", len(res.Runs), res.Best)
	}
	dl := *in
	dl.Deadline = res.Deadline
	for i, run := range res.Runs {
		start, err := multinode.Evaluate(sys, &dl, res.Starts[i].Assign, true)
		must(t, err)
		got, err := multinode.Evaluate(sys, &dl, run.Assign, true)
		must(t, err)
		if !got.MeetsDeadline || got.E >= start.E {
			t.Fatalf("TM from %s: %.2f J (deadline met: %v), start %.2f J", run.Start, got.E, got.MeetsDeadline, start.E)
		}
		if d := got.E - run.Stats.Best.Energy; d > 1e-9*got.E || d < -1e-9*got.E {
			t.Fatalf("TM from %s reports %.6f J, the evaluator %.6f J", run.Start, run.Stats.Best.Energy, got.E)
		}
		if run.Stats.Accepted[0] == 0 || run.Stats.Accepted[1]+run.Stats.Accepted[2] == 0 {
			t.Fatalf("TM from %s: moves made per neighbourhood %v", run.Start, run.Stats.Accepted)
		}
	}
}

// BenchmarkTaskMovement8192 measures the search at Table 7.1's scale (32×16×16 blocks,
// 8192 tasks): candidate scores per second and iterations (moves made) per second,
// from LB with the deadline at LB's makespan.
func BenchmarkTaskMovement8192(b *testing.B) {
	for _, sys := range []*multinode.System{multinode.FatTree(), multinode.Dragonfly(), multinode.Torus()} {
		in := sys.Instance(multinode.ThesisGrid(), 1)
		start, err := LoadBalancing(in, IJK, 0)
		if err != nil {
			b.Fatal(err)
		}
		if in.Deadline, err = Makespan(in, start, RoundsBound); err != nil {
			b.Fatal(err)
		}
		b.Run(sys.Topology, func(b *testing.B) {
			var scores, iters int64
			var secs float64
			for b.Loop() {
				_, st, err := Search(context.Background(), in, start, TMOptions{Iterations: 3000, Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				scores += st.Evaluated
				iters += int64(st.Iterations)
				secs += st.Elapsed.Seconds()
			}
			b.ReportMetric(float64(scores)/secs, "scores/s")
			b.ReportMetric(float64(iters)/secs, "moves/s")
		})
	}
}

// PackingStart fills processors in the given order within frac of their deadline
// capacity and maps every task.
func TestPackingStartRespectsCapacities(t *testing.T) {
	sys := multinode.FatTree()
	in := sys.Instance(multinode.PublishedGrid(), 1.584e-4)
	order, err := TaskOrder(in, KJI, 0)
	must(t, err)
	procs := []int{5, 3, 9, 2, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55}
	a, err := PackingStart(in, procs, order, 0.9)
	must(t, err)
	load := map[int]float64{}
	for _, p := range a {
		load[p] += in.Tasks[0].Cells
	}
	last := procs[len(procs)-1]
	for p, l := range load {
		if !slices.Contains(procs, p) {
			t.Fatalf("task on processor %d, not in the order", p)
		}
		if p != last && l*in.Processors[p].TimePerCell > 0.9*in.Deadline*(1+1e-9) {
			t.Fatalf("processor %d busy %g s, above 90%% of %g", p, l*in.Processors[p].TimePerCell, in.Deadline)
		}
	}
	if first := a[order[0]]; first != procs[0] {
		t.Fatalf("first task on %d, want %d", first, procs[0])
	}
	if _, err := PackingStart(in, nil, order, 0.9); err == nil {
		t.Fatal("no processors: no error")
	}
}
