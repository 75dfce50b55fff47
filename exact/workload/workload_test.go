package workload

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	dw "github.com/schedopt/schedopt/domain/workload"
)

// fig10 is the worked example of seed 000 (Fig. 10).
func fig10() *dw.Instance { return dw.Fig10() }

type tri struct {
	T, E  float64
	Sizes []int
}

func triples(f Front) []tri {
	out := make([]tri, len(f))
	for i, q := range f {
		out[i] = tri{q.T, q.E, q.Sizes}
	}
	return out
}

func TestFig10(t *testing.T) {
	ctx := context.Background()
	in := fig10()
	if err := in.Validate(); err != nil {
		t.Fatal(err)
	}
	ts := in.Tables()
	want := []tri{{2, 5, []int{2, 0, 2, 0}}, {3, 4, []int{2, 1, 0, 1}}, {6, 2, []int{2, 2, 0, 0}}}

	t.Run("brute force finds 35 feasible distributions and the three front points", func(t *testing.T) {
		all, err := BruteForce(ctx, ts, 1e6)
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != 35 {
			t.Errorf("%d feasible distributions, want 35", len(all))
		}
		if got := triples(NonDominated(all)); !reflect.DeepEqual(got, want) {
			t.Errorf("front %v, want %v", got, want)
		}
		var opt []string
		for _, q := range all {
			if q.T == 2 {
				opt = append(opt, fmt.Sprint(q.Sizes, q.E))
			}
		}
		if len(opt) != 5 {
			t.Errorf("%d distributions reach makespan 2 (%v), want 5", len(opt), opt)
		}
	})
	t.Run("the DP, the MCKP sweep and HEPOPTA give the paper's front", func(t *testing.T) {
		dp, err := ParetoDP(ctx, ts)
		if err != nil {
			t.Fatal(err)
		}
		sw, err := MCKPSweep(ctx, ts)
		if err != nil {
			t.Fatal(err)
		}
		h, err := HEPOPTA(ctx, ts, HEPOPTAOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for name, f := range map[string]Front{"dp": dp, "sweep": sw, "hepopta": h.Front} {
			if got := triples(f); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: front %v, want %v", name, got, want)
			}
		}
	})
	t.Run("HEPOPTA's epsilon, sigma and memo cells match the paper", func(t *testing.T) {
		h, err := HEPOPTA(ctx, ts, HEPOPTAOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if h.Epsilon != 5 {
			t.Errorf("ε = %g, want 5", h.Epsilon)
		}
		if !reflect.DeepEqual(h.Sigma, []int{8, 5, 3, 1}) {
			t.Errorf("σ = %v, want [8 5 3 1]", h.Sigma)
		}
		cells := []struct {
			c, w int
			want []MemTuple
		}{
			{2, 2, []MemTuple{{Eng: 4, Time: 2, Part: 2, Active: 1}, {Eng: 6, Time: 1, Part: 1, Active: 2}}},
			{2, 3, []MemTuple{{Eng: 5, Time: 2, Part: 2, Active: 2}}},
			{1, 4, []MemTuple{{Eng: 5, Time: 6, Part: 2, Active: 2, Key: 4}, {Eng: 7, Time: 3, Part: 1, Active: 3, Key: 5}}},
		}
		for _, c := range cells {
			got, ok := h.Mem(c.c, c.w)
			if !ok {
				t.Errorf("PMem[%d][%d] was never expanded", c.c, c.w)
				continue
			}
			// The key of a tuple whose child is the last processor is not a pointer.
			if c.c == 2 {
				for i := range got {
					got[i].Key = 0
				}
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("PMem[%d][%d] = %+v, want %+v", c.c, c.w, got, c.want)
			}
		}
		if _, ok := h.Mem(2, 4); ok {
			t.Errorf("PMem[2][4] was expanded, but node 4(a) is cut by σ_2 = 3")
		}
		if h.Stats.Cuts == 0 || h.Stats.MemReads == 0 {
			t.Errorf("stats %+v: want cuts and memo reads on this example", h.Stats)
		}
	})
	t.Run("HTPOPTA keeps all three points at P_S=0.5 and one at P_S=1 and 3", func(t *testing.T) {
		h, _ := HEPOPTA(ctx, ts, HEPOPTAOptions{})
		cases := []struct {
			ps   float64
			want [][2]float64
		}{
			{0.5, [][2]float64{{2, 6}, {3, 5.5}, {6, 5}}},
			{1, [][2]float64{{2, 7}}},
			{3, [][2]float64{{2, 11}}},
		}
		for _, c := range cases {
			var got [][2]float64
			for _, q := range HTPOPTA(h.Front, c.ps) {
				got = append(got, [2]float64{q.T, q.E})
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("P_S=%g: %v, want %v", c.ps, got, c.want)
			}
		}
	})
}

// randomTables returns a random instance with p processors of up to m points of size
// ≤ maxSize, with small integer or fractional values (ties included).
func randomInstance(r *rand.Rand, p, m, maxSize int, identical bool) *dw.Instance {
	in := &dw.Instance{Kind: "workload", Objective: dw.ObjPareto}
	var first dw.Processor
	total := 0
	for i := 0; i < p; i++ {
		if identical && i > 0 {
			in.Processors = append(in.Processors, first)
			total += first.Points[len(first.Points)-1].Size
			continue
		}
		perm := r.Perm(maxSize)
		k := 1 + r.IntN(m)
		proc := dw.Processor{Name: fmt.Sprint("p", i)}
		big := 0
		for j := 0; j < k; j++ {
			s := perm[j] + 1
			big = max(big, s)
			val := func() float64 {
				if r.IntN(2) == 0 {
					return float64(1 + r.IntN(9))
				}
				return math.Round(r.Float64()*1000) / 100
			}
			proc.Points = append(proc.Points, dw.Point{Size: s, Time: val(), Energy: val()})
		}
		total += big
		if i == 0 {
			first = proc
		}
		in.Processors = append(in.Processors, proc)
	}
	in.N = 1 + r.IntN(max(1, total))
	return in
}

func values(f Front) [][2]float64 {
	out := make([][2]float64, len(f))
	for i, q := range f {
		out[i] = [2]float64{q.T, q.E}
	}
	return out
}

func sameFront(a, b Front) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].T != b[i].T || !EqualEnergy(a[i].E, b[i].E) {
			return false
		}
	}
	return true
}

