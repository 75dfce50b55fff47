package dltbb

import (
	"math"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
)

// Minimum energy (objective min-energy, seed 004 (6.4)-(6.12) with the length T fixed
// or bounded by the deadline).
//
// A used machine M_i, started just in time for its first message at t_f, draws P^I
// until t_f − S_i, P^S for S_i, P^N while receiving and busy-waiting and ε_i per chunk:
// the transfer time cancels against busy-waiting, so
//
//	E_i = S_i(P^S − P^I) + P^I t_f + P^N (T − t_f) + Σ_c g_i(α_c),  g_i = ε_i − P^N τ_i,
//
// and an unused one draws P^I T. g_i is piecewise linear with its kink at ρ_i:
// slope s1 = k1 − P^N a1 below, s2 = k2 − P^N a2 above, g(α) = s2 α + c2 above with
// c2 = ρ(s1 − s2). When s2 >= s1 (convex g) g = max of both lines, so for a fixed
// sequence min-E is a linear program (G_c >= both lines). When s2 < s1 (concave, the
// out-of-core computing power k2/a2 is below P^N) it is the min of both lines: the
// search then fixes each chunk's piece as part of the sequence (symbol i: α <= ρ,
// symbol m+i: α >= ρ), as exact/dltseq does for every chunk.

// energyModel holds the per-machine lines of g_i.
type energyModel struct {
	s1, s2, c2 []float64
	concave    []bool
}

func newEnergyModel(in *dm.Instance) *energyModel {
	m := in.M()
	e := &energyModel{s1: make([]float64, m), s2: make([]float64, m), c2: make([]float64, m), concave: make([]bool, m)}
	for i, mc := range in.Machines {
		e.s1[i] = mc.K1 - mc.PN*mc.A1
		e.s2[i] = mc.K2 - mc.PN*mc.A2
		e.c2[i] = mc.Rho * (e.s1[i] - e.s2[i])
		e.concave[i] = e.s2[i] < e.s1[i]
	}
	return e
}

// kinked reports whether g_i is convex with s2 > s1 (so g_i needs both lines); a
// linear g_i (s2 == s1, c2 = 0) is s1·α.
func (e *energyModel) kinked(i int) bool { return e.s2[i] > e.s1[i]*(1+1e-12)+1e-12 }

// g returns g_i(α) = ε_i(α) − P_i^N τ_i(α).
func (e *energyModel) g(i int, alpha float64) float64 {
	lo, hi := e.s1[i]*alpha, e.s2[i]*alpha+e.c2[i]
	if e.concave[i] {
		return math.Min(lo, hi)
	}
	return math.Max(lo, hi)
}

// chord returns a slope σ with g_i(α) >= σ α for every 0 <= α <= bar: s1 when g_i is
// convex (g(α)/α is nondecreasing), and the chord g(bar)/bar when it is concave.
func (e *energyModel) chord(i int, bar float64) float64 {
	if !e.concave[i] || bar <= 0 {
		return e.s1[i]
	}
	return math.Min(e.s1[i], e.g(i, bar)/bar)
}

// excessMax returns x̄_i, an upper bound on the out-of-core excess Σ_c (α_c − ρ_i)^+ of
// M_i's chunks in every schedule of length at most the deadline: a machine with
// excess X > 0 has a chunk above ρ_i, so a load of at least ρ_i + X, and it starts
// its first message no earlier than S_i and then receives (O_i per message, C_i per
// MB) and computes (Σ τ >= a_1 β + (a_2 − a_1) X, since b_2 = ρ(a_1 − a_2)) one after
// the other, so S_i + O_i + (C_i + a_1i)(ρ_i + X) + (a_2i − a_1i) X <= T. 0 when no
// chunk can go out-of-core.
func (r *relax) excessMax(i int) float64 {
	mc := r.in.Machines[i]
	return math.Max(0, (r.deadline-mc.S-mc.O-(mc.C+mc.A1)*mc.Rho)/(mc.C+mc.A2))
}

