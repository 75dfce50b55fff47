package partition

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/domain"
)

const good = `{"kind":"partition","name":"t",
 "processors":[{"name":"cpu","time_per_flop":1,"time_per_byte":2,"energy_per_flop":3,"energy_per_byte":4,"static_power":5},
               {"name":"gpu","time_per_flop":0.5,"time_per_byte":1,"energy_per_flop":1,"energy_per_byte":2,"static_power":1}],
 "portions":[{"flops":10,"bytes":5,"split":"divisible"},{"flops":2,"bytes":8,"split":"whole"},{"flops":4,"bytes":4,"split":"chunks","chunks":4}],
 "objective":"min-energy","deadline":null}`

func TestParseAcceptsTheSpecExample(t *testing.T) {
	in, err := Parse([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Processors) != 2 || len(in.Portions) != 3 || in.Deadline != nil || in.Portions[2].Chunks != 4 {
		t.Fatalf("parsed %+v", in)
	}
	if in.StaticPower() != 6 {
		t.Errorf("static power %v, want 6", in.StaticPower())
	}
}

func TestParseRejectsBadInputNamingTheField(t *testing.T) {
	cases := []struct {
		name, from, to, field string
	}{
		{"zero time per flop", `"time_per_flop":1,`, `"time_per_flop":0,`, "processors[0].time_per_flop"},
		{"negative energy per byte", `"energy_per_byte":2,`, `"energy_per_byte":-2,`, "processors[1].energy_per_byte"},
		{"missing static power", `,"static_power":5`, ``, "processors[0].static_power"},
		{"negative flops", `"flops":10,`, `"flops":-10,`, "portions[0].flops"},
		{"missing bytes", `"bytes":5,`, ``, "portions[0].bytes"},
		{"unknown split", `"split":"whole"`, `"split":"halves"`, "portions[1].split"},
		{"chunks missing", `,"chunks":4`, ``, "portions[2].chunks"},
		{"fractional chunks", `"chunks":4`, `"chunks":4.5`, "portions[2].chunks"},
		{"zero chunks", `"chunks":4`, `"chunks":0`, "portions[2].chunks"},
		{"unknown objective", `"min-energy"`, `"max-speed"`, "objective"},
		{"missing objective", `"objective":"min-energy",`, ``, "objective"},
		{"negative deadline", `"deadline":null`, `"deadline":-1`, "deadline"},
		{"unknown field", `"processors":[{"name":"cpu"`, `"processors":[],"x":[{"name":"cpu"`, "x"},
		{"misspelt field", `"deadline":null`, `"dedline":null`, "dedline"},
		{"duplicate key", `"deadline":null`, `"deadline":null,"deadline":3`, "deadline"},
		{"wrong kind", `"kind":"partition"`, `"kind":"workload"`, "kind"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(good, c.from, c.to, 1)
			if c.from == "" {
				src = c.to
			}
			if src == good {
				t.Fatalf("replacement %q not found", c.from)
			}
			_, err := Parse([]byte(src))
			var fe *domain.FieldError
			if !errors.As(err, &fe) || !errors.Is(err, domain.ErrBadInput) {
				t.Fatalf("got %v, want a FieldError", err)
			}
			if fe.Field != c.field {
				t.Errorf("field %q, want %q (%v)", fe.Field, c.field, err)
			}
		})
	}
}