// checkDistributions re-evaluates every point from the tables.
func checkDistributions(t *testing.T, in *dw.Instance, name string, f Front) {
	t.Helper()
	for k, q := range f {
		ev, err := in.Evaluate(q.Sizes)
		if err != nil {
			t.Errorf("%s: point %d: %v", name, k, err)
			continue
		}
		if ev.T != q.T || !EqualEnergy(ev.Dynamic, q.E) || ev.Active != q.Active {
			t.Errorf("%s: point %d reports (%g, %g, %d), tables give (%g, %g, %d)", name, k, q.T, q.E, q.Active, ev.T, ev.Dynamic, ev.Active)
		}
	}
}

func TestRandomFrontsAgree(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(5, 3))
	tested := 0
	for trial := 0; trial < 300; trial++ {
		identical := trial%4 == 3
		in := randomInstance(r, 1+r.IntN(4), 1+r.IntN(4), 6, identical)
		if in.Validate() != nil {
			continue // n unreachable: Validate's business, tested in domain
		}
		tested++
		ts := in.Tables()
		all, err := BruteForce(ctx, ts, 1e6)
		if err != nil {
			t.Fatal(err)
		}
		bf := NonDominated(all)
		dp, err := ParetoDP(ctx, ts)
		if err != nil {
			t.Fatalf("trial %d: dp: %v", trial, err)
		}
		sw, err := MCKPSweep(ctx, ts)
		if err != nil {
			t.Fatalf("trial %d: sweep: %v", trial, err)
		}
		h, err := HEPOPTA(ctx, ts, HEPOPTAOptions{})
		if err != nil {
			t.Fatalf("trial %d: hepopta: %v", trial, err)
		}
		// Prop. 10.3: ε from any time-optimal distribution; take the most expensive.
		epsMax := 0.0
		for _, q := range all {
			if q.T == bf[0].T {
				epsMax = math.Max(epsMax, q.E)
			}
		}
		h2, err := HEPOPTA(ctx, ts, HEPOPTAOptions{Epsilon: &epsMax})
		if err != nil {
			t.Fatalf("trial %d: hepopta(ε max): %v", trial, err)
		}
		fronts := map[string]Front{"dp": dp, "sweep": sw, "hepopta": h.Front, "hepopta-εmax": h2.Front}
		if ts.Identical() {
			id, err := IdenticalSweep(ctx, ts)
			if err != nil {
				t.Fatalf("trial %d: identical: %v", trial, err)
			}
			fronts["identical"] = id
		}
		for name, f := range fronts {
			if !sameFront(f, bf) {
				t.Errorf("trial %d: %s front %v, brute force %v", trial, name, values(f), values(bf))
			}
			checkDistributions(t, in, name, f)
		}
		// Minimality: the representatives of dp, sweep, HEPOPTA and identical have the fewest
		// active processors, like the brute-force filter.
		for _, name := range []string{"dp", "sweep", "hepopta", "identical"} {
			f, ok := fronts[name]
			if !ok || !sameFront(f, bf) {
				continue
			}
			for k := range f {
				if f[k].Active != bf[k].Active {
					t.Errorf("trial %d: %s point %d has %d active processors, brute force %d", trial, name, k, f[k].Active, bf[k].Active)
				}
			}
		}
		checkInvariants(t, ctx, trial, in, ts, dp, all)
	}
	t.Logf("tested %d", tested)
	if tested < 150 {
		t.Fatalf("only %d of 300 random instances were feasible", tested)
	}
}

