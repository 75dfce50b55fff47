package dltbb

import (
	"testing"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
)

// spread returns random tiny §6.4 instances with more machines than messages (m = n+1
// or n+2, n = 2 or 3), where the choice of machines is what the used-machine rows
// bound.
func spread(t *testing.T, count int, seed uint64) []*dm.Instance {
	return generated(t, count, seed, 27, 8000, 5, func(k int) (m, n int) {
		n = 2 + k%2
		return n + 1 + (k/2)%2, n
	})
}

// TestUseRowsHoldInEveryCompletion walks every prefix of random tiny instances, most
// with more machines than messages, at a target just above the optimum and at a looser
// one. At every node with a completion below the target it solves the node LP with the
// used-machine rows' floor at the shortest completion (the highest floor that holds)
// and checks that the bound stays below that completion. It also checks that the
// check can fail: with the floor 3 % above the shortest completion some bound must
// exceed it, and the rows must raise some bounds.
func TestUseRowsHoldInEveryCompletion(t *testing.T) {
	raised, wrong, nodes := 0, 0, 0
	atTargets(t, append(spread(t, 24, 51), tiny(t, 8, 52)...), func(k int, in *dm.Instance, target float64) {
		with, without := searchAt(in, target, Options{}), searchAt(in, target, Options{NoUseRows: true})
		var walk func(prefix []int)
		walk = func(prefix []int) {
			if len(prefix) == in.N {
				return
			}
			best := completions(t, in, prefix)
			if best >= target {
				return
			}
			_, b, _, ok, _, err := with.solveCounted(prefix, nil, nil, (*loads)(nil).withFloor(best))
			if err != nil {
				t.Fatalf("instance %d prefix %v: %v", k, prefix, err)
			}
			if !ok {
				t.Fatalf("instance %d prefix %v (target %g): LP infeasible, a completion has T = %g", k, prefix, target, best)
			}
			if b > best*(1+1e-7)+1e-7 {
				t.Fatalf("instance %d prefix %v (target %g, floor %g): bound %g above the best completion", k, prefix, target, best, b)
			}
			nodes++
			if _, b0, _, ok0, _, err := without.solveCounted(prefix, nil, nil, nil); err == nil && ok0 && b > b0*(1+1e-4) {
				raised++
			}
			if _, bw, _, okw, _, err := with.solveCounted(prefix, nil, nil, (*loads)(nil).withFloor(best*1.03)); err == nil && (!okw || bw > best*(1+1e-6)) {
				wrong++
			}
			for i := range in.M() {
				walk(append(append([]int(nil), prefix...), i))
			}
		}
		walk(nil)
	})
	t.Logf("%d nodes with a completion below the target: %d bounds raised by the rows, %d wrong with the floor 3 %% too high", nodes, raised, wrong)
	if raised == 0 {
		t.Fatal("no node bound was raised: the test checks nothing")
	}
	if wrong == 0 {
		t.Fatal("a floor 3 % too high gave no wrong bound: the check cannot fail")
	}
}

// TestSolveWithAndWithoutUseRowsAgree solves random tiny instances, most with more
// machines than messages, with and without the used-machine rows: the same optimum,
// within the gap, as the enumeration.
func TestSolveWithAndWithoutUseRowsAgree(t *testing.T) {
	agreeWithEnumeration(t, append(spread(t, 18, 53), chunky(t, 8, 54)...), map[string]Options{"use rows": {}, "no use rows": {NoUseRows: true}})
}

// TestUseSplitKeepsTheOptimum solves random tiny instances with and without the
// splits on whether a machine is used (relax.splitsUse): with more machines than
// messages (unserved machines are split) and with at least as many messages as
// machines (served ones are): the same optimum, within the gap, as the enumeration,
// and the splits must happen in both.
func TestUseSplitKeepsTheOptimum(t *testing.T) {
	for name, instances := range map[string][]*dm.Instance{"m > n": spread(t, 24, 55), "m <= n": chunky(t, 24, 57)} {
		res := agreeWithEnumeration(t, instances, map[string]Options{"use split": {}, "no use split": {NoUseSplit: true}})
		with, without := 0, 0
		for k := range res["use split"] {
			with += res["use split"][k].Splits
			without += res["no use split"][k].Splits
		}
		t.Logf("%s: count splits: %d with the use splits, %d without", name, with, without)
		if with <= without {
			t.Fatalf("%s: no use split was made: the test checks nothing", name)
		}
	}
}