// symbols returns the letters a sequence is made of: 0..m−1 (machine i; for a
// concave g_i, the chunk stays on-core, α <= ρ_i) and, for min-energy, m+i for every
// machine i with concave g_i and ρ_i < V (the chunk goes out-of-core, α >= ρ_i).
func (r *relax) symbols() []int {
	out := make([]int, 0, r.m)
	for i := range r.m {
		out = append(out, i)
	}
	if r.energy != nil {
		for i, c := range r.energy.concave {
			if c && r.in.Machines[i].Rho < r.in.V {
				out = append(out, r.m+i)
			}
		}
	}
	return out
}

// mach returns the machine of a sequence symbol.
func (r *relax) mach(sym int) int { return sym % r.m }

// machines returns the machine sequence of a symbol sequence.
func (r *relax) machines(seq []int) []int {
	out := make([]int, len(seq))
	for j, s := range seq {
		out[j] = r.mach(s)
	}
	return out
}

// served reports whether machine i receives a message in the symbol sequence seq.
func (r *relax) served(seq []int, i int) bool {
	for _, s := range seq {
		if r.mach(s) == i {
			return true
		}
	}
	return false
}

// machineSet is a node's decision on which machines are used (min-energy): the search
// first decides, machine by machine, whether each is used (in) or not (out), then
// sequences the messages among the used ones. Deciding the set first makes the
// relaxation of a prefix much tighter: the used machines pay their startup in full
// and are forced (the count rule and the sequencing cuts apply to them), and the
// others take no load. Undecided machines keep the relaxed z_i of energy.go.
type machineSet struct {
	in, out  []bool
	next     int       // the next machine to decide; m when the set is complete
	forced   []bool    // in, or needed for the capacity by the allowed machines
	allowed  []bool    // not out
	alphaMin []float64 // lower bound on the load of each machine in the subtree
}

// rootSet returns the set with nothing decided.
func (r *relax) rootSet() *machineSet {
	return r.derive(make([]bool, r.m), make([]bool, r.m), 0)
}

// derive completes a set's forced machines and load bounds from the capacities at the
// deadline: without machine i the allowed others compute Σ cap_k < V means i is used
// in every schedule of the subtree. It returns nil when the allowed machines lack the
// capacity for V.
func (r *relax) derive(in, out []bool, next int) *machineSet {
	ms := &machineSet{in: in, out: out, next: next, forced: make([]bool, r.m), allowed: make([]bool, r.m), alphaMin: make([]float64, r.m)}
	total := 0.0
	for i := range r.m {
		ms.allowed[i] = !out[i]
		if ms.allowed[i] {
			total += r.caps[i]
		}
	}
	if total < r.in.V*(1-1e-9) {
		return nil
	}
	for i := range r.m {
		if !ms.allowed[i] {
			continue
		}
		ms.forced[i] = in[i] || r.forced[i] || total-r.caps[i] < r.in.V*(1-1e-9)
		ms.alphaMin[i] = math.Max(r.alphaMin[i], r.in.V-(total-r.caps[i]))
	}
	return ms
}

// children returns the two sets that decide machine ms.next (used, not used), those
// with the capacity for V and not ruled out by the symmetry of identical machines (a
// later identical machine is used only if every earlier one is).
func (r *relax) children(ms *machineSet) []*machineSet {
	i := ms.next
	var out []*machineSet
	for _, use := range []bool{true, false} {
		in, ex := append([]bool(nil), ms.in...), append([]bool(nil), ms.out...)
		in[i], ex[i] = use, !use
		if use {
			sym := false
			for k := 0; k < i; k++ {
				sym = sym || ex[k] && dm.Identical(r.in.Machines[k], r.in.Machines[i])
			}
			if sym {
				continue
			}
		}
		if c := r.derive(in, ex, i+1); c != nil {
			out = append(out, c)
		}
	}
	return out
}

// complete reports whether every machine of the set is decided (nil: no set
// branching, min-time).
func (ms *machineSet) complete(m int) bool { return ms == nil || ms.next >= m }