// checkInvariants checks R2 of ref §5.2 on one instance.
func checkInvariants(t *testing.T, ctx context.Context, trial int, in *dw.Instance, ts *dw.Tables, f Front, all []Point) {
	t.Helper()
	summ := 0
	for _, tb := range ts.Procs {
		summ += tb.Len()
	}
	if len(f) > summ || len(f) > len(Thetas(ts)) {
		t.Errorf("trial %d: front of %d points exceeds Σm = %d or |Θ|", trial, len(f), summ)
	}
	for k := 1; k < len(f); k++ {
		if !(f[k].T > f[k-1].T) || !less(f[k].E, f[k-1].E) {
			t.Errorf("trial %d: front not strictly monotone at %d: %v", trial, k, values(f))
		}
	}
	tstar, err := MinMakespan(ctx, ts)
	if err != nil {
		t.Fatal(err)
	}
	emin, _, _ := MinEnergy(ctx, ts, math.Inf(1))
	etopt, _, _ := MinEnergy(ctx, ts, tstar)
	last := f[len(f)-1]
	if f[0].T != tstar || !EqualEnergy(f[0].E, etopt.E) {
		t.Errorf("trial %d: first point (%g, %g), want T* = %g with E = %g", trial, f[0].T, f[0].E, tstar, etopt.E)
	}
	// The last point is EOPT's optimum at its smallest makespan: no faster threshold
	// reaches E_min.
	if !EqualEnergy(last.E, emin.E) || last.T > emin.T {
		t.Errorf("trial %d: last point (%g, %g), want the min-energy optimum (%g, %g)", trial, last.T, last.E, emin.T, emin.E)
	}
	for _, tau := range Thetas(ts) {
		if tau >= last.T {
			break
		}
		if q, ok, _ := MinEnergy(ctx, ts, tau); ok && EqualEnergy(q.E, emin.E) {
			t.Errorf("trial %d: threshold %g < %g already reaches E_min", trial, tau, last.T)
		}
	}
	for _, ps := range []float64{0, 0.3, 1, 4} {
		tot := HTPOPTA(f, ps)
		// Brute-force total-energy front.
		var tp []Point
		for _, q := range all {
			q.E += ps * q.T
			tp = append(tp, q)
		}
		want := NonDominated(tp)
		if !sameFront(tot, want) {
			t.Errorf("trial %d: P_S=%g: HTPOPTA %v, brute force %v", trial, ps, values(tot), values(want))
		}
		for _, q := range tot {
			found := false
			for _, d := range f {
				found = found || (d.T == q.T && EqualEnergy(d.E+ps*d.T, q.E))
			}
			if !found {
				t.Errorf("trial %d: P_S=%g: total-energy point (%g, %g) not on the dynamic front", trial, ps, q.T, q.E)
			}
		}
		mt, _ := MinTotal(f, ps)
		if len(tot) > 0 && !EqualEnergy(mt.E+ps*mt.T, tot[len(tot)-1].E) {
			t.Errorf("trial %d: P_S=%g: min total %g is not the last total-front point %g", trial, ps, mt.E+ps*mt.T, tot[len(tot)-1].E)
		}
	}
}