func TestMissingSplitMeansDivisible(t *testing.T) {
	in, err := Parse([]byte(strings.Replace(good, `,"split":"divisible"`, ``, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if in.Portions[0].Split != Divisible {
		t.Errorf("split %q", in.Portions[0].Split)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte(`{"kind":"partition","processors":[],"portions":[],"objective":"min-time"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := Parse(data)
		if err != nil {
			if !errors.Is(err, domain.ErrBadInput) {
				t.Fatalf("error %v is not bad input", err)
			}
			return
		}
		if err := in.Validate(); err != nil {
			t.Fatalf("parsed instance does not validate: %v", err)
		}
		// Every valid instance can be evaluated: everything on processor 0.
		fr := make([][]float64, len(in.Portions))
		for j := range fr {
			fr[j] = make([]float64, len(in.Processors))
			fr[j][0] = 1
		}
		sol, err := in.NewSolution(fr)
		if err != nil || math.IsNaN(sol.T) || math.IsNaN(sol.E) {
			t.Fatalf("evaluation failed: %v %+v", err, sol)
		}
	})
}

func TestMeasureFollowsTheRooflineEquations(t *testing.T) {
	in, err := Parse([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	fr := [][]float64{{0.5, 0.5}, {0, 1}, {0.25, 0.75}}
	ms, err := in.Measure(fr)
	if err != nil {
		t.Fatal(err)
	}
	// CPU: F = 5 + 0 + 1 = 6, B = 2.5 + 0 + 1 = 3.5 → time max(6, 7) = 7.
	// GPU: F = 5 + 2 + 3 = 10, B = 2.5 + 8 + 3 = 13.5 → time max(5, 13.5) = 13.5.
	// Dynamic: CPU 3·6 + 4·3.5 = 32; GPU 10 + 27 = 37. Static: 6·13.5 = 81.
	if ms.T != 13.5 || ms.Dynamic != 69 || ms.E != 150 {
		t.Fatalf("T=%v dyn=%v E=%v, want 13.5, 69, 150", ms.T, ms.Dynamic, ms.E)
	}
}

func TestEvaluateFlagsEachViolation(t *testing.T) {
	in, err := Parse([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	ok := [][]float64{{0.5, 0.5}, {0, 1}, {0.25, 0.75}}
	cases := []struct {
		name string
		fr   [][]float64
		edit func(*Solution)
		want string // substring of Worst; "" for OK
	}{
		{"a feasible solution passes", ok, nil, ""},
		{"a split whole portion fails", [][]float64{{0.5, 0.5}, {0.5, 0.5}, {0.25, 0.75}}, nil, "whole"},
		{"a fraction of a chunk fails", [][]float64{{0.5, 0.5}, {0, 1}, {0.3, 0.7}}, nil, "multiple of 1/4"},
		{"fractions not summing to one fail", [][]float64{{0.5, 0.6}, {0, 1}, {0.25, 0.75}}, nil, "sum"},
		{"a negative fraction fails", [][]float64{{-0.25, 1}, {0, 1}, {0.25, 0.75}}, nil, "< 0"},
		{"a wrong stated T fails", ok, func(s *Solution) { s.T *= 0.99 }, "stated T"},
		{"a wrong stated E fails", ok, func(s *Solution) { s.E *= 1.01 }, "stated E"},
		{"a NaN stated T fails", ok, func(s *Solution) { s.T = math.NaN() }, "stated T"},
		{"a NaN stated E fails", ok, func(s *Solution) { s.E = math.NaN() }, "stated E"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sol, err := in.NewSolution(c.fr)
			if err != nil {
				t.Fatal(err)
			}
			if c.edit != nil {
				c.edit(&sol)
			}
			rep, err := in.Evaluate(sol)
			if err != nil {
				t.Fatal(err)
			}
			if c.want == "" {
				if !rep.OK {
					t.Fatalf("rejected: %s", rep.Worst)
				}
				return
			}
			if rep.OK || !strings.Contains(rep.Worst, c.want) {
				t.Fatalf("OK=%v worst=%q, want a violation mentioning %q", rep.OK, rep.Worst, c.want)
			}
		})
	}
	t.Run("a missed deadline fails", func(t *testing.T) {
		d := 13.0
		in2 := *in
		in2.Deadline = &d
		sol, _ := in2.NewSolution(ok)
		rep, _ := in2.Evaluate(sol)
		if rep.OK || !strings.Contains(rep.Worst, "deadline") {
			t.Fatalf("OK=%v worst=%q", rep.OK, rep.Worst)
		}
	})
	t.Run("a wrong shape is an error", func(t *testing.T) {
		if _, err := in.Evaluate(Solution{Fractions: [][]float64{{1, 0}}}); err == nil {
			t.Fatal("no error")
		}
	})
}

func TestFreeSplitTimeBoundsEveryAssignment(t *testing.T) {
	in, err := Parse([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := in.FreeSplitTime(), in.MaxTime()
	for a := 0; a < 2; a++ {
		for b := 0; b < 2; b++ {
			for c := 0; c <= 4; c++ {
				fr := [][]float64{{float64(a), float64(1 - a)}, {float64(b), float64(1 - b)}, {float64(c) / 4, float64(4-c) / 4}}
				ms, _ := in.Measure(fr)
				if ms.T < lo*(1-1e-12) || ms.T > hi*(1+1e-12) {
					t.Fatalf("T=%v outside [%v, %v] for %v", ms.T, lo, hi, fr)
				}
			}
		}
	}
}
