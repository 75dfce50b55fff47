// Package modelperm permutes the rows and columns of a model, for measuring the
// performance variability of solvers (Lodi and Tramontani, 2013): the same model
// written in another order is the same problem, yet solvers take other paths on it.
//
// A Permutation is drawn from a seed, so every backend of a sweep sees the same
// permuted model; Apply builds it (names kept), and Restore maps a point of the
// permuted model back to the original column order before it is checked.
package modelperm

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"

	"github.com/schedopt/schedopt/model"
)

// Permutation reorders a model: column j of the permuted model is column Cols[j] of
// the original, row i is row Rows[i]. The zero value (nil slices) is the identity.
type Permutation struct {
	Cols, Rows []int
}

// ErrShape says that a permutation does not fit a model or a point.
var ErrShape = errors.New("modelperm: permutation does not fit")

// Random returns the permutation number k of a model with cols columns and rows rows,
// drawn from a generator seeded with k and the instance name (so instances of a set
// get different permutations). k = 0 is the identity: the model as written.
func Random(name string, k, cols, rows int) Permutation {
	if k == 0 {
		return Permutation{}
	}
	h := fnv.New64a()
	h.Write([]byte(name))
	rng := rand.New(rand.NewPCG(uint64(k), h.Sum64()))
	return Permutation{Cols: rng.Perm(cols), Rows: rng.Perm(rows)}
}

// Identity reports whether p leaves every model as it is.
func (p Permutation) Identity() bool {
	for j, c := range p.Cols {
		if c != j {
			return false
		}
	}
	for i, r := range p.Rows {
		if r != i {
			return false
		}
	}
	return true
}

// Apply returns m with its columns and rows in p's order, names, bounds, kinds, the
// objective (sense and constant) and every coefficient kept. The identity returns m
// itself.
func (p Permutation) Apply(m *model.Model) (*model.Model, error) {
	if p.Identity() {
		return m, nil
	}
	return p.ApplyAs(m, func(old int) string { return m.VarName(model.Var(old)) },
		func(old int) string { return m.RowName(model.Row(old)) })
}

// ApplyAs returns m in p's order as Apply does, with the columns and rows named by
// colName and rowName (given the original index): for a file a program reads, names
// that no writer rewrites make its answer easy to map back. It always builds a new
// model, also for the identity.
func (p Permutation) ApplyAs(m *model.Model, colName, rowName func(old int) string) (*model.Model, error) {
	n, r := m.NumVars(), m.NumRows()
	if p.Cols == nil && p.Rows == nil {
		p = identity(n, r)
	}
	if len(p.Cols) != n || len(p.Rows) != r {
		return nil, fmt.Errorf("%w: %d columns and %d rows, the model has %d and %d", ErrShape, len(p.Cols), len(p.Rows), n, r)
	}
	newOf := make([]int, n) // newOf[old column] = new column
	for j, old := range p.Cols {
		newOf[old] = j
	}
	out := model.New(m.Name)
	out.Grow(n, r, m.NumNonzeros())
	cols := m.Columns()
	var obj model.Expr
	for _, old := range p.Cols {
		v := out.AddVar(cols.Kind[old], cols.Lower[old], cols.Upper[old], colName(old))
		if c := cols.Cost[old]; c != 0 {
			obj.Add(v, c)
		}
	}
	obj.AddConst(m.ObjectiveConstant())
	out.SetObjective(m.Sense(), obj)
	rows := m.Rows()
	var e model.Expr
	for _, old := range p.Rows {
		e.Reset()
		for k := rows.Start[old]; k < rows.Start[old+1]; k++ {
			e.Add(model.Var(newOf[rows.Index[k]]), rows.Value[k])
		}
		out.AddRange(e, rows.Lower[old], rows.Upper[old], rowName(old))
	}
	if err := out.Err(); err != nil {
		return nil, fmt.Errorf("modelperm: %w", err)
	}
	return out, nil
}

// Restore maps x, a point of the permuted model, to the original column order.
func (p Permutation) Restore(x []float64) ([]float64, error) {
	if p.Identity() {
		return x, nil
	}
	if len(x) != len(p.Cols) {
		return nil, fmt.Errorf("%w: a point of %d values, the permutation has %d columns", ErrShape, len(x), len(p.Cols))
	}
	out := make([]float64, len(x))
	for j, old := range p.Cols {
		out[old] = x[j]
	}
	return out, nil
}

// identity returns the identity permutation of n columns and r rows, explicitly.
func identity(n, r int) Permutation {
	p := Permutation{Cols: make([]int, n), Rows: make([]int, r)}
	for j := range p.Cols {
		p.Cols[j] = j
	}
	for i := range p.Rows {
		p.Rows[i] = i
	}
	return p
}
