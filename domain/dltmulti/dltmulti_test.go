package dltmulti

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/domain"
)

// tiny is one machine with ρ = 10: b2 = 10(1 − 3) = −20, l2 = 10(2 − 5) = −30, and a
// second identical machine with idle power 1 that is never used.
func tiny() *Instance {
	mc := Machine{A1: 1, A2: 3, K1: 2, K2: 5, Rho: 10, C: 0.1, O: 0.5, S: 2, PI: 1, PN: 4, PS: 3}
	return &Instance{Kind: Kind, V: 12, N: 2, P0N: 10, Machines: []Machine{mc, mc}, Objective: MinTime}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestEvaluateRecomputesTimeAndEveryEnergyTerm(t *testing.T) {
	in := tiny()
	// msg 0: 4 MB at t = 2, link until 2.9, computes τ(4) = 4 until 6.9.
	// msg 1: 8 MB at 6.9, link until 8.2, computes τ(8) = 8 until 16.2.
	s := Schedule{Messages: []Message{{0, 4, 2}, {0, 8, 6.9}}}
	r := Evaluate(in, s, EvalOptions{})
	if !r.OK() {
		t.Fatalf("feasible schedule rejected: %s", r.Worst())
	}
	want := Energy{E0: 10 * 16.2, ER: 8 + 16, EN: (0.9 + 1.3) * 4, ES: 2 * 3, EI: 1 * 16.2}
	if !near(r.T, 16.2) || !near(r.Makespan, 16.2) {
		t.Errorf("T = %g, makespan %g, want 16.2", r.T, r.Makespan)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"E0", r.Energy.E0, want.E0}, {"ER", r.Energy.ER, want.ER}, {"EN", r.Energy.EN, want.EN},
		{"ES", r.Energy.ES, want.ES}, {"EI", r.Energy.EI, want.EI}, {"E", r.E, want.Total()}} {
		if !near(c.got, c.want) {
			t.Errorf("%s = %g, want %g", c.name, c.got, c.want)
		}
	}
	if r.Machines[1].Used || r.Machines[1].IdleStart != r.T {
		t.Errorf("unused machine: %+v", r.Machines[1])
	}
}

func TestEvaluateChargesBusyWaitAtPNAndIdleBeforeStartAtPI(t *testing.T) {
	in := tiny()
	// One message of 12 MB out-of-core to machine 0 at t = 5 (idle 3 s, starting 2 s),
	// then an empty message (O = 0.5) at 50; T = 60.
	// τ(12) = max(12, 36 − 20) = 16; ε(12) = max(24, 60 − 30) = 30.
	s := Schedule{T: 60, Messages: []Message{{0, 12, 5}, {0, 0, 50}}}
	r := Evaluate(in, s, EvalOptions{})
	if !r.OK() {
		t.Fatalf("rejected: %s", r.Worst())
	}
	busy := 60 - 3 - 2 - (0.5 + 1.2) - 16 - 0.5
	wantEI := 1*3 + 4*busy + 1*60
	if !near(r.Energy.EI, wantEI) || !near(r.Energy.ER, 30) || !near(r.Energy.EN, (1.7+0.5)*4) {
		t.Errorf("EI %g (want %g), ER %g (want 30), EN %g", r.Energy.EI, wantEI, r.Energy.ER, r.Energy.EN)
	}
	if !r.OutOfCore[0] || r.OutOfCore[1] {
		t.Errorf("out-of-core flags %v", r.OutOfCore)
	}
}

