package workload

import (
	"fmt"
	"math"
	"testing"

	dw "github.com/schedopt/schedopt/domain/workload"
)

// fig10 is the worked example of seed 000 (Fig. 10).
func fig10() *dw.Tables { return dw.Fig10().Tables() }

func identical() *dw.Tables {
	in := &dw.Instance{Kind: "workload", N: 10, Objective: dw.ObjPareto}
	for i := 0; i < 3; i++ {
		in.Processors = append(in.Processors, dw.Processor{Points: []dw.Point{
			{Size: 2, Time: 1, Energy: 3}, {Size: 4, Time: 3, Energy: 4}, {Size: 6, Time: 2, Energy: 9},
		}})
	}
	return in.Tables()
}

func TestModel(t *testing.T) {
	cases := []struct {
		name      string
		ts        *dw.Tables
		agg       bool
		sizes     []int
		vars      int
		T, E, A   float64
		threshold float64 // a threshold that cuts one of the chosen points
	}{
		{"per-processor model on Fig. 10 accepts {2,1,0,1}", fig10(), false, []int{2, 1, 0, 1}, 17, 3, 4, 3, 2},
		{"aggregated model on identical tables accepts {6,4,0}", identical(), true, []int{6, 4, 0}, 7, 3, 13, 2, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := New(c.ts, 0.5, Options{Aggregate: c.agg})
			if err != nil {
				t.Fatal(err)
			}
			if f.M.NumVars() != c.vars {
				t.Errorf("%d columns, want %d", f.M.NumVars(), c.vars)
			}
			x, err := f.Encode(c.sizes)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []struct {
				obj  Objective
				want float64
			}{{MinTime, c.T}, {MinEnergy, c.E}, {MinTotal, 0.5*c.T + c.E}, {MinActive, c.A}} {
				f.SetObjective(s.obj)
				rep, err := f.M.Verify(x)
				if err != nil {
					t.Fatal(err)
				}
				if !rep.Feasible() {
					t.Fatalf("%v infeasible: %s", c.sizes, rep.Worst)
				}
				if math.Abs(rep.Objective-s.want) > 1e-12 {
					t.Errorf("%v: objective %g, want %g", s.obj, rep.Objective, s.want)
				}
			}
			got, err := f.Sizes(x)
			if err != nil || fmt.Sprint(got) != fmt.Sprint(c.sizes) {
				t.Errorf("decode gives %v (%v), want %v", got, err, c.sizes)
			}
			f.SetThreshold(c.threshold)
			if rep, _ := f.M.Verify(x); rep.Feasible() {
				t.Errorf("threshold %g still admits %v", c.threshold, c.sizes)
			}
			f.Reset()
			f.BoundEnergy(c.E - 0.5)
			if rep, _ := f.M.Verify(x); rep.Feasible() {
				t.Errorf("energy bound %g still admits energy %g", c.E-0.5, c.E)
			}
			f.Reset()
			if rep, _ := f.M.Verify(x); !rep.Feasible() {
				t.Errorf("Reset did not restore feasibility: %s", rep.Worst)
			}
		})
	}
	t.Run("a distribution that misses n violates the exact-sum row", func(t *testing.T) {
		f, _ := New(fig10(), 0, Options{})
		x, _ := f.Encode([]int{2, 1, 0, 0})
		if rep, _ := f.M.Verify(x); rep.Feasible() {
			t.Errorf("sizes summing to 3 accepted for n = 4")
		}
	})
	t.Run("the aggregated model refuses different tables", func(t *testing.T) {
		if _, err := New(fig10(), 0, Options{Aggregate: true}); err == nil {
			t.Errorf("no error")
		}
	})
}

func TestPolishRaisesTToTheImpliedMakespan(t *testing.T) {
	for _, c := range []struct {
		name  string
		ts    *dw.Tables
		agg   bool
		sizes []int
		T     float64 // the makespan of sizes
	}{
		{"per-processor model, {2,1,0,1} has makespan 3", fig10(), false, []int{2, 1, 0, 1}, 3},
		{"aggregated model, {6,4,0} has makespan 3", identical(), true, []int{6, 4, 0}, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := New(c.ts, 0, Options{Aggregate: c.agg})
			if err != nil {
				t.Fatal(err)
			}
			f.SetObjective(MinEnergy)
			x, err := f.Encode(c.sizes)
			if err != nil {
				t.Fatal(err)
			}
			x[f.T] = c.T - 1e-5 // a makespan row missed by a solver's tolerance
			if rep, _ := f.M.Verify(x); rep.Feasible() {
				t.Fatalf("T below the makespan passes Verify: the test cannot fail")
			}
			f.Polish(x)
			if x[f.T] != c.T {
				t.Errorf("polished T = %v, want %v", x[f.T], c.T)
			}
			if rep, _ := f.M.Verify(x); !rep.Feasible() {
				t.Errorf("polished point violates the model: %s", rep.Worst)
			}
			x[f.T] = c.T + 1
			f.Polish(x)
			if x[f.T] != c.T+1 {
				t.Errorf("Polish lowered T from %v to %v", c.T+1, x[f.T])
			}
		})
	}
}
