package dltmulti

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/domain/dlt"
)

// Kind is the instance kind this package handles.
const Kind = "dlt-multi"

// Objectives of a dlt-multi instance.
const (
	MinTime   = "min-time"   // minimise T, optionally under energy_limit and deadline
	MinEnergy = "min-energy" // minimise E under T <= deadline (T == deadline with fixed_length)
)

// RhoAgreeTol is the relative tolerance within which a given b2 or l2 must agree with
// the value derived from rho (b2 = ρ(a1 − a2), l2 = ρ(k1 − k2), eq. 3.3): 0.1 % as the
// spec requires.
const RhoAgreeTol = 1e-3

// Machine is one worker M_i with the hierarchical-memory time and energy functions
// (3.1)-(3.3) and the networking, startup and idle parameters of §6.1.
type Machine struct {
	A1  float64 `json:"a1"`  // on-core computing rate [s/MB]
	A2  float64 `json:"a2"`  // out-of-core computing rate [s/MB], > a1
	K1  float64 `json:"k1"`  // on-core energy per MB [J/MB]
	K2  float64 `json:"k2"`  // out-of-core energy per MB [J/MB], > k1
	Rho float64 `json:"rho"` // usable RAM, the kink of both pieces [MB]
	C   float64 `json:"C"`   // communication rate [s/MB]
	O   float64 `json:"O"`   // fixed overhead of every message [s] (6.2)
	S   float64 `json:"S"`   // startup time [s]
	PI  float64 `json:"PI"`  // idle power [W]
	PN  float64 `json:"PN"`  // networking and busy-waiting power [W]
	PS  float64 `json:"PS"`  // starting power [W]
	// GivenB2 and GivenL2 are optional; when present they must agree with rho.
	GivenB2 *float64 `json:"b2,omitempty"`
	GivenL2 *float64 `json:"l2,omitempty"`
}

// Memory returns the machine's hierarchical-memory time and energy functions
// (3.1)-(3.3), shared with the single-installment kinds.
func (m Machine) Memory() dlt.Memory {
	return dlt.Memory{A1: m.A1, A2: m.A2, K1: m.K1, K2: m.K2, Rho: m.Rho}
}

// B2 returns b_2 = ρ(a_1 − a_2) (< 0), derived from rho as (3.3) requires.
func (m Machine) B2() float64 { return m.Memory().B2() }

// L2 returns l_2 = ρ(k_1 − k_2) (< 0), derived from rho as (3.3) requires.
func (m Machine) L2() float64 { return m.Memory().L2() }

// Tau returns the computing time τ(α) = max{a_1 α, a_2 α + b_2} of a chunk (3.1).
func (m Machine) Tau(alpha float64) float64 { return m.Memory().Tau(alpha) }

// Eps returns the computing energy ε(α) = max{k_1 α, k_2 α + l_2} of a chunk (3.2).
func (m Machine) Eps(alpha float64) float64 { return m.Memory().Eps(alpha) }

// Comm returns the transfer time O + Cα of a message of size α (6.2).
func (m Machine) Comm(alpha float64) float64 { return m.O + m.C*alpha }

// Instance is a dlt-multi instance (spec: kind "dlt-multi").
type Instance struct {
	Kind        string    `json:"kind"`
	Name        string    `json:"name,omitempty"`
	V           float64   `json:"V"`   // load [MB]
	N           int       `json:"n"`   // number of messages (installments), exactly
	P0N         float64   `json:"P0N"` // originator power [W]; not given by the thesis
	Machines    []Machine `json:"machines"`
	Objective   string    `json:"objective"`
	Deadline    *float64  `json:"deadline,omitempty"`
	FixedLength bool      `json:"fixed_length,omitempty"`
	EnergyLimit *float64  `json:"energy_limit,omitempty"`
}

// M returns the number of machines.
func (in *Instance) M() int { return len(in.Machines) }

// wire mirrors Instance with n as a number, so that a fractional n is reported as a
// field error instead of a JSON type error.
type wire struct {
	Kind        string        `json:"kind"`
	Name        string        `json:"name"`
	V           *float64      `json:"V"`
	N           *float64      `json:"n"`
	P0N         *float64      `json:"P0N"`
	Machines    []wireMachine `json:"machines"`
	Objective   string        `json:"objective"`
	Deadline    *float64      `json:"deadline"`
	FixedLength bool          `json:"fixed_length"`
	EnergyLimit *float64      `json:"energy_limit"`
}

