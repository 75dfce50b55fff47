package partition

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedopt/schedopt/domain/partition"
)

func proc(tf, tb, ef, eb, ps float64) partition.Processor {
	return partition.Processor{TimePerFlop: tf, TimePerByte: tb, EnergyPerFlop: ef, EnergyPerByte: eb, StaticPower: ps}
}

func solve(t *testing.T, in *partition.Instance) Result {
	t.Helper()
	res, err := Solve(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Feasible {
		rep, err := in.Evaluate(res.Solution)
		if err != nil || !rep.OK {
			t.Fatalf("the evaluator rejects the exact solution: %v %s", err, rep.Worst)
		}
	}
	return res
}

func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// Two portions, one pure compute and one pure memory, on processors with equal flop
// rates: the makespan 0.5 needs both portions split (an interior point of the
// zonotope), while the best threshold partition reaches only 0.8.
func TestThresholdAloneIsNotExact(t *testing.T) {
	in := &partition.Instance{Objective: partition.ObjMinTime,
		Processors: []partition.Processor{proc(1, 0.9, 0, 0, 0), proc(1, 0.8, 0, 0, 0)},
		Portions:   []partition.Portion{{Flops: 1, Split: partition.Divisible}, {Bytes: 1, Split: partition.Divisible}}}
	res := solve(t, in)
	if !near(res.Objective, 0.5) {
		t.Errorf("exact T = %v, want 0.5", res.Objective)
	}
	thr, err := SolveThresholdOnly(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if !near(thr.Objective, 0.8) {
		t.Errorf("threshold-only T = %v, want 0.8", thr.Objective)
	}
}

func randProc(r *rand.Rand) partition.Processor {
	return proc(0.2+r.Float64()*2, 0.2+r.Float64()*2, r.Float64()*3, r.Float64()*3, r.Float64()*2)
}

func randPortion(r *rand.Rand, split partition.Split) partition.Portion {
	q := partition.Portion{Flops: float64(r.IntN(10)), Bytes: float64(r.IntN(10)), Split: split}
	if r.IntN(5) == 0 {
		q.Flops = 0
	}
	if split == partition.Chunks {
		q.Chunks = 1 + r.IntN(4)
	}
	return q
}

func objectiveName(r *rand.Rand) string {
	if r.IntN(2) == 0 {
		return partition.ObjMinTime
	}
	return partition.ObjMinEnergy
}

func TestPDPIsTheSingleDivisibleTimeOptimum(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for it := 0; it < 200; it++ {
		K := 1 + r.IntN(5)
		in := &partition.Instance{Objective: partition.ObjMinTime}
		w := make([]float64, K)
		q := partition.Portion{Flops: 1 + float64(r.IntN(100)), Bytes: float64(r.IntN(100)), Split: partition.Divisible}
		for k := 0; k < K; k++ {
			p := randProc(r)
			in.Processors = append(in.Processors, p)
			w[k] = p.Work(q.Flops, q.Bytes)
		}
		in.Portions = []partition.Portion{q}
		T, x := PDP(w)
		// An empty whole portion sends Solve through the capacity-root algorithm
		// instead of the closed form.
		viaRoot := *in
		viaRoot.Portions = []partition.Portion{q, {Split: partition.Whole}}
		if res := solve(t, &viaRoot); !near(res.Objective, T) {
			t.Fatalf("iteration %d: capacity root %v, p-DP %v", it, res.Objective, T)
		}
		ms, _ := in.Measure([][]float64{x})
		if !near(ms.T, T) {
			t.Fatalf("p-DP fractions give %v, closed form %v", ms.T, T)
		}
	}
}

// L186: the best DP-based WP for energy is one of CO, GO and p-DP.
func TestSingleDivisibleEnergyOptimumIsCOGOOrPDP(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for it := 0; it < 300; it++ {
		in := &partition.Instance{Objective: partition.ObjMinEnergy,
			Processors: []partition.Processor{randProc(r), randProc(r)},
			Portions:   []partition.Portion{{Flops: 1 + float64(r.IntN(50)), Bytes: 1 + float64(r.IntN(50)), Split: partition.Divisible}}}
		q := in.Portions[0]
		_, x := PDP([]float64{in.Processors[0].Work(q.Flops, q.Bytes), in.Processors[1].Work(q.Flops, q.Bytes)})
		best := math.Inf(1)
		for _, fr := range [][]float64{{1, 0}, {0, 1}, x} {
			ms, _ := in.Measure([][]float64{fr})
			best = math.Min(best, ms.E)
		}
		if res := solve(t, in); !near(res.Objective, best) {
			t.Fatalf("iteration %d: exact %v, min of CO/GO/p-DP %v", it, res.Objective, best)
		}
	}
}

// bruteDiscrete enumerates every placement of whole and chunked portions (no
// divisible ones) and returns the best objective meeting the deadline.
func bruteDiscrete(in *partition.Instance) (float64, bool) {
	K := len(in.Processors)
	fr := make([][]float64, len(in.Portions))
	for j := range fr {
		fr[j] = make([]float64, K)
	}
	best, found := math.Inf(1), false
	var rec func(j int)
	rec = func(j int) {
		if j == len(in.Portions) {
			ms, _ := in.Measure(fr)
			if ms.T <= in.DeadlineValue()*(1+1e-12) {
				if v := ms.Objective(in.Objective); v < best {
					best, found = v, true
				}
			}
			return
		}
		g := 1
		if in.Portions[j].Split == partition.Chunks {
			g = in.Portions[j].Chunks
		}
		var comp func(k, rem int)
		comp = func(k, rem int) {
			if k == K-1 {
				fr[j][k] = float64(rem) / float64(g)
				rec(j + 1)
				return
			}
			for n := 0; n <= rem; n++ {
				fr[j][k] = float64(n) / float64(g)
				comp(k+1, rem-n)
			}
		}
		comp(0, g)
	}
	rec(0)
	return best, found
}

func TestEnumerationMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for it := 0; it < 300; it++ {
		K := 1 + r.IntN(3)
		in := &partition.Instance{Objective: objectiveName(r)}
		for k := 0; k < K; k++ {
			in.Processors = append(in.Processors, randProc(r))
		}
		n := 1 + r.IntN(8)
		if K == 3 {
			n = 1 + r.IntN(6)
		}
		for j := 0; j < n; j++ {
			split := partition.Whole
			if r.IntN(3) == 0 {
				split = partition.Chunks
			}
			in.Portions = append(in.Portions, randPortion(r, split))
		}
		if r.IntN(3) == 0 {
			d := in.FreeSplitTime() + r.Float64()*(in.MaxTime()-in.FreeSplitTime())
			in.Deadline = &d
		}
		want, feasible := bruteDiscrete(in)
		res := solve(t, in)
		if res.Feasible != feasible || (feasible && !near(res.Objective, want)) {
			t.Fatalf("iteration %d: exact %v (feasible %v), brute force %v (feasible %v)", it, res.Objective, res.Feasible, want, feasible)
		}
	}
}

// gridBound minimises over a grid of step 1/steps on processor 0's fractions of two
// or three divisible portions on two processors: the grid minimum is an upper bound on
// the optimum, and the grid minimum minus a Lipschitz bound times half a step is a
// lower bound.
func gridBound(in *partition.Instance, steps int) (lo, hi float64) {
	n := len(in.Portions)
	fr := make([][]float64, n)
	for j := range fr {
		fr[j] = make([]float64, 2)
	}
	hi = math.Inf(1)
	idx := make([]int, n)
	for {
		for j := range fr {
			x := float64(idx[j]) / float64(steps)
			fr[j][0], fr[j][1] = x, 1-x
		}
		ms, _ := in.Measure(fr)
		if ms.T <= in.DeadlineValue() {
			hi = math.Min(hi, ms.Objective(in.Objective))
		}
		j := 0
		for ; j < n; j++ {
			idx[j]++
			if idx[j] <= steps {
				break
			}
			idx[j] = 0
		}
		if j == n {
			break
		}
	}
	L := 0.0
	for _, q := range in.Portions {
		w := 0.0
		for _, p := range in.Processors {
			w = math.Max(w, p.Work(q.Flops, q.Bytes))
		}
		if in.Objective == partition.ObjMinTime {
			L += w
		} else {
			d0, d1 := in.Processors[0].Dynamic(q.Flops, q.Bytes), in.Processors[1].Dynamic(q.Flops, q.Bytes)
			L += in.StaticPower()*w + math.Abs(d0-d1)
		}
	}
	return hi - L*0.5/float64(steps), hi
}

func TestTwoProcessorDivisibleOptimumWithinGridBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for it := 0; it < 150; it++ {
		in := &partition.Instance{Objective: objectiveName(r),
			Processors: []partition.Processor{randProc(r), randProc(r)}}
		n := 2 + r.IntN(2)
		for j := 0; j < n; j++ {
			in.Portions = append(in.Portions, randPortion(r, partition.Divisible))
		}
		steps := 60
		if n == 3 {
			steps = 24
		}
		lo, hi := gridBound(in, steps)
		res := solve(t, in)
		if res.Objective > hi*(1+1e-9)+1e-12 || res.Objective < lo-1e-9 {
			t.Fatalf("iteration %d: exact %v outside grid bounds [%v, %v]", it, res.Objective, lo, hi)
		}
	}
}

