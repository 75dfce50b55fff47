package dlt

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/schedopt/schedopt/domain/dltmulti"
)

// PSR is a processor sorting rule of §6.2.1.
type PSR string

// The 14 processor sorting rules: non-decreasing in the named parameter, except RAM
// (non-increasing ρ) and Rnd (random order, seeded).
const (
	PSRk1  PSR = "k1"
	PSRk2  PSR = "k2"
	PSRl2  PSR = "l2"
	PSRa1  PSR = "a1"
	PSRa2  PSR = "a2"
	PSRb2  PSR = "b2"
	PSRC   PSR = "C"
	PSRS   PSR = "S"
	PSRPI  PSR = "PI"
	PSRPN  PSR = "PN"
	PSRPS  PSR = "PS"
	PSRO   PSR = "O"
	PSRRAM PSR = "RAM"
	PSRRnd PSR = "Rnd"
)

// PSRs returns all 14 rules in the thesis's order (a new slice on every call).
func PSRs() []PSR {
	return []PSR{PSRk1, PSRk2, PSRl2, PSRa1, PSRa2, PSRb2, PSRC, PSRS, PSRPI, PSRPN, PSRPS, PSRO, PSRRAM, PSRRnd}
}

func psrKey(p PSR, mc dltmulti.Machine) (float64, error) {
	switch p {
	case PSRk1:
		return mc.K1, nil
	case PSRk2:
		return mc.K2, nil
	case PSRl2:
		return mc.L2(), nil
	case PSRa1:
		return mc.A1, nil
	case PSRa2:
		return mc.A2, nil
	case PSRb2:
		return mc.B2(), nil
	case PSRC:
		return mc.C, nil
	case PSRS:
		return mc.S, nil
	case PSRPI:
		return mc.PI, nil
	case PSRPN:
		return mc.PN, nil
	case PSRPS:
		return mc.PS, nil
	case PSRO:
		return mc.O, nil
	case PSRRAM:
		return -mc.Rho, nil
	}
	return 0, fmt.Errorf("dlt: unknown processor sorting rule %q", p)
}

// Order returns the machine indices sorted by the rule (ties by index). Rnd uses seed.
func Order(in *dltmulti.Instance, p PSR, seed uint64) ([]int, error) {
	ord := make([]int, in.M())
	for i := range ord {
		ord[i] = i
	}
	if p == PSRRnd {
		r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
		r.Shuffle(len(ord), func(a, b int) { ord[a], ord[b] = ord[b], ord[a] })
		return ord, nil
	}
	keys := make([]float64, in.M())
	for i, mc := range in.Machines {
		k, err := psrKey(p, mc)
		if err != nil {
			return nil, err
		}
		keys[i] = k
	}
	sort.SliceStable(ord, func(a, b int) bool { return keys[ord[a]] < keys[ord[b]] })
	return ord, nil
}

// Online runs the §6.2.1 heuristic with chunk rule SSC (α = ρ_σ, capped by the rest
// V') or GSS (α = min{V', max{1, min{V'/m, ρ_σ}}}) and processor sorting rule p.
//
// The originator keeps its link-free time t. At t, if some started machine has
// finished its chunk (the ready set M_R(t)), the ready machine ranked first by the PSR
// receives the next chunk at t (a preferred machine may overtake one that became ready
// earlier). Otherwise, if an idle machine remains, the first idle machine in PSR order
// is woken just in time and receives at max(t, S_i) (idleStart_i = that − S_i); the
// thesis leaves open whether a busy machine that becomes ready before then should be
// preferred: we wake the idle machine, as its text says ("idle processors will be
// started when no processors are ready"). Otherwise t advances to the earliest
// completion. Ties in readiness are broken by PSR rank. Cost: O(chunks · log m).
//
// The loop is bounded by construction: every pass either sends a chunk (at most
// MaxMessages) or advances t strictly to a pending completion (at most one per chunk
// sent), so it stops after 2·MaxMessages + m passes at the latest. Times that are not
// finite (parameters whose products overflow) give ErrNonFinite instead of a loop, and
// ctx is checked every checkEvery passes.
func Online(ctx context.Context, in *dltmulti.Instance, rule Rule, p PSR, seed uint64) (dltmulti.Schedule, error) {
	if rule != SSC && rule != GSS {
		return dltmulti.Schedule{}, fmt.Errorf("dlt: online heuristic needs rule ssc or gss, got %q", rule)
	}
	ord, err := Order(in, p, seed)
	if err != nil {
		return dltmulti.Schedule{}, err
	}
	m := in.M()
	rank := make([]int, m)
	for r, i := range ord {
		rank[i] = r
	}
	ready := &intHeap{less: func(a, b int) bool { return rank[a] < rank[b] }}
	busy := &intHeap{}
	finish := make([]float64, m)
	busy.less = func(a, b int) bool {
		if finish[a] != finish[b] {
			return finish[a] < finish[b]
		}
		return rank[a] < rank[b]
	}
	nextIdle := 0
	t, rest, fm := 0.0, in.V, float64(m)
	var s dltmulti.Schedule
	if !finiteNonNeg(in.V) {
		return dltmulti.Schedule{}, fmt.Errorf("%w: V = %g", ErrNonFinite, in.V)
	}
	for pass := 0; rest > remainderTol*in.V; pass++ {
		if pass%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return dltmulti.Schedule{}, fmt.Errorf("dlt: online %s: %w", rule, err)
			}
		}
		if pass > 2*MaxMessages+m {
			return dltmulti.Schedule{}, fmt.Errorf("%w (%d): online %s made %d passes", ErrTooManyMessages, MaxMessages, rule, pass)
		}
		for busy.Len() > 0 && finish[busy.xs[0]] <= t {
			heap.Push(ready, heap.Pop(busy))
		}
		var i int
		var start float64
		switch {
		case ready.Len() > 0:
			i = heap.Pop(ready).(int)
			start = t
		case nextIdle < m:
			i = ord[nextIdle]
			nextIdle++
			start = math.Max(t, in.Machines[i].S)
		default:
			next := finish[busy.xs[0]]
			if !(next > t) || math.IsInf(next, 0) {
				return dltmulti.Schedule{}, fmt.Errorf("%w: online %s: completion time %g of machine %d does not advance from %g", ErrNonFinite, rule, next, busy.xs[0], t)
			}
			t = next
			continue
		}
		mc := in.Machines[i]
		if len(s.Messages) >= MaxMessages {
			return dltmulti.Schedule{}, fmt.Errorf("%w (%d): online %s with V = %g, ρ_%d = %g", ErrTooManyMessages, MaxMessages, rule, in.V, i, mc.Rho)
		}
		a := mc.Rho
		if rule == GSS {
			a = math.Max(MinChunk, math.Min(rest/fm, mc.Rho))
		}
		a = math.Min(a, rest)
		if rest-a <= remainderTol*in.V {
			a = rest
		}
		s.Messages = append(s.Messages, dltmulti.Message{Machine: i, Size: a, Start: start})
		t = start + mc.Comm(a)
		finish[i] = t + mc.Tau(a)
		if !finiteNonNeg(a) || !finiteNonNeg(t) || !finiteNonNeg(finish[i]) {
			return dltmulti.Schedule{}, fmt.Errorf("%w: online %s: chunk %g to machine %d ends at %g", ErrNonFinite, rule, a, i, finish[i])
		}
		heap.Push(busy, i)
		rest -= a
	}
	return s, nil
}

