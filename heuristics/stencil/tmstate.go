package stencil

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	dom "github.com/schedopt/schedopt/domain/stencil"
)

// topK is how many processors and processor pairs the incremental state keeps in
// decreasing order of degree, busy time and multiplicity. A candidate changes at most
// two tasks, so at most 2·(deg+1) processors and 4·deg pairs; the largest value among
// the unchanged ones is the first unchanged entry of the list (a full scan when every
// listed entry changed).
const topK = 64

// reloc moves task u from processor from to processor to.
type reloc struct{ u, from, to int }

// arcEnd is one arc seen from one of its tasks.
type arcEnd struct {
	other int32 // the task at the other end
	size  int32 // index of the arc's cell count in tmState.q / tmState.e
	out   bool  // this task sends
}

// tmState is a mapping with everything the objective needs, kept up to date move by
// move: per processor the cells, the weighted degree in M and the busy time; per pair
// the multiplicity; the energy sums. Candidates are scored without being applied, in
// O(deg + topK) for a candidate moving tasks of degree deg.
type tmState struct {
	in   *dom.Instance
	n, m int
	rule RoundsRule

	assign []int
	adj    [][]arcEnd
	q      [][]int64   // per arc size: quanta of an arc p→k at [p*m+k]
	e      [][]float64 // per arc size: J of an arc p→k
	cellsT []float64   // cells per task

	tpc, epc, idle, mem []float64 // per processor

	mult  []int64 // symmetric, [p*m+k]
	deg   []int64
	load  []float64 // cells per processor
	compE float64   // Σ_p load_p · epc_p
	commE float64   // Σ_cut cells · link energy
	idleB float64   // Σ_p idle_p · busy_p
	sumId float64   // Σ_p idle_p
	memV  float64   // Σ_p relative memory excess

	topDeg, topBusy []int // processors, decreasing
	topPair         []int // p*m+k with p < k, decreasing multiplicity

	cut  []int32 // cut arcs at each task
	bpos []int32 // position in blist, −1 when not a boundary task
	blst []int32 // tasks with a cut arc

	// scratch for scoring
	pk     []int   // affected pairs (p*m+k, p<k)
	pd     []int64 // their multiplicity changes
	dp     []int   // affected processors (degree)
	dd     []int64 // their degree changes
	lp     []int   // affected processors (load)
	ld     []float64
	commDE float64
}

func newTMState(in *dom.Instance, start []int) (*tmState, error) {
	n, m := len(in.Tasks), len(in.Processors)
	if len(start) != n {
		return nil, fmt.Errorf("start has %d entries for %d tasks", len(start), n)
	}
	for u, p := range start {
		if p < 0 || p >= m {
			return nil, fmt.Errorf("task %d on processor %d of %d", u, p, m)
		}
	}
	s := &tmState{in: in, n: n, m: m, assign: slices.Clone(start), adj: make([][]arcEnd, n),
		cellsT: make([]float64, n), tpc: make([]float64, m), epc: make([]float64, m), idle: make([]float64, m),
		mem: make([]float64, m)}
	sizes := map[float64]int32{}
	for _, a := range in.Arcs {
		id, ok := sizes[a.Cells]
		if !ok {
			id = int32(len(s.q))
			sizes[a.Cells] = id
			q, e := make([]int64, m*m), make([]float64, m*m)
			for p := 0; p < m; p++ {
				for k := 0; k < m; k++ {
					if p != k {
						q[p*m+k] = in.Multiplicity(a, p, k)
						e[p*m+k] = a.Cells * in.LinkEnergy[p][k]
					}
				}
			}
			s.q, s.e = append(s.q, q), append(s.e, e)
		}
		s.adj[a.From] = append(s.adj[a.From], arcEnd{other: int32(a.To), size: id, out: true})
		s.adj[a.To] = append(s.adj[a.To], arcEnd{other: int32(a.From), size: id})
	}
	for u, t := range in.Tasks {
		s.cellsT[u] = t.Cells
	}
	for p, pr := range in.Processors {
		s.tpc[p], s.epc[p], s.idle[p], s.mem[p] = pr.TimePerCell, pr.EnergyPerCell, pr.IdlePower, pr.MemoryCells
	}
	s.recompute()
	return s, nil
}

// recompute rebuilds every derived quantity from the assignment (start, and a periodic
// resynchronisation against float drift).
func (s *tmState) recompute() {
	m := s.m
	s.mult, s.deg, s.load = make([]int64, m*m), make([]int64, m), make([]float64, m)
	s.commE, s.compE, s.idleB, s.sumId, s.memV = 0, 0, 0, 0, 0
	s.cut, s.bpos, s.blst = make([]int32, s.n), make([]int32, s.n), s.blst[:0]
	for u, p := range s.assign {
		s.load[p] += s.cellsT[u]
		for _, a := range s.adj[u] {
			w := int(a.other)
			k := s.assign[w]
			if k == p {
				continue
			}
			s.cut[u]++
			if a.out { // count each arc once, from its sender
				x := s.q[a.size][p*m+k]
				s.mult[p*m+k] += x
				s.mult[k*m+p] += x
				s.deg[p] += x
				s.deg[k] += x
				s.commE += s.e[a.size][p*m+k]
			}
		}
	}
	for u := range s.bpos {
		s.bpos[u] = -1
		if s.cut[u] > 0 {
			s.bpos[u] = int32(len(s.blst))
			s.blst = append(s.blst, int32(u))
		}
	}
	for p := 0; p < m; p++ {
		s.compE += s.load[p] * s.epc[p]
		s.idleB += s.idle[p] * s.load[p] * s.tpc[p]
		s.sumId += s.idle[p]
		s.memV += memExcess(s.load[p], s.mem[p])
	}
	s.rebuildTops()
}

