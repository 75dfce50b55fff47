package workload

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/domain"
)

const good = `{"kind":"workload","n":3,"static_power":0.5,"objective":"pareto",
 "processors":[{"name":"a","points":[{"size":1,"time":1,"energy":2},{"size":3,"time":2,"energy":3}]},
               {"name":"b","points":[{"size":2,"time":1,"energy":1}]}]}`

func TestParse(t *testing.T) {
	in, err := Parse([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if in.N != 3 || len(in.Processors) != 2 || in.StaticPower != 0.5 {
		t.Errorf("parsed %+v", in)
	}
	cases := []struct {
		name, from, to, field, reason string
	}{
		{"duplicate sizes in one table", `"size":3`, `"size":1`, "processors[0].points[1].size", "duplicate size 1"},
		{"non-integer size", `"size":3`, `"size":2.5`, "processors[0].points[1].size", "must be an integer"},
		{"zero size", `"size":3`, `"size":0`, "processors[0].points[1].size", "positive integer"},
		{"negative time", `"time":2`, `"time":-2`, "processors[0].points[1].time", ">= 0"},
		{"negative energy", `"energy":3`, `"energy":-3`, "processors[0].points[1].energy", ">= 0"},
		{"missing energy", `,"energy":3`, ``, "processors[0].points[1].energy", "missing"},
		{"unreachable n", `"n":3`, `"n":4`, "n", "cannot be formed by giving"},
		{"n not a multiple of the granule", `{"size":1,"time":1,"energy":2},{"size":3,"time":2,"energy":3}`, `{"size":4,"time":1,"energy":2}`, "n", "multiple of 2"},
		{"non-integer n", `"n":3`, `"n":3.5`, "n", "must be an integer"},
		{"zero n", `"n":3`, `"n":0`, "n", "positive integer"},
		{"unknown objective", `"pareto"`, `"fastest"`, "objective", "unknown objective"},
		{"negative static power", `0.5`, `-0.5`, "static_power", ">= 0"},
		{"wrong kind", `"workload"`, `"stencil"`, "kind", ""},
		{"unknown field", `"processors":[`, `"processors":[],"x":[`, "x", "unknown field"},
		{"misspelt field", `"static_power"`, `"static_powr"`, "static_powr", `did you mean "static_power"?`},
		{"duplicate key", `"n":3`, `"n":3,"n":3`, "n", "duplicate key"},
		{"trailing data", `"n":3`, `"n":3}{"n":3`, "", "data after the top-level value"},
	}
	for _, c := range cases {
		t.Run(c.name+" is bad input naming "+c.field, func(t *testing.T) {
			src := strings.Replace(good, c.from, c.to, 1)
			if src == good {
				t.Fatalf("substitution %q did not apply", c.from)
			}
			_, err := Parse([]byte(src))
			var fe *domain.FieldError
			if !errors.As(err, &fe) || !errors.Is(err, domain.ErrBadInput) {
				t.Fatalf("error %v is not a FieldError", err)
			}
			if fe.Field != c.field || !strings.Contains(fe.Reason, c.reason) {
				t.Errorf("got %q, want field %q with %q", err, c.field, c.reason)
			}
		})
	}
}

func TestEvaluate(t *testing.T) {
	in, _ := Parse([]byte(good))
	cases := []struct {
		name    string
		sizes   []int
		T, E, A float64
		err     string
	}{
		{"two active processors", []int{1, 2}, 1, 3, 2, ""},
		{"one processor idle", []int{3, 0}, 2, 3, 1, ""},
		{"size not in the table", []int{2, 2}, 0, 0, 0, "not a point"},
		{"wrong sum", []int{1, 0}, 0, 0, 0, "sum to 1, want n = 3"},
		{"wrong length", []int{4}, 0, 0, 0, "2 processors"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev, err := in.Evaluate(c.sizes)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil || ev.T != c.T || ev.Dynamic != c.E || float64(ev.Active) != c.A || ev.Total != 0.5*c.T+c.E {
				t.Errorf("got %+v, %v", ev, err)
			}
		})
	}
}

func TestGenerators(t *testing.T) {
	t.Run("dgemm: 450 points of step 64 rows on 5 processors", func(t *testing.T) {
		in, err := GenDGEMM(1, 5, 450, 64, 17152)
		if err != nil || in.Validate() != nil {
			t.Fatal(err, in.Validate())
		}
		for _, p := range in.Processors {
			if len(p.Points) != 450 || p.Points[0].Size != 64 || p.Points[449].Size != 28800 {
				t.Fatalf("%s: %d points from %d to %d", p.Name, len(p.Points), p.Points[0].Size, p.Points[len(p.Points)-1].Size)
			}
		}
		if ts := in.Tables(); ts.Granule != 64 || ts.N != 268 {
			t.Errorf("granule %d, N %d; want 64 and 268", ts.Granule, ts.N)
		}
	})
	t.Run("fft: the 426 127-smooth sizes in 1024..10000 step 16, Phi about 10x the energy", func(t *testing.T) {
		in, err := GenFFT(1, 5, 14960)
		if err != nil || in.Validate() != nil {
			t.Fatal(err, in.Validate())
		}
		for _, p := range in.Processors {
			if len(p.Points) != 426 {
				t.Fatalf("%s: %d points", p.Name, len(p.Points))
			}
			for _, q := range p.Points {
				if !smooth127(q.Size) || q.Size%16 != 0 {
					t.Fatalf("%s: size %d", p.Name, q.Size)
				}
			}
		}
		ratio := in.Processors[2].Points[100].Energy / in.Processors[0].Points[100].Energy
		if ratio < 4 {
			t.Errorf("Phi/CPU energy ratio %g, want about 10", ratio)
		}
	})
	for _, pts := range []int{485, 1250} {
		t.Run("identical tables share one profile", func(t *testing.T) {
			in, err := GenIdentical(3, "fft", 16, pts, 700)
			if err != nil || in.Validate() != nil {
				t.Fatal(err, in.Validate())
			}
			ts := in.Tables()
			if !ts.Identical() || ts.Procs[0].Len() != pts {
				t.Errorf("identical=%v, %d points", ts.Identical(), ts.Procs[0].Len())
			}
		})
	}
	t.Run("linear profiles are linear", func(t *testing.T) {
		in, _ := GenLinear(10, 10, []float64{1, 2}, []float64{3, 4})
		q := in.Processors[1].Points[6]
		if q.Time != 14 || q.Energy != 28 || math.Abs(float64(q.Size)-7) > 0 {
			t.Errorf("point %+v", q)
		}
	})
	t.Run("generators are deterministic in the seed", func(t *testing.T) {
		a, _ := GenDGEMM(9, 3, 20, 64, 640)
		b, _ := GenDGEMM(9, 3, 20, 64, 640)
		c, _ := GenDGEMM(10, 3, 20, 64, 640)
		if a.Processors[1].Points[5] != b.Processors[1].Points[5] || a.Processors[1].Points[5] == c.Processors[1].Points[5] {
			t.Errorf("same seed differs or different seeds agree")
		}
	})
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte(`{"kind":"workload","n":1,"objective":"min-time","processors":[{"points":[{"size":1,"time":0,"energy":0}]}]}`))
	f.Add([]byte(`{"n":1e300,"objective":"pareto","processors":[{"points":[{"size":-1,"time":1e400}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := Parse(data)
		if err != nil {
			var fe *domain.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a FieldError", err)
			}
			return
		}
		// A valid instance has some distribution summing to n; every single-point
		// table evaluates without error when it sums to n.
		if err := in.Validate(); err != nil {
			t.Fatalf("Parse accepted what Validate rejects: %v", err)
		}
		if !Reachable(in.Tables()) {
			t.Fatalf("accepted an unreachable n")
		}
	})
}