func TestChunksOfOneAreWholeAndDivisibleIsALowerBound(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for it := 0; it < 100; it++ {
		in := &partition.Instance{Objective: objectiveName(r),
			Processors: []partition.Processor{randProc(r), randProc(r)}}
		for j := 0; j < 3; j++ {
			in.Portions = append(in.Portions, randPortion(r, partition.Whole))
		}
		whole := solve(t, in).Objective
		ch := *in
		ch.Portions = append([]partition.Portion(nil), in.Portions...)
		for j := range ch.Portions {
			ch.Portions[j].Split, ch.Portions[j].Chunks = partition.Chunks, 1
		}
		if got := solve(t, &ch).Objective; !near(got, whole) {
			t.Fatalf("chunks of 1: %v, whole: %v", got, whole)
		}
		for j := range ch.Portions {
			ch.Portions[j].Chunks = 4
		}
		four := solve(t, &ch).Objective
		dv := ch
		dv.Portions = append([]partition.Portion(nil), ch.Portions...)
		for j := range dv.Portions {
			dv.Portions[j].Split = partition.Divisible
		}
		div := solve(t, &dv).Objective
		if four > whole*(1+1e-12) || div > four*(1+1e-12) {
			t.Fatalf("whole %v >= 4 chunks %v >= divisible %v violated", whole, four, div)
		}
	}
}