// wireMachine mirrors Machine with pointers, so that a missing or null field is told
// from a zero. Every field but b2 and l2 is required.
type wireMachine struct {
	A1      *float64 `json:"a1"`
	A2      *float64 `json:"a2"`
	K1      *float64 `json:"k1"`
	K2      *float64 `json:"k2"`
	Rho     *float64 `json:"rho"`
	C       *float64 `json:"C"`
	O       *float64 `json:"O"`
	S       *float64 `json:"S"`
	PI      *float64 `json:"PI"`
	PN      *float64 `json:"PN"`
	PS      *float64 `json:"PS"`
	GivenB2 *float64 `json:"b2"`
	GivenL2 *float64 `json:"l2"`
}

// machine returns the Machine, or the JSON name of the first required field missing.
func (w wireMachine) machine() (Machine, string) {
	mc := Machine{GivenB2: w.GivenB2, GivenL2: w.GivenL2}
	for _, f := range []struct {
		name string
		src  *float64
		dst  *float64
	}{
		{"a1", w.A1, &mc.A1}, {"a2", w.A2, &mc.A2}, {"k1", w.K1, &mc.K1}, {"k2", w.K2, &mc.K2},
		{"rho", w.Rho, &mc.Rho}, {"C", w.C, &mc.C}, {"O", w.O, &mc.O}, {"S", w.S, &mc.S},
		{"PI", w.PI, &mc.PI}, {"PN", w.PN, &mc.PN}, {"PS", w.PS, &mc.PS},
	} {
		if f.src == nil {
			return Machine{}, f.name
		}
		*f.dst = *f.src
	}
	return mc, ""
}

