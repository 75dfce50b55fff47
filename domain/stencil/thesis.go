package stencil

import "fmt"

// ThesisResult is what the thesis's simulator (`calculate_cost` of the author's code,
// reference §3.6) reports for a mapping of equal blocks, in integer µs and µJ.
type ThesisResult struct {
	Blocks     []int64 // blocks per processor
	CutArcs    int64
	Edges      int64 // unit edges of M: ThesisRoundMicros per cut arc (#Edg of Tables 6.6-6.11)
	Colours    int64 // Δ(M) counted in cut arcs (#Col of the tables)
	CompMicros int64 // max_p blocks_p × time_p
	Micros     int64 // makespan: max(computation, colours × round)
	CompEnergy int64 // computation and idle energy, µJ
	CommEnergy int64 // ThesisArcEnergy per cut arc, µJ
	Energy     int64 // total, µJ
}

// SimulateThesis evaluates a mapping with the integer semantics of the thesis's
// simulator: busy time blocks × µs per block, every processor pays idle power for
// makespan − busy (used or not), ThesisArcEnergy µJ per cut arc, and the number of
// rounds is Δ(M) in cut arcs (every published colouring attains it). The tasks are
// assumed to be equal blocks.
func SimulateThesis(procs []ThesisProc, arcs []Arc, assign []int) (ThesisResult, error) {
	var r ThesisResult
	m := len(procs)
	r.Blocks = make([]int64, m)
	for u, p := range assign {
		if p < 0 || p >= m {
			return r, fmt.Errorf("stencil: task %d on processor %d of %d", u, p, m)
		}
		r.Blocks[p]++
	}
	deg := make([]int64, m)
	for _, a := range arcs {
		p, k := assign[a.From], assign[a.To]
		if p != k {
			r.CutArcs++
			deg[p]++
			deg[k]++
		}
	}
	for p := range procs {
		r.Colours = max(r.Colours, deg[p])
		r.CompMicros = max(r.CompMicros, r.Blocks[p]*procs[p].BlockMicros)
	}
	r.Edges = ThesisRoundMicros * r.CutArcs
	r.Micros = max(r.CompMicros, r.Colours*ThesisRoundMicros)
	for p, pr := range procs {
		r.CompEnergy += r.Blocks[p]*pr.BlockEnergy + (r.Micros-r.Blocks[p]*pr.BlockMicros)*pr.IdleWatts
	}
	r.CommEnergy = ThesisArcEnergy * r.CutArcs
	r.Energy = r.CompEnergy + r.CommEnergy
	return r, nil
}

// Joules2 returns µJ in J truncated (not rounded) to two decimals, as the thesis
// prints energies: 3,768,960 µJ → 3.76.
func Joules2(microJ int64) float64 { return float64(microJ/10000) / 100 }

// Millis2 returns µs in ms truncated to two decimals, as the thesis prints times:
// 3488 µs → 3.48.
func Millis2(micros int64) float64 { return float64(micros/10) / 100 }

// Percent returns part/total in whole percent, rounded, as the shares of Tables 6.4/6.5.
func Percent(part, total int64) int64 {
	if total == 0 {
		return 0
	}
	return (200*part + total) / (2 * total)
}
