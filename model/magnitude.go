package model

import (
	"errors"
	"fmt"
	"math"
)

// Magnitude limits of a model a solver can take. They are HiGHS's: it refuses a model
// with a matrix value of magnitude large_matrix_value (1e15) or more, and reads bounds
// and right-hand sides of magnitude 1e20 or more as infinite. lp_solve and CBC accept
// such models but compute garbage on them, so one rule serves every backend.
const (
	// MaxCoefficient bounds the magnitude of a constraint or objective coefficient.
	MaxCoefficient = 1e15
	// MaxFiniteBound bounds the magnitude of a finite variable bound or row side.
	MaxFiniteBound = 1e20
)

// ErrOutOfScale is wrapped by CheckMagnitudes's errors.
var ErrOutOfScale = errors.New("model: value out of the range solvers accept")

// CheckMagnitudes reports the first coefficient of magnitude MaxCoefficient or more
// and the first finite bound or row side of magnitude MaxFiniteBound or more, naming
// the row and column. A model built from valid data fails it when the data's values
// are too far apart in scale (a time of 9e15 s next to one of 1e-3 s): solvers would
// refuse it or silently round it, so the caller should refuse the input instead.
func (m *Model) CheckMagnitudes() error {
	for v, c := range m.colObj {
		if math.Abs(c) >= MaxCoefficient {
			return fmt.Errorf("%w: objective coefficient of %s is %.4g (solvers accept magnitudes below %g)",
				ErrOutOfScale, m.VarName(Var(v)), c, float64(MaxCoefficient))
		}
	}
	for v := range m.colLo {
		for _, b := range [2]float64{m.colLo[v], m.colHi[v]} {
			if !math.IsInf(b, 0) && math.Abs(b) >= MaxFiniteBound {
				return fmt.Errorf("%w: bound of %s is %.4g (solvers read magnitudes from %g as infinite)",
					ErrOutOfScale, m.VarName(Var(v)), b, float64(MaxFiniteBound))
			}
		}
	}
	for r := range m.rowLo {
		for _, b := range [2]float64{m.rowLo[r], m.rowHi[r]} {
			if !math.IsInf(b, 0) && math.Abs(b) >= MaxFiniteBound {
				return fmt.Errorf("%w: row %s has side %.4g (solvers read magnitudes from %g as infinite)",
					ErrOutOfScale, m.RowName(Row(r)), b, float64(MaxFiniteBound))
			}
		}
		for k := m.rowStart[r]; k < m.rowStart[r+1]; k++ {
			if c := m.rowValue[k]; math.Abs(c) >= MaxCoefficient {
				return fmt.Errorf("%w: row %s: coefficient of %s is %.4g (solvers accept magnitudes below %g)",
					ErrOutOfScale, m.RowName(Row(r)), m.VarName(Var(m.rowIndex[k])), c, float64(MaxCoefficient))
			}
		}
	}
	return nil
}