func TestDeadlineBelowTheFreeSplitBoundIsInfeasible(t *testing.T) {
	d := 0.1
	in := &partition.Instance{Objective: partition.ObjMinEnergy, Deadline: &d,
		Processors: []partition.Processor{proc(1, 1, 1, 1, 1), proc(1, 1, 1, 1, 1)},
		Portions:   []partition.Portion{{Flops: 1, Bytes: 1, Split: partition.Divisible}}}
	if res := solve(t, in); res.Feasible {
		t.Fatalf("feasible with T=%v under deadline %v", res.Solution.T, d)
	}
}

func TestSeveralIntensitiesOnThreeProcessorsAreNotCovered(t *testing.T) {
	in := &partition.Instance{Objective: partition.ObjMinTime,
		Processors: []partition.Processor{proc(1, 1, 0, 0, 0), proc(1, 1, 0, 0, 0), proc(1, 1, 0, 0, 0)},
		Portions:   []partition.Portion{{Flops: 1, Bytes: 2, Split: partition.Divisible}, {Flops: 2, Bytes: 1, Split: partition.Divisible}}}
	if _, err := Solve(context.Background(), in); !errors.Is(err, ErrNotCovered) {
		t.Fatalf("got %v, want ErrNotCovered", err)
	}
}

// Observation 5.1 and reference 002 §2.1: with equal machine balances every divisible
// workload reaches the free-split bound, and in general one divisible portion reaches
// it (p-DP) exactly when its intensity is outside the open interval between the
// balances.
func TestPDPReachesTheFreeSplitBoundExactlyOutsideTheBalances(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for it := 0; it < 300; it++ {
		c, g := randProc(r), randProc(r)
		if it%3 == 0 { // equal balances
			g.TimePerByte = g.TimePerFlop * c.Balance()
		}
		in := &partition.Instance{Objective: partition.ObjMinTime, Processors: []partition.Processor{c, g}}
		q := partition.Portion{Flops: 1 + float64(r.IntN(30)), Bytes: 1 + float64(r.IntN(30)), Split: partition.Divisible}
		in.Portions = []partition.Portion{q}
		T, _ := PDP([]float64{c.Work(q.Flops, q.Bytes), g.Work(q.Flops, q.Bytes)})
		I, lo, hi := q.Intensity(), math.Min(c.Balance(), g.Balance()), math.Max(c.Balance(), g.Balance())
		free := in.FreeSplitTime()
		inside := I > lo*(1+1e-9) && I < hi*(1-1e-9)
		if inside == near(T, free) {
			t.Fatalf("I=%v, balances %v, %v: p-DP %v, free split %v", I, lo, hi, T, free)
		}
		if it%3 == 0 {
			in.Portions = nil
			for j := 0; j < 1+r.IntN(4); j++ {
				in.Portions = append(in.Portions, randPortion(r, partition.Divisible))
			}
			if in.FreeSplitTime() == 0 {
				continue
			}
			if res := solve(t, in); !near(res.Objective, in.FreeSplitTime()) {
				t.Fatalf("equal balances: optimum %v, free split %v", res.Objective, in.FreeSplitTime())
			}
		}
	}
}