func TestEvaluateReportsEachViolation(t *testing.T) {
	cases := []struct {
		name string
		s    Schedule
		rule string
	}{
		{"a message overlapping the previous one on the link", Schedule{Messages: []Message{{0, 4, 2}, {1, 8, 2.5}}}, "overlap"},
		{"a machine receiving before its startup can end", Schedule{Messages: []Message{{0, 4, 1}, {1, 8, 6.9}}}, "startup"},
		{"a machine receiving while still computing its chunk", Schedule{Messages: []Message{{0, 4, 2}, {0, 8, 3}}}, "memory"},
		{"a load that does not sum to V", Schedule{Messages: []Message{{0, 4, 2}, {1, 7, 3}}}, "load"},
		{"a wrong number of messages", Schedule{Messages: []Message{{0, 12, 2}}}, "count"},
		{"a computation ending after T", Schedule{T: 10, Messages: []Message{{0, 4, 2}, {1, 8, 3}}}, "length"},
		{"an unknown machine", Schedule{Messages: []Message{{5, 4, 2}, {1, 8, 3}}}, "machine"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Evaluate(tiny(), c.s, EvalOptions{})
			if r.OK() {
				t.Fatal("accepted")
			}
			found := false
			for _, v := range r.Violations {
				found = found || v.Rule == c.rule
			}
			if !found {
				t.Errorf("no %q violation in %+v", c.rule, r.Violations)
			}
		})
	}
}

const goodJSON = `{"kind":"dlt-multi","V":100,"n":2,"P0N":100,"objective":"min-time",
 "machines":[{"a1":0.1,"a2":1,"k1":10,"k2":100,"rho":50,"C":0.01,"O":0.01,"S":1,"PI":5,"PN":100,"PS":100}]}`

func TestParseRejectsBadInputWithFieldAndReason(t *testing.T) {
	cases := []struct {
		name, old, new, field string
	}{
		{"negative rate", `"C":0.01`, `"C":-0.01`, "machines[0].C"},
		{"rho zero", `"rho":50`, `"rho":0`, "machines[0].rho"},
		{"b2 disagreeing with rho", `"rho":50`, `"rho":50,"b2":-40`, "machines[0].b2"},
		{"l2 disagreeing with rho", `"rho":50`, `"rho":50,"l2":-4000`, "machines[0].l2"},
		{"n below one", `"n":2`, `"n":0`, "n"},
		{"fractional n", `"n":2`, `"n":2.5`, "n"},
		{"a1 not below a2", `"a1":0.1`, `"a1":2`, "machines[0].a2"},
		{"deadline below the lower bound", `"objective":"min-time"`, `"objective":"min-energy","deadline":5`, "deadline"},
		{"min-energy without deadline", `"objective":"min-time"`, `"objective":"min-energy"`, "deadline"},
		{"unknown objective", `"min-time"`, `"fastest"`, "objective"},
		{"NaN", `"V":100`, `"V":NaN`, "V"},
		{"NaN in a machine", `"S":1`, `"S":NaN`, "machines[0].S"},
		{"a string for a rate", `"a1":0.1`, `"a1":"NaN"`, "machines[0].a1"},
		{"unknown machine field", `"PS":100`, `"PS":100,"Q":1`, "machines[0].Q"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(strings.Replace(goodJSON, c.old, c.new, 1)))
			var fe *domain.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a FieldError", err)
			}
			if fe.Field != c.field || fe.Reason == "" {
				t.Errorf("field %q reason %q, want field %q", fe.Field, fe.Reason, c.field)
			}
		})
	}
	if _, err := Parse([]byte(strings.Replace(goodJSON, `"rho":50`, `"rho":50,"b2":-45,"l2":-4500`, 1))); err != nil {
		t.Errorf("b2, l2 agreeing with rho rejected: %v", err)
	}
}

func TestDeadlineBelowBoundSaysInfeasibleAndWhy(t *testing.T) {
	_, err := Parse([]byte(strings.Replace(goodJSON, `"objective":"min-time"`, `"objective":"min-energy","deadline":5`, 1)))
	if err == nil || !strings.Contains(err.Error(), "infeasible") || !strings.Contains(err.Error(), "lower bound") {
		t.Errorf("error %v should say infeasible and name the lower bound", err)
	}
}

func TestValidLowerBoundTimeWaterFilling(t *testing.T) {
	// Two machines, a1 = 1 and 0.5, S+O = 1 and 3, V = 10: capacity(T) = (T−1) + 2(T−3)
	// for T >= 3; = 10 at T = 17/3.
	in := &Instance{Kind: Kind, V: 10, N: 1, Objective: MinTime, Machines: []Machine{
		{A1: 1, A2: 2, K1: 1, K2: 2, Rho: 5, S: 1, PN: 1},
		{A1: 0.5, A2: 2, K1: 1, K2: 2, Rho: 5, S: 3, PN: 1},
	}}
	if got := ValidLowerBoundTime(in); !near(got, 17.0/3) {
		t.Errorf("bound %g, want %g", got, 17.0/3)
	}
}

