package dltbb

import (
	"context"
	"math"
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
// (those of tiny, chunky and spread: more machines than messages) at a target just above the optimum and at a looser one,
// and checks that the node bound with the link-and-tail cuts is below the best
// completion (by exact/dltseq's sequence LPs), that no node with a completion below
// the target is declared infeasible, and that the cuts did raise some bounds.
func TestLinkTailBoundIsBelowEveryCompletion(t *testing.T) {
	raised, nodes := 0, 0
	instances := append(append(tiny(t, 20, 26), chunky(t, 24, 27)...), spread(t, 12, 31)...)
	atTargets(t, instances, func(k int, in *dm.Instance, target float64) {
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

// TestTailCutIsBelowItsBoundAtWholeCounts checks the algebra of tailCoef on its own:
// at random suffix loads, with random whole message counts (k_i >= 1 for a machine
// with load, Σ k_i <= B, k_i <= K), the cut's right side, for prices taken at another
// random point, is below the bound it linearises, ½Q + Σ_i [v_i Q_i² + u_i Q_i²/k_i]/Q
// (the worst case of Σ_c q_c² >= Q_i²/k_i). A cut that charged a machine with load as
// if it took two messages, or the perspective v_i Q_i²/k_i beyond k_i = 1, fails it.
func TestTailCutIsBelowItsBoundAtWholeCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 31))
	checked, tight := 0, 0
	for trial := range 3000 {
		m := 2 + trial%7
		in := &dm.Instance{V: 1000, N: 1 + rng.IntN(12)}
		for range m {
			in.Machines = append(in.Machines, dm.Machine{C: 0.001 + 0.01*rng.Float64(), A1: 0.02 + 0.15*rng.Float64()})
		}
		r := &relax{in: in, m: m}
		B := float64(in.N)
		K := float64(1 + rng.IntN(in.N))
		all := make([]bool, m)
		for i := range all {
			all[i] = true
		}
		// Whole counts first, then loads on the machines they use.
		k := make([]float64, m)
		left := in.N
		for i := range m {
			if left > 0 && rng.IntN(3) > 0 {
				k[i] = float64(1 + rng.IntN(min(left, int(K))))
				left -= int(k[i])
			}
		}
		beta := make([]float64, m)
		at := make([]float64, m)
		for i := range m {
			if k[i] > 0 {
				beta[i] = 1000 * rng.Float64()
			}
			if rng.IntN(4) > 0 {
				at[i] = 1000 * rng.Float64()
			}
		}
		coef, _ := r.tailCoef(all, at, K, B)
		if coef == nil {
			continue
		}
		Q, rhs, cut := 0.0, 0.0, 0.0
		for i, mc := range in.Machines {
			Q += mc.C * beta[i]
			cut += coef[i] * beta[i]
		}
		if Q == 0 {
			continue
		}
		for i, mc := range in.Machines {
			if k[i] > 0 {
				q := mc.C * beta[i]
				rhs += ((mc.C+mc.A1)/(2*mc.C)*q*q + mc.A1/(2*mc.C)*q*q/k[i]) / Q
			}
		}
		rhs += Q / 2
		checked++
		if cut > rhs*(1+1e-9) {
			t.Fatalf("trial %d: cut %g above the bound %g (k %v, K %g, B %g)", trial, cut, rhs, k, K, B)
		}
		if cut > rhs*(1-1e-6) {
			tight++
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d trials checked", checked)
	}
	t.Logf("%d trials, %d with the cut within 1e-6 of the bound", checked, tight)
}

// TestChunkTermIsTheMinimum checks chunkTerm.value against a search over k: φ(x) =
// min_k v max(x², x²/k) + u x²/k + μk, and its derivative in x against a difference.
func TestChunkTermIsTheMinimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 31))
	for trial := range 2000 {
		ct := chunkTerm{v: 0.5 + 20*rng.Float64(), u: 20 * rng.Float64(), x: rng.Float64()}
		mu := math.Pow(10, -4+4*rng.Float64())
		f := func(x, k float64) float64 {
			return ct.v*math.Max(x*x, x*x/k) + ct.u*x*x/k + mu*k
		}
		best := math.Inf(1)
		for e := -6.0; e <= 4; e += 1e-3 {
			best = math.Min(best, f(ct.x, math.Pow(10, e)))
		}
		phi, d := ct.value(mu)
		if phi > best*(1+1e-9) || phi < best*(1-1e-4) {
			t.Fatalf("trial %d %+v μ %g: φ %g, search %g", trial, ct, mu, phi, best)
		}
		k := ct.count(mu)
		if got := f(ct.x, k); math.Abs(got-phi) > 1e-9*math.Max(1, phi) {
			t.Fatalf("trial %d: the term at count %g is %g, φ %g", trial, k, got, phi)
		}
		h := 1e-6
		lo, hi := ct, ct
		lo.x, hi.x = ct.x-h, ct.x+h
		plo, _ := lo.value(mu)
		phi2, _ := hi.value(mu)
		if fd := (phi2 - plo) / (2 * h); math.Abs(fd-d) > 1e-4*math.Max(1, math.Abs(d)) {
			t.Fatalf("trial %d %+v μ %g: derivative %g, difference %g", trial, ct, mu, d, fd)
		}
	}
}

