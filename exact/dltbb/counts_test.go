package dltbb

import (
	"context"
	"fmt"
	"math"
	"testing"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
	"github.com/schedopt/schedopt/exact/dltseq"
)

// completionsByCounts returns the shortest schedule length over the full sequences
// that start with prefix, for each vector of suffix message counts (one entry per
// machine) that such a sequence has.
func completionsByCounts(t *testing.T, in *dm.Instance, prefix []int) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	eachCompletion(t, in, prefix, func(seq []int, _ dm.Schedule, makespan float64) {
		key := fmt.Sprint(suffixCounts(in.M(), seq[len(prefix):]))
		if v, seen := out[key]; !seen || makespan < v {
			out[key] = makespan
		}
	})
	return out
}

func suffixCounts(m int, suffix []int) []int {
	c := make([]int, m)
	for _, i := range suffix {
		c[i]++
	}
	return c
}

// TestCountRangesHoldInEveryCompletion walks every prefix of random tiny instances
// whose machines may take several chunks, or that have more machines than messages
// (where a range from one message on makes a machine forced: nodeForced), at a
// target just above the optimum and at a looser one. For every vector c of suffix message counts that some completion
// below the target has, the node LP with the count ranges k_i in [c_i, c_i] (the
// tightest that count branching can reach) must be feasible and bound the best such
// completion from below, and so must the LP with the ranges of one split on each
// machine (k_i <= c_i, or k_i >= c_i). The ranges must raise some bounds.
func TestCountRangesHoldInEveryCompletion(t *testing.T) {
	raised, checked := 0, 0
	atTargets(t, append(append(chunky(t, 24, 41), tiny(t, 12, 42)...), spread(t, 12, 56)...), func(k int, in *dm.Instance, target float64) {
		s := searchAt(in, target, Options{})
		var walk func(prefix []int)
		walk = func(prefix []int) {
			if len(prefix) == in.N {
				return
			}
			rem := in.N - len(prefix)
			_, b0, _, ok0, err := s.solve(prefix, nil, nil)
			if err != nil {
				t.Fatalf("instance %d prefix %v: %v", k, prefix, err)
			}
			for key, best := range completionsByCounts(t, in, prefix) {
				if best >= target {
					continue
				}
				c := parseCounts(key)
				exact := &loads{kLo: c, kHi: c}
				ranges := []*loads{exact}
				for i := range in.M() {
					ranges = append(ranges, (*loads)(nil).withCount(i, 0, c[i], rem, in.M()), (*loads)(nil).withCount(i, c[i], rem, rem, in.M()))
				}
				for r, lb := range ranges {
					_, b, _, ok, _, err := s.solveCounted(prefix, nil, nil, lb)
					if err != nil {
						t.Fatalf("instance %d prefix %v counts %v: %v", k, prefix, c, err)
					}
					if !ok {
						t.Fatalf("instance %d prefix %v counts %v (range %d, target %g): LP infeasible, a completion has T = %g", k, prefix, c, r, target, best)
					}
					if b > best*(1+1e-7)+1e-7 {
						t.Fatalf("instance %d prefix %v counts %v (range %d, target %g): bound %g above the best completion %g", k, prefix, c, r, target, b, best)
					}
					checked++
					if r == 0 && ok0 && b > b0*(1+1e-4) {
						raised++
					}
				}
			}
			if ok0 {
				for i := range in.M() {
					walk(append(append([]int(nil), prefix...), i))
				}
			}
		}
		walk(nil)
	})
	t.Logf("%d count-range LPs checked; exact counts raised %d node bounds", checked, raised)
	if raised == 0 {
		t.Fatal("no node bound was raised by count ranges: the test checks nothing")
	}
}

// parseCounts reads back a key of completionsByCounts ("[1 0 2]").
func parseCounts(key string) []int {
	var c []int
	v := 0
	for _, ch := range key {
		switch {
		case ch >= '0' && ch <= '9':
			v = 10*v + int(ch-'0')
		case ch == ' ' || ch == ']':
			c = append(c, v)
			v = 0
		}
	}
	return c
}