func TestPrintedBound629FailsForOneMachineBelowRAM(t *testing.T) {
	in := tiny()
	in.Machines = in.Machines[:1]
	in.V, in.N = 5, 1
	// The only schedule: S + O + C V + a1 V = 2 + 0.5 + 0.5 + 5 = 8 < LB(T) = 2+0.5+10·0.1+5 = 8.5.
	r := Evaluate(in, Schedule{Messages: []Message{{0, 5, 2}}}, EvalOptions{})
	if !r.OK() || !(r.T < LowerBoundTime(in)) || r.T < ValidLowerBoundTime(in) {
		t.Errorf("T = %g, printed LB %g, valid LB %g", r.T, LowerBoundTime(in), ValidLowerBoundTime(in))
	}
}

func TestGenerateFollowsSection64Ranges(t *testing.T) {
	in, err := Generate(GenConfig{M: 200, N: 12, V: 24000, P0N: 100, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	short := 0
	for i, mc := range in.Machines {
		if mc.Rho < 256 || mc.Rho > 8048 || mc.A2 < 0.3 || mc.A2 > 4.4 || mc.O > 0.02 || mc.B2() >= 0 || mc.L2() >= 0 {
			t.Errorf("machine %d out of range: %+v", i, mc)
		}
		switch {
		case mc.S <= 6 && mc.PI >= 70:
			short++
		case mc.S >= 40 && mc.PI <= 7:
		default:
			t.Errorf("machine %d: S %g and PI %g are not a short or long startup", i, mc.S, mc.PI)
		}
	}
	if short < 70 || short > 130 {
		t.Errorf("%d of 200 short startups, want about half", short)
	}
	again, _ := Generate(GenConfig{M: 200, N: 12, V: 24000, P0N: 100, Seed: 4})
	if again.Machines[7] != in.Machines[7] {
		t.Error("same seed gave a different instance")
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(goodJSON))
	f.Add([]byte(`{"kind":"dlt-multi","V":1,"n":1,"machines":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := Parse(data)
		if err != nil {
			var fe *domain.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("non-field error %v", err)
			}
			return
		}
		if err := in.Validate(); err != nil {
			t.Fatalf("parsed instance fails validation: %v", err)
		}
	})
}

// TestSolutionScheduleInvertsNewSolution: the schedule a solution object gives back is
// the one it was built from, empty messages included, in link order.
func TestSolutionScheduleInvertsNewSolution(t *testing.T) {
	in, err := Generate(GenConfig{M: 3, N: 4, V: 3000, P0N: 100, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	s := Schedule{Messages: []Message{{Machine: 0, Size: 1000, Start: in.Machines[0].S}}}
	s.Messages = append(s.Messages, Message{Machine: 1, Size: 0, Start: s.Messages[0].Start + in.Machines[0].Comm(1000)})
	s.Messages = append(s.Messages, Message{Machine: 2, Size: 2000, Start: math.Max(in.Machines[2].S, s.Messages[1].Start+in.Machines[1].Comm(0))})
	r := Evaluate(in, s, EvalOptions{AnyCount: true})
	if !r.OK() {
		t.Fatalf("test schedule rejected: %s", r.Worst())
	}
	sol := NewSolution(in, s, r)
	if len(sol.EmptyMessages) != 1 {
		t.Fatalf("%d empty messages, want 1", len(sol.EmptyMessages))
	}
	got := sol.Schedule()
	if got.T != r.T || len(got.Messages) != len(s.Messages) {
		t.Fatalf("got %+v, want the messages of %+v with T = %g", got, s, r.T)
	}
	for j := range s.Messages {
		if got.Messages[j] != s.Messages[j] {
			t.Errorf("message %d: got %+v, want %+v", j, got.Messages[j], s.Messages[j])
		}
	}
}
