package dltseq

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
)

func TestSimplexSolvesASmallLP(t *testing.T) {
	// min −x − y  s.t.  x + 2y <= 4, 3x + y <= 6, x + y >= 1  → x = 1.6, y = 1.2.
	p := &lp{c: []float64{-1, -1}}
	p.add([]float64{1, 2}, le, 4)
	p.add([]float64{3, 1}, le, 6)
	p.add([]float64{1, 1}, ge, 1)
	x, obj, err := p.solve()
	if err != nil || math.Abs(x[0]-1.6) > 1e-9 || math.Abs(x[1]-1.2) > 1e-9 || math.Abs(obj+2.8) > 1e-9 {
		t.Fatalf("x = %v, obj %g, err %v", x, obj, err)
	}
	q := &lp{c: []float64{1}}
	q.add([]float64{1}, le, 1)
	q.add([]float64{1}, ge, 2)
	if _, _, err := q.solve(); err != ErrInfeasible {
		t.Errorf("infeasible LP: err %v", err)
	}
}

func TestOneMachineOneMessageIsTheClosedForm(t *testing.T) {
	mc := dm.Machine{A1: 0.1, A2: 1, K1: 10, K2: 100, Rho: 50, C: 0.01, O: 0.2, S: 3, PI: 5, PN: 100, PS: 100}
	for _, V := range []float64{20, 80} {
		in := &dm.Instance{Kind: dm.Kind, V: V, N: 1, Machines: []dm.Machine{mc}, Objective: dm.MinTime}
		res, err := Solve(context.Background(), in, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := mc.S + mc.O + mc.C*V + mc.Tau(V)
		if math.Abs(res.Objective-want) > 1e-9 {
			t.Errorf("V = %g: T* = %g, want %g", V, res.Objective, want)
		}
	}
}

// TestEmptySlotsAtTheEndAreNotSafe is the counterexample of the formulation's package
// comment: pushing empty messages to the end loses the optimum.
func TestEmptySlotsAtTheEndAreNotSafe(t *testing.T) {
	a := dm.Machine{A1: 1, A2: 2, K1: 1, K2: 2, Rho: 10, C: 0, O: 0.1, S: 5, PN: 1}
	b := dm.Machine{A1: 1e4, A2: 2e4, K1: 1, K2: 2, Rho: 10, C: 0, O: 4, S: 0, PN: 1}
	in := &dm.Instance{Kind: dm.Kind, V: 1, N: 2, Machines: []dm.Machine{a, b}, Objective: dm.MinTime}
	free, err := Solve(context.Background(), in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tail, err := Solve(context.Background(), in, Options{EmptyTail: 1})
	if err != nil {
		t.Fatal(err)
	}
	// B is so slow that it takes almost nothing: T* is just below 6.1.
	if free.Objective > 6.1+1e-9 || free.Objective < 6.09 || math.Abs(tail.Objective-6.2) > 1e-9 {
		t.Errorf("T* = %g (want about 6.1), with an empty last slot %g (want 6.2)", free.Objective, tail.Objective)
	}
	if s := free.Schedule.Messages[0]; s.Machine != 1 || s.Size > 1e-3 {
		t.Errorf("optimum should open with an empty message to B, got %+v", free.Schedule.Messages)
	}
}

// randomSchedule draws a sequence and sizes and times them as early as possible.
func randomSchedule(in *dm.Instance, r *rand.Rand) dm.Schedule {
	n := in.N
	w := make([]float64, n)
	tot := 0.0
	for j := range w {
		if r.IntN(4) > 0 {
			w[j] = r.Float64()
		}
		tot += w[j]
	}
	if tot == 0 {
		w[0], tot = 1, 1
	}
	var s dm.Schedule
	link := 0.0
	free := make([]float64, in.M())
	for j := range n {
		i := r.IntN(in.M())
		mc := in.Machines[i]
		a := in.V * w[j] / tot
		start := math.Max(math.Max(link, free[i]), mc.S)
		s.Messages = append(s.Messages, dm.Message{Machine: i, Size: a, Start: start})
		link = start + mc.Comm(a)
		free[i] = link + mc.Tau(a)
	}
	return s
}

func TestOptimumIsFeasibleAndNoRandomScheduleBeatsIt(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for k := range 12 {
		m, n := 1+k%3, 1+k%4
		in, err := dm.Generate(dm.GenConfig{M: m, N: n, V: 1000 + 3000*r.Float64(), P0N: 100, Seed: uint64(k)})
		if err != nil {
			t.Fatal(err)
		}
		for _, obj := range []string{dm.MinTime, dm.MinEnergy} {
			in.Objective = obj
			in.Deadline = nil
			if obj == dm.MinEnergy {
				d := 1.3 * SingleMachine(in)
				in.Deadline = &d
			}
			res, err := Solve(context.Background(), in, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Feasible {
				t.Fatalf("instance %d %s: no feasible sequence", k, obj)
			}
			rep := dm.Evaluate(in, res.Schedule, dm.EvalOptions{})
			if !rep.OK() || math.Abs(rep.Objective-res.Objective) > 1e-6*math.Max(1, res.Objective) {
				t.Fatalf("instance %d %s: optimum %g, evaluator %g, %s", k, obj, res.Objective, rep.Objective, rep.Worst())
			}
			if obj == dm.MinTime && res.Objective < dm.ValidLowerBoundTime(in)-1e-9 {
				t.Errorf("instance %d: T* %g below the valid bound %g", k, res.Objective, dm.ValidLowerBoundTime(in))
			}
			if obj == dm.MinEnergy && res.Objective < dm.ValidLowerBoundEnergy(in)-1e-6 {
				t.Errorf("instance %d: E* %g below the valid bound %g", k, res.Objective, dm.ValidLowerBoundEnergy(in))
			}
			for range 200 {
				s := randomSchedule(in, r)
				if obj == dm.MinEnergy {
					s.T = math.Max(s.T, 0)
				}
				rr := dm.Evaluate(in, s, dm.EvalOptions{})
				if rr.OK() && rr.Objective < res.Objective-1e-6*math.Max(1, res.Objective) {
					t.Fatalf("instance %d %s: random schedule %g beats the optimum %g", k, obj, rr.Objective, res.Objective)
				}
			}
		}
	}
}

func TestMinTimeForSequenceMatchesTheEnumerationOfThatSequence(t *testing.T) {
	for k := range 6 {
		in, err := dm.Generate(dm.GenConfig{M: 2, N: 3, V: 2000 + 1000*float64(k), P0N: 100, Seed: uint64(40 + k)})
		if err != nil {
			t.Fatal(err)
		}
		res, _ := Solve(context.Background(), in, Options{})
		seq := make([]int, in.N)
		for j, msg := range res.Schedule.Messages {
			seq[j] = msg.Machine
		}
		s, ok, err := MinTimeForSequence(in, seq)
		if err != nil || !ok {
			t.Fatalf("ok %v err %v", ok, err)
		}
		r := dm.Evaluate(in, s, dm.EvalOptions{})
		if !r.OK() || math.Abs(r.Makespan-res.Objective) > 1e-6*res.Objective {
			t.Errorf("instance %d: sequence LP T = %g (%s), enumeration %g", k, r.Makespan, r.Worst(), res.Objective)
		}
	}
}
