package stencil

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	dom "github.com/schedopt/schedopt/domain/stencil"
)

// Neighbourhood selects the move types of the full tabu search (§7.2 of seed 001).
type Neighbourhood uint8

// The three neighbourhoods of Task Movement.
const (
	// MoveTask moves one task to another processor.
	MoveTask Neighbourhood = 1 << iota
	// SwapTasks swaps two tasks on different processors.
	SwapTasks
	// MoveArc moves both ends of an arc (u on i, v on j, i = j allowed) to
	// processors i' ≠ i and j' ≠ j.
	MoveArc
	// AllNeighbourhoods is the thesis's search.
	AllNeighbourhoods = MoveTask | SwapTasks | MoveArc
)

// RoundsRule is how the search counts the rounds of a mapping's multigraph M.
type RoundsRule uint8

const (
	// RoundsBound counts min(Δ+μ, ⌊3Δ/2⌋), Vizing's and Shannon's upper bounds on
	// χ'(M): a mapping that meets the deadline so counted meets it with an optimal
	// colouring. The thesis's TM uses Δ+μ (§7.2).
	RoundsBound RoundsRule = iota
	// RoundsDelta counts Δ(M), a lower bound on χ'(M): what the published rows of
	// Tables 7.5 and 7.6 report (their colourings reached Δ). A mapping so counted may
	// need more rounds; check it with a colouring.
	RoundsDelta
)

// Rounds returns the rule's round count for maximum degree delta and multiplicity mu.
func (r RoundsRule) Rounds(delta, mu int64) int64 {
	if r == RoundsDelta {
		return delta
	}
	return min(delta+mu, 3*delta/2)
}

// String names the rule as the command line prints it.
func (r RoundsRule) String() string {
	if r == RoundsDelta {
		return "delta"
	}
	return "min(delta+mu,3delta/2)"
}

// TMOptions control Search.
type TMOptions struct {
	Iterations     int           // K; 0 means 2000
	TimeLimit      time.Duration // 0: none
	Seed           uint64        // the search is deterministic for a seed
	Neighbourhoods Neighbourhood // 0 means AllNeighbourhoods
	// AddTenure and RemoveTenure are the iterations an "add task u to P" and a
	// "remove task u from P" attribute stay tabu-active after a move made the
	// opposite change; the thesis takes the addition tenure larger. 0 means 20 and 10.
	AddTenure, RemoveTenure int // at most 2^29 each
	// Sample is the number of tasks drawn (from the tasks with a cut arc) per
	// neighbourhood and iteration; each gives the moves to its neighbours' processors
	// and to one random processor. 0 means 32. FullMoves instead evaluates every
	// (task, processor) pair of the move neighbourhood, as Algorithm 6 prints it
	// (|V^T|·|V^P| scores per iteration: for small instances).
	Sample    int
	FullMoves bool
	// Aspiration admits a tabu move that beats the best mapping found, or that
	// improves the current objective by more than Aspiration times the running mean
	// of recent improvements (the thesis's distance that "is updated according to the
	// improved speed"). 0 means 2; negative disables the distance rule.
	Aspiration float64
	// Rounds is the round count of the objective (default RoundsBound).
	Rounds RoundsRule
}

// TMStats describes a Search run.
type TMStats struct {
	Iterations    int
	Evaluated     int64    // candidate mappings scored
	Accepted      [3]int64 // moves made per neighbourhood (move, swap, arc)
	BestIteration int
	Elapsed       time.Duration
	Start, Best   TMScore
	Stopped       string // "iterations", "time", "context", "no-move"
}

// TMScore is a mapping's objective in the search: the relative deadline and memory
// violation (0 when feasible), then the energy in J, with the rounds bounded by
// min(Δ+μ, ⌊3Δ/2⌋).
type TMScore struct {
	Violation float64
	Energy    float64
}

// maxIterations caps TMOptions.Iterations so that iteration + tenure fits the int32
// tabu entries.
const maxIterations = 1 << 30

