package dltmulti

import (
	"math"
	"math/rand/v2"
	"testing"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
)

// asap draws a sequence and sizes for exactly n messages and times them as early as
// the link, the startups and the machines allow.
func asap(in *dm.Instance, r *rand.Rand) dm.Schedule {
	w := make([]float64, in.N)
	tot := 0.0
	for j := range w {
		if r.IntN(3) > 0 {
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
	for j := range in.N {
		i := r.IntN(in.M())
		mc := in.Machines[i]
		a := in.V * w[j] / tot
		start := math.Max(math.Max(link, free[i]), mc.S) + r.Float64()*r.Float64()*3
		s.Messages = append(s.Messages, dm.Message{Machine: i, Size: a, Start: start})
		link = start + mc.Comm(a)
		free[i] = link + mc.Tau(a)
	}
	return s
}

// Every feasible schedule must be a feasible point of the model with the evaluator's
// objective: the model neither cuts schedules off nor misprices them.
func TestEveryScheduleIsAModelPointWithTheEvaluatorsObjective(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	checked := 0
	defer func() {
		if checked < 200 {
			t.Errorf("only %d schedule/variant pairs checked", checked)
		}
	}()
	for k := range 40 {
		in, err := dm.Generate(dm.GenConfig{M: 1 + k%3, N: 1 + k%4, V: 500 + 4000*r.Float64(), P0N: 100, Seed: uint64(k)})
		if err != nil {
			t.Fatal(err)
		}
		s := asap(in, r)
		mk := dm.Evaluate(in, s, dm.EvalOptions{}).Makespan
		variants := []struct {
			name  string
			setup func(*dm.Instance)
		}{
			{"min-time", func(in *dm.Instance) { in.Objective = dm.MinTime }},
			{"min-energy under a deadline", func(in *dm.Instance) {
				d := mk * 1.2
				in.Objective, in.Deadline = dm.MinEnergy, &d
			}},
			{"min-energy at fixed length", func(in *dm.Instance) {
				d := mk * 1.1
				in.Objective, in.Deadline, in.FixedLength = dm.MinEnergy, &d, true
			}},
			{"min-time under an energy cap", func(in *dm.Instance) {
				e := dm.Evaluate(in, s, dm.EvalOptions{}).E * 1.01
				in.Objective, in.EnergyLimit = dm.MinTime, &e
			}},
		}
		for _, v := range variants {
			for _, plain := range []bool{false, true} {
				c := *in
				v.setup(&c)
				f, err := Build(&c, Options{Plain: plain, Start: &s})
				if err != nil {
					t.Fatalf("%d %s: %v", k, v.name, err)
				}
				if mk > f.Horizon {
					continue // longer than every min-time optimum: cut by the horizon
				}
				checked++
				rep, err := f.Model.Verify(f.Model.Start())
				if err != nil {
					t.Fatal(err)
				}
				ev := dm.Evaluate(&c, s, dm.EvalOptions{})
				if c.FixedLength {
					ss := s
					ss.T = *c.Deadline
					ev = dm.Evaluate(&c, ss, dm.EvalOptions{})
				}
				if !rep.Feasible() {
					t.Errorf("instance %d %s plain=%v: schedule is not a model point: %s", k, v.name, plain, rep.Worst)
					continue
				}
				if math.Abs(rep.Objective-ev.Objective) > 1e-7*math.Max(1, ev.Objective) {
					t.Errorf("instance %d %s plain=%v: model objective %g, evaluator %g", k, v.name, plain, rep.Objective, ev.Objective)
				}
				if got := f.Decode(f.Model.Start()); len(got.Messages) != c.N || got.Messages[0] != s.Messages[0] {
					t.Errorf("decode of the start: %+v", got.Messages)
				}
			}
		}
	}
}

func TestModelSizeMatchesTheReferenceCount(t *testing.T) {
	in, _ := dm.Generate(dm.GenConfig{M: 10, N: 12, V: 24000, P0N: 100, Seed: 1})
	d := 400.0
	in.Objective, in.Deadline = dm.MinEnergy, &d
	f, err := Build(in, Options{Plain: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Model.NumIntegers(); got != 3*10*12 {
		t.Errorf("%d binaries, want 3mn = 360", got)
	}
	// Reference §1.9.3: ≈ 13mn + m·n(n−1)/2 + 4m(n−1) + 6m + 3n + 7 = 2763 rows for
	// m = 10, n = 12 (our (6.16) has n rows with t_{n+1} := T; the count is approximate).
	if rows := f.Model.NumRows(); rows < 2600 || rows > 2900 {
		t.Errorf("%d rows, reference ≈ 2763", rows)
	}
	if err := f.Model.Validate(); err != nil {
		t.Error(err)
	}
}

func TestBigMConstantsAreTheThesisOnes(t *testing.T) {
	in, _ := dm.Generate(dm.GenConfig{M: 2, N: 3, V: 3000, P0N: 100, Seed: 2})
	f, err := Build(in, Options{Plain: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.Horizon, ThesisZ(in); got != want {
		t.Errorf("plain min-time horizon %g, want Z = %g", got, want)
	}
	g, _ := Build(in, Options{})
	if math.Abs(g.Horizon-SingleMachineT(in)) > 1e-5*g.Horizon || g.Horizon >= f.Horizon {
		t.Errorf("strengthened horizon %g, want single-machine %g < Z", g.Horizon, SingleMachineT(in))
	}
	d := 0.9 * g.Horizon
	in.Deadline, in.FixedLength, in.Objective = &d, true, dm.MinEnergy
	h, _ := Build(in, Options{Plain: true})
	if h.Horizon != d {
		t.Errorf("fixed T: Z = %g, want T = %g", h.Horizon, d)
	}
}

func TestSymmetryRowsOnlyForIdenticalMachines(t *testing.T) {
	in, _ := dm.Generate(dm.GenConfig{M: 3, N: 2, V: 3000, P0N: 100, Seed: 3})
	in.Machines[2] = in.Machines[0]
	with, _ := Build(in, Options{})
	without, _ := Build(in, Options{NoSymmetry: true})
	if d := with.Model.NumRows() - without.Model.NumRows(); d != in.N {
		t.Errorf("%d symmetry rows, want n = %d (one identical pair)", d, in.N)
	}
}

func TestHomogeneousModelAcceptsHomogeneousSchedules(t *testing.T) {
	mc := dm.Machine{A1: 0.109, A2: 4.132, K1: 1, K2: 2, Rho: 6739, C: 0.005, O: 0.075, S: 25.4, PN: 1}
	in := &dm.Instance{Kind: dm.Kind, V: 20000, N: 4, Machines: []dm.Machine{mc, mc}, Objective: dm.MinTime}
	h, err := BuildHomogeneous(in)
	if err != nil {
		t.Fatal(err)
	}
	if h.Model.NumIntegers() != 2*2*4 {
		t.Errorf("%d binaries, want 2mn", h.Model.NumIntegers())
	}
	in.Machines[1].S = 3
	if _, err := BuildHomogeneous(in); err == nil {
		t.Error("heterogeneous machines accepted")
	}
}
