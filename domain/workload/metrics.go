package workload

// The percentage metrics of seed 000 §8.2–8.3 (ref §3.3).

// Improvement returns (base − opt)/opt·100, the percentage by which opt improves on
// base (seed 000 [L545]: "(t_balance − t_opt)/t_opt × 100"; also seed 003's
// improvements over the load-balanced solution).
func Improvement(base, opt float64) float64 { return (base - opt) / opt * 100 }

// TradeOffs computes seed 000's 5% trade-offs on a front sorted by increasing T (E
// strictly decreasing) [L549, L567]:
//
//   - perfGain = (t_{e_opt} − t_{e_opt×1.05}) / t_{e_opt×1.05} × 100, where t_{e_opt×1.05}
//     is the smallest time of a point whose energy is within 5% of the energy optimum;
//   - energySaving = (e_{t_opt} − e_{t_opt×1.05}) / e_{t_opt×1.05} × 100, where
//     e_{t_opt×1.05} is the smallest energy of a point whose time is within 5% of the
//     time optimum.
//
// tol is the allowance (0.05 in the paper).
func TradeOffs(front []Solution, tol float64) (perfGain, energySaving float64) {
	if len(front) == 0 {
		return 0, 0
	}
	first, last := front[0], front[len(front)-1]
	tAt := last.T
	for _, q := range front {
		if q.E <= last.E*(1+tol) {
			tAt = q.T
			break // the fastest such point: T increases along the front
		}
	}
	eAt := first.E
	for _, q := range front {
		if q.T <= first.T*(1+tol) {
			eAt = q.E // E decreases along the front: keep the last such point
		}
	}
	return Improvement(last.T, tAt), Improvement(first.E, eAt)
}

// Balanced returns seed 003's load-balanced distribution for p processors in
// granules: ⌊n/p⌋ each, plus one on the first n mod p [003:L241, L253].
func Balanced(n, p int) []int {
	x := make([]int, p)
	for i := range x {
		x[i] = n / p
		if i < n%p {
			x[i]++
		}
	}
	return x
}
