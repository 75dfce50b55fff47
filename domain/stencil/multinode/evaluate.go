package multinode

import (
	"fmt"
	"math"

	"github.com/schedopt/schedopt/domain/stencil"
)

// Report is a mapping's row of Tables 7.5-7.7, recomputed from scratch.
type Report struct {
	CutArcs       int   // arcs between different processors
	InterArcs     int   // of which between different nodes
	Edges         int64 // unit edges of M (Σ quanta over cut arcs): the tables' "#Edges all"
	IntraEdges    int64 // between processors of one node
	InterEdges    int64 // between nodes
	Used          int   // processors with at least one task
	CPUs, GPUs    int   // used CPUs and GPUs
	Delta, Mu     int64 // Δ(M) and μ(M) in quanta
	Rounds        int64 // min(Δ+μ, ⌊3Δ/2⌋): the upper bound on χ'(M) the search uses
	CompTime      float64
	CommTime      float64 // Rounds × 1e-7 s
	TS            float64 // max(CompTime, CommTime)
	CompEnergy    float64 // Σ tasks (e^e + P0·t^e)
	IdleEnergy    float64 // Σ_p P^idle (ts − busy_p), every processor
	CommEnergy    float64 // Σ cut arcs e^c
	E             float64
	MeetsDeadline bool
}

// RoundsBound returns min(Δ+μ, ⌊3Δ/2⌋) (Vizing's and Shannon's bounds on χ'): the
// thesis approximates the rounds by Δ+μ (§7.2); Shannon's bound is never worse and
// also an upper bound, so a mapping that meets the deadline with it meets it with χ'.
func RoundsBound(delta, mu int64) int64 { return min(delta+mu, 3*delta/2) }

// Evaluate recomputes every column of the chapter's tables for a mapping of in's tasks
// on s's processors, by a full pass over the arcs (it shares no state with the tabu
// search's incremental evaluation, which tests compare against it). The rounds are
// Δ(M) when delta is set (a lower bound on χ'(M); the published rows of Tables 7.5/7.6
// count rounds so), else min(Δ+μ, ⌊3Δ/2⌋) (an upper bound).
func Evaluate(s *System, in *stencil.Instance, assign []int, delta bool) (Report, error) {
	m := len(s.Procs)
	if len(in.Processors) != m {
		return Report{}, fmt.Errorf("multinode: instance has %d processors, system %s has %d", len(in.Processors), s.Name, m)
	}
	mu, err := in.Bundles(assign)
	if err != nil {
		return Report{}, fmt.Errorf("multinode: %w", err)
	}
	var r Report
	for _, a := range in.Arcs {
		p, k := assign[a.From], assign[a.To]
		if p == k {
			continue
		}
		r.CutArcs++
		q := in.Multiplicity(a, p, k)
		r.Edges += q
		r.CommEnergy += a.Cells * in.LinkEnergy[p][k]
		if s.Inter(p, k) {
			r.InterArcs++
			r.InterEdges += q
		} else {
			r.IntraEdges += q
		}
	}
	cells := make([]float64, m)
	for u, p := range assign {
		cells[p] += in.Tasks[u].Cells
	}
	for p, pr := range in.Processors {
		if cells[p] > 0 {
			r.Used++
			if s.Procs[p].Kind == GPU {
				r.GPUs++
			} else {
				r.CPUs++
			}
		}
		r.CompTime = math.Max(r.CompTime, cells[p]*pr.TimePerCell)
		r.CompEnergy += cells[p] * pr.EnergyPerCell
		var d int64
		for k := range mu[p] {
			if k != p {
				d += mu[p][k]
				r.Mu = max(r.Mu, mu[p][k])
			}
		}
		r.Delta = max(r.Delta, d)
	}
	r.Rounds = RoundsBound(r.Delta, r.Mu)
	if delta {
		r.Rounds = r.Delta
	}
	r.CommTime = float64(r.Rounds) * in.RoundTime
	r.TS = math.Max(r.CompTime, r.CommTime)
	for p, pr := range in.Processors {
		r.IdleEnergy += pr.IdlePower * (r.TS - cells[p]*pr.TimePerCell)
	}
	r.E = r.CompEnergy + r.IdleEnergy + r.CommEnergy
	r.MeetsDeadline = r.TS <= in.Deadline*(1+stencil.TimeTol)
	return r, nil
}
