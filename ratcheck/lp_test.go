package ratcheck

import (
	"math/big"
	"testing"

	"github.com/schedopt/schedopt/model"
)

func TestReadLPExact(t *testing.T) {
	const file = `\ exact sums
Maximize
 obj: 0.1 x + 0.2 x + 1.5
Subject To
 c1: 0.1 x + 0.2 y - 0.3 <= 0.7
 c2: -1 <= x - y <= 2.5
 c3: 0.1 x + 0.2 x - 0.3 x + y >= 0.1
Bounds
 x <= 10
 -inf <= y <= 4
General
 y
End
`
	m, err := ReadLP([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	rat := func(s string) *big.Rat {
		r, _ := new(big.Rat).SetString(s)
		return r
	}
	x, y := m.ColumnIndex("x"), m.ColumnIndex("y")
	if x != 0 || y != 1 || m.Sense != model.Maximize {
		t.Fatalf("columns x=%d y=%d, sense %v", x, y, m.Sense)
	}
	checks := []struct {
		what      string
		got, want *big.Rat
	}{
		{"objective of x", m.Cols[x].Obj, rat("3/10")},
		{"objective constant", m.ObjConst, rat("3/2")},
		{"c1 upper", m.Rows[0].Hi, rat("1")},
		{"c2 lower", m.Rows[1].Lo, rat("-1")},
		{"c2 upper", m.Rows[1].Hi, rat("5/2")},
		{"c3 lower", m.Rows[2].Lo, rat("1/10")},
		{"x upper", m.Cols[x].Hi, rat("10")},
		{"y upper", m.Cols[y].Hi, rat("4")},
	}
	for _, c := range checks {
		if c.got == nil || c.got.Cmp(c.want) != 0 {
			t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
		}
	}
	if m.Cols[y].Lo != nil || m.Rows[0].Lo != nil || m.Cols[y].Kind != model.Integer {
		t.Errorf("y: lower %v kind %v; c1 lower %v: want -inf, integer, -inf", m.Cols[y].Lo, m.Cols[y].Kind, m.Rows[0].Lo)
	}
	// 0.1 x + 0.2 x − 0.3 x is exactly 0: the row holds y alone (float64 keeps 5.6e-17 x).
	if r := m.Rows[2]; len(r.Cols) != 1 || r.Cols[0] != int32(y) {
		t.Errorf("c3 terms %v %v, want y alone", r.Cols, r.Coefs)
	}
	rep := m.Check([]string{"x", "y"}, []float64{3, 2}, Tolerances{})
	if !rep.Feasible || rep.Objective.Cmp(rat("12/5")) != 0 {
		t.Errorf("check at (3, 2): %+v, want feasible with objective 12/5", rep)
	}
}

func TestReadFileRefusesWhatTheFloatReaderRefuses(t *testing.T) {
	for name, data := range map[string][]byte{
		"missing ENDATA": []byte("NAME x\nROWS\n N obj\nCOLUMNS\n"),
		"NaN":            mps([]string{"L r"}, []string{"x r nan"}, nil, nil),
	} {
		if _, err := ReadMPS(data); err == nil {
			t.Errorf("%s: read without error", name)
		}
	}
	if _, err := ReadLP([]byte("Minimize\n obj: x [ x ^ 2 ]\nEnd\n")); err == nil {
		t.Error("LP with a quadratic term: read without error")
	}
	if _, err := ReadFile("testdata/does-not-exist.mps"); err == nil {
		t.Error("missing file: read without error")
	}
}
