package dlt

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	ddlt "github.com/schedopt/schedopt/domain/dlt"
)

func relDiff(a, b float64) float64 {
	return math.Abs(a-b) / math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

func homogeneousStar(m int, a, C, S float64) Star {
	s := Star{A: make([]float64, m), C: make([]float64, m), S: make([]float64, m)}
	for i := range s.A {
		s.A[i], s.C[i], s.S[i] = a, C, S
	}
	return s
}

func TestRecursionMatchesClosedForms(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	t.Run("without startups the recursion is the product formula (2.4)", func(t *testing.T) {
		for it := 0; it < 200; it++ {
			m := 1 + rng.IntN(8)
			s := Star{A: make([]float64, m), C: make([]float64, m), S: make([]float64, m)}
			for i := range s.A {
				s.A[i] = 0.01 + rng.Float64()
				s.C[i] = rng.Float64() * 0.5
			}
			V := 1 + rng.Float64()*1000
			got, err := Recursion(s, V)
			if err != nil {
				t.Fatal(err)
			}
			want := NoStartup(s, V)
			for i := range got.Alpha {
				if relDiff(got.Alpha[i], want.Alpha[i]) > 1e-9 {
					t.Fatalf("alpha[%d] = %g, (2.4) gives %g", i, got.Alpha[i], want.Alpha[i])
				}
			}
			if relDiff(got.T, want.T) > 1e-9 {
				t.Fatalf("T = %g, (2.4) gives %g", got.T, want.T)
			}
		}
	})
	t.Run("homogeneous machines with startup follow (4.7)-(4.11)", func(t *testing.T) {
		for it := 0; it < 200; it++ {
			m := 1 + rng.IntN(30)
			a, C, S := 0.01+rng.Float64(), rng.Float64()*0.2, rng.Float64()*5
			if it%7 == 0 {
				C = 0
			}
			V := 10 + rng.Float64()*1000
			got, err1 := Recursion(homogeneousStar(m, a, C, S), V)
			want, z1, z2, err2 := Homogeneous(a, C, S, V, m)
			if (err1 == nil) != (err2 == nil) {
				t.Fatalf("m=%d: recursion err %v, closed form err %v", m, err1, err2)
			}
			if err1 != nil {
				continue
			}
			for i := range got.Alpha {
				if relDiff(got.Alpha[i], want.Alpha[i]) > 1e-8 {
					t.Fatalf("m=%d alpha[%d] = %g, (4.7) gives %g", m, i, got.Alpha[i], want.Alpha[i])
				}
			}
			if relDiff(got.T, want.T) > 1e-9 || relDiff(want.T, S*z1+V*z2) > 1e-8 {
				t.Fatalf("m=%d T = %g, (4.9) gives %g and S z1 + V z2 = %g", m, got.T, want.T, S*z1+V*z2)
			}
		}
	})
	t.Run("every machine finishes at T (2.1)", func(t *testing.T) {
		s := Star{A: []float64{0.3, 0.2, 0.5}, C: []float64{0.05, 0.1, 0.02}, S: []float64{1, 2, 0.5}}
		sp, err := Recursion(s, 100)
		if err != nil {
			t.Fatal(err)
		}
		clock := 0.0
		for i := range s.A {
			clock += s.S[i] + s.C[i]*sp.Alpha[i]
			if f := clock + s.A[i]*sp.Alpha[i]; relDiff(f, sp.T) > 1e-12 {
				t.Errorf("machine %d finishes at %g, T = %g", i, f, sp.T)
			}
		}
	})
	t.Run("a load too small for every machine is infeasible (2.3)", func(t *testing.T) {
		if _, err := Recursion(homogeneousStar(10, 0.1, 0.01, 50), 10); err != ErrInfeasible {
			t.Fatalf("err = %v, want ErrInfeasible", err)
		}
	})
}

// Table 3.4 (seed 004, L352-358): two identical machines, S = 0, split by (2.4);
// E^R = ε(α1) + ε(α2) with the hierarchical model, E_prop with k1 only.
func TestTable34(t *testing.T) {
	mem := ddlt.Memory{A1: 0.006, A2: 0.4, K1: 0.4, K2: 22, Rho: 7500}
	if relDiff(mem.B2(), -2955) > 1e-12 || relDiff(mem.L2(), -162000) > 1e-12 {
		t.Fatalf("b2 = %g, l2 = %g; Table 3.4 prints -2955 and -162000", mem.B2(), mem.L2())
	}
	rows := []struct{ V, a1, a2, eProp, eR float64 }{
		{10000, 5714, 4286, 4000, 4000},
		{12000, 6857, 5143, 4800, 4800},
		{14000, 8000, 6000, 5600, 16400},
		{16000, 9143, 6857, 6400, 41886},
		{18000, 10286, 7714, 7200, 72000},
	}
	s := homogeneousStar(2, 0.006, 0.002, 0)
	for _, r := range rows {
		sp := NoStartup(s, r.V)
		if math.Round(sp.Alpha[0]) != r.a1 || math.Round(sp.Alpha[1]) != r.a2 {
			t.Errorf("V=%g: alpha = %v, Table 3.4 prints %g, %g", r.V, sp.Alpha, r.a1, r.a2)
		}
		eProp := mem.K1 * (sp.Alpha[0] + sp.Alpha[1])
		eR := mem.Eps(sp.Alpha[0]) + mem.Eps(sp.Alpha[1])
		if math.Round(eProp) != r.eProp || math.Round(eR) != r.eR {
			t.Errorf("V=%g: E_prop = %g, E^R = %g; Table 3.4 prints %g, %g", r.V, eProp, eR, r.eProp, r.eR)
		}
	}
}

// The chapter 4 reference instance (L489-491, L515).
func TestChapter4Reference(t *testing.T) {
	sys := ddlt.Ch4System{M: 1000, A: 1e-3, C: 1e-8, S: 100, V: 1e11, K: 3, PC: 200, PN: 50}
	sp, z1, z2, err := Homogeneous(sys.A, sys.C, sys.S, sys.V, sys.M)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(sp.T-1.51e5)/1.51e5 > 0.005 {
		t.Errorf("T = %g, the thesis prints 1.51E5", sp.T)
	}
	e := ddlt.EnergyCh4(sys, sp.T)
	if math.Abs(e.E-2.34e10)/2.34e10 > 0.005 {
		t.Errorf("E = %g, the thesis prints 2.34E10", e.E)
	}
	if math.Abs(e.E/3.6e6-6500)/6500 > 0.005 {
		t.Errorf("E = %g kWh, the thesis prints 6500", e.E/3.6e6)
	}
	if relDiff(z1, 501.3333) > 1e-6 || math.Abs(z2-1.0050133e-6)/1.0050133e-6 > 1e-6 {
		t.Errorf("z1 = %.7g, z2 = %.8g; the reference extraction derives 501.3333 and 1.0050133E-6", z1, z2)
	}
	// The inversions (4.17)-(4.21) return each parameter at the reference point.
	for name, got := range map[string][2]float64{
		"k":   {sys.InvertK(e.E, sp.T), sys.K},
		"P^C": {sys.InvertPC(e.E, sp.T), sys.PC},
		"P^N": {sys.InvertPN(e.E, sp.T), sys.PN},
		"V":   {sys.InvertV(e.E, z1, z2), sys.V},
		"S":   {sys.InvertS(e.E, z1, z2), sys.S},
	} {
		if math.Abs(got[0]-got[1]) > 1e-6*got[1] {
			t.Errorf("inversion for %s gives %g, want %g", name, got[0], got[1])
		}
	}
	rec, err := Recursion(homogeneousStar(sys.M, sys.A, sys.C, sys.S), sys.V)
	if err != nil {
		t.Fatal(err)
	}
	if relDiff(rec.T, sp.T) > 1e-9 {
		t.Errorf("recursion T = %g, closed form %g", rec.T, sp.T)
	}
	if got := MaxMachines(sys.A, sys.C, sys.S, sys.V, 100000); got != 1411 {
		t.Errorf("largest feasible m = %d, the thesis says configurations with m > 1411 are infeasible", got)
	}
	// The boundary by the recursion as well: α_m >= 0 at 1411, < 0 at 1412.
	if _, err := Recursion(homogeneousStar(1411, sys.A, sys.C, sys.S), sys.V); err != nil {
		t.Errorf("m = 1411: %v", err)
	}
	if _, err := Recursion(homogeneousStar(1412, sys.A, sys.C, sys.S), sys.V); err != ErrInfeasible {
		t.Errorf("m = 1412: err = %v, want infeasible", err)
	}
}

func table51(m int) *ddlt.SingleInstance {
	return &ddlt.SingleInstance{Kind: "dlt-single", V: 10000, M: m, C: 0.006, S: 70, PS: 101, PI: 6, PN: 91,
		A1: 0.082, A2: 2.366, K1: 13, K2: 294.43, Rho: 996, Objective: ddlt.MinTime}
}

func TestSingleMinTimeTable51(t *testing.T) {
	out, err := SingleMinTime(context.Background(), table51(20))
	if err != nil || !out.Feasible {
		t.Fatalf("err %v feasible %v", err, out.Feasible)
	}
	// The reference extraction derives T*(10) = 761.989 s with the thesis's printed
	// b2 = -2274.89, which means rho = 996.011; with rho = 996 exactly (b2 derived,
	// -2274.864) every out-of-core machine is 0.026 s slower and T* is 0.003 s longer.
	if math.Abs(out.Objective-761.989) > 0.005 {
		t.Errorf("T* = %g, want about 761.989", out.Objective)
	}
	printed := table51(20)
	printed.Rho = 2274.89 / (2.366 - 0.082)
	if o, _ := SingleMinTime(context.Background(), printed); math.Abs(o.Objective-761.989) > 5e-4 {
		t.Errorf("with the printed b2, T* = %g, want 761.989", o.Objective)
	}
	used, inCore := 0, []int{}
	for i, u := range out.Solution.Used {
		if u {
			used++
			if out.Solution.Alpha[i] <= 996 {
				inCore = append(inCore, i)
			}
		}
	}
	if used != 10 || len(inCore) != 2 || inCore[0] != 8 || inCore[1] != 9 {
		t.Errorf("used %d machines, in-core %v; want 10 with machines 8 and 9 in-core", used, inCore)
	}
}

func randomSingle(rng *rand.Rand, m int) *ddlt.SingleInstance {
	in := &ddlt.SingleInstance{Kind: "dlt-single", M: m,
		V:  50 + rng.Float64()*400,
		C:  0.001 + rng.Float64()*0.05,
		S:  rng.Float64() * 20,
		PS: 50 + rng.Float64()*100, PI: rng.Float64() * 60, PN: 50 + rng.Float64()*100,
		A1: 0.02 + rng.Float64()*0.2, K1: 5 + rng.Float64()*10,
		Rho: 20 + rng.Float64()*150, Objective: ddlt.MinTime}
	in.A2 = in.A1 * (2 + rng.Float64()*30)
	in.K2 = in.K1 * (1.2 + rng.Float64()*30)
	return in
}

// Two independent exact methods agree: bisection over machine counts and the vertex
// enumeration.
func TestSingleMinTimeAgreesWithVertices(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for it := 0; it < 60; it++ {
		in := randomSingle(rng, 1+rng.IntN(4))
		a, err := SingleMinTime(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		b, err := SingleVertices(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		if !a.Feasible || !b.Feasible || relDiff(a.Objective, b.Objective) > 1e-7 {
			t.Fatalf("instance %+v: bisection %v %g, vertices %v %g", *in, a.Feasible, a.Objective, b.Feasible, b.Objective)
		}
	}
}

// Min-energy at a fixed length is never below the energy of any feasible schedule of
// that length that we can build by hand: the min-time schedule padded to T.
func TestSingleVerticesMinEnergyBeatsPaddedMinTime(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for it := 0; it < 40; it++ {
		in := randomSingle(rng, 1+rng.IntN(4))
		mt, err := SingleMinTime(context.Background(), in)
		if err != nil || !mt.Feasible {
			t.Fatal(err)
		}
		D := mt.Objective * (1 + rng.Float64())
		in.Objective, in.Deadline, in.FixedLength = ddlt.MinEnergy, &D, it%2 == 0
		me, err := SingleVertices(context.Background(), in)
		if err != nil || !me.Feasible {
			t.Fatalf("min-energy: %v feasible %v", err, me.Feasible)
		}
		padded := *mt.Solution
		padded.T = D
		_, en := ddlt.EvaluateSingle(in, &padded)
		if me.Objective > en.E*(1+1e-9) {
			t.Fatalf("min-energy %g above the padded min-time schedule's %g", me.Objective, en.E)
		}
		if rep, _ := ddlt.EvaluateSingle(in, me.Solution); !rep.OK() {
			t.Fatalf("evaluator rejects the optimum: %s", rep.Worst)
		}
	}
}

// On stars where the recursion is the LP optimum (identical machines, no memory), the
// vertex enumeration finds the same length; with memory it never beats the recursion's
// unconstrained length, and its split respects the memory.
func TestFlatVertices(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for it := 0; it < 60; it++ {
		m := 1 + rng.IntN(5)
		in := &ddlt.FlatInstance{Kind: "dlt-flat", V: 10 + rng.Float64()*500, Objective: "min-time"}
		s := Star{}
		a, C, S := 0.05+rng.Float64(), rng.Float64()*0.1, rng.Float64()*3
		for i := 0; i < m; i++ {
			mc := ddlt.FlatMachine{A: a, C: C, S: S}
			if it%2 == 1 {
				b := (0.4 + rng.Float64()) * 1.5 * in.V / float64(m)
				mc.B = &b
			}
			in.Machines = append(in.Machines, mc)
			s.A, s.C, s.S = append(s.A, a), append(s.C, C), append(s.S, S)
		}
		if in.Validate() != nil {
			continue
		}
		got, ok, err := FlatVertices(context.Background(), in)
		if err != nil || !ok {
			t.Fatalf("err %v ok %v", err, ok)
		}
		rec, err := Recursion(s, in.V)
		if err != nil {
			continue
		}
		binds := false
		for i, x := range rec.Alpha {
			binds = binds || x > in.Memory(i)
		}
		if !binds && relDiff(got.T, rec.T) > 1e-9 {
			t.Fatalf("vertices T = %g, recursion %g", got.T, rec.T)
		}
		if binds && got.T < rec.T*(1-1e-9) {
			t.Fatalf("with memory, vertices T = %g beats the unconstrained %g", got.T, rec.T)
		}
	}
}

func BenchmarkSingleVerticesMinEnergy6(b *testing.B) {
	in := table51(6)
	in.V = 5000
	d := 470.0
	in.Objective, in.Deadline = ddlt.MinEnergy, &d
	for b.Loop() {
		if _, err := SingleVertices(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSingleMinTime1000(b *testing.B) {
	in := table51(1000)
	in.V = 1e6
	for b.Loop() {
		if _, err := SingleMinTime(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}