// linear builds p processors with t_i(x) = a_i·x and e_i(x) = b_i·x for x = 1..n.
func linear(n int, a, b []float64) *dw.Instance {
	in := &dw.Instance{Kind: "workload", N: n, Objective: dw.ObjPareto}
	for i := range a {
		p := dw.Processor{Name: fmt.Sprint("p", i)}
		for x := 1; x <= n; x++ {
			p.Points = append(p.Points, dw.Point{Size: x, Time: a[i] * float64(x), Energy: b[i] * float64(x)})
		}
		in.Processors = append(in.Processors, p)
	}
	return in
}

func TestLinearProfiles(t *testing.T) {
	ctx := context.Background()
	t.Run("p=2: the count formula and the line e = b_g·n − (b_g−b_f)/a_f·t hold", func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 2))
		for trial := 0; trial < 300; trial++ {
			a0, a1 := float64(1+r.IntN(9)), float64(1+r.IntN(9))
			b0 := float64(1 + r.IntN(8))
			b1 := b0 + float64(1+r.IntN(int(9-b0)))
			n := 1 + r.IntN(40)
			f, err := ParetoDP(ctx, linear(n, []float64{a0, a1}, []float64{b0, b1}).Tables())
			if err != nil {
				t.Fatal(err)
			}
			xt := a1 * float64(n) / (a0 + a1)
			want := n - int(math.Ceil(xt)) + 1
			if xt != math.Floor(xt) && a1*(float64(n)-math.Floor(xt)) < a0*math.Ceil(xt) {
				want++
			}
			if len(f) != want {
				t.Errorf("a=(%g,%g) b=(%g,%g) n=%d: %d points, formula %d", a0, a1, b0, b1, n, len(f), want)
			}
			for _, q := range f {
				if q.T == a0*float64(q.Sizes[0]) { // makespan set by the efficient processor
					if e := b1*float64(n) - (b1-b0)/a0*q.T; math.Abs(e-q.E) > 1e-9 {
						t.Errorf("a=(%g,%g) b=(%g,%g) n=%d: point (%g, %g) off the line (e=%g)", a0, a1, b0, b1, n, q.T, q.E, e)
					}
				}
			}
		}
	})
	t.Run("p=3, a=(1,1,1), b=(1,2,3), n=30: 21 points with a breakpoint at t=15", func(t *testing.T) {
		f, err := ParetoDP(ctx, linear(30, []float64{1, 1, 1}, []float64{1, 2, 3}).Tables())
		if err != nil {
			t.Fatal(err)
		}
		if len(f) != 21 {
			t.Fatalf("%d points, want 21", len(f))
		}
		for _, q := range f {
			want := 30 + (30 - q.T) // E = 60 − 3(t−10) on [10,15] and 30 + (30 − t) beyond
			if q.T <= 15 {
				want = 60 - 3*(q.T-10)
			}
			if q.E != want {
				t.Errorf("point (%g, %g), want E = %g", q.T, q.E, want)
			}
		}
		if f[0].T != 10 || f[0].E != 60 || f[20].T != 30 || f[20].E != 30 {
			t.Errorf("endpoints (%g,%g) and (%g,%g), want (10,60) and (30,30)", f[0].T, f[0].E, f[20].T, f[20].E)
		}
	})
	t.Run("equal energy slopes give the single time-optimal point", func(t *testing.T) {
		f, err := ParetoDP(ctx, linear(20, []float64{1, 3}, []float64{2, 2}).Tables())
		if err != nil {
			t.Fatal(err)
		}
		if len(f) != 1 || f[0].E != 40 || f[0].T != 15 {
			t.Errorf("front %v, want [(15, 40)]", values(f))
		}
	})
	t.Run("identical processors with linear energy give one point", func(t *testing.T) {
		f, err := IdenticalSweep(ctx, linear(24, []float64{2, 2, 2, 2}, []float64{1.5, 1.5, 1.5, 1.5}).Tables())
		if err != nil {
			t.Fatal(err)
		}
		if len(f) != 1 || f[0].T != 12 || f[0].E != 36 {
			t.Errorf("front %v, want [(12, 36)]", values(f))
		}
	})
}