func (o *TMOptions) defaults() {
	if o.Iterations <= 0 {
		o.Iterations = 2000
	}
	o.Iterations = min(o.Iterations, maxIterations)
	if o.Neighbourhoods == 0 {
		o.Neighbourhoods = AllNeighbourhoods
	}
	if o.AddTenure <= 0 {
		o.AddTenure = 20
	}
	if o.RemoveTenure <= 0 {
		o.RemoveTenure = 10
	}
	o.AddTenure, o.RemoveTenure = min(o.AddTenure, maxIterations/2), min(o.RemoveTenure, maxIterations/2)
	if o.Sample <= 0 {
		o.Sample = 32
	}
	if o.Aspiration == 0 {
		o.Aspiration = 2
	}
}

// Search is Task Movement (Algorithm 6 of seed 001) with all three neighbourhoods of
// §7.2. Each iteration scores candidate moves, swaps and arc moves against the current
// mapping and makes the best admissible one even when it is worse (less violation of
// the deadline first, then less energy; rounds by opt.Rounds, by default
// min(Δ+μ, ⌊3Δ/2⌋), the thesis's Vizing bound tightened by Shannon's). A move is a conjunction of attributes
// "remove u from P" and "add u to P"; after a move, adding u back to the processor it
// left and removing it from the one it joined become tabu-active for AddTenure and
// RemoveTenure iterations, and a candidate is tabu only when all its attributes are.
// Aspiration admits tabu candidates as described at TMOptions.Aspiration.
//
// Candidates are scored incrementally in O(deg + 64), not by re-evaluating the mapping.
// The move neighbourhood has |V^T|·(|V^P|−1) members (1.2 million at 8192 tasks and
// 148 processors), the swap neighbourhood |V^T|², so unless FullMoves is set each
// iteration draws Sample tasks per neighbourhood from those with a cut arc (a
// candidate list; moving an interior task only adds cut arcs) with a PCG generator
// seeded by Seed. It returns the best mapping found and stops after Iterations, at
// TimeLimit, or when ctx is done (returning the best so far with ctx's error).
func Search(ctx context.Context, in *dom.Instance, start []int, opt TMOptions) ([]int, TMStats, error) {
	opt.defaults()
	t0 := time.Now()
	s, err := newTMState(in, start)
	if err != nil {
		return nil, TMStats{}, fmt.Errorf("stencil: task movement: %w", err)
	}
	s.rule = opt.Rounds
	if s.n == 0 || s.m < 2 {
		cur := s.current().public()
		return slices.Clone(start), TMStats{Start: cur, Best: cur, Stopped: "no-move", Elapsed: time.Since(t0)}, nil
	}
	var deadline time.Time
	if opt.TimeLimit > 0 {
		deadline = t0.Add(opt.TimeLimit)
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x7a5c))
	n, m := s.n, s.m
	tabuAdd := make([]int32, n*m) // iteration until which the attribute is active
	tabuRem := make([]int32, n*m)
	mark := make([]int, m) // stamps for distinct target processors
	stamp := 0

	cur := s.current()
	best, bestSc := slices.Clone(s.assign), cur
	st := TMStats{Start: cur.public(), Best: cur.public(), Stopped: "iterations"}
	ema := 0.0 // running mean of improvements of the current energy

	var (
		cand    [2]reloc
		bestRel [2]reloc
		bestLen int
		bestKnd int
		bestNew tmScore
		found   bool
		k       int
	)
	tabu := func(rel []reloc) bool {
		for _, r := range rel {
			if int(tabuRem[r.u*m+r.from]) <= k || int(tabuAdd[r.u*m+r.to]) <= k {
				return false
			}
		}
		return true
	}
	consider := func(kind int, rel []reloc) {
		sc := s.score(rel)
		st.Evaluated++
		if tabu(rel) && !sc.less(bestSc) {
			if opt.Aspiration < 0 || ema <= 0 || sc.viol != cur.viol || cur.energy-sc.energy <= opt.Aspiration*ema {
				return
			}
		}
		if !found || sc.less(bestNew) {
			found, bestNew, bestKnd, bestLen = true, sc, kind, len(rel)
			copy(bestRel[:], rel)
		}
	}
	sampleTask := func() int {
		if len(s.blst) > 0 {
			return int(s.blst[rng.IntN(len(s.blst))])
		}
		return rng.IntN(n)
	}
	for k = 1; k <= opt.Iterations; k++ {
		if ctx.Err() != nil {
			st.Stopped = "context"
			break
		}
		if !deadline.IsZero() && time.Now().After(deadline) {
			st.Stopped = "time"
			break
		}
		found = false
		if opt.Neighbourhoods&MoveTask != 0 {
			if opt.FullMoves {
				for u := 0; u < n; u++ {
					if u%256 == 255 && ctx.Err() != nil {
						break // an iteration scores |V^T|·|V^P| candidates: stay responsive
					}
					for q := 0; q < m; q++ {
						if p := s.assign[u]; q != p {
							cand[0] = reloc{u, p, q}
							consider(0, cand[:1])
						}
					}
				}
			} else {
				for range opt.Sample {
					u := sampleTask()
					p := s.assign[u]
					stamp++
					mark[p] = stamp
					for _, a := range s.adj[u] {
						if q := s.assign[a.other]; mark[q] != stamp {
							mark[q] = stamp
							cand[0] = reloc{u, p, q}
							consider(0, cand[:1])
						}
					}
					if q := rng.IntN(m); mark[q] != stamp {
						cand[0] = reloc{u, p, q}
						consider(0, cand[:1])
					}
				}
			}
		}
		if opt.Neighbourhoods&SwapTasks != 0 && m > 1 {
			for range opt.Sample {
				u := sampleTask()
				p := s.assign[u]
				// a neighbour w of u on another processor q; v is w or a neighbour of w on q
				adj := s.adj[u]
				if len(adj) == 0 {
					continue
				}
				w := int(adj[rng.IntN(len(adj))].other)
				q := s.assign[w]
				if q == p {
					continue
				}
				v := w
				if aw := s.adj[w]; rng.IntN(2) == 0 && len(aw) > 0 {
					if x := int(aw[rng.IntN(len(aw))].other); x != u && s.assign[x] == q {
						v = x
					}
				}
				cand[0], cand[1] = reloc{u, p, q}, reloc{v, q, p}
				consider(1, cand[:2])
			}
		}
		if opt.Neighbourhoods&MoveArc != 0 && m > 1 {
			for range opt.Sample {
				u := sampleTask()
				adj := s.adj[u]
				if len(adj) == 0 {
					continue
				}
				v := int(adj[rng.IntN(len(adj))].other)
				i, j := s.assign[u], s.assign[v]
				stamp++
				mark[i], mark[j] = stamp, stamp
				try := func(ti, tj int) {
					cand[0], cand[1] = reloc{u, i, ti}, reloc{v, j, tj}
					consider(2, cand[:2])
				}
				for _, x := range [2]int{u, v} {
					for _, a := range s.adj[x] {
						if t := s.assign[a.other]; mark[t] != stamp {
							mark[t] = stamp
							try(t, t)
						}
					}
				}
				if t := rng.IntN(m); mark[t] != stamp {
					try(t, t)
				}
				if i != j {
					try(j, i)
				}
			}
		}
		if !found {
			st.Stopped = "no-move"
			break
		}
		rel := bestRel[:bestLen]
		s.apply(rel)
		st.Accepted[bestKnd]++
		for _, r := range rel {
			tabuAdd[r.u*m+r.from] = int32(k + opt.AddTenure)
			tabuRem[r.u*m+r.to] = int32(k + opt.RemoveTenure)
		}
		if bestNew.viol == cur.viol && bestNew.energy < cur.energy {
			ema = 0.9*ema + 0.1*(cur.energy-bestNew.energy)
		}
		cur = bestNew
		if k%4096 == 0 { // resynchronise the float sums
			s.recompute()
			cur = s.current()
		}
		if cur.less(bestSc) {
			bestSc = cur
			copy(best, s.assign)
			st.BestIteration = k
		}
	}
	st.Iterations = k - 1
	st.Best = bestSc.public()
	st.Elapsed = time.Since(t0)
	if st.Stopped == "context" {
		return best, st, ctx.Err()
	}
	return best, st, nil
}
