package dlt

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/domain"
)

func table51JSON(edit func(map[string]any)) []byte {
	d := map[string]any{"kind": "dlt-single", "V": 10000, "m": 10, "C": 0.006, "S": 70, "PS": 101, "PI": 6, "PN": 91,
		"a1": 0.082, "a2": 2.366, "k1": 13, "k2": 294.43, "rho": 996, "objective": "min-time"}
	if edit != nil {
		edit(d)
	}
	b, err := json.Marshal(d)
	if err != nil {
		panic(err)
	}
	return b
}

func TestMemoryPiecesMeetAtRho(t *testing.T) {
	for _, m := range []Memory{
		{A1: 0.0392, A2: 5.9943, K1: 4.0509, K2: 355.2, Rho: 706.65}, // Table 3.3 row 1
		{A1: 0.082, A2: 2.366, K1: 13, K2: 294.43, Rho: 996},         // Table 5.1
	} {
		if d := math.Abs(m.A1*m.Rho - (m.A2*m.Rho + m.B2())); d > 1e-9 {
			t.Errorf("%+v: time pieces differ by %g at rho", m, d)
		}
		if d := math.Abs(m.K1*m.Rho - (m.K2*m.Rho + m.L2())); d > 1e-6 {
			t.Errorf("%+v: energy pieces differ by %g at rho", m, d)
		}
		if m.Tau(0) != 0 || m.Eps(0) != 0 {
			t.Errorf("tau(0) = %g, eps(0) = %g, want 0", m.Tau(0), m.Eps(0))
		}
		for _, a := range []float64{0, m.Rho / 2, m.Rho, 2 * m.Rho} {
			in := m.A1*math.Min(a, m.Rho) + m.A2*math.Max(0, a-m.Rho)
			if math.Abs(m.Tau(a)-in) > 1e-9*math.Max(1, in) {
				t.Errorf("tau(%g) = %g, a1·min(α,ρ) + a2·max(0,α−ρ) = %g", a, m.Tau(a), in)
			}
		}
	}
	// Table 3.3 prints b2 = −4208.2 for row 1; rho = 706.65 is derived from it.
	m := Memory{A1: 0.0392, A2: 5.9943, K1: 4.0509, K2: 355.2, Rho: 706.65}
	if math.Abs(m.B2()+4208.2)/4208.2 > 1e-4 {
		t.Errorf("b2 = %g, Table 3.3 prints -4208.2", m.B2())
	}
}

func TestParseSingleRejectsBadInput(t *testing.T) {
	cases := []struct {
		name, field, reason string
		data                []byte
	}{
		{"negative V", "V", "must be > 0", table51JSON(func(d map[string]any) { d["V"] = -5 })},
		{"negative C", "C", "must be >= 0", table51JSON(func(d map[string]any) { d["C"] = -0.1 })},
		{"negative idle power", "PI", "must be >= 0", table51JSON(func(d map[string]any) { d["PI"] = -6 })},
		{"zero rho", "rho", "must be > 0", table51JSON(func(d map[string]any) { d["rho"] = 0 })},
		{"negative rho", "rho", "must be > 0", table51JSON(func(d map[string]any) { d["rho"] = -996 })},
		{"no machines", "m", "must be >= 1", table51JSON(func(d map[string]any) { d["m"] = 0 })},
		{"faster out-of-core", "a2", "must be >= a1", table51JSON(func(d map[string]any) { d["a2"] = 0.01 })},
		{"cheaper out-of-core", "k2", "must be >= k1", table51JSON(func(d map[string]any) { d["k2"] = 1 })},
		{"b2 off by 0.2%", "b2", "disagrees", table51JSON(func(d map[string]any) { d["b2"] = -2274.864 * 1.002 })},
		{"l2 off by 1%", "l2", "disagrees", table51JSON(func(d map[string]any) { d["l2"] = -280304.28 * 1.01 })},
		{"unknown objective", "objective", "must be", table51JSON(func(d map[string]any) { d["objective"] = "fast" })},
		{"min-energy without deadline", "deadline", "required", table51JSON(func(d map[string]any) { d["objective"] = "min-energy" })},
		{"fixed length without deadline", "fixed_length", "needs a deadline", table51JSON(func(d map[string]any) { d["fixed_length"] = true })},
		{"deadline below the bound", "deadline", "lower bound 158", table51JSON(func(d map[string]any) {
			d["objective"], d["deadline"] = "min-energy", 157
		})},
		{"NaN", "a1", "invalid value \"NaN\"", []byte(strings.Replace(string(table51JSON(nil)), `"a1":0.082`, `"a1":NaN`, 1))},
		{"Infinity", "V", "invalid value", []byte(strings.Replace(string(table51JSON(nil)), `"V":10000`, `"V":-Infinity`, 1))},
		{"a string for a number", "S", "must be a number", table51JSON(func(d map[string]any) { d["S"] = "70" })},
		{"a fractional m", "m", "must be an integer", table51JSON(func(d map[string]any) { d["m"] = 2.5 })},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseSingle(c.data)
			var fe *domain.FieldError
			if !errors.As(err, &fe) || !errors.Is(err, domain.ErrBadInput) {
				t.Fatalf("err = %v, want a FieldError", err)
			}
			if fe.Field != c.field || !strings.Contains(fe.Reason, c.reason) {
				t.Fatalf("got %q: %q; want %q containing %q", fe.Field, fe.Reason, c.field, c.reason)
			}
		})
	}
	t.Run("b2 and l2 within 0.1% are accepted", func(t *testing.T) {
		in, err := ParseSingle(table51JSON(func(d map[string]any) { d["b2"], d["l2"] = -2274.89, -280303.72 }))
		if err != nil {
			t.Fatal(err)
		}
		if in.Memory().B2() != 996*(0.082-2.366) {
			t.Errorf("b2 must be derived from rho, got %g", in.Memory().B2())
		}
	})
}

