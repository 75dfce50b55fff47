package model

import (
	"fmt"
	"io"
	"math"
)

// lpTermsPerLine is how many terms the LP writer puts on one line before continuing on
// the next, keeping lines well under the 255-character limit of strict LP readers.
const lpTermsPerLine = 8

// WriteLP writes the model in CPLEX LP format, as read by HiGHS. The output is a
// function of the model alone: the same model always gives the same bytes. It is meant
// for reading and for handing a model to HiGHS; MPS (WriteMPS) is the exact exchange
// format.
//
// Conventions:
//
//   - Names are the same as in WriteMPS (see names.go); the objective is labelled "obj".
//   - The objective lists every column in index order, with an explicit 0 coefficient
//     where it has none, so that a reader creates all columns and in the model's order.
//     Its constant is written as a trailing term ("obj: 2 x + 3 y + 5"), which HiGHS
//     reads as the objective offset.
//   - Every coefficient is written, including 1, as "+ c name" or "- c name".
//   - Constraints are  name: terms op rhs  with op one of <=, >=, =. HiGHS's LP reader
//     has no two-sided rows, so a ranged row lo <= a·x <= hi (lo < hi) is written as two
//     rows named <name>_lo (>= lo) and <name>_up (<= hi) (made unique like any name); a
//     row without finite bounds is written as  >= -inf. A row without terms is written
//     with the term 0.
//   - Bounds: the LP default is [0, +∞). Continuous columns get a line only when they
//     differ from it ("x >= 2", "-inf <= x <= 4", "x free", "x = 3", "0 <= x <= 4");
//     integer columns always get an explicit two-sided line or "free"/"=" (readers
//     disagree about integer defaults), binary columns with bounds [0, 1] are listed
//     in the Binary section and other binary columns are written as general integers
//     with their bounds.
//   - Semi-continuous and semi-integer columns get a two-sided bound line
//     "lo <= x <= hi" and are listed in a Semi-continuous section (semi-integer ones in
//     General too), as CPLEX and HiGHS read them.
func (m *Model) WriteLP(w io.Writer) error {
	if err := m.validateStructure(); err != nil {
		return fmt.Errorf("model: write LP: %w", err)
	}
	cols, rows := m.fileNames()
	t := newTextOut(w)
	if name := m.fileModelName(); name != "" {
		t.str("\\ Model ")
		t.str(name)
		t.byte('\n')
	}
	if m.Sense() == Maximize {
		t.str("Maximize\n")
	} else {
		t.str("Minimize\n")
	}
	t.str(" ")
	t.str(objRowName)
	t.str(":")
	for j, c := range m.colObj {
		t.lpTerm(j, c, cols[j])
	}
	if c := m.objConst; c != 0 || m.NumVars() == 0 {
		t.lpSigned(c)
	}
	t.byte('\n')

	t.str("Subject To\n")
	// Names of the extra rows of ranges, unique among all row names.
	var taken *nameSet
	for i := range m.NumRows() {
		lo, hi := m.rowLo[i], m.rowHi[i]
		switch classifyRow(lo, hi) {
		case rowFree:
			m.lpRow(t, rows[i], i, cols, ">=", math.Inf(-1))
		case rowLE:
			m.lpRow(t, rows[i], i, cols, "<=", hi)
		case rowGE:
			m.lpRow(t, rows[i], i, cols, ">=", lo)
		case rowEQ:
			m.lpRow(t, rows[i], i, cols, "=", lo)
		case rowRange:
			if taken == nil {
				taken = newNameSet(len(rows) + 1)
				taken.unique(objRowName)
				for _, r := range rows {
					taken.unique(r)
				}
			}
			m.lpRow(t, taken.unique(rows[i]+"_lo"), i, cols, ">=", lo)
			m.lpRow(t, taken.unique(rows[i]+"_up"), i, cols, "<=", hi)
		}
	}

	header := false
	for j := range m.NumVars() {
		lo, hi := m.colLo[j], m.colHi[j]
		kind := m.colKind[j]
		if kind == Binary && lo == 0 && hi == 1 {
			continue
		}
		explicit := kind.IsInteger() || kind.IsSemi()
		loInf, hiInf := math.IsInf(lo, -1), math.IsInf(hi, 1)
		if !explicit && lo == 0 && hiInf {
			continue
		}
		if !header {
			t.str("Bounds\n")
			header = true
		}
		t.byte(' ')
		switch {
		case lo == hi && !kind.IsSemi():
			t.str(cols[j])
			t.str(" = ")
			t.num(lo)
		case loInf && hiInf:
			t.str(cols[j])
			t.str(" free")
		case hiInf && !explicit:
			t.str(cols[j])
			t.str(" >= ")
			t.num(lo)
		default:
			if loInf {
				t.str("-inf")
			} else {
				t.num(lo)
			}
			t.str(" <= ")
			t.str(cols[j])
			t.str(" <= ")
			if hiInf {
				t.str("+inf")
			} else {
				t.num(hi)
			}
		}
		t.byte('\n')
	}

	m.lpList(t, "General", cols, func(j int) bool {
		k := m.colKind[j]
		return k == Integer || k == SemiInteger || k == Binary && (m.colLo[j] != 0 || m.colHi[j] != 1)
	})
	m.lpList(t, "Binary", cols, func(j int) bool {
		return m.colKind[j] == Binary && m.colLo[j] == 0 && m.colHi[j] == 1
	})
	m.lpList(t, "Semi-continuous", cols, func(j int) bool { return m.colKind[j].IsSemi() })
	t.str("End\n")
	return t.flush()
}

// lpTerm writes " + c name" (or " - |c| name"), breaking the line every
// lpTermsPerLine terms.
func (t *textOut) lpTerm(k int, c float64, name string) {
	if k > 0 && k%lpTermsPerLine == 0 {
		t.str("\n   ")
	}
	t.lpSigned(c)
	t.byte(' ')
	t.str(name)
}

// lpSigned writes " + |c|" or " - |c|".
func (t *textOut) lpSigned(c float64) {
	if math.Signbit(c) && c != 0 {
		t.str(" - ")
		t.num(-c)
	} else {
		t.str(" + ")
		t.num(c)
	}
}

// lpRow writes " name: terms op rhs".
func (m *Model) lpRow(t *textOut, name string, i int, cols []string, op string, rhs float64) {
	t.byte(' ')
	t.str(name)
	t.byte(':')
	b, e := m.rowStart[i], m.rowStart[i+1]
	if b == e {
		t.str(" 0")
	}
	for k := b; k < e; k++ {
		j := m.rowIndex[k]
		t.lpTerm(int(k-b), m.rowValue[k], cols[j])
	}
	t.byte(' ')
	t.str(op)
	t.byte(' ')
	if math.IsInf(rhs, -1) {
		t.str("-inf")
	} else {
		t.num(rhs)
	}
	t.byte('\n')
}

// lpList writes a section listing the columns for which keep is true, if any.
func (m *Model) lpList(t *textOut, section string, cols []string, keep func(j int) bool) {
	n := 0
	for j := range m.NumVars() {
		if !keep(j) {
			continue
		}
		if n == 0 {
			t.str(section)
			t.byte('\n')
		}
		if n > 0 && n%lpTermsPerLine == 0 {
			t.byte('\n')
		}
		t.byte(' ')
		t.str(cols[j])
		n++
	}
	if n > 0 {
		t.byte('\n')
	}
}
