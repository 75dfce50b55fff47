package dlt

import (
	"context"
	"math"

	ddlt "github.com/schedopt/schedopt/domain/dlt"
)

// MaxEnumFlatMachines is the largest m for which FlatVertices runs (6^m state vectors).
const MaxEnumFlatMachines = 7

// Flat states of a chunk in the vertex enumeration.
const (
	flZero = iota // α_i = 0
	flFull        // α_i = B_i (memory binds)
	flFree        // α_i is an unknown
	numFlat
)

// FlatVertices is an exact oracle for the LP (2.5)-(2.9) on small instances
// (m <= MaxEnumFlatMachines), memory limits and any order included. An optimum of an LP
// lies at a vertex: m + 1 linearly independent tight constraints among α_i = 0,
// α_i = B_i, the rows (2.6) and (2.8). The oracle enumerates, for every machine, whether
// its chunk is 0, B_i or an unknown, and whether its row (2.6) is tight, keeps the
// choices with one equation per unknown (the unknown chunks and C_max), solves each
// square system, and returns the shortest schedule the evaluator accepts.
func FlatVertices(ctx context.Context, in *ddlt.FlatInstance) (Split, bool, error) {
	m := len(in.Machines)
	if m > MaxEnumFlatMachines {
		return Split{}, false, ErrNotApplicable
	}
	total := 1
	for i := 0; i < m; i++ {
		total *= 2 * numFlat
	}
	st := make([]int, m)
	tight := make([]bool, m)
	best := Split{T: math.Inf(1)}
	for code := 0; code < total; code++ {
		if code&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return Split{}, false, err
			}
		}
		c, free, nt := code, 0, 0
		skip := false
		for j := 0; j < m; j++ {
			st[j] = c % numFlat
			c /= numFlat
			tight[j] = c%2 == 1
			c /= 2
			if st[j] == flFull && math.IsInf(in.Memory(j), 1) {
				skip = true
			}
			if st[j] == flFree {
				free++
			}
			if tight[j] {
				nt++
			}
		}
		// unknowns: free chunks + C_max; equations: (2.8) + tight rows.
		if skip || free+1 != nt+1 || nt == 0 {
			continue
		}
		sp, ok := solveFlatVertex(in, st, tight, free)
		if !ok || sp.T >= best.T {
			continue
		}
		rep := ddlt.EvaluateFlat(in, &ddlt.FlatSolution{T: sp.T, Alpha: sp.Alpha})
		if rep.MaxViolation > vertexTol {
			continue
		}
		best = sp
	}
	if math.IsInf(best.T, 1) {
		return Split{}, false, nil
	}
	return best, true, nil
}

func solveFlatVertex(in *ddlt.FlatInstance, st []int, tight []bool, free int) (Split, bool) {
	m := len(in.Machines)
	n := free + 1
	idx := make([]int, m)
	k := 0
	for j := range st {
		idx[j] = -1
		if st[j] == flFree {
			idx[j] = k
			k++
		}
	}
	tIdx := free
	fixed := func(j int) float64 {
		if st[j] == flFull {
			return in.Memory(j)
		}
		return 0
	}
	A := make([][]float64, 0, n)
	b := make([]float64, 0, n)
	r := make([]float64, n)
	c := in.V
	for j := 0; j < m; j++ {
		if idx[j] >= 0 {
			r[idx[j]] = 1
		} else {
			c -= fixed(j)
		}
	}
	A, b = append(A, r), append(b, c)
	prefixS := 0.0
	for j, mc := range in.Machines {
		prefixS += mc.S
		if !tight[j] {
			continue
		}
		r := make([]float64, n)
		c := -prefixS
		for i := 0; i <= j; i++ {
			coef := in.Machines[i].C
			if i == j {
				coef += mc.A
			}
			if idx[i] >= 0 {
				r[idx[i]] += coef
			} else {
				c -= coef * fixed(i)
			}
		}
		r[tIdx] = -1
		A, b = append(A, r), append(b, c)
	}
	x, ok := gauss(A, b)
	if !ok {
		return Split{}, false
	}
	alpha := make([]float64, m)
	for j := range alpha {
		if idx[j] < 0 {
			alpha[j] = fixed(j)
			continue
		}
		v := x[idx[j]]
		if v < -enumTol || v > in.Memory(j)+enumTol {
			return Split{}, false
		}
		alpha[j] = math.Max(v, 0)
	}
	return Split{Alpha: alpha, T: x[tIdx]}, true
}
