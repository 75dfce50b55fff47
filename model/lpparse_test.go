package model

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
)

// parseLP reads the subset of CPLEX LP that WriteLP emits, strictly: anything else is an
// error. It exists so that tests can check the LP writer's output as data (every
// section, term, bound and declaration) rather than as text.
func parseLP(src string) (*Model, error) {
	m := New("")
	cols := map[string]Var{}
	col := func(name string) Var {
		if v, ok := cols[name]; ok {
			return v
		}
		v := m.AddContinuous(0, math.Inf(1), name)
		cols[name] = v
		return v
	}
	number := func(s string) (float64, error) {
		switch s {
		case "+inf":
			return math.Inf(1), nil
		case "-inf":
			return math.Inf(-1), nil
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return 0, fmt.Errorf("bad number %q", s)
		}
		return v, nil
	}
	// Split into sections; continuation lines are joined to the statement before them.
	var section string
	var stmts []string
	sections := map[string][]string{}
	order := []string{}
	for n, line := range strings.Split(src, "\n") {
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "\\"):
			if n != 0 {
				return nil, fmt.Errorf("line %d: comment after the start", n+1)
			}
			continue
		case strings.HasPrefix(line, "    "):
			if len(stmts) == 0 {
				return nil, fmt.Errorf("line %d: continuation without a statement", n+1)
			}
			stmts[len(stmts)-1] += " " + strings.TrimSpace(line)
		case strings.HasPrefix(line, " "):
			stmts = append(stmts, strings.TrimSpace(line))
		default:
			if section != "" {
				sections[section] = stmts
			}
			section, stmts = line, nil
			if _, dup := sections[section]; dup {
				return nil, fmt.Errorf("line %d: section %q twice", n+1, section)
			}
			order = append(order, section)
		}
	}
	if section != "End" || len(stmts) != 0 {
		return nil, fmt.Errorf("file does not end with End")
	}
	if len(order) < 3 || (order[0] != "Minimize" && order[0] != "Maximize") || order[1] != "Subject To" {
		return nil, fmt.Errorf("sections %q", order)
	}
	for _, s := range order[2 : len(order)-1] {
		if s != "Bounds" && s != "General" && s != "Binary" && s != "Semi-continuous" {
			return nil, fmt.Errorf("unknown section %q", s)
		}
	}
	// terms parses "+ c name ..." up to the end or an operator, returning the rest.
	terms := func(f []string, constant bool) (Expr, []string, error) {
		var e Expr
		if len(f) > 0 && f[0] == "0" {
			return e, f[1:], nil
		}
		for len(f) >= 2 && (f[0] == "+" || f[0] == "-") {
			c, err := number(f[1])
			if err != nil {
				return e, nil, err
			}
			if f[0] == "-" {
				c = -c
			}
			if len(f) == 2 || f[2] == "+" || f[2] == "-" || f[2] == "<=" || f[2] == ">=" || f[2] == "=" {
				if !constant || len(f) != 2 {
					return e, nil, fmt.Errorf("constant term where a variable is expected")
				}
				e.AddConst(c)
				return e, nil, nil
			}
			e.Add(col(f[2]), c)
			f = f[3:]
		}
		return e, f, nil
	}
	objStmts := sections[order[0]]
	if len(objStmts) != 1 || !strings.HasPrefix(objStmts[0], objRowName+":") {
		return nil, fmt.Errorf("objective %q", objStmts)
	}
	obj, rest, err := terms(strings.Fields(objStmts[0])[1:], true)
	if err != nil || len(rest) != 0 {
		return nil, fmt.Errorf("objective: %v (left %q)", err, rest)
	}
	type rowStmt struct {
		name   string
		e      Expr
		lo, hi float64
	}
	var rows []rowStmt
	for _, s := range sections["Subject To"] {
		f := strings.Fields(s)
		if len(f) < 4 || !strings.HasSuffix(f[0], ":") {
			return nil, fmt.Errorf("row %q", s)
		}
		e, rest, err := terms(f[1:], false)
		if err != nil || len(rest) != 2 {
			return nil, fmt.Errorf("row %q: %v", s, err)
		}
		v, err := number(rest[1])
		if err != nil {
			return nil, fmt.Errorf("row %q: %v", s, err)
		}
		r := rowStmt{name: strings.TrimSuffix(f[0], ":"), e: e, lo: math.Inf(-1), hi: math.Inf(1)}
		switch rest[0] {
		case "<=":
			r.hi = v
		case ">=":
			r.lo = v
		case "=":
			r.lo, r.hi = v, v
		default:
			return nil, fmt.Errorf("row %q: operator %q", s, rest[0])
		}
		rows = append(rows, r)
	}
	for _, s := range sections["Bounds"] {
		f := strings.Fields(s)
		var name string
		var lo, hi float64
		var err1, err2 error
		switch {
		case len(f) == 2 && f[1] == "free":
			name, lo, hi = f[0], math.Inf(-1), math.Inf(1)
		case len(f) == 3 && f[1] == "=":
			name = f[0]
			lo, err1 = number(f[2])
			hi = lo
		case len(f) == 3 && f[1] == ">=":
			name, hi = f[0], math.Inf(1)
			lo, err1 = number(f[2])
		case len(f) == 5 && f[1] == "<=" && f[3] == "<=":
			name = f[2]
			lo, err1 = number(f[0])
			hi, err2 = number(f[4])
		default:
			return nil, fmt.Errorf("bound %q", s)
		}
		v, ok := cols[name]
		if !ok || err1 != nil || err2 != nil {
			return nil, fmt.Errorf("bound %q: unknown column or bad number", s)
		}
		m.SetBounds(v, lo, hi)
	}
	for _, sec := range []string{"General", "Binary"} {
		for _, s := range sections[sec] {
			for _, name := range strings.Fields(s) {
				v, ok := cols[name]
				if !ok {
					return nil, fmt.Errorf("%s: unknown column %q", sec, name)
				}
				m.colKind[v] = Integer
				if sec == "Binary" {
					m.colKind[v] = Binary
					m.SetBounds(v, 0, 1)
				}
			}
		}
	}
	for _, s := range sections["Semi-continuous"] {
		for _, name := range strings.Fields(s) {
			v, ok := cols[name]
			if !ok {
				return nil, fmt.Errorf("Semi-continuous: unknown column %q", name)
			}
			if m.colKind[v] == Integer {
				m.colKind[v] = SemiInteger
			} else {
				m.colKind[v] = SemiContinuous
			}
		}
	}
	for _, r := range rows {
		m.AddRange(r.e, r.lo, r.hi, r.name)
	}
	sense := Minimize
	if order[0] == "Maximize" {
		sense = Maximize
	}
	m.SetObjective(sense, obj)
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// lpExpected returns the model an LP reader should see for m: ranged rows split into a
// >= row and a <= row, everything else unchanged.
func lpExpected(m *Model) *Model {
	out := New(m.Name)
	for j := range m.NumVars() {
		lo, hi := m.Bounds(Var(j))
		out.AddVar(m.VarKind(Var(j)), lo, hi, "")
	}
	for i := range m.NumRows() {
		idx, val := m.RowTerms(Row(i))
		e := Expr{Coefs: val}
		for _, j := range idx {
			e.Vars = append(e.Vars, Var(j))
		}
		lo, hi := m.RowBounds(Row(i))
		if classifyRow(lo, hi) == rowRange {
			out.AddRange(e, lo, math.Inf(1), "")
			out.AddRange(e, math.Inf(-1), hi, "")
			continue
		}
		out.AddRange(e, lo, hi, "")
	}
	var obj Expr
	for j := range m.NumVars() {
		obj.Add(Var(j), m.ObjectiveCoef(Var(j)))
	}
	obj.AddConst(m.ObjectiveConstant())
	out.SetObjective(m.Sense(), obj)
	return out
}

// checkLP writes m as LP, parses it back and compares with lpExpected(m), including the
// column names, which must be the ones WriteMPS uses.
func checkLP(t testing.TB, m *Model) {
	t.Helper()
	var buf strings.Builder
	if err := m.WriteLP(&buf); err != nil {
		t.Fatalf("WriteLP: %v", err)
	}
	got, err := parseLP(buf.String())
	if err != nil {
		t.Fatalf("the LP output does not parse: %v\n%s", err, buf.String())
	}
	if d := equalModels(lpExpected(m), got, false); d != "" {
		t.Fatalf("the LP output reads as a different model: %s\n%s", d, buf.String())
	}
	cols, _ := m.fileNames()
	for j, name := range cols {
		if got.VarName(Var(j)) != name {
			t.Fatalf("column %d is %q in the LP file, want %q", j, got.VarName(Var(j)), name)
		}
	}
}

func TestLPOutputReadsBackAsTheModel(t *testing.T) {
	for _, g := range goldenModels {
		t.Run(g.name, func(t *testing.T) { checkLP(t, g.build()) })
	}
}