// TestStoredTailsNeedTheirForcedMachines checks the rule by which nodes share the
// link-and-tail cuts of their prefix (tailStore): with more machines than messages,
// a cut made in the half of a count split where M_i takes a message (so counted as
// forced) must not reach the other half, where M_i takes none, nor its children;
// it must reach the first half's own children, those that send M_i a message, and
// every node of an instance with m <= n.
func TestStoredTailsNeedTheirForcedMachines(t *testing.T) {
	in := spread(t, 4, 61)[3] // m = n + 2
	if in.M() <= in.N {
		t.Fatalf("want more machines than messages, have m = %d, n = %d", in.M(), in.N)
	}
	s := searchAt(in, math.Inf(1), Options{})
	i, j := 0, 1
	rem := in.N
	forcedHalf := (*loads)(nil).withCount(i, 1, rem, rem, in.M())
	otherHalf := (*loads)(nil).withCount(i, 0, 0, rem, in.M())
	cut := tailCut{from: 0, release: -1, coef: make([]float64, in.M())}
	s.tails.put(nil, tailEntry{forced: s.rx.countForced(s.rx.forced, forcedHalf), tails: []tailCut{cut}})
	child := func(lb *loads, k int) *loads {
		out, ok := lb.child(k)
		if !ok {
			t.Fatalf("M%d has no message left", k+1)
		}
		return out
	}
	for _, c := range []struct {
		name string
		seq  []int
		from int
		lb   *loads
		want bool
	}{
		{"the forced half itself", nil, 0, forcedHalf, true},
		{"a child of the forced half", []int{j}, 0, child(forcedHalf, j), true},
		{"the child that serves M_i", []int{i}, 0, child(forcedHalf, i), true},
		{"the other half", nil, 0, otherHalf, false},
		{"a child of the other half", []int{j}, 0, child(otherHalf, j), false},
	} {
		if got := len(s.storedTails(c.seq, c.from, c.lb)) > 0; got != c.want {
			t.Errorf("%s: cuts taken %v, want %v", c.name, got, c.want)
		}
	}
	// Once the other half has stored its own cuts, it takes those, and the forced
	// half keeps taking its own, which assume more.
	own := tailCut{from: 0, release: -1, coef: make([]float64, in.M()), margin: 2}
	s.tails.put(nil, tailEntry{forced: s.rx.countForced(s.rx.forced, otherHalf), tails: []tailCut{own}})
	if got := s.storedTails(nil, 0, otherHalf); len(got) != 1 || got[0].margin != 2 {
		t.Errorf("the other half took %v, want its own cut", got)
	}
	if got := s.storedTails([]int{j}, 0, child(forcedHalf, j)); len(got) != 1 || got[0].margin != 0 {
		t.Errorf("a child of the forced half took %v, want the forced half's cut", got)
	}
	// With m <= n a count range forces nothing, so every node takes the cuts.
	small := chunky(t, 1, 62)[0]
	if small.M() > small.N {
		t.Fatalf("want m <= n, have m = %d, n = %d", small.M(), small.N)
	}
	s = searchAt(small, math.Inf(1), Options{})
	lb := (*loads)(nil).withCount(i, 1, small.N, small.N, small.M())
	if f := s.rx.countForced(s.rx.forced, lb); f != nil {
		t.Fatalf("m <= n: count range forced %v", f)
	}
	s.tails.put(nil, tailEntry{forced: s.rx.countForced(s.rx.forced, lb), tails: []tailCut{cut}})
	if len(s.storedTails(nil, 0, (*loads)(nil).withCount(i, 0, 0, small.N, small.M()))) == 0 {
		t.Error("m <= n: the other half did not take the cuts")
	}
	s.tails.put(nil, tailEntry{forced: s.rx.countForced(s.rx.forced, lb), tails: []tailCut{own}})
	if got := s.tails.get(nil); len(got) != 1 {
		t.Errorf("m <= n: a prefix keeps %d entries, want its last node's only", len(got))
	}
}
