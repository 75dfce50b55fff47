package dltbb

import (
	"context"
	"math/rand/v2"
	"testing"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
	"github.com/schedopt/schedopt/exact/dltseq"
)

// chunky returns random §6.4 instances small enough to enumerate with more messages
// than machines (so that a machine can take several chunks, which the link-and-tail
// cuts must allow) and loads up to several times a machine's ρ.
func chunky(t *testing.T, count int, seed uint64) []*dm.Instance {
	return generated(t, count, seed, 26, 15000, 5, func(k int) (m, n int) {
		m, n = 2+k%2, 3+k%2+k%3
		if m == 3 {
			n = min(n, 5)
		}
		return m, n
	})
}

// generated returns count random §6.4 instances of the sizes size gives (instance k:
// m machines, n messages), V uniform in [500, 500 + vSpan] MB (drawn from the stream
// stream of seed), every identEvery-th one with M_1 a copy of M_0 (identical
// machines: the symmetry rule).
func generated(t *testing.T, count int, seed, stream uint64, vSpan float64, identEvery int, size func(k int) (m, n int)) []*dm.Instance {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, stream))
	var out []*dm.Instance
	for k := range count {
		m, n := size(k)
		in, err := dm.Generate(dm.GenConfig{M: m, N: n, V: 500 + vSpan*r.Float64(), P0N: 100, Seed: seed*1000 + uint64(k)})
		if err != nil {
			t.Fatal(err)
		}
		if k%identEvery == identEvery-1 {
			in.Machines[1] = in.Machines[0]
		}
		out = append(out, in)
	}
	return out
}

// TestLinkTailBoundIsBelowEveryCompletion walks every prefix of random tiny instances
// (those of tiny and chunky) at a target just above the optimum and at a looser one,
// and checks that the node bound with the link-and-tail cuts is below the best
// completion (by exact/dltseq's sequence LPs), that no node with a completion below
// the target is declared infeasible, and that the cuts did raise some bounds.
func TestLinkTailBoundIsBelowEveryCompletion(t *testing.T) {
	raised, nodes := 0, 0
	atTargets(t, append(tiny(t, 20, 26), chunky(t, 24, 27)...), func(k int, in *dm.Instance, target float64) {
		with, without := searchAt(in, target, Options{}), searchAt(in, target, Options{NoLinkTail: true})
		var walk func(prefix []int, cuts [][]int)
		walk = func(prefix []int, cuts [][]int) {
			best := completions(t, in, prefix)
			_, b, c, ok, err := with.solve(prefix, cuts, nil)
			if err != nil {
				t.Fatalf("instance %d prefix %v: %v", k, prefix, err)
			}
			_, b0, _, ok0, err := without.solve(prefix, cuts, nil)
			if err != nil {
				t.Fatalf("instance %d prefix %v: %v", k, prefix, err)
			}
			if best < target {
				checkNodeBound(t, k, prefix, target, best, b, ok)
				nodes++
				if ok0 && b > b0*(1+1e-4) {
					raised++
				}
			}
			if len(prefix) < in.N && ok {
				for i := range in.M() {
					walk(append(append([]int(nil), prefix...), i), c)
				}
			}
		}
		walk(nil, nil)
	})
	t.Logf("%d of %d nodes with a completion below the target: bound raised by the cuts", raised, nodes)
	if raised == 0 {
		t.Fatal("no node bound was raised: the test checks nothing")
	}
}

// TestSolveWithAndWithoutLinkTailAgree solves random tiny instances with and without
// the link-and-tail cuts: the same optimum, within the gap, as the enumeration.
func TestSolveWithAndWithoutLinkTailAgree(t *testing.T) {
	agreeWithEnumeration(t, append(tiny(t, 12, 28), chunky(t, 18, 29)...), map[string]Options{"link-tail": {}, "no link-tail": {NoLinkTail: true}})
}

// agreeWithEnumeration solves each instance (a third with a deadline, withDeadline)
// with each of the variants' options at gap 0 and 1 %, on one thread or two, and
// checks the outcome against the enumeration of exact/dltseq: optimal, feasible
// alike, T within the gap of the optimum and the bound below it. It returns the
// results by variant, for the caller's own checks.
func agreeWithEnumeration(t *testing.T, instances []*dm.Instance, variants map[string]Options) map[string][]*Result {
	t.Helper()
	out := map[string][]*Result{}
	for k, in := range instances {
		withDeadline(in, k)
		want, err := dltseq.Solve(context.Background(), in, dltseq.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for name, opt := range variants {
			for _, gap := range []float64{0, 0.01} {
				opt.Gap, opt.Threads = gap, 1+k%2
				res, err := Solve(context.Background(), in, certifiedSimplex, opt)
				if err != nil {
					t.Fatalf("instance %d (%s): %v", k, name, err)
				}
				out[name] = append(out[name], res)
				if !res.Optimal || res.Feasible != want.Feasible {
					t.Fatalf("instance %d (%s): optimal %v feasible %v, enumeration feasible %v", k, name, res.Optimal, res.Feasible, want.Feasible)
				}
				if !res.Feasible {
					continue
				}
				tol := 2 * lpBoundSlack * want.Objective
				if res.T < want.Objective-tol || res.T > want.Objective/(1-gap)+tol || res.Bound > want.Objective+tol {
					t.Fatalf("instance %d gap %g (%s): T %g, bound %g; enumeration %g", k, gap, name, res.T, res.Bound, want.Objective)
				}
			}
		}
	}
	return out
}