func TestAdaptAleph(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, 7))
	for trial := 0; trial < 80; trial++ {
		in := randomInstance(r, 2+r.IntN(4), 2+r.IntN(5), 8, true)
		if in.Validate() != nil {
			continue
		}
		ts := in.Tables()
		global, err := ParetoDP(ctx, ts)
		if err != nil {
			t.Fatal(err)
		}
		res, err := AdaptAleph(ctx, ts, 1<<20)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		if res.Fallback {
			t.Fatalf("trial %d: identical tables reported heterogeneous", trial)
		}
		checkDistributions(t, in, "aleph", res.Front)
		if res.TimeOpt.T != global[0].T {
			t.Errorf("trial %d: ALEPHCORE(TIME) = %g, optimum %g", trial, res.TimeOpt.T, global[0].T)
		}
		if !EqualEnergy(res.EnergyOpt.E, global[len(global)-1].E) {
			t.Errorf("trial %d: ALEPHCORE(ENERGY) = %g, optimum %g", trial, res.EnergyOpt.E, global[len(global)-1].E)
		}
		// The local front is weakly dominated by the global one.
		for _, q := range res.Front {
			dominated := false
			for _, g := range global {
				dominated = dominated || (g.T <= q.T && !less(q.E, g.E))
			}
			if !dominated {
				t.Errorf("trial %d: local point (%g, %g) beats the global front %v", trial, q.T, q.E, values(global))
			}
		}
	}
	t.Run("T=0 returns the load-balanced distribution", func(t *testing.T) {
		in := linear(10, []float64{1, 1, 1}, []float64{1, 1, 1})
		res, err := AdaptAleph(ctx, in.Tables(), 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Front) != 1 || !reflect.DeepEqual(res.Front[0].Sizes, []int{4, 3, 3}) {
			t.Errorf("front %+v, want the balanced {4,3,3}", res.Front)
		}
	})
	t.Run("heterogeneous processors fall back to the balanced distribution", func(t *testing.T) {
		in := linear(10, []float64{1, 1.2}, []float64{1, 1})
		res, err := AdaptAleph(ctx, in.Tables(), 3)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Fallback || len(res.Front) != 1 || !reflect.DeepEqual(res.Front[0].Sizes, []int{5, 5}) {
			t.Errorf("got fallback=%v front %+v, want the balanced {5,5}", res.Fallback, res.Front)
		}
	})
}
