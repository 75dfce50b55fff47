package model

import (
	"errors"
	"fmt"
	"io"
	"math"
)

// WriteMPS writes the model in free MPS format. The output is a function of the model
// alone: the same model always gives the same bytes.
//
// Conventions, chosen so that HiGHS and lp_solve read the file as the model means it:
//
//   - Names follow the rules in names.go: missing names become x<i> and c<i>, invalid
//     characters become '_', and clashes get a suffix "_2", "_3", .... The objective row
//     is named "obj".
//   - A maximisation writes an OBJSENSE section with MAX and keeps the objective
//     coefficients as they are (no negation).
//   - The objective constant k is written as the RHS entry −k of the objective row: the
//     HiGHS convention, where the objective is  c·x − rhs(obj).  lp_solve's default is
//     the opposite sign (its MPS_NEGOBJCONST option selects ours), and other readers
//     differ too; the constant never changes the optimal point.
//   - Rows are N (no finite bound: kept as a free row, which HiGHS drops), E, L, G, and
//     ranged rows lo < hi as G with RHS lo or L with RHS hi and a positive RANGES value
//     R, chosen so that lo + R (or hi − R) reproduces the other bound exactly in float64
//     arithmetic whenever some R does (see encodeRange for the rare exception).
//   - Integer columns are put between MARKER INTORG/INTEND lines and always get explicit
//     bounds (LO/UP, MI/UP, LO/PL, FR or FX): readers disagree about an integer column
//     without bounds (HiGHS 1.10 reads it as binary, lp_solve as [0, +∞)). Binary
//     columns with bounds [0, 1] are written as BV; a binary column whose bounds were
//     tightened (say fixed to 1) is written as an integer column with those bounds,
//     because HiGHS ignores a bound that follows BV (so it reads back as Integer). A
//     continuous
//     column gets no bound line when its bounds are the default [0, +∞); MI is always
//     followed by UP, for readers that give MI an upper bound of 0.
//   - A semi-continuous column gets an LO line (when its lower bound is not 0) and an
//     SC line with its upper bound; a semi-integer column is written the same way,
//     between the integer markers, as CPLEX, CBC and HiGHS read it.
//   - A column that appears in no row and has a zero objective coefficient is written
//     with an explicit 0 entry in the objective row, so that it still exists.
//   - Numbers are written in the shortest form that reads back as the same float64.
//
// The MIP start and the reformulation records are not written. WriteMPS returns an error
// when the model is invalid (see Validate; epigraph exactness is not required) and one
// wrapping ErrNotMPS when the file could not mean the model: a finite bound, right-hand
// side (a RANGES value may be larger) or objective constant of magnitude MPSInfinity or more (readers take it as
// infinite), or a coefficient of magnitude MaxMPSCoefficient or more (ReadMPS refuses it).
func (m *Model) WriteMPS(w io.Writer) error {
	// The file names are made while the model is checked.
	type fileNames struct {
		cols, rows writtenNames
		err        error
	}
	named := make(chan fileNames, 1)
	go func() {
		c, r, err := m.fileNameLists()
		named <- fileNames{c, r, err}
	}()
	err := m.validateStructure()
	if err == nil {
		err = m.mpsRepresentable()
	}
	// The column-wise counts do not need the names: they are made while the names
	// are (the rows' names take longest).
	var cm *colMatrix
	var sorted bool
	if err == nil {
		cm, sorted = m.newColMatrix()
	}
	names := <-named
	if err == nil {
		err = names.err
	}
	if err != nil {
		return fmt.Errorf("model: write MPS: %w", err)
	}
	cols, rows := names.cols, names.rows
	t := newTextOut(w)

	t.str("NAME")
	if name := m.fileModelName(); name != "" {
		t.str(" ")
		t.str(name)
	}
	t.byte('\n')
	if m.Sense() == Maximize {
		t.str("OBJSENSE\n    MAX\n")
	}

	// ROWS, then the other sections (mpssections.go).
	t.str("ROWS\n N  ")
	t.str(objRowName)
	t.byte('\n')
	cm.cols, cm.rows = &cols, &rows
	m.writeMPSSections(t, cm, sorted)
	t.str("ENDATA\n")
	return t.flush()
}

// mpsRow returns the MPS encoding of row i: its type (N, L, G or E), right-hand side
// and RANGES value (0 for none). It is computed where it is needed rather than kept in
// arrays, so that writing a file allocates nothing per row.
func (m *Model) mpsRow(i int) (typ byte, rhs, rng float64, err error) {
	lo, hi := m.rowLo[i], m.rowHi[i]
	switch classifyRow(lo, hi) {
	case rowFree:
		return 'N', 0, 0, nil
	case rowLE:
		return 'L', hi, 0, nil
	case rowGE:
		return 'G', lo, 0, nil
	case rowEQ:
		return 'E', lo, 0, nil
	}
	return encodeRange(lo, hi)
}

// Names of the RHS and RANGES vectors and of the objective row, as bytes.
var (
	rhsName     = []byte("RHS")
	rngName     = []byte("RNG")
	objRowBytes = []byte(objRowName)
)

