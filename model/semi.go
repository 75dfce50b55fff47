package model

import (
	"fmt"
	"math"
)

// SemiHelper is the Reformulation.Helper of the records WithoutSemi adds.
const SemiHelper = "WithoutSemi"

// WithoutSemi returns m when it has no semi-continuous or semi-integer column, and
// otherwise a copy in which every such column x with bounds [l, u] (0 <= l <= u < +Inf)
// is replaced by the one reformulation the backends without native support use:
//
//	x continuous (integer for semi-integer) in [0, u],  z binary,
//	x − u·z <= 0   (z = 0 forces x = 0),
//	x − l·z >= 0   (z = 1 forces x >= l; omitted when l = 0).
//
// The new binaries are appended after m's columns, so the first m.NumVars() values of
// a solution of the copy are a solution of m with the same objective, and the copy's
// optimum is m's. A column's MIP start sets its binary to 1 when it is nonzero. Each
// column's rows are recorded as a Reformulation with Helper SemiHelper and big-M u.
// The error wraps ErrSemiBounds when a semi column has no finite upper bound (the
// reformulation, like every solver's semi-continuous type, needs one).
func (m *Model) WithoutSemi() (*Model, error) {
	if m.NumSemi() == 0 {
		return m, nil
	}
	if err := m.validateStructure(); err != nil {
		return nil, fmt.Errorf("model: semi-continuous reformulation: %w", err)
	}
	c := m.Clone()
	var e Expr
	for j := range m.NumVars() {
		k := m.colKind[j]
		if !k.IsSemi() {
			continue
		}
		lo, hi := m.colLo[j], m.colHi[j]
		x := Var(j)
		kind := Continuous
		if k == SemiInteger {
			kind = Integer
		}
		c.colKind[j] = kind
		c.colLo[j] = 0
		name := m.VarName(x)
		z := c.AddBinary(name + "_on")
		if c.start != nil && !math.IsNaN(c.start[j]) {
			on := 0.0
			if c.start[j] != 0 {
				on = 1
			}
			c.start[z] = on
		}
		e.Reset()
		e.Add(x, 1)
		e.Add(z, -hi)
		rows := []Row{c.AddConstr(e, LE, 0, name+"_semi_up")}
		bigM := []float64{hi}
		if lo > 0 {
			e.Reset()
			e.Add(x, 1)
			e.Add(z, -lo)
			rows = append(rows, c.AddConstr(e, GE, 0, name+"_semi_lo"))
			bigM = append(bigM, lo)
		}
		c.record(Reformulation{Helper: SemiHelper, Name: name, Vars: []Var{z}, Rows: rows, BigM: bigM,
			Source: fmt.Sprintf("the bounds [%g, %g] of %s column %s", lo, hi, k, name)})
	}
	if err := c.Err(); err != nil {
		return nil, fmt.Errorf("model: semi-continuous reformulation: %w", err)
	}
	return c, nil
}
