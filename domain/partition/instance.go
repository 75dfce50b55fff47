package partition

import (
	"fmt"
	"math"
	"strings"

	"github.com/schedopt/schedopt/domain"
)

// Objectives of a partition instance.
const (
	ObjMinTime   = "min-time"   // minimise the makespan T (Eq. 17); maximises P_sys = N_f/T (Eq. 18)
	ObjMinEnergy = "min-energy" // minimise the total energy E (Eq. 24); maximises EE = N_f/E (Eq. 25)
)

// Objectives lists the accepted objective names.
func Objectives() []string { return []string{ObjMinTime, ObjMinEnergy} }

// Split is how a portion may be divided among processors (reference 002 §2.3, types
// D, B and G).
type Split string

// Split types.
const (
	Divisible Split = "divisible" // any fraction on each processor (type D; the p-DP assumption, L70)
	Whole     Split = "whole"     // all on one processor (type B; code partitioning, L57)
	Chunks    Split = "chunks"    // a whole number of its Chunks equal chunks on each processor (type G)
)

// MaxChunks bounds the chunk count of a portion, so that chunk counts stay exact in
// float64 arithmetic and in the solvers' integrality tolerance.
const MaxChunks = 1 << 20

// Processor holds the five machine parameters of Table II (reference 002 §1.3). Units
// are the caller's, consistently: with seconds, joules and watts, time_per_flop is
// t_f = 1/peak flop rate (Eq. 5), time_per_byte t_b = 1/bandwidth.
type Processor struct {
	Name          string  `json:"name"`
	TimePerFlop   float64 `json:"time_per_flop"`   // t_f > 0
	TimePerByte   float64 `json:"time_per_byte"`   // t_b > 0
	EnergyPerFlop float64 `json:"energy_per_flop"` // e_f >= 0, dynamic
	EnergyPerByte float64 `json:"energy_per_byte"` // e_b >= 0, dynamic
	StaticPower   float64 `json:"static_power"`    // p_s >= 0, drawn for the whole makespan
}

// Work returns the roofline time of flops and bytes on p: max{t_f·flops, t_b·bytes}
// (Eq. 15).
func (p Processor) Work(flops, bytes float64) float64 {
	return math.Max(p.TimePerFlop*flops, p.TimePerByte*bytes)
}

// Dynamic returns the dynamic energy of flops and bytes on p: e_f·flops + e_b·bytes
// (Eq. 23).
func (p Processor) Dynamic(flops, bytes float64) float64 {
	return p.EnergyPerFlop*flops + p.EnergyPerByte*bytes
}

// Balance returns the machine balance BL = t_b/t_f in flops per byte (Eq. 27): a
// workload of intensity below BL is memory-bound on p.
func (p Processor) Balance() float64 { return p.TimePerByte / p.TimePerFlop }

// Portion is a code portion with its static-analysis counts (Table I).
type Portion struct {
	Name   string  `json:"name,omitempty"`
	Flops  float64 `json:"flops"` // f_j >= 0
	Bytes  float64 `json:"bytes"` // b_j >= 0
	Split  Split   `json:"split"`
	Chunks int     `json:"chunks,omitempty"` // g_j >= 1, for Split == Chunks
}

// Intensity returns the operational intensity f/b (Eq. 1), +Inf for a portion without
// bytes and 0 for an empty one.
func (p Portion) Intensity() float64 {
	switch {
	case p.Bytes > 0:
		return p.Flops / p.Bytes
	case p.Flops > 0:
		return math.Inf(1)
	}
	return 0
}

// Instance is a partition instance as the spec defines it. A nil Deadline means none;
// with one, every solution must have T <= *Deadline (with min-energy this is the
// deadline-constrained energy problem of reference 002 §2.3).
type Instance struct {
	Kind       string      `json:"kind"`
	Name       string      `json:"name,omitempty"`
	Processors []Processor `json:"processors"`
	Portions   []Portion   `json:"portions"`
	Objective  string      `json:"objective"`
	Deadline   *float64    `json:"deadline"`
}