func memExcess(load, mem float64) float64 {
	if load <= mem {
		return 0
	}
	return (load - mem) / math.Max(1, mem)
}

func (s *tmState) rebuildTops() {
	m := s.m
	procs := make([]int, m)
	for p := range procs {
		procs[p] = p
	}
	byDeg := slices.Clone(procs)
	slices.SortFunc(byDeg, func(a, b int) int { return cmp.Or(cmp.Compare(s.deg[b], s.deg[a]), cmp.Compare(a, b)) })
	s.topDeg = append(s.topDeg[:0], byDeg[:min(m, topK)]...)
	slices.SortFunc(procs, func(a, b int) int {
		return cmp.Or(cmp.Compare(s.load[b]*s.tpc[b], s.load[a]*s.tpc[a]), cmp.Compare(a, b))
	})
	s.topBusy = append(s.topBusy[:0], procs[:min(m, topK)]...)
	// Pairs: keep the topK largest multiplicities by insertion (zeros only to fill).
	s.topPair = s.topPair[:0]
	for p := 0; p < m; p++ {
		for k := p + 1; k < m; k++ {
			key := p*m + k
			x := s.mult[key]
			if len(s.topPair) == topK && x <= s.mult[s.topPair[topK-1]] {
				continue
			}
			i := len(s.topPair)
			if i < topK {
				s.topPair = append(s.topPair, key)
			} else {
				i = topK - 1
			}
			for i > 0 && s.mult[s.topPair[i-1]] < x {
				s.topPair[i] = s.topPair[i-1]
				i--
			}
			s.topPair[i] = key
		}
	}
}

// tmScore orders mappings: smaller deadline and memory violation first, then energy.
type tmScore struct{ viol, energy float64 }

func (a tmScore) less(b tmScore) bool {
	if a.viol != b.viol {
		return a.viol < b.viol
	}
	return a.energy < b.energy
}

func (a tmScore) public() TMScore { return TMScore{Violation: a.viol, Energy: a.energy} }

// current returns the score of the current mapping.
func (s *tmState) current() tmScore {
	s.pk, s.pd, s.dp, s.dd, s.lp, s.ld, s.commDE = s.pk[:0], s.pd[:0], s.dp[:0], s.dd[:0], s.lp[:0], s.ld[:0], 0
	return s.finish(0, 0, 0)
}

// addPair records a multiplicity change of x on the pair {p,k} and the energy en.
func (s *tmState) addPair(p, k int, x int64, en float64) {
	s.commDE += en
	key := min(p, k)*s.m + max(p, k)
	for i, kk := range s.pk {
		if kk == key {
			s.pd[i] += x
			s.addDeg(p, x)
			s.addDeg(k, x)
			return
		}
	}
	s.pk = append(s.pk, key)
	s.pd = append(s.pd, x)
	s.addDeg(p, x)
	s.addDeg(k, x)
}

func (s *tmState) addDeg(p int, x int64) {
	for i, q := range s.dp {
		if q == p {
			s.dd[i] += x
			return
		}
	}
	s.dp = append(s.dp, p)
	s.dd = append(s.dd, x)
}

func (s *tmState) addLoad(p int, x float64) {
	for i, q := range s.lp {
		if q == p {
			s.ld[i] += x
			return
		}
	}
	s.lp = append(s.lp, p)
	s.ld = append(s.ld, x)
}

// arc records arc a at task u with u on pu and the other end on pw, with sign ±1.
func (s *tmState) arc(a arcEnd, pu, pw int, sign int64) {
	if pu == pw {
		return
	}
	p, k := pw, pu
	if a.out {
		p, k = pu, pw
	}
	i := p*s.m + k
	s.addPair(p, k, sign*s.q[a.size][i], float64(sign)*s.e[a.size][i])
}

// where returns the processor of task w after the relocations rel.
func where(s *tmState, rel []reloc, w int) int {
	for _, r := range rel {
		if r.u == w {
			return r.to
		}
	}
	return s.assign[w]
}

