package dlt

import (
	"context"
	"errors"
	"math"
	"testing"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
)

// sec522 is the §5.2.2 default system with m machines (O = 0, b2 and l2 from ρ = 996).
func sec522(m int) *dm.Instance {
	mc := dm.Machine{A1: 0.082, A2: 2.366, K1: 13, K2: 294, Rho: 996, C: 0.0078, S: 10, PI: 14, PN: 91, PS: 101}
	in := &dm.Instance{Kind: dm.Kind, V: 10000, N: 1, P0N: 91, Objective: dm.MinTime}
	for range m {
		in.Machines = append(in.Machines, mc)
	}
	return in
}

// The reference note (§1.7) simulates SSC at the §5.2.2 defaults: m = 2 (N_f = 0)
// T = 465.0 s, E = 181024 J; m = 3 (N_f = 1) T = 367.8 s, E = 169784 J.
func TestSSCAtSection522DefaultsMatchesTheReferenceSimulation(t *testing.T) {
	for _, c := range []struct {
		m    int
		T, E float64
	}{{2, 465.0, 181024}, {3, 367.8, 169784}} {
		in := sec522(c.m)
		s, err := Homogeneous(context.Background(), in, SSC)
		if err != nil {
			t.Fatal(err)
		}
		T, parts, err := dm.EvaluateCh5(in, s)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(T-c.T) > 0.05 || math.Abs(parts.Total()-c.E) > 0.5 {
			t.Errorf("m = %d: T = %.2f (want %.1f), E = %.1f (want %.0f)", c.m, T, c.T, parts.Total(), c.E)
		}
	}
}

func TestClosedFormsAgreeWithSimulationOnlyWhenNfPositive(t *testing.T) {
	for m := 2; m <= 11; m++ {
		in := sec522(m)
		for _, rule := range []Rule{SSC, SCU, SCO} {
			s, err := Homogeneous(context.Background(), in, rule)
			if err != nil {
				t.Fatal(err)
			}
			T, parts, err := dm.EvaluateCh5(in, s)
			if err != nil {
				t.Fatal(err)
			}
			alpha := s.Messages[0].Size
			cT, cE, ok := ClosedFormCh5(in, alpha)
			if math.Abs(cT-T) > 1e-6*T {
				t.Errorf("m = %d %s: (5.12) T = %g, simulation %g", m, rule, cT, T)
			}
			if ok && math.Abs(cE-parts.Total()) > 1e-6*cE {
				t.Errorf("m = %d %s: (5.15) E = %g, simulation %g with N_f >= 1", m, rule, cE, parts.Total())
			}
		}
	}
	// m = 2, SSC: N_f = 0 and the closed energy is off (177402 vs 181024 J).
	in := sec522(2)
	_, cE, ok := ClosedFormCh5(in, 996)
	if ok || math.Abs(cE-177402) > 1 {
		t.Errorf("m = 2: closed form E = %g ok = %v, want 177402 and not ok", cE, ok)
	}
}

func TestHomogeneousRulesSendTheWholeLoadFeasibly(t *testing.T) {
	for _, rule := range HomogeneousRules() {
		for _, m := range []int{1, 4, 12} {
			in := sec522(m)
			s, err := Homogeneous(context.Background(), in, rule)
			if err != nil {
				t.Fatal(err)
			}
			r := dm.Evaluate(in, s, dm.EvalOptions{AnyCount: true})
			if !r.OK() {
				t.Errorf("%s m = %d: %s", rule, m, r.Worst())
			}
			for _, msg := range s.Messages {
				if rule != SCO && msg.Size > 996+1e-9 {
					t.Errorf("%s m = %d: chunk %g exceeds ρ", rule, m, msg.Size)
					break
				}
			}
		}
	}
}