// raw mirrors Instance with pointers, so that missing fields are reported by name.
type raw struct {
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	Processors []struct {
		Name          string   `json:"name"`
		TimePerFlop   *float64 `json:"time_per_flop"`
		TimePerByte   *float64 `json:"time_per_byte"`
		EnergyPerFlop *float64 `json:"energy_per_flop"`
		EnergyPerByte *float64 `json:"energy_per_byte"`
		StaticPower   *float64 `json:"static_power"`
	} `json:"processors"`
	Portions []struct {
		Name   string   `json:"name"`
		Flops  *float64 `json:"flops"`
		Bytes  *float64 `json:"bytes"`
		Split  *string  `json:"split"`
		Chunks *float64 `json:"chunks"`
	} `json:"portions"`
	Objective *string  `json:"objective"`
	Deadline  *float64 `json:"deadline"`
}

// Parse decodes and validates an instance. Every error for bad input is a
// *domain.FieldError naming the JSON path. A portion without "split" is divisible,
// the paper's fine-divisibility assumption (L70).
func Parse(data []byte) (*Instance, error) {
	var r raw
	if err := domain.Decode(data, &r); err != nil {
		return nil, err
	}
	if r.Kind != "" && r.Kind != "partition" {
		return nil, domain.Errorf("kind", "is %q, want \"partition\"", r.Kind)
	}
	in := &Instance{Kind: "partition", Name: r.Name, Deadline: r.Deadline}
	if r.Objective == nil {
		return nil, domain.Errorf("objective", "missing (one of %s)", strings.Join(Objectives(), ", "))
	}
	in.Objective = *r.Objective
	for i, rp := range r.Processors {
		f := fmt.Sprintf("processors[%d]", i)
		p := Processor{Name: rp.Name}
		for _, fld := range []struct {
			name string
			src  *float64
			dst  *float64
		}{
			{"time_per_flop", rp.TimePerFlop, &p.TimePerFlop},
			{"time_per_byte", rp.TimePerByte, &p.TimePerByte},
			{"energy_per_flop", rp.EnergyPerFlop, &p.EnergyPerFlop},
			{"energy_per_byte", rp.EnergyPerByte, &p.EnergyPerByte},
			{"static_power", rp.StaticPower, &p.StaticPower},
		} {
			if fld.src == nil {
				return nil, domain.Errorf(f+"."+fld.name, "missing")
			}
			*fld.dst = *fld.src
		}
		in.Processors = append(in.Processors, p)
	}
	for j, rq := range r.Portions {
		f := fmt.Sprintf("portions[%d]", j)
		q := Portion{Name: rq.Name, Split: Divisible}
		if rq.Flops == nil {
			return nil, domain.Errorf(f+".flops", "missing")
		}
		if rq.Bytes == nil {
			return nil, domain.Errorf(f+".bytes", "missing")
		}
		q.Flops, q.Bytes = *rq.Flops, *rq.Bytes
		if rq.Split != nil {
			q.Split = Split(*rq.Split)
		}
		if rq.Chunks != nil {
			g := *rq.Chunks
			if g != math.Trunc(g) || g < 1 || g > MaxChunks {
				return nil, domain.Errorf(f+".chunks", "must be an integer in [1, %d], got %v", MaxChunks, g)
			}
			q.Chunks = int(g)
		} else if q.Split == Chunks {
			return nil, domain.Errorf(f+".chunks", "missing (required with split \"chunks\")")
		}
		in.Portions = append(in.Portions, q)
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	return in, nil
}

// Validate checks an instance built in Go (Parse calls it too): at least one processor
// and one portion; times per flop and byte finite and > 0; energies and static powers
// finite and >= 0; flops and bytes finite and >= 0; a known split, with 1 <= chunks <=
// MaxChunks for chunked portions; a known objective; a deadline, if any, finite and > 0.
func (in *Instance) Validate() error {
	known := false
	for _, o := range Objectives() {
		known = known || in.Objective == o
	}
	if !known {
		return domain.Errorf("objective", "unknown objective %q (one of %s)", in.Objective, strings.Join(Objectives(), ", "))
	}
	if d := in.Deadline; d != nil && !(*d > 0 && !math.IsInf(*d, 1)) {
		return domain.Errorf("deadline", "must be finite and > 0 (or null), got %v", *d)
	}
	if len(in.Processors) == 0 {
		return domain.Errorf("processors", "must list at least one processor")
	}
	if len(in.Portions) == 0 {
		return domain.Errorf("portions", "must list at least one portion")
	}
	for i, p := range in.Processors {
		f := fmt.Sprintf("processors[%d]", i)
		if err := positive(f+".time_per_flop", p.TimePerFlop); err != nil {
			return err
		}
		if err := positive(f+".time_per_byte", p.TimePerByte); err != nil {
			return err
		}
		if err := nonNegative(f+".energy_per_flop", p.EnergyPerFlop); err != nil {
			return err
		}
		if err := nonNegative(f+".energy_per_byte", p.EnergyPerByte); err != nil {
			return err
		}
		if err := nonNegative(f+".static_power", p.StaticPower); err != nil {
			return err
		}
	}
	for j, q := range in.Portions {
		f := fmt.Sprintf("portions[%d]", j)
		if err := nonNegative(f+".flops", q.Flops); err != nil {
			return err
		}
		if err := nonNegative(f+".bytes", q.Bytes); err != nil {
			return err
		}
		switch q.Split {
		case Divisible, Whole:
		case Chunks:
			if q.Chunks < 1 || q.Chunks > MaxChunks {
				return domain.Errorf(f+".chunks", "must be an integer in [1, %d], got %d", MaxChunks, q.Chunks)
			}
		default:
			return domain.Errorf(f+".split", "unknown split %q (one of divisible, whole, chunks)", q.Split)
		}
	}
	// Products of counts and rates must stay finite for T and E to be defined.
	for k, p := range in.Processors {
		var nf, nb float64
		for _, q := range in.Portions {
			nf += q.Flops
			nb += q.Bytes
		}
		if t, e := p.Work(nf, nb), p.Dynamic(nf, nb); math.IsInf(t, 0) || math.IsInf(e, 0) {
			return domain.Errorf(fmt.Sprintf("processors[%d]", k), "time or energy of the whole workload overflows")
		}
	}
	return nil
}

func positive(field string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return domain.Errorf(field, "must be finite and > 0, got %v", v)
	}
	return nil
}