// collect fills the scratch lists with the changes rel makes.
func (s *tmState) collect(rel []reloc) (dCompE, dIdleB float64) {
	s.pk, s.pd, s.dp, s.dd, s.lp, s.ld, s.commDE = s.pk[:0], s.pd[:0], s.dp[:0], s.dd[:0], s.lp[:0], s.ld[:0], 0
	for i, r := range rel {
		c := s.cellsT[r.u]
		s.addLoad(r.from, -c)
		s.addLoad(r.to, c)
		dCompE += c * (s.epc[r.to] - s.epc[r.from])
		dIdleB += c * (s.idle[r.to]*s.tpc[r.to] - s.idle[r.from]*s.tpc[r.from])
	next:
		for _, a := range s.adj[r.u] {
			w := int(a.other)
			for _, r2 := range rel[:i] {
				if r2.u == w {
					continue next // counted from the earlier task's side
				}
			}
			s.arc(a, r.from, s.assign[w], -1)
			s.arc(a, r.to, where(s, rel, w), +1)
		}
	}
	return dCompE, dIdleB
}

// score returns the score of the mapping after rel, without applying it.
func (s *tmState) score(rel []reloc) tmScore {
	dc, di := s.collect(rel)
	return s.finish(dc, di, 0)
}

func (s *tmState) finish(dCompE, dIdleB, _ float64) tmScore {
	m := s.m
	// Δ
	var delta int64
	for i, p := range s.dp {
		delta = max(delta, s.deg[p]+s.dd[i])
	}
	if d, ok := firstOutside(s.topDeg, s.dp); ok {
		delta = max(delta, s.deg[d])
	} else if len(s.topDeg) < m {
		for p := 0; p < m; p++ {
			if !slices.Contains(s.dp, p) {
				delta = max(delta, s.deg[p])
			}
		}
	}
	// μ
	var mu int64
	for i, key := range s.pk {
		mu = max(mu, s.mult[key]+s.pd[i])
	}
	if key, ok := firstOutside(s.topPair, s.pk); ok {
		mu = max(mu, s.mult[key])
	} else if len(s.topPair) < m*(m-1)/2 {
		for p := 0; p < m; p++ {
			for k := p + 1; k < m; k++ {
				if !slices.Contains(s.pk, p*m+k) {
					mu = max(mu, s.mult[p*m+k])
				}
			}
		}
	}
	// busy and memory
	busy := 0.0
	memV := s.memV
	for i, p := range s.lp {
		l := s.load[p] + s.ld[i]
		busy = math.Max(busy, l*s.tpc[p])
		memV += memExcess(l, s.mem[p]) - memExcess(s.load[p], s.mem[p])
	}
	if p, ok := firstOutside(s.topBusy, s.lp); ok {
		busy = math.Max(busy, s.load[p]*s.tpc[p])
	} else if len(s.topBusy) < m {
		for p := 0; p < m; p++ {
			if !slices.Contains(s.lp, p) {
				busy = math.Max(busy, s.load[p]*s.tpc[p])
			}
		}
	}
	rounds := s.rule.Rounds(delta, mu)
	ts := math.Max(busy, float64(rounds)*s.in.RoundTime)
	sc := tmScore{viol: memV}
	if d := s.in.Deadline; ts > d*(1+dom.TimeTol) {
		sc.viol += (ts - d) / d
	}
	sc.energy = s.compE + dCompE + s.sumId*ts - (s.idleB + dIdleB) + s.commE + s.commDE
	return sc
}

// firstOutside returns the first entry of top not in changed.
func firstOutside(top, changed []int) (int, bool) {
	for _, x := range top {
		if !slices.Contains(changed, x) {
			return x, true
		}
	}
	return 0, false
}

// apply performs rel.
func (s *tmState) apply(rel []reloc) {
	dc, di := s.collect(rel)
	m := s.m
	for i, key := range s.pk {
		p, k := key/m, key%m
		s.mult[key] += s.pd[i]
		s.mult[k*m+p] += s.pd[i]
	}
	for i, p := range s.dp {
		s.deg[p] += s.dd[i]
	}
	for i, p := range s.lp {
		l := s.load[p] + s.ld[i]
		s.memV += memExcess(l, s.mem[p]) - memExcess(s.load[p], s.mem[p])
		s.load[p] = l
	}
	s.compE += dc
	s.idleB += di
	s.commE += s.commDE
	for _, r := range rel {
		s.assign[r.u] = r.to
	}
	for _, r := range rel {
		s.recut(r.u)
		for _, a := range s.adj[r.u] {
			s.recut(int(a.other))
		}
	}
	s.rebuildTops()
}

// recut recounts the cut arcs of task u and updates the boundary list.
func (s *tmState) recut(u int) {
	var c int32
	p := s.assign[u]
	for _, a := range s.adj[u] {
		if s.assign[a.other] != p {
			c++
		}
	}
	s.cut[u] = c
	switch in := s.bpos[u] >= 0; {
	case c > 0 && !in:
		s.bpos[u] = int32(len(s.blst))
		s.blst = append(s.blst, int32(u))
	case c == 0 && in:
		i := s.bpos[u]
		last := s.blst[len(s.blst)-1]
		s.blst[i] = last
		s.bpos[last] = i
		s.blst = s.blst[:len(s.blst)-1]
		s.bpos[u] = -1
	}
}