// TestCountSplitKeepsTheOptimum solves random tiny instances whose machines take
// several chunks with and without count branching (agreeWithEnumeration): the same
// optimum, within the gap, as the enumeration, and some nodes are split.
func TestCountSplitKeepsTheOptimum(t *testing.T) {
	res := agreeWithEnumeration(t, chunky(t, 24, 43), map[string]Options{"count split": {}, "no count split": {NoCountSplit: true}})
	splits := 0
	for _, r := range res["count split"] {
		splits += r.Splits
	}
	t.Logf("%d count splits", splits)
	if splits == 0 {
		t.Fatal("no node was split: the test checks nothing")
	}
}

// TestCountSplitKeepsTheEnergyOptimum is TestCountSplitKeepsTheOptimum for min-energy:
// the chunky instances at a deadline (fixed or not) a little above their shortest
// length, with and without count branching, against the enumeration.
func TestCountSplitKeepsTheEnergyOptimum(t *testing.T) {
	splits := 0
	for k, in := range chunky(t, 18, 44) {
		tstar := completions(t, in, nil)
		if math.IsInf(tstar, 1) {
			t.Fatalf("instance %d: no feasible sequence", k)
		}
		d := tstar * []float64{1.01, 1.2, 2}[k%3]
		in.Objective, in.Deadline, in.FixedLength = dm.MinEnergy, &d, k%2 == 0
		if k%4 == 1 {
			mc := &in.Machines[0]
			mc.K2 = math.Max(mc.K1+1, 0.3*mc.PN*mc.A2) // concave g
		}
		if err := in.Validate(); err != nil {
			t.Fatalf("instance %d: %v", k, err)
		}
		want, err := dltseq.Solve(context.Background(), in, dltseq.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, no := range []bool{false, true} {
			res, err := Solve(context.Background(), in, chainLP, Options{NoCountSplit: no, Threads: 1 + k%2})
			if err != nil {
				t.Fatalf("instance %d: %v", k, err)
			}
			if !no {
				splits += res.Splits
			}
			if !res.Optimal || res.Feasible != want.Feasible || !res.Feasible {
				t.Fatalf("instance %d (no split %v): optimal %v feasible %v, enumeration feasible %v", k, no, res.Optimal, res.Feasible, want.Feasible)
			}
			tol := 1e-6 * want.Objective
			if math.Abs(res.Objective-want.Objective) > tol || res.Bound > want.Objective+tol {
				t.Fatalf("instance %d (no split %v): E %g, bound %g; enumeration %g", k, no, res.Objective, res.Bound, want.Objective)
			}
		}
	}
	t.Logf("%d count splits", splits)
	if splits == 0 {
		t.Fatal("no node was split: the test checks nothing")
	}
}

// TestSplitCostsPredictFromTheHistory checks the pseudo-costs of pickSplit: without a
// history every side predicts 1 (the most fractional count is picked), a side without
// its own history takes the mean of the machines that have one, and the product of
// the predicted rises prefers the split that raised both sides.
func TestSplitCostsPredictFromTheHistory(t *testing.T) {
	var c splitCosts
	if got := c.score(0, 0.5, 0.5); got != 0.25 {
		t.Fatalf("empty history: score %g, want 0.25", got)
	}
	if c.score(0, 0.5, 0.5) <= c.score(0, 0.2, 0.8) {
		t.Fatal("empty history: the most fractional count must score highest")
	}
	c.add(3, 0, 0, 0.02, 0.5)  // M_0 down: 0.04 per unit
	c.add(3, 0, 0, 0.04, 0.5)  // and 0.08: mean 0.06
	c.add(3, 1, 0, 0.01, 0.5)  // M_0 up: 0.02
	c.add(3, 0, 1, -0.01, 0.5) // M_1 down: a fall counts as no rise
	c.add(3, 1, 1, 0.30, 0.5)  // M_1 up: 0.6
	for _, tc := range []struct {
		d, i int
		want float64
	}{
		{0, 0, 0.06}, {1, 0, 0.02}, {0, 1, 0}, {1, 1, 0.6},
		{0, 2, 0.03}, {1, 2, 0.31}, // M_2: the means of M_0 and M_1
	} {
		if got := c.rate(tc.d, tc.i); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("rate(%d, %d) = %g, want %g", tc.d, tc.i, got, tc.want)
		}
	}
	// M_1 never raised its down side: its product is the floor times the up side,
	// below M_0's, whose sides both rose.
	if c.score(1, 0.5, 0.5) >= c.score(0, 0.5, 0.5) {
		t.Errorf("a split that raised one side only scores %g, above %g", c.score(1, 0.5, 0.5), c.score(0, 0.5, 0.5))
	}
}
