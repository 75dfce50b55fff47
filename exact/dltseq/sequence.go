package dltseq

import (
	"errors"
	"fmt"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
)

// MinTimeForSequence returns a shortest schedule that sends the messages to the
// machines of seq in that order (one message per entry), or ok = false when the
// deadline makes the sequence infeasible. With the order fixed, minimising T is a
// linear program in which τ_j >= a_1 α_j and τ_j >= a_2 α_j + b_2 stand for the
// convex max (3.1): nothing rewards a larger τ_j, so the optimum is exact. It is the
// polishing step that turns a heuristic's machine order into an n-message MIP start.
func MinTimeForSequence(in *dm.Instance, seq []int) (s dm.Schedule, ok bool, err error) {
	n := len(seq)
	if n == 0 {
		return s, false, fmt.Errorf("dltseq: empty sequence")
	}
	// Columns: α_j (0..n−1), t_j (n..2n−1), T (2n), τ_j (2n+1..3n).
	nv := 3*n + 1
	A, tc, Tc, tau := func(j int) int { return j }, func(j int) int { return n + j }, 2*n, func(j int) int { return 2*n + 1 + j }
	p := &lp{c: make([]float64, nv)}
	p.c[Tc] = 1
	vec := func() []float64 { return make([]float64, nv) }
	sum := vec()
	for j, i := range seq {
		if i < 0 || i >= in.M() {
			return s, false, fmt.Errorf("dltseq: sequence entry %d is machine %d of %d", j, i, in.M())
		}
		mc := in.Machines[i]
		sum[A(j)] = 1
		r := vec()
		r[tau(j)], r[A(j)] = 1, -mc.A1
		p.add(r, ge, 0)
		r = vec()
		r[tau(j)], r[A(j)] = 1, -mc.A2
		p.add(r, ge, mc.B2())
		r = vec()
		r[tc(j)] = 1
		p.add(r, ge, mc.S)
		r = vec()
		r[tc(j)], r[A(j)] = 1, mc.C
		if j+1 < n {
			r[tc(j+1)] = -1
		} else {
			r[Tc] = -1
		}
		p.add(r, le, -mc.O)
		r = vec()
		r[tc(j)], r[A(j)], r[tau(j)], r[Tc] = 1, mc.C, 1, -1
		p.add(r, le, -mc.O)
		for l := j + 1; l < n; l++ {
			if seq[l] == i {
				r = vec()
				r[tc(j)], r[A(j)], r[tau(j)], r[tc(l)] = 1, mc.C, 1, -1
				p.add(r, le, -mc.O)
				break
			}
		}
	}
	p.add(sum, eq, in.V)
	if in.Deadline != nil {
		r := vec()
		r[Tc] = 1
		p.add(r, le, *in.Deadline)
	}
	x, _, err := p.solve()
	if errors.Is(err, ErrInfeasible) {
		return s, false, nil
	}
	if err != nil {
		return s, false, err
	}
	s.Messages = make([]dm.Message, n)
	for j, i := range seq {
		s.Messages[j] = dm.Message{Machine: i, Size: x[A(j)], Start: x[tc(j)]}
	}
	return s, true, nil
}
