package stencil

import (
	"context"
	"fmt"
	"math"
	"time"

	dom "github.com/schedopt/schedopt/domain/stencil"
)

// Start is an initial mapping of the Task Movement driver.
type Start struct {
	Name    string        // LB (Alg_1-IJK), DM (Alg_2), MM (Alg_3), NA (Alg_4-0.9)
	Assign  []int         // the mapping
	TS      float64       // its makespan with rounds min(Δ+μ, ⌊3Δ/2⌋), s
	Elapsed time.Duration // the heuristic's run time
}

// DriverRun is one Task Movement run of the driver.
type DriverRun struct {
	Start  string
	Assign []int
	Stats  TMStats
}

// DriverResult is the outcome of TaskMovementDriver.
type DriverResult struct {
	Starts   []Start
	Deadline float64     // t^d: the shortest makespan among the starts
	Runs     []DriverRun // one per start, in the order of Starts
	Best     int         // index into Runs of the least-energy feasible result
}

// StartNA is the load factor of the driver's Neighbours Accumulation start.
const StartNA = 0.9

// ThesisStarts runs the four simple heuristics of Chapter 7's driver: LB (Alg_1 in
// IJK order), DM and MM (Alg_2/Alg_3 as the pseudo-code reads: with the published
// code's initialisation they coincide with LB on these grids, which the tables'
// distinct DM and MM rows rule out) and NA
// (Alg_4, f = 0.9), and computes each mapping's makespan with the rounds counted by
// rule. It stops early with ctx's error.
func ThesisStarts(ctx context.Context, in *dom.Instance, rule RoundsRule) ([]Start, error) {
	type h struct {
		name string
		run  func() ([]int, error)
	}
	hs := []h{
		{"LB", func() ([]int, error) { return LoadBalancing(in, IJK, 0) }},
		{"DM", func() ([]int, error) { return DegreeMinimisation(in, false), nil }},
		{"MM", func() ([]int, error) { return MulticutMinimisation(in, false), nil }},
		{"NA", func() ([]int, error) { return NeighboursAccumulation(in, StartNA), nil }},
	}
	var out []Start
	for _, x := range hs {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		t0 := time.Now()
		a, err := x.run()
		if err != nil {
			return nil, fmt.Errorf("stencil: start %s: %w", x.name, err)
		}
		el := time.Since(t0)
		ts, err := Makespan(in, a, rule)
		if err != nil {
			return nil, fmt.Errorf("stencil: start %s: %w", x.name, err)
		}
		out = append(out, Start{Name: x.name, Assign: a, TS: ts, Elapsed: el})
	}
	return out, nil
}

// Makespan returns max(max_p busy_p, rounds × round_time) of a mapping, the rounds
// counted by rule, by a full pass over the arcs.
func Makespan(in *dom.Instance, assign []int, rule RoundsRule) (float64, error) {
	mu, err := in.Bundles(assign)
	if err != nil {
		return 0, err
	}
	var delta, mx int64
	for p := range mu {
		var d int64
		for k, x := range mu[p] {
			if k != p {
				d += x
				mx = max(mx, x)
			}
		}
		delta = max(delta, d)
	}
	cells := make([]float64, len(in.Processors))
	for u, p := range assign {
		cells[p] += in.Tasks[u].Cells
	}
	busy := 0.0
	for p, pr := range in.Processors {
		busy = math.Max(busy, cells[p]*pr.TimePerCell)
	}
	return math.Max(busy, float64(rule.Rounds(delta, mx))*in.RoundTime), nil
}

// TaskMovementDriver is the driver of §7.2: build the starts with LB, DM, MM and NA,
// take the shortest of their makespans (rounds by opt.Rounds) as the deadline t^d, and run Search from each
// start minimising energy under t^d (in is not modified; each run gets opt, with
// TimeLimit per run). The best run is the feasible one of least energy.
func TaskMovementDriver(ctx context.Context, in *dom.Instance, opt TMOptions) (*DriverResult, error) {
	starts, err := ThesisStarts(ctx, in, opt.Rounds)
	if err != nil {
		return nil, err
	}
	res := &DriverResult{Starts: starts, Deadline: math.Inf(1), Best: -1}
	for _, s := range starts {
		res.Deadline = math.Min(res.Deadline, s.TS)
	}
	dl := *in
	dl.Deadline = res.Deadline
	for i, s := range starts {
		o := opt
		o.Seed = opt.Seed + uint64(i)
		a, st, err := Search(ctx, &dl, s.Assign, o)
		if err != nil {
			return res, fmt.Errorf("stencil: task movement from %s: %w", s.Name, err)
		}
		res.Runs = append(res.Runs, DriverRun{Start: s.Name, Assign: a, Stats: st})
		if b := res.Best; st.Best.Violation == 0 && (b < 0 || st.Best.Energy < res.Runs[b].Stats.Best.Energy) {
			res.Best = i
		}
	}
	return res, nil
}
