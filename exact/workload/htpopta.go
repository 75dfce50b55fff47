package workload

import (
	"sort"
)

// HTPOPTA derives the (makespan, total energy) front from the (makespan, dynamic
// energy) front, seed 000 Algorithm 3 (ref §2.9): every point gets total energy
// te = E + static·T; among points with equal te the faster one, then the one with
// fewer active processors, is kept (the listing's line 22 compares idle counts the
// wrong way round; the prose and Prop. 10.12 want fewer active processors); then,
// in increasing te, a point is kept only if it is strictly faster than all kept ones.
// By Prop. 10.10 the result is the whole total-energy front. The returned points carry
// E = total energy, sorted by increasing T.
func HTPOPTA(f Front, static float64) Front {
	type tup struct {
		te float64
		pt Point
	}
	var m []tup // Ψ_TP, a map keyed by total energy, kept as a sorted slice
	for _, q := range f {
		te := q.E + static*q.T
		k := sort.Search(len(m), func(i int) bool { return !less(m[i].te, te) })
		if k < len(m) && !less(te, m[k].te) { // equal total energy
			old := m[k].pt
			if q.T < old.T || (q.T == old.T && q.Active < old.Active) {
				m[k] = tup{te, q}
			}
			continue
		}
		m = append(m, tup{})
		copy(m[k+1:], m[k:])
		m[k] = tup{te, q}
	}
	var out Front
	minTime := 0.0
	for i, t := range m {
		if i > 0 && t.pt.T >= minTime {
			continue // dominated: not faster than a cheaper point
		}
		minTime = t.pt.T
		q := t.pt
		q.E = t.te
		out = append(out, q)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].T < out[b].T })
	return out
}
