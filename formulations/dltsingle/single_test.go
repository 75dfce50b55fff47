package dltsingle

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedopt/schedopt/domain/dlt"
	exactdlt "github.com/schedopt/schedopt/exact/dlt"
)

func randomInstance(rng *rand.Rand, m int) *dlt.SingleInstance {
	in := &dlt.SingleInstance{Kind: "dlt-single", M: m,
		V: 50 + rng.Float64()*400, C: 0.001 + rng.Float64()*0.05, S: rng.Float64() * 20,
		PS: 50 + rng.Float64()*100, PI: rng.Float64() * 60, PN: 50 + rng.Float64()*100,
		A1: 0.02 + rng.Float64()*0.2, K1: 5 + rng.Float64()*10, Rho: 20 + rng.Float64()*150,
		Objective: dlt.MinTime}
	in.A2 = in.A1 * (2 + rng.Float64()*30)
	in.K2 = in.K1 * (1.2 + rng.Float64()*30)
	return in
}

// encode writes a schedule into the model's columns, computing every auxiliary column
// from the domain formulas.
func encode(f *Formulation, in *dlt.SingleInstance, sol *dlt.SingleSolution) []float64 {
	mem := in.Memory()
	x := make([]float64, f.Model.NumVars())
	x[f.T] = sol.T
	for i, a := range sol.Alpha {
		x[f.Alpha[i]] = a
		if sol.Used[i] {
			x[f.X[i]] = 1
		}
		tau := mem.Tau(a)
		x[f.TR[i]] = tau
		if a > mem.Rho {
			x[f.U[i]] = 1
		}
		idle := sol.T - tau - in.C*a
		if sol.Used[i] {
			idle -= in.S
		}
		x[f.TI[i]] = idle
		if f.ER != nil {
			x[f.ER[i]] = mem.Eps(a)
		}
	}
	return x
}

// The exact optimum, written into the model, satisfies every row and bound and has the
// same objective; so the model never cuts off the optimum (its own optimum is checked
// against the oracle end to end in bench).
func TestModelAdmitsTheExactOptimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for it := 0; it < 60; it++ {
		in := randomInstance(rng, 1+rng.IntN(4))
		mt, err := exactdlt.SingleMinTime(context.Background(), in)
		if err != nil || !mt.Feasible {
			t.Fatal(err)
		}
		switch it % 3 {
		case 1:
			d := mt.Objective * (1 + rng.Float64())
			in.Objective, in.Deadline = dlt.MinEnergy, &d
		case 2:
			d := mt.Objective * (1 + rng.Float64())
			in.Objective, in.Deadline, in.FixedLength = dlt.MinEnergy, &d, true
		}
		ex, err := exactdlt.Single(context.Background(), in)
		if err != nil || !ex.Feasible {
			t.Fatal(err)
		}
		for _, plain := range []bool{false, true} {
			f, err := Build(in, Options{Plain: plain})
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Model.Validate(); err != nil {
				t.Fatal(err)
			}
			x := encode(f, in, ex.Solution)
			rep, err := f.Model.Verify(x)
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Feasible() {
				t.Fatalf("instance %d (%s, plain %v): the optimum violates the model: %s", it, in.Objective, plain, rep.Worst)
			}
			if math.Abs(rep.Objective-ex.Objective) > 1e-6*math.Max(1, math.Abs(ex.Objective)) {
				t.Fatalf("instance %d: model objective %g at the optimum, oracle %g", it, rep.Objective, ex.Objective)
			}
		}
	}
}

// A lower bound alone on the running time would let energy minimisation inflate it: the
// model must reject t^R above τ(α).
func TestRunningTimeIsExact(t *testing.T) {
	in := &dlt.SingleInstance{Kind: "dlt-single", V: 1000, M: 2, C: 0.006, S: 70, PS: 101, PI: 6, PN: 91,
		A1: 0.082, A2: 2.366, K1: 13, K2: 294.43, Rho: 996, Objective: dlt.MinEnergy}
	d := 500.0
	in.Deadline = &d
	f, err := Build(in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sol := &dlt.SingleSolution{T: 200, Alpha: []float64{1000, 0}, Used: []bool{true, false}}
	x := encode(f, in, sol)
	if rep, _ := f.Model.Verify(x); !rep.Feasible() {
		t.Fatalf("a valid schedule is rejected: %s", rep.Worst)
	}
	for _, u := range []float64{0, 1} {
		x[f.TR[0]] += 10
		x[f.TI[0]] -= 10
		x[f.U[0]] = u
		if rep, _ := f.Model.Verify(x); rep.Feasible() {
			t.Fatalf("t^R above tau(alpha) accepted with selector %g", u)
		}
		x[f.TR[0]] -= 10
		x[f.TI[0]] += 10
	}
}

func TestModelSize(t *testing.T) {
	in := &dlt.SingleInstance{Kind: "dlt-single", V: 10000, M: 10, C: 0.006, S: 70, PS: 101, PI: 6, PN: 91,
		A1: 0.082, A2: 2.366, K1: 13, K2: 294.43, Rho: 996, Objective: dlt.MinTime}
	f, err := Build(in, Options{Plain: true})
	if err != nil {
		t.Fatal(err)
	}
	// T + m·(α, x, t^R, u, t^I); 2m binaries (x and the selector u, as §1.6 of the
	// reference counts with exact τ); rows: (5.7) + m·((5.8), (5.9), (5.10)) + 4m for τ.
	if got, want := f.Model.NumVars(), 1+5*10; got != want {
		t.Errorf("%d columns, want %d", got, want)
	}
	if got := f.Model.NumIntegers(); got != 20 {
		t.Errorf("%d binaries, want 20", got)
	}
	if got, want := f.Model.NumRows(), 1+3*10+4*10; got != want {
		t.Errorf("%d rows, want %d", got, want)
	}
	for _, r := range f.Model.Reformulations() {
		for _, M := range r.BigM {
			if M > (2.366-0.082)*10000 {
				t.Errorf("%s: big-M %g exceeds (a2 − a1)V", r.Name, M)
			}
		}
	}
}