// checkEvery is how many passes of a heuristic's loop run between checks of its context.
const checkEvery = 1024

// ErrNonFinite is returned when a heuristic meets a time or size that is NaN or
// infinite (parameters whose products overflow float64), instead of looping on it.
var ErrNonFinite = errors.New("dlt: a time or size is not finite")

// finiteNonNeg reports whether x is a finite number >= 0.
func finiteNonNeg(x float64) bool { return x >= 0 && !math.IsInf(x, 1) }

// Criterion selects what Super minimises.
type Criterion int

// Criteria for Super.
const (
	ByTime   Criterion = iota // shortest schedule
	ByEnergy                  // lowest energy of (6.4)
)

// Super runs Online with all 14 PSRs (super-SSC, super-GSS) and returns the best
// schedule by the criterion, as evaluated by dltmulti.Evaluate, and its rule.
func Super(ctx context.Context, in *dltmulti.Instance, rule Rule, crit Criterion, seed uint64) (dltmulti.Schedule, PSR, error) {
	var best dltmulti.Schedule
	var bestP PSR
	bestV := math.Inf(1)
	for _, p := range PSRs() {
		if err := ctx.Err(); err != nil {
			return best, bestP, err
		}
		s, err := Online(ctx, in, rule, p, seed)
		if err != nil {
			return best, bestP, err
		}
		r := dltmulti.Evaluate(in, s, dltmulti.EvalOptions{AnyCount: true})
		v := r.Makespan
		if crit == ByEnergy {
			v = r.E
		}
		if v < bestV {
			best, bestP, bestV = s, p, v
		}
	}
	return best, bestP, nil
}

// intHeap is a min-heap of machine indices under less.
type intHeap struct {
	xs   []int
	less func(a, b int) bool
}

func (h *intHeap) Len() int           { return len(h.xs) }
func (h *intHeap) Less(a, b int) bool { return h.less(h.xs[a], h.xs[b]) }
func (h *intHeap) Swap(a, b int)      { h.xs[a], h.xs[b] = h.xs[b], h.xs[a] }
func (h *intHeap) Push(x any)         { h.xs = append(h.xs, x.(int)) }
func (h *intHeap) Pop() any {
	x := h.xs[len(h.xs)-1]
	h.xs = h.xs[:len(h.xs)-1]
	return x
}

// StartSequences returns the machine orders of the online heuristics (SSC and GSS
// with every PSR, run with seed), each cut or repeated to n messages, without
// duplicates: the starting incumbents of the sequence branch-and-bound (exact/dltbb).
// It stops early, with what it has, when ctx ends.
func StartSequences(ctx context.Context, in *dltmulti.Instance, seed uint64) [][]int {
	seen := map[string]bool{}
	var out [][]int
	for _, rule := range []Rule{SSC, GSS} {
		for _, psr := range PSRs() {
			if ctx.Err() != nil {
				return out
			}
			h, err := Online(ctx, in, rule, psr, seed)
			if err != nil || len(h.Messages) == 0 {
				continue
			}
			seq := make([]int, in.N)
			for j := range seq {
				seq[j] = h.Messages[j%len(h.Messages)].Machine
			}
			if key := fmt.Sprint(seq); !seen[key] {
				seen[key] = true
				out = append(out, seq)
			}
		}
	}
	return out
}