func TestParseFlatRejectsBadInput(t *testing.T) {
	cases := []struct{ name, field, data string }{
		{"negative S", "machines[0].S", `{"kind":"dlt-flat","V":10,"machines":[{"a":1,"C":0,"S":-1}]}`},
		{"zero a", "machines[1].a", `{"kind":"dlt-flat","V":10,"machines":[{"a":1,"C":0,"S":0},{"a":0,"C":0,"S":0}]}`},
		{"zero memory", "machines[0].B", `{"kind":"dlt-flat","V":10,"machines":[{"a":1,"C":0,"S":0,"B":0}]}`},
		{"no machines", "machines", `{"kind":"dlt-flat","V":10,"machines":[]}`},
		{"not enough memory", "V", `{"kind":"dlt-flat","V":10,"machines":[{"a":1,"C":0,"S":0,"B":9}]}`},
		{"min-energy", "objective", `{"kind":"dlt-flat","V":10,"machines":[{"a":1,"C":0,"S":0}],"objective":"min-energy"}`},
		{"NaN rate", "machines[0].C", `{"kind":"dlt-flat","V":10,"machines":[{"a":1,"C":NaN,"S":0}]}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseFlat([]byte(c.data))
			var fe *domain.FieldError
			if !errors.As(err, &fe) || fe.Field != c.field {
				t.Fatalf("err = %v, want a FieldError for %s", err, c.field)
			}
		})
	}
}

func TestEvaluateSingle(t *testing.T) {
	in, err := ParseSingle(table51JSON(func(d map[string]any) { d["m"] = 3; d["V"] = 2000 }))
	if err != nil {
		t.Fatal(err)
	}
	mem := in.Memory()
	// Two machines used, sizes chosen by hand; machine 2 is the last to finish.
	alpha := []float64{1100, 900, 0}
	used := []bool{true, true, false}
	f1 := 70 + 0.006*1100 + mem.Tau(1100)
	f2 := 70 + 0.006*1100 + 70 + 0.006*900 + mem.Tau(900)
	T := math.Max(f1, f2)
	sol := &SingleSolution{T: T, Alpha: alpha, Used: used}
	rep, en := EvaluateSingle(in, sol)
	// (5.1)-(5.4) by hand.
	E1 := 70*101 + (T-70-0.006*1100-mem.Tau(1100))*6 + 0.006*1100*91 + mem.Eps(1100)
	E2 := 70*101 + (T-70-0.006*900-mem.Tau(900))*6 + 0.006*900*91 + mem.Eps(900)
	E3 := T * 6
	E0 := 6*T + (2*70+0.006*2000)*(91-6)
	if want := E0 + E1 + E2 + E3; math.Abs(en.E-want) > 1e-6*want {
		t.Fatalf("E = %g, (5.1)-(5.4) give %g", en.E, want)
	}
	if rep.Makespan != T || rep.Objective != T {
		t.Errorf("makespan %g objective %g, want %g", rep.Makespan, rep.Objective, T)
	}
	if rep.OK() {
		t.Errorf("a solution without its energy must be flagged (E = 0 given)")
	}
	sol.E = en.E
	if rep, _ = EvaluateSingle(in, sol); !rep.OK() {
		t.Fatalf("valid schedule rejected: %s", rep.Worst)
	}
	violations := []struct {
		name string
		edit func(s *SingleSolution)
		want string
	}{
		{"too short", func(s *SingleSolution) { s.T -= 1 }, "finishes"},
		{"load missing", func(s *SingleSolution) { s.Alpha[1] -= 1 }, "sum"},
		{"load on an unused machine", func(s *SingleSolution) { s.Alpha[2], s.Alpha[1] = 1, 899 }, "not used"},
		{"negative chunk", func(s *SingleSolution) { s.Alpha[1], s.Alpha[2] = 901, -1 }, "< 0"},
		{"wrong energy", func(s *SingleSolution) { s.E *= 0.99 }, "differs"},
		{"NaN energy", func(s *SingleSolution) { s.E = math.NaN() }, "differs"},
	}
	for _, v := range violations {
		t.Run(v.name, func(t *testing.T) {
			s := *sol
			s.Alpha = append([]float64(nil), sol.Alpha...)
			v.edit(&s)
			r, en := EvaluateSingle(in, &s)
			if v.want != "differs" {
				s.E = en.E
				r, _ = EvaluateSingle(in, &s)
			}
			if r.OK() || !strings.Contains(r.Worst, v.want) {
				t.Fatalf("ok = %v, worst %q; want a violation mentioning %q", r.OK(), r.Worst, v.want)
			}
		})
	}
	t.Run("NaN length", func(t *testing.T) {
		s := *sol
		s.T = math.NaN()
		if r, _ := EvaluateSingle(in, &s); r.OK() {
			t.Fatal("a schedule of length NaN was accepted")
		}
	})
	t.Run("deadline and energy limit", func(t *testing.T) {
		d, e := T-1, en.E-1
		in2 := *in
		in2.Deadline, in2.EnergyLimit = &d, &e
		if r, _ := EvaluateSingle(&in2, sol); r.OK() {
			t.Fatal("a schedule past its deadline and energy limit was accepted")
		}
	})
}

func TestEvaluateFlat(t *testing.T) {
	b := 60.0
	in := &FlatInstance{V: 100, Objective: "min-time", Machines: []FlatMachine{{A: 1, C: 0.1, S: 2, B: &b}, {A: 2, C: 0.2, S: 1}}}
	// M1: starts 0, receives until 2 + 6 = 8, computes 60 → 68. M2: 8 + 1 + 8 = 17, computes 80 → 97.
	sol := &FlatSolution{T: 97, Alpha: []float64{60, 40}}
	if r := EvaluateFlat(in, sol); !r.OK() || r.Makespan != 97 {
		t.Fatalf("ok %v makespan %g (%s), want 97", r.OK(), r.Makespan, r.Worst)
	}
	sol = &FlatSolution{T: 97, Alpha: []float64{61, 39}}
	if r := EvaluateFlat(in, sol); r.OK() || !strings.Contains(r.Worst, "memory") {
		t.Fatalf("memory violation not reported: %q", r.Worst)
	}
}

func TestEnergyCh4Parts(t *testing.T) {
	s := Ch4System{M: 4, A: 0.5, C: 0.1, S: 2, V: 100, K: 4, PC: 100, PN: 20}
	T := 30.0
	e := EnergyCh4(s, T)
	// (4.15): the workers are active S + (C+a)α_i each, which sums to mS + (C+a)V.
	direct := s.PC * (s.K - 1) / s.K * (float64(s.M)*s.S + s.C*s.V + float64(s.M)*s.S + (s.C+s.A)*s.V)
	if math.Abs(e.ERC-direct) > 1e-9 {
		t.Errorf("E^RC = %g, direct sum %g", e.ERC, direct)
	}
	if math.Abs(e.E-(e.EI+e.ERN+e.ERC)) > 1e-9 {
		t.Error("E is not the sum of its parts (4.12)")
	}
}

func FuzzParseSingle(f *testing.F) {
	f.Add(table51JSON(nil))
	f.Add(table51JSON(func(d map[string]any) { d["objective"], d["deadline"] = "min-energy", 900 }))
	f.Add([]byte(`{"kind":"dlt-single","a1":NaN}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := ParseSingle(data)
		if err != nil {
			var fe *domain.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("non-field error %v", err)
			}
			return
		}
		if in.M < 1 || !(in.V > 0) || !(in.Rho > 0) || in.A2 < in.A1 {
			t.Fatalf("invalid instance accepted: %+v", in)
		}
	})
}

