package measure

import (
	"math"
	"testing"
)

func TestAggregate(t *testing.T) {
	nan := math.NaN()
	s := []Sample{
		{Processor: "b", Size: 2, Repetition: 1, Time: 1, Energy: 4},
		{Processor: "b", Size: 2, Repetition: 2, Time: 1, Energy: 4},
		{Processor: "a", Size: 1, Repetition: 1, Time: 1, Energy: -2},
		{Processor: "a", Size: 1, Repetition: 2, Time: 3, Energy: 0},
		// --concurrent: the time from runs at once, the energy from runs alone.
		{Processor: "b", Size: 1, Repetition: 1, Time: 0.5, Energy: nan, Phase: PhaseConcurrent},
		{Processor: "b", Size: 1, Repetition: 2, Time: 0.5, Energy: nan, Phase: PhaseConcurrent},
		{Processor: "b", Size: 1, Repetition: 1, Time: nan, Energy: 3, Phase: PhaseAlone},
	}
	p := Aggregate(s, 0.95, 0.025)
	if len(p.Processors) != 2 || p.Processors[0] != "b" || p.Processors[1] != "a" {
		t.Fatalf("processors %v, want in order of appearance", p.Processors)
	}
	want := []Point{
		{Processor: "b", Size: 1, TimeReps: 2, EnergyReps: 1, Time: 0.5, Energy: 3, Reached: false},
		{Processor: "b", Size: 2, TimeReps: 2, EnergyReps: 2, Time: 1, Energy: 4, Reached: true},
		{Processor: "a", Size: 1, TimeReps: 2, EnergyReps: 2, Time: 2, Energy: -1, Reached: false},
	}
	if len(p.Points) != len(want) {
		t.Fatalf("%d points", len(p.Points))
	}
	for i, w := range want {
		g := p.Points[i]
		if g.Processor != w.Processor || g.Size != w.Size || g.TimeReps != w.TimeReps || g.EnergyReps != w.EnergyReps ||
			g.Time != w.Time || g.Energy != w.Energy || g.Reached != w.Reached {
			t.Errorf("point %d = %+v, want %+v", i, g, w)
		}
	}
	if !math.IsInf(p.Points[0].EnergyPrecision, 1) || p.Points[1].TimePrecision != 0 {
		t.Errorf("precisions %+v", p.Points)
	}
	if len(p.Unreached()) != 2 || p.TimeOnly() {
		t.Errorf("unreached %d, time-only %v", len(p.Unreached()), p.TimeOnly())
	}
	in, warns, err := p.Instance("x", 3, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 1 || in.Objective != "pareto" || in.StaticPower != 10 || in.N != 3 {
		t.Fatalf("warnings %v, instance %+v", warns, in)
	}
	if e := in.Processors[1].Points[0].Energy; e != 0 {
		t.Errorf("negative mean energy kept as %v, want clamped to 0", e)
	}
	if _, _, err := p.Instance("x", 4, 0); err == nil {
		t.Error("n = 4 cannot be formed from sizes {1,2} and {1}, yet accepted")
	}
}

func TestAggregateTimeOnly(t *testing.T) {
	nan := math.NaN()
	p := Aggregate([]Sample{{Processor: "a", Size: 1, Repetition: 1, Time: 1, Energy: nan},
		{Processor: "a", Size: 1, Repetition: 2, Time: 1, Energy: nan}}, 0.95, 0.1)
	if !p.TimeOnly() || !p.Points[0].Reached || p.Points[0].Energy != 0 {
		t.Fatalf("%+v", p.Points)
	}
}