// appendEntry appends the data line "    a  b  v" to buf.
func appendEntry(buf, a, b []byte, v float64, nums *numCache) []byte {
	buf = append(buf, "    "...)
	buf = append(buf, a...)
	buf = append(buf, "  "...)
	buf = append(buf, b...)
	buf = append(buf, "  "...)
	buf = nums.append(buf, v)
	return append(buf, '\n')
}

// maxRangeNudge is how many float64 steps encodeRange moves R away from hi − lo while
// looking for a value that reproduces the derived bound exactly.
const maxRangeNudge = 4

// encodeRange returns the MPS encoding of the ranged row lo <= a·x <= hi (lo < hi, both
// finite): type 'G' with RHS lo (hi = lo + R) or 'L' with RHS hi (lo = hi − R), with
// R > 0. The bound of smaller magnitude is used as the RHS first; R is nudged by a few
// ulps if needed so that the reader's addition or subtraction gives the other bound
// exactly. When no nearby R does (it happens when lo and hi have opposite signs, since R
// is then coarser than either bound: [-0.3, 0.1] is an example), R = hi − lo is used and
// the derived bound is off by at most one ulp of R; a bound derived this way re-encodes
// exactly, so a model read from an MPS file always round-trips.
func encodeRange(lo, hi float64) (typ byte, rhs, r float64, err error) {
	r0 := hi - lo
	if math.IsInf(r0, 0) {
		return 0, 0, 0, fmt.Errorf("range [%g, %g] is wider than the largest float64", lo, hi)
	}
	gFirst := math.Abs(lo) <= math.Abs(hi)
	try := func(g bool) (float64, bool) {
		derive := func(r float64) float64 {
			if g {
				return lo + r
			}
			return hi - r
		}
		want := hi
		if !g {
			want = lo
		}
		if derive(r0) == want {
			return r0, true
		}
		up, down := r0, r0
		for range maxRangeNudge {
			up = math.Nextafter(up, math.Inf(1))
			if !math.IsInf(up, 0) && derive(up) == want {
				return up, true
			}
			down = math.Nextafter(down, 0)
			if down > 0 && derive(down) == want {
				return down, true
			}
		}
		return r0, false
	}
	for _, g := range []bool{gFirst, !gFirst} {
		if r, ok := try(g); ok {
			if g {
				return 'G', lo, r, nil
			}
			return 'L', hi, r, nil
		}
	}
	if gFirst {
		return 'G', lo, r0, nil
	}
	return 'L', hi, r0, nil
}

// ErrNotMPS is wrapped by WriteMPS's error for a model whose numbers an MPS file cannot
// carry with their meaning (see WriteMPS).
var ErrNotMPS = errors.New("model: not representable in MPS")

// mpsRepresentable returns an error wrapping ErrNotMPS naming the first number of m
// that an MPS reader would read differently or refuse.
func (m *Model) mpsRepresentable() error {
	big := func(v float64) bool { return !math.IsInf(v, 0) && math.Abs(v) >= MPSInfinity }
	for j := range m.NumVars() {
		if big(m.colLo[j]) || big(m.colHi[j]) {
			return fmt.Errorf("%w: column %s: bounds [%g, %g] reach %g, which MPS readers take as infinite",
				ErrNotMPS, m.VarName(Var(j)), m.colLo[j], m.colHi[j], MPSInfinity)
		}
		if math.Abs(m.colObj[j]) >= MaxMPSCoefficient {
			return fmt.Errorf("%w: column %s: objective coefficient %g reaches %g", ErrNotMPS, m.VarName(Var(j)), m.colObj[j], MaxMPSCoefficient)
		}
	}
	for i := range m.NumRows() {
		// Only the RHS value is read with the infinity threshold; a RANGES value is not.
		lo, hi := m.rowLo[i], m.rowHi[i]
		var rhs float64
		switch classifyRow(lo, hi) {
		case rowLE:
			rhs = hi
		case rowGE, rowEQ:
			rhs = lo
		case rowRange:
			var err error
			if _, rhs, _, err = encodeRange(lo, hi); err != nil {
				return fmt.Errorf("row %s: %w", m.RowName(Row(i)), err)
			}
		}
		if big(rhs) {
			return fmt.Errorf("%w: row %s: right-hand side %g reaches %g, which MPS readers take as infinite",
				ErrNotMPS, m.RowName(Row(i)), rhs, MPSInfinity)
		}
		for k := m.rowStart[i]; k < m.rowStart[i+1]; k++ {
			if math.Abs(m.rowValue[k]) >= MaxMPSCoefficient {
				return fmt.Errorf("%w: row %s: coefficient %g of %s reaches %g", ErrNotMPS,
					m.RowName(Row(i)), m.rowValue[k], m.VarName(Var(m.rowIndex[k])), MaxMPSCoefficient)
			}
		}
	}
	if big(m.objConst) {
		return fmt.Errorf("%w: objective constant %g reaches %g", ErrNotMPS, m.objConst, MPSInfinity)
	}
	return nil
}