func BenchmarkZonotope1000Portions(b *testing.B) {
	r := rand.New(rand.NewPCG(15, 16))
	in := &partition.Instance{Objective: partition.ObjMinEnergy, Processors: []partition.Processor{randProc(r), randProc(r)}}
	for j := 0; j < 1000; j++ {
		in.Portions = append(in.Portions, partition.Portion{Flops: 1 + r.Float64()*100, Bytes: 1 + r.Float64()*100, Split: partition.Divisible})
	}
	for b.Loop() {
		if _, err := Solve(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEnumeration16WholePortions(b *testing.B) {
	r := rand.New(rand.NewPCG(17, 18))
	in := &partition.Instance{Objective: partition.ObjMinTime, Processors: []partition.Processor{randProc(r), randProc(r)}}
	for j := 0; j < 16; j++ {
		in.Portions = append(in.Portions, partition.Portion{Flops: 1 + r.Float64()*100, Bytes: 1 + r.Float64()*100, Split: partition.Whole})
	}
	for b.Loop() {
		if _, err := Solve(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzSolve: on any instance the exact algorithms cover, the optimum passes the
// evaluator, lies at or above the free-split bound, and is no worse than random
// feasible schedules.
func FuzzSolve(f *testing.F) {
	f.Add(uint64(1), uint8(2), uint8(3), false)
	f.Add(uint64(7), uint8(3), uint8(4), true)
	f.Fuzz(func(t *testing.T, seed uint64, k, n uint8, energy bool) {
		r := rand.New(rand.NewPCG(seed, 99))
		K, N := 1+int(k%4), 1+int(n%7)
		in := &partition.Instance{Objective: partition.ObjMinTime}
		if energy {
			in.Objective = partition.ObjMinEnergy
		}
		for i := 0; i < K; i++ {
			in.Processors = append(in.Processors, randProc(r))
		}
		for j := 0; j < N; j++ {
			in.Portions = append(in.Portions, randPortion(r, []partition.Split{partition.Divisible, partition.Whole, partition.Chunks}[r.IntN(3)]))
		}
		res, err := Solve(context.Background(), in)
		if errors.Is(err, ErrNotCovered) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if !res.Feasible {
			t.Fatal("no deadline, yet infeasible")
		}
		rep, err := in.Evaluate(res.Solution)
		if err != nil || !rep.OK {
			t.Fatalf("evaluator: %v %s", err, rep.Worst)
		}
		if res.Solution.T < in.FreeSplitTime()*(1-1e-9) {
			t.Fatalf("T %v below the free-split bound %v", res.Solution.T, in.FreeSplitTime())
		}
		for it := 0; it < 50; it++ {
			fr := make([][]float64, N)
			for j, q := range in.Portions {
				fr[j] = make([]float64, K)
				switch q.Split {
				case partition.Whole:
					fr[j][r.IntN(K)] = 1
				case partition.Chunks:
					for c := 0; c < q.Chunks; c++ {
						fr[j][r.IntN(K)] += 1 / float64(q.Chunks)
					}
				default:
					a := r.IntN(K)
					x := r.Float64()
					fr[j][a] += x
					fr[j][r.IntN(K)] += 1 - x
				}
			}
			ms, _ := in.Measure(fr)
			if v := ms.Objective(in.Objective); v < res.Objective*(1-1e-9) {
				t.Fatalf("random schedule %v beats the optimum %v", v, res.Objective)
			}
		}
	})
}
