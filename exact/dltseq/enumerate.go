package dltseq

import (
	"context"
	"errors"
	"fmt"
	"math"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
)

// MaxCases is the largest number of (sequence, piece) cases Solve accepts.
const MaxCases = 1 << 16

// ErrTooLarge is returned for instances whose enumeration exceeds MaxCases.
var ErrTooLarge = errors.New("dltseq: instance too large to enumerate")

// Options restrict the enumeration, for experiments on the model's structure.
type Options struct {
	// EmptyTail forces the last EmptyTail messages to carry no load (the "empty slots
	// at the end" restriction, which is not safe in general).
	EmptyTail int
}

// Result is the optimum over all sequences.
type Result struct {
	Feasible  bool
	Objective float64 // T for min-time, E for min-energy
	Schedule  dm.Schedule
	Sequences int // sequences enumerated
	LPs       int // linear programs solved
}

// Solve returns the exact optimum of the instance (with the semantics of the MIP
// (6.6)-(6.28): exactly n messages, each paying O_i, just-in-time startups).
func Solve(ctx context.Context, in *dm.Instance, opt Options) (*Result, error) {
	m, n := in.M(), in.N
	cases := math.Pow(float64(m), float64(n)) * math.Pow(2, float64(n))
	if cases > MaxCases {
		return nil, fmt.Errorf("%w: m^n·2^n = %g cases", ErrTooLarge, cases)
	}
	res := &Result{Objective: math.Inf(1)}
	seq := make([]int, n)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res.Sequences++
		for regime := 0; regime < 1<<n; regime++ {
			s, obj, ok, err := solveCase(in, seq, regime, opt)
			if err != nil {
				return nil, err
			}
			res.LPs++
			if ok && obj < res.Objective {
				res.Feasible, res.Objective, res.Schedule = true, obj, s
			}
		}
		// next sequence (odometer)
		k := 0
		for k < n {
			seq[k]++
			if seq[k] < m {
				break
			}
			seq[k] = 0
			k++
		}
		if k == n {
			break
		}
	}
	if !res.Feasible {
		res.Objective = math.NaN()
	}
	return res, nil
}

// solveCase solves the LP of one sequence with the pieces fixed by the bits of regime
// (bit j set: chunk j out-of-core, α_j >= ρ, τ = a_2 α + b_2, ε = k_2 α + l_2; clear:
// α_j <= ρ, τ = a_1 α, ε = k_1 α). Columns: α_1..α_n, t_1..t_n, T.
func solveCase(in *dm.Instance, seq []int, regime int, opt Options) (dm.Schedule, float64, bool, error) {
	n := len(seq)
	nv := 2*n + 1
	A, Tc := func(j int) int { return j }, 2*n
	tc := func(j int) int { return n + j }
	p := &lp{c: make([]float64, nv)}
	vec := func() []float64 { return make([]float64, nv) }
	out := func(j int) bool { return regime>>j&1 == 1 }
	// tau_j = ta[j]·α_j + tb[j]; eps_j = ea[j]·α_j + eb[j].
	ta, tb, ea, eb := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	sum := vec()
	for j, i := range seq {
		mc := in.Machines[i]
		r := vec()
		r[A(j)] = 1
		if out(j) {
			if mc.Rho > in.V || j >= n-opt.EmptyTail {
				return dm.Schedule{}, 0, false, nil
			}
			p.add(r, ge, mc.Rho)
			ta[j], tb[j], ea[j], eb[j] = mc.A2, mc.B2(), mc.K2, mc.L2()
		} else {
			p.add(r, le, mc.Rho)
			ta[j], ea[j] = mc.A1, mc.K1
		}
		if j >= n-opt.EmptyTail {
			p.add(r, le, 0)
		}
		sum[A(j)] = 1
		// t_j >= S_i (6.15)
		r = vec()
		r[tc(j)] = 1
		p.add(r, ge, mc.S)
		// link: t_j + O + C α_j <= t_{j+1} (or T) (6.16)
		r = vec()
		r[tc(j)], r[A(j)] = 1, mc.C
		if j+1 < n {
			r[tc(j+1)] = -1
		} else {
			r[Tc] = -1
		}
		p.add(r, le, -mc.O)
		// end of computation <= T (6.20)
		r = vec()
		r[tc(j)], r[A(j)], r[Tc] = 1, mc.C+ta[j], -1
		p.add(r, le, -mc.O-tb[j])
		// next message to the same machine after this computation (6.17)
		for l := j + 1; l < n; l++ {
			if seq[l] == i {
				r = vec()
				r[tc(j)], r[A(j)], r[tc(l)] = 1, mc.C+ta[j], -1
				p.add(r, le, -mc.O-tb[j])
				break
			}
		}
	}
	p.add(sum, eq, in.V) // (6.21)
	if in.Deadline != nil {
		r := vec()
		r[Tc] = 1
		if in.FixedLength {
			p.add(r, eq, *in.Deadline)
		} else {
			p.add(r, le, *in.Deadline)
		}
	}
	// Energy (6.4)-(6.5) as a linear function: eCoef·x + eConst.
	eCoef, eConst := vec(), 0.0
	eCoef[Tc] += in.P0N
	first := make(map[int]int)
	for j, i := range seq {
		if _, ok := first[i]; !ok {
			first[i] = j
		}
	}
	for i, mc := range in.Machines {
		f, used := first[i]
		if !used {
			eCoef[Tc] += mc.PI
			continue
		}
		// PI·(t_f − S) + PS·S + PN·(T − (t_f − S) − S − Σ τ_j) + Σ ε_j
		eCoef[tc(f)] += mc.PI - mc.PN
		eConst += -mc.PI*mc.S + mc.PS*mc.S
		eCoef[Tc] += mc.PN
		for j, k := range seq {
			if k != i {
				continue
			}
			eCoef[A(j)] += -mc.PN*ta[j] + ea[j]
			eConst += -mc.PN*tb[j] + eb[j]
		}
	}
	if in.EnergyLimit != nil {
		p.add(eCoef, le, *in.EnergyLimit-eConst)
	}
	if in.Objective == dm.MinEnergy {
		copy(p.c, eCoef)
	} else {
		p.c[Tc] = 1
	}
	x, obj, err := p.solve()
	if errors.Is(err, ErrInfeasible) {
		return dm.Schedule{}, 0, false, nil
	}
	if err != nil {
		return dm.Schedule{}, 0, false, fmt.Errorf("dltseq: sequence %v, pieces %b: %w", seq, regime, err)
	}
	if in.Objective == dm.MinEnergy {
		obj += eConst
	}
	s := dm.Schedule{T: x[Tc], Messages: make([]dm.Message, n)}
	for j, i := range seq {
		s.Messages[j] = dm.Message{Machine: i, Size: x[A(j)], Start: x[tc(j)]}
	}
	return s, obj, true, nil
}

// SingleMachine returns min_i (S_i + n·O_i + C_i·V + τ_i(V)), the length of sending the
// whole load to one machine in the first message and empty messages after it: a
// feasible schedule length for every instance, used for deadlines in tests and sweeps.
func SingleMachine(in *dm.Instance) float64 {
	best := math.Inf(1)
	for _, mc := range in.Machines {
		best = math.Min(best, mc.S+float64(in.N)*mc.O+mc.C*in.V+mc.Tau(in.V))
	}
	return best
}
