package model

import (
	"strconv"
	"strings"
)

// File names.
//
// MPS and LP files need names that are single tokens and that a reader cannot mistake
// for a number, an operator or a keyword. The writers therefore pass every column and
// row name through the same deterministic sanitiser, so that a model's MPS and LP files
// use the same names:
//
//  1. A missing name becomes the generated name: "x<index>" for columns, "c<index>" for
//     rows (what VarName and RowName return).
//  2. Every character other than an ASCII letter, digit, '_' or '.' becomes '_' (one
//     '_' per character, so "x[1, 2]" becomes "x_1__2_" and "é" becomes "_").
//  3. A name that starts with a digit or '.', or that equals an LP keyword ignoring case
//     ("free", "inf", "st", "end", ...), gets a leading '_'.
//  4. Names are made unique in creation order: a name already taken by an earlier
//     column (or row) gets the suffix "_2", "_3", ... (the first free one). The
//     objective row is called "obj" and takes that name before any constraint, so a
//     constraint named "obj" is written as "obj_2".
//
// A name that already follows these rules and is unique is written unchanged, so
// writing a model read from one of our own files reproduces the file byte for byte.

// objRowName is the name of the objective row in MPS and LP files.
const objRowName = "obj"

// lpKeywords are words that CPLEX LP readers treat as section or bound keywords. A name
// equal to one of them (ignoring case) is prefixed with '_'.
var lpKeywords = map[string]bool{
	"st": true, "s.t.": true, "st.": true, "subject": true, "such": true, "to": true,
	"min": true, "max": true, "minimize": true, "maximize": true, "minimise": true,
	"maximise": true, "minimum": true, "maximum": true,
	"bound": true, "bounds": true, "bin": true, "binary": true, "binaries": true,
	"gen": true, "general": true, "generals": true, "int": true, "integer": true,
	"integers": true, "semi": true, "semis": true, "semi-continuous": true,
	"sos": true, "sos1": true, "sos2": true, "free": true, "inf": true,
	"infinity": true, "end": true, "e": true,
}

// sanitizeName applies rules 2 and 3 above to a non-empty name.
func sanitizeName(name string) string {
	ok := true
	for i := 0; i < len(name); i++ {
		if !nameByte(name[i]) {
			ok = false
			break
		}
	}
	if !ok {
		var b strings.Builder
		for _, r := range name {
			if r < 0x80 && nameByte(byte(r)) {
				b.WriteRune(r)
			} else {
				b.WriteByte('_')
			}
		}
		name = b.String()
	}
	if c := name[0]; c >= '0' && c <= '9' || c == '.' || lpKeywords[strings.ToLower(name)] {
		name = "_" + name
	}
	return name
}

// nameByte reports whether c may appear in a written name.
func nameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.'
}

// nameSet hands out unique names (rule 4).
type nameSet map[string]struct{}

// unique returns name, or name with the first free suffix "_2", "_3", ..., and marks
// the result as taken.
func (s nameSet) unique(name string) string {
	if _, taken := s[name]; taken {
		for k := 2; ; k++ {
			c := name + "_" + strconv.Itoa(k)
			if _, taken := s[c]; !taken {
				name = c
				break
			}
		}
	}
	s[name] = struct{}{}
	return name
}

// fileNames returns the names the writers use for columns and rows, following the
// rules above.
func (m *Model) fileNames() (cols, rows []string) {
	cols = make([]string, m.NumVars())
	cs := make(nameSet, len(cols))
	for j := range cols {
		cols[j] = cs.unique(sanitizeName(m.VarName(Var(j))))
	}
	rows = make([]string, m.NumRows())
	rs := make(nameSet, len(rows)+1)
	rs.unique(objRowName)
	for i := range rows {
		rows[i] = rs.unique(sanitizeName(m.RowName(Row(i))))
	}
	return cols, rows
}

// fileModelName returns the model name as written on the NAME line and in the LP
// comment: with invalid characters replaced as in rule 2, or "" when the model has none.
func (m *Model) fileModelName() string {
	if m.Name == "" {
		return ""
	}
	n := sanitizeName(m.Name)
	if n != m.Name && n[0] == '_' && n[1:] == m.Name {
		return m.Name // a keyword or leading digit is harmless on the NAME line
	}
	return n
}