func TestOnlineHeuristicsAreFeasibleForEveryRule(t *testing.T) {
	in, err := dm.Generate(dm.GenConfig{M: 10, N: 12, V: 24000, P0N: 100, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, rule := range []Rule{SSC, GSS} {
		for _, p := range PSRs() {
			s, err := Online(context.Background(), in, rule, p, 1)
			if err != nil {
				t.Fatal(err)
			}
			r := dm.Evaluate(in, s, dm.EvalOptions{AnyCount: true})
			if !r.OK() {
				t.Errorf("%s/%s: %s", rule, p, r.Worst())
			}
			if r.Makespan < dm.ValidLowerBoundTime(in) {
				t.Errorf("%s/%s: T %g below the valid bound", rule, p, r.Makespan)
			}
		}
		best, _, err := Super(context.Background(), in, rule, ByTime, 1)
		if err != nil {
			t.Fatal(err)
		}
		bt := dm.Evaluate(in, best, dm.EvalOptions{AnyCount: true}).Makespan
		for _, p := range PSRs() {
			s, _ := Online(context.Background(), in, rule, p, 1)
			if v := dm.Evaluate(in, s, dm.EvalOptions{AnyCount: true}).Makespan; v < bt-1e-9 {
				t.Errorf("super-%s T %g worse than %s's %g", rule, bt, p, v)
			}
		}
	}
}

func TestPSROrders(t *testing.T) {
	in := &dm.Instance{Machines: []dm.Machine{{A1: 3, Rho: 1}, {A1: 1, Rho: 3}, {A1: 2, Rho: 2}}}
	if o, _ := Order(in, PSRa1, 0); o[0] != 1 || o[1] != 2 || o[2] != 0 {
		t.Errorf("a1 order %v", o)
	}
	if o, _ := Order(in, PSRRAM, 0); o[0] != 1 || o[2] != 0 {
		t.Errorf("RAM order %v", o)
	}
	if _, err := Order(in, "bogus", 0); err == nil {
		t.Error("unknown rule accepted")
	}
}

func BenchmarkGSSm1000(b *testing.B) {
	in, err := dm.Generate(dm.GenConfig{M: 1000, N: 12, V: 1e6, P0N: 100, Seed: 7})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		s, err := Online(context.Background(), in, GSS, PSRa1, 1)
		if err != nil || len(s.Messages) == 0 {
			b.Fatal(err)
		}
	}
}

func BenchmarkSuperGSSm1000(b *testing.B) {
	in, _ := dm.Generate(dm.GenConfig{M: 1000, N: 12, V: 1e6, P0N: 100, Seed: 7})
	for b.Loop() {
		if _, _, err := Super(context.Background(), in, GSS, ByEnergy, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// §5.2.2 observations at the defaults: SCU at m = 11 is worse than at m = 10 in T and
// E; GSS approaches the lower limit S + C·V = 88 s; SCO is erratic (much worse at m = 8
// than at m = 10).
func TestSection522Observations(t *testing.T) {
	eval := func(rule Rule, m int) (float64, float64) {
		in := sec522(m)
		s, err := Homogeneous(context.Background(), in, rule)
		if err != nil {
			t.Fatal(err)
		}
		T, p, err := dm.EvaluateCh5(in, s)
		if err != nil {
			t.Fatal(err)
		}
		return T, p.Total()
	}
	t10, e10 := eval(SCU, 10)
	t11, e11 := eval(SCU, 11)
	if !(t11 > t10 && e11 > e10) {
		t.Errorf("SCU: m = 10 (%g s, %g J), m = 11 (%g s, %g J); thesis: m = 11 larger in both", t10, e10, t11, e11)
	}
	if T, _ := eval(GSS, 28); math.Abs(T-88) > 1 {
		t.Errorf("GSS at m = 28: T = %g, want about S + CV = 88", T)
	}
	if t8, _ := eval(SCO, 8); t8 < 2*t10 {
		t.Errorf("SCO at m = 8: T = %g, not erratic against SCU at m = 10 (%g)", t8, t10)
	}
}

// A valid instance whose ρ is far below V (here below V's rounding unit, so a chunk
// does not even change the remainder) must end with ErrTooManyMessages instead of
// looping or exhausting memory.
func TestRulesStopAtMaxMessages(t *testing.T) {
	in := sec522(2)
	in.V = 1e6
	for i := range in.Machines {
		in.Machines[i].Rho = 1e-12
	}
	for _, rule := range []Rule{SSC, SCU, SCO} {
		t.Run("homogeneous "+string(rule), func(t *testing.T) {
			if _, err := Homogeneous(context.Background(), in, rule); !errors.Is(err, ErrTooManyMessages) {
				t.Errorf("err = %v, want ErrTooManyMessages", err)
			}
		})
	}
	t.Run("online ssc", func(t *testing.T) {
		if _, err := Online(context.Background(), in, SSC, PSRs()[0], 1); !errors.Is(err, ErrTooManyMessages) {
			t.Errorf("err = %v, want ErrTooManyMessages", err)
		}
	})
}

// TestHomogeneousStopsOnItsContext: a rule that would send 2^20 chunks returns the
// context's error when the context is done, before it sends them.
func TestHomogeneousStopsOnItsContext(t *testing.T) {
	in := sec522(2)
	in.V = 1e6
	for i := range in.Machines {
		in.Machines[i].Rho = 1e-12
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, rule := range HomogeneousRules() {
		t.Run(string(rule), func(t *testing.T) {
			if _, err := Homogeneous(ctx, in, rule); !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want context.Canceled", err)
			}
		})
	}
}
