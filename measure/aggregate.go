package measure

import (
	"fmt"
	"math"
	"sort"

	"github.com/schedopt/schedopt/domain/workload"
)

// Point is one aggregated point of a processor's profile: the sample means at one
// size, with their precision (Alg. 6) over all samples.
type Point struct {
	Processor       string
	Size            int
	TimeReps        int     // samples with a time
	EnergyReps      int     // samples with an energy (0: time-only)
	Time            float64 // mean time, seconds
	Energy          float64 // mean dynamic energy, joules (0 when EnergyReps is 0)
	TimePrecision   float64 // Precision of the times (+Inf below two samples)
	EnergyPrecision float64 // Precision of the energies; 0 when there are none
	Reached         bool    // both precisions are below ε
}

// Profile is a set of measured processors.
type Profile struct {
	Processors []string // in order of first appearance
	Points     []Point  // by processor (in that order), then size
	Eps        float64
	Confidence float64
}

// TimeOnly reports whether no point has an energy.
func (p *Profile) TimeOnly() bool {
	for _, q := range p.Points {
		if q.EnergyReps > 0 {
			return false
		}
	}
	return true
}

// Unreached lists the points whose precision did not reach ε.
func (p *Profile) Unreached() []Point {
	var u []Point
	for _, q := range p.Points {
		if !q.Reached {
			u = append(u, q)
		}
	}
	return u
}

// Aggregate groups samples by processor and size and computes, per group, the mean
// time over the samples that have a time and the mean dynamic energy over those that
// have an energy, each with its Precision at confidence cl; a point is Reached when
// both are below eps (a time-only point needs only its time).
func Aggregate(samples []Sample, cl, eps float64) *Profile {
	type key struct {
		proc string
		size int
	}
	type acc struct{ t, e []float64 }
	groups := map[key]*acc{}
	prof := &Profile{Eps: eps, Confidence: cl}
	order := map[string]int{}
	for _, s := range samples {
		if _, ok := order[s.Processor]; !ok {
			order[s.Processor] = len(prof.Processors)
			prof.Processors = append(prof.Processors, s.Processor)
		}
		k := key{s.Processor, s.Size}
		a := groups[k]
		if a == nil {
			a = &acc{}
			groups[k] = a
		}
		if !math.IsNaN(s.Time) {
			a.t = append(a.t, s.Time)
		}
		if !math.IsNaN(s.Energy) {
			a.e = append(a.e, s.Energy)
		}
	}
	for k, a := range groups {
		q := Point{Processor: k.proc, Size: k.size, TimeReps: len(a.t), EnergyReps: len(a.e),
			Time: mean(a.t), Energy: mean(a.e), TimePrecision: Precision(cl, a.t)}
		if len(a.e) > 0 {
			q.EnergyPrecision = Precision(cl, a.e)
		}
		q.Reached = q.TimePrecision < eps && q.EnergyPrecision < eps
		prof.Points = append(prof.Points, q)
	}
	sort.Slice(prof.Points, func(i, j int) bool {
		a, b := prof.Points[i], prof.Points[j]
		if a.Processor != b.Processor {
			return order[a.Processor] < order[b.Processor]
		}
		return a.Size < b.Size
	})
	return prof
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// Instance turns the profile into a workload instance with objective "pareto": one
// processor per profile processor, one point per size with the sample means. A
// time-only profile has energy 0 everywhere. A point without any time sample is left
// out, and a mean dynamic energy below 0 (static power set too high, or noise) is
// clamped to 0; both are returned as warnings. The instance is validated: n must be
// formable from the sizes.
func (p *Profile) Instance(name string, n int, staticPower float64) (*workload.Instance, []string, error) {
	in := &workload.Instance{Kind: "workload", Name: name, N: n, StaticPower: staticPower, Objective: workload.ObjPareto}
	var warn []string
	byName := map[string]int{}
	for _, proc := range p.Processors {
		byName[proc] = len(in.Processors)
		in.Processors = append(in.Processors, workload.Processor{Name: proc})
	}
	for _, q := range p.Points {
		if q.TimeReps == 0 {
			warn = append(warn, fmt.Sprintf("%s at size %d has no time sample: left out", q.Processor, q.Size))
			continue
		}
		e := q.Energy
		if e < 0 {
			warn = append(warn, fmt.Sprintf("%s at size %d: mean dynamic energy %.4g J < 0, set to 0 (is the static power too high?)", q.Processor, q.Size, e))
			e = 0
		}
		i := byName[q.Processor]
		in.Processors[i].Points = append(in.Processors[i].Points, workload.Point{Size: q.Size, Time: q.Time, Energy: e})
	}
	if err := in.Validate(); err != nil {
		return nil, warn, err
	}
	return in, warn, nil
}
