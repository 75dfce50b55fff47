package partition

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedopt/schedopt/domain/partition"
	"github.com/schedopt/schedopt/model"
)

func randomInstance(r *rand.Rand) *partition.Instance {
	in := &partition.Instance{Objective: partition.ObjMinTime}
	if r.IntN(2) == 0 {
		in.Objective = partition.ObjMinEnergy
	}
	K := 1 + r.IntN(3)
	for k := 0; k < K; k++ {
		in.Processors = append(in.Processors, partition.Processor{
			TimePerFlop: 0.1 + r.Float64(), TimePerByte: 0.1 + r.Float64(),
			EnergyPerFlop: r.Float64(), EnergyPerByte: r.Float64(), StaticPower: r.Float64()})
	}
	for j := 0; j < 1+r.IntN(4); j++ {
		q := partition.Portion{Flops: float64(r.IntN(20)), Bytes: float64(r.IntN(20))}
		switch r.IntN(3) {
		case 0:
			q.Split = partition.Divisible
		case 1:
			q.Split = partition.Whole
		default:
			q.Split, q.Chunks = partition.Chunks, 1+r.IntN(5)
		}
		in.Portions = append(in.Portions, q)
	}
	return in
}

// randomSchedule draws feasible fractions: a random split, one processor, or a
// random composition of the chunks.
func randomSchedule(r *rand.Rand, in *partition.Instance) [][]float64 {
	K := len(in.Processors)
	fr := make([][]float64, len(in.Portions))
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
			sum := 0.0
			for k := range fr[j] {
				fr[j][k] = r.Float64()
				sum += fr[j][k]
			}
			for k := range fr[j] {
				fr[j][k] /= sum
			}
		}
	}
	return fr
}

// Every feasible schedule is a point of the model with the evaluator's objective,
// and it decodes back to itself; a makespan below the schedule's is infeasible.
func TestModelContainsEverySchedule(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for it := 0; it < 500; it++ {
		in := randomInstance(r)
		f, err := Build(in)
		if err != nil {
			t.Fatal(err)
		}
		fr := randomSchedule(r, in)
		ms, err := in.Measure(fr)
		if err != nil {
			t.Fatal(err)
		}
		x := make([]float64, f.Model.NumVars())
		x[f.T] = ms.T
		for j, row := range f.X {
			for k, v := range row {
				x[v] = fr[j][k]
				if q := in.Portions[j]; q.Split == partition.Chunks {
					x[v] = math.Round(fr[j][k] * float64(q.Chunks))
				}
			}
		}
		rep, err := f.Model.Verify(x)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Feasible() {
			t.Fatalf("iteration %d: schedule rejected by the model: %s", it, rep.Worst)
		}
		if want := ms.Objective(in.Objective); math.Abs(rep.Objective-want) > 1e-9*math.Max(1, want) {
			t.Fatalf("iteration %d: model objective %v, evaluator %v", it, rep.Objective, want)
		}
		back := f.Fractions(x)
		for j := range fr {
			for k := range fr[j] {
				if math.Abs(back[j][k]-fr[j][k]) > 1e-12 {
					t.Fatalf("decoded %v, want %v", back, fr)
				}
			}
		}
		if ms.T > 0 && ms.T > in.FreeSplitTime()*1.01 {
			x[f.T] = ms.T * 0.99
			if rep, _ := f.Model.Verify(x); rep.Feasible() {
				t.Fatalf("iteration %d: T below the makespan accepted", it)
			}
		}
	}
}

func TestModelShape(t *testing.T) {
	in := &partition.Instance{Objective: partition.ObjMinEnergy,
		Processors: []partition.Processor{{TimePerFlop: 1, TimePerByte: 1}, {TimePerFlop: 2, TimePerByte: 1}},
		Portions: []partition.Portion{{Flops: 1, Bytes: 1, Split: partition.Divisible}, {Flops: 1, Split: partition.Whole},
			{Flops: 1, Bytes: 2, Split: partition.Chunks, Chunks: 8}}}
	f, err := Build(in)
	if err != nil {
		t.Fatal(err)
	}
	m := f.Model
	// T + 3 portions × 2 processors; shares 3, rooflines 2×2, one whole-portion cut.
	if m.NumVars() != 7 || m.NumIntegers() != 4 || m.NumRows() != 8 {
		t.Fatalf("vars %d ints %d rows %d, want 7, 4, 8", m.NumVars(), m.NumIntegers(), m.NumRows())
	}
	if k := m.VarKind(f.X[2][0]); k != model.Integer {
		t.Errorf("chunk count is %v", k)
	}
	if lo, hi := m.Bounds(f.X[2][1]); lo != 0 || hi != 8 {
		t.Errorf("chunk count bounds [%v, %v]", lo, hi)
	}
	d := 0.5
	in.Deadline = &d
	f, _ = Build(in)
	if _, hi := f.Model.Bounds(f.T); hi != 0.5 {
		t.Errorf("deadline not on T: upper bound %v", hi)
	}
	if len(m.Reformulations()) != 0 {
		t.Errorf("unexpected reformulations %v", m.Reformulations())
	}
}