// Parse decodes and validates a dlt-multi instance. Bad input is a *domain.FieldError
// naming the JSON path and the reason.
func Parse(data []byte) (*Instance, error) {
	var w wire
	if err := dlt.Decode(data, &w, false); err != nil {
		return nil, err
	}
	in := &Instance{Kind: w.Kind, Name: w.Name, Objective: w.Objective, Deadline: w.Deadline,
		FixedLength: w.FixedLength, EnergyLimit: w.EnergyLimit}
	if w.V == nil {
		return nil, domain.Errorf("V", "missing")
	}
	in.V = *w.V
	if w.N == nil {
		return nil, domain.Errorf("n", "missing")
	}
	if n := *w.N; n != math.Trunc(n) || n < 1 || n > 1e6 {
		return nil, domain.Errorf("n", "must be an integer >= 1, got %g", n)
	}
	in.N = int(*w.N)
	if w.P0N != nil {
		in.P0N = *w.P0N
	}
	// One strict decode of the whole document (pointer fields tell a missing or null
	// field from a zero): 10³ machines parsed in 28 ms when every machine was decoded
	// on its own, and in 16 ms when the array was a second document.
	if w.Machines == nil {
		return nil, domain.Errorf("machines", "missing")
	}
	ws := w.Machines
	in.Machines = make([]Machine, len(ws))
	for i, wm := range ws {
		mc, missing := wm.machine()
		if missing != "" {
			return nil, domain.Errorf(fmt.Sprintf("machines[%d].%s", i, missing), "missing")
		}
		in.Machines[i] = mc
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	return in, nil
}

// Validate checks every field and returns the first problem as a *domain.FieldError.
// Beyond signs and ranges it rejects b2 or l2 that disagree with rho, a deadline below
// the lower bound ValidLowerBoundTime (the instance would be infeasible) and an energy
// limit below ValidLowerBoundEnergy.
func (in *Instance) Validate() error {
	if in.Kind != Kind {
		return domain.Errorf("kind", "must be %q, got %q", Kind, in.Kind)
	}
	if err := positive("V", in.V); err != nil {
		return err
	}
	if in.N < 1 {
		return domain.Errorf("n", "must be >= 1, got %d", in.N)
	}
	if err := nonNeg("P0N", in.P0N); err != nil {
		return err
	}
	if len(in.Machines) == 0 {
		return domain.Errorf("machines", "must list at least one machine")
	}
	for i, mc := range in.Machines {
		if err := mc.validate(fmt.Sprintf("machines[%d]", i)); err != nil {
			return err
		}
	}
	switch in.Objective {
	case MinTime, MinEnergy:
	default:
		return domain.Errorf("objective", "must be %q or %q, got %q", MinTime, MinEnergy, in.Objective)
	}
	if in.Deadline != nil {
		if err := positive("deadline", *in.Deadline); err != nil {
			return err
		}
		if lb := ValidLowerBoundTime(in); *in.Deadline < lb*(1-boundSlack) {
			return domain.Errorf("deadline", "infeasible: %g is below the lower bound %.6g on T "+
				"(every machine must start, receive its first message and compute at its on-core rate a1: "+
				"Σ_i max(0, T − S_i − O_i)/a1_i >= V, and the link carries all n messages after min S)", *in.Deadline, lb)
		}
	}
	if in.Objective == MinEnergy && in.Deadline == nil {
		return domain.Errorf("deadline", "required for objective %q", MinEnergy)
	}
	if in.FixedLength && in.Deadline == nil {
		return domain.Errorf("fixed_length", "needs a deadline")
	}
	if in.EnergyLimit != nil {
		if err := positive("energy_limit", *in.EnergyLimit); err != nil {
			return err
		}
		if lb := ValidLowerBoundEnergy(in); *in.EnergyLimit < lb*(1-boundSlack) {
			return domain.Errorf("energy_limit", "infeasible: %g is below the lower bound %.6g on E (6.30)", *in.EnergyLimit, lb)
		}
	}
	return nil
}

// boundSlack keeps rounding in a bound from rejecting a limit equal to it.
const boundSlack = 1e-9

func (mc Machine) validate(path string) error {
	f := func(name string) string { return path + "." + name }
	for _, c := range []struct {
		name string
		v    float64
		pos  bool
	}{
		{"a1", mc.A1, true}, {"a2", mc.A2, true}, {"k1", mc.K1, false}, {"k2", mc.K2, true},
		{"rho", mc.Rho, true}, {"C", mc.C, false}, {"O", mc.O, false}, {"S", mc.S, false},
		{"PI", mc.PI, false}, {"PN", mc.PN, false}, {"PS", mc.PS, false},
	} {
		// The field's path is built only for a value that fails (10⁵ machines).
		if !math.IsInf(c.v, 0) && (c.pos && c.v > 0 || !c.pos && c.v >= 0) {
			continue
		}
		if c.pos {
			return positive(f(c.name), c.v)
		}
		return nonNeg(f(c.name), c.v)
	}
	if !(mc.A2 > mc.A1) {
		return domain.Errorf(f("a2"), "must be > a1 (%g): out-of-core is slower (3.1)", mc.A1)
	}
	if !(mc.K2 > mc.K1) {
		return domain.Errorf(f("k2"), "must be > k1 (%g): out-of-core costs more energy (3.2)", mc.K1)
	}
	if mc.GivenB2 != nil {
		if err := agree(f("b2"), *mc.GivenB2, mc.B2(), "ρ(a1 − a2)"); err != nil {
			return err
		}
	}
	if mc.GivenL2 != nil {
		if err := agree(f("l2"), *mc.GivenL2, mc.L2(), "ρ(k1 − k2)"); err != nil {
			return err
		}
	}
	return nil
}

func agree(field string, given, derived float64, formula string) error {
	if math.IsNaN(given) || math.IsInf(given, 0) {
		return domain.Errorf(field, "must be finite, got %g", given)
	}
	if math.Abs(given-derived) > RhoAgreeTol*math.Abs(derived) {
		return domain.Errorf(field, "%g disagrees with rho: %s = %g (more than %g%% apart)", given, formula, derived, 100*RhoAgreeTol)
	}
	return nil
}

func positive(field string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return domain.Errorf(field, "must be finite, got %g", v)
	}
	if v <= 0 {
		return domain.Errorf(field, "must be > 0, got %g", v)
	}
	return nil
}

func nonNeg(field string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return domain.Errorf(field, "must be finite, got %g", v)
	}
	if v < 0 {
		return domain.Errorf(field, "must be >= 0, got %g", v)
	}
	return nil
}

// JSON returns the instance as indented JSON, with kind set.
func (in *Instance) JSON() ([]byte, error) {
	c := *in
	c.Kind = Kind
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&c); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}

// Identical reports whether two machines have the same parameters, so that any
// schedule stays feasible with the same energy when their labels are swapped.
func Identical(a, b Machine) bool {
	return a.A1 == b.A1 && a.A2 == b.A2 && a.K1 == b.K1 && a.K2 == b.K2 && a.Rho == b.Rho &&
		a.C == b.C && a.O == b.O && a.S == b.S && a.PI == b.PI && a.PN == b.PN && a.PS == b.PS
}