func FuzzParseFlat(f *testing.F) {
	f.Add([]byte(`{"kind":"dlt-flat","V":10,"machines":[{"a":1,"C":0.1,"S":1,"B":20}]}`))
	f.Add([]byte(`{"kind":"dlt-flat","V":1e11,"machines":[{"a":1e-3,"C":1e-8,"S":100}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := ParseFlat(data)
		if err != nil {
			var fe *domain.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("non-field error %v", err)
			}
			return
		}
		for _, m := range in.Machines {
			if !(m.A > 0) || m.C < 0 || m.S < 0 {
				t.Fatalf("invalid machine accepted: %+v", m)
			}
		}
	})
}

// The evaluator's energy equals the identity the reference derives by substituting
// (5.9) into (5.4): E = (m+1)P^I·T + S(P^S + P^N − 2P^I)·K + 2CV(P^N − P^I) +
// Σ_i [ε(α_i) − P^I·τ(α_i)], K machines used. Each machine left out saves
// S(P^N + P^S) − 2S·P^I at equal loads: 1260 J with S = 7 (L735-737).
func TestEnergyIdentity(t *testing.T) {
	in, err := ParseSingle(table51JSON(func(d map[string]any) { d["S"] = 7; d["m"] = 5; d["V"] = 3000 }))
	if err != nil {
		t.Fatal(err)
	}
	mem := in.Memory()
	schedules := [][]float64{{1000, 1000, 1000, 0, 0}, {1500, 800, 700, 0, 0}, {600, 600, 600, 600, 600}, {3000, 0, 0, 0, 0}}
	for _, alpha := range schedules {
		used := make([]bool, 5)
		K := 0
		for i, a := range alpha {
			used[i] = a > 0
			if used[i] {
				K++
			}
		}
		sol := &SingleSolution{T: 2000, Alpha: alpha, Used: used}
		_, en := EvaluateSingle(in, sol)
		id := 6*6*2000.0 + 7*(101+91-12)*float64(K) + 2*0.006*3000*(91-6)
		for _, a := range alpha {
			id += mem.Eps(a) - 6*mem.Tau(a)
		}
		if math.Abs(en.E-id) > 1e-9*id {
			t.Errorf("alpha %v: E = %g, identity %g", alpha, en.E, id)
		}
	}
	if step := 7*(91+101) - 2*7*6; step != 1260 {
		t.Errorf("step %d", step)
	}
}

// Decoding errors name the JSON path of the bad value, array indices included.
func TestDecodeNamesTheJSONPath(t *testing.T) {
	type machine struct {
		A float64 `json:"a"`
		C float64 `json:"C"`
	}
	type doc struct {
		V        float64   `json:"V"`
		Name     string    `json:"name"`
		Machines []machine `json:"machines"`
	}
	cases := []struct {
		name, data, field, reason string
		strict                    bool
	}{
		{"NaN at the top level", `{"V":NaN,"machines":[]}`, "V", "invalid value \"NaN\"", false},
		{"NaN in the third machine", `{"V":1,"machines":[{"a":1},{"a":2,"C":3},{"C":1,"a":NaN}]}`, "machines[2].a", "invalid value \"NaN\"", false},
		{"Infinity in the first machine", `{"machines":[{"a":-Infinity}]}`, "machines[0].a", "invalid value \"-Infinity\"", false},
		{"a string for a number", `{"V":1,"machines":[{"a":1},{"C":"fast"}]}`, "machines[1].C", "must be a number, got JSON string", false},
		{"a number for a string", `{"name":5}`, "name", "must be a string, got JSON number", false},
		{"an object for the array", `{"V":2,"machines":{"a":1}}`, "machines", "must be an array", false},
		{"an unknown key in strict mode", `{"V":1,"machines":[{"a":1},{"a":1,"Q":2}]}`, "machines[1].Q", "unknown field", true},
		{"a truncated document", `{"V":1,"machines":[{"a":1}`, "", "invalid JSON", false},
		{"a stray closing brace", `{"V":1} }`, "", "after the top-level value", false},
		{"a second document", `{"V":1} {"V":2}`, "", "after the top-level value", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var d doc
			err := Decode([]byte(c.data), &d, c.strict)
			var fe *domain.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a FieldError", err)
			}
			if fe.Field != c.field || !strings.Contains(fe.Reason, c.reason) {
				t.Errorf("got field %q reason %q, want field %q reason containing %q", fe.Field, fe.Reason, c.field, c.reason)
			}
		})
	}
	var d doc
	if err := Decode([]byte(`{"V":1,"machines":[{"a":1,"C":2}]}`), &d, true); err != nil || d.Machines[0].C != 2 {
		t.Errorf("valid document: %v %+v", err, d)
	}
}