func nonNegative(field string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return domain.Errorf(field, "must be finite and >= 0, got %v", v)
	}
	return nil
}

// StaticPower returns P_s = Σ_k p_sk, the static power the whole platform draws for the
// makespan (Eq. 22).
func (in *Instance) StaticPower() float64 {
	s := 0.0
	for _, p := range in.Processors {
		s += p.StaticPower
	}
	return s
}

// Totals returns N_f = Σ_j f_j and N_b = Σ_j b_j (Eq. 7).
func (in *Instance) Totals() (flops, bytes float64) {
	for _, q := range in.Portions {
		flops += q.Flops
		bytes += q.Bytes
	}
	return flops, bytes
}

// MaxTime returns the largest makespan any solution can have: the whole workload on
// its slowest processor. Every processor's loads are at most (N_f, N_b).
func (in *Instance) MaxTime() float64 {
	nf, nb := in.Totals()
	t := 0.0
	for _, p := range in.Processors {
		t = math.Max(t, p.Work(nf, nb))
	}
	return t
}

// FreeSplitTime returns the free-split lower bound on the makespan of every solution,
// max{N_f/Σ_k(1/t_fk), N_b/Σ_k(1/t_bk)} (reference 002 §2.1, P-free): the roofline of an
// aggregate processor whose peak rate and bandwidth are the sums over the processors.
func (in *Instance) FreeSplitTime() float64 {
	nf, nb := in.Totals()
	var rf, rb float64
	for _, p := range in.Processors {
		rf += 1 / p.TimePerFlop
		rb += 1 / p.TimePerByte
	}
	return math.Max(nf/rf, nb/rb)
}

// DeadlineValue returns the deadline, or +Inf when there is none.
func (in *Instance) DeadlineValue() float64 {
	if in.Deadline == nil {
		return math.Inf(1)
	}
	return *in.Deadline
}
