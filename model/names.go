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
type nameSet struct {
	taken map[string]struct{}
	// next[name] is the suffix where the search for name's next free suffix starts:
	// names are only ever added, so the first free suffix never moves down, and a name
	// given n times costs O(n) lookups in all instead of O(n²).
	next map[string]int
}

// newNameSet returns an empty set with room for n names.
func newNameSet(n int) *nameSet {
	return &nameSet{taken: make(map[string]struct{}, n)}
}

// unique returns name, or name with the first free suffix "_2", "_3", ..., and marks
// the result as taken.
func (s *nameSet) unique(name string) string {
	if _, taken := s.taken[name]; taken {
		if s.next == nil {
			s.next = map[string]int{}
		}
		k := max(s.next[name], 2)
		for ; ; k++ {
			c := name + "_" + strconv.Itoa(k)
			if _, taken := s.taken[c]; !taken {
				s.next[name] = k + 1
				name = c
				break
			}
		}
	}
	s.taken[name] = struct{}{}
	return name
}

// fileNames returns the names the writers use for columns and rows, following the
// rules above, as strings (substrings of one arena string per list).
func (m *Model) fileNames() (cols, rows []string) {
	c, r, err := m.fileNameLists()
	if err != nil {
		// Only a name arena of 4 GiB or more gets here; the reference path has no
		// such limit.
		return m.fileNamesSlow()
	}
	return c.strings(), r.strings()
}

// fileNamesSlow is fileNames computed name by name with a Go map: the reference
// the fast path (fileNameLists) is tested against, and its fallback when names clash.
func (m *Model) fileNamesSlow() (cols, rows []string) {
	given := m.colNames.strings()
	cols = uniqueNames(sanitizedNames(given, 'x'), given, 'x', "")
	given = m.rowNames.strings()
	rows = uniqueNames(sanitizedNames(given, 'c'), given, 'c', objRowName)
	return cols, rows
}

// uniqueNames applies rule 4 to names in place: the sanitised names of the columns (or
// rows) whose original names are orig, prefix being the generated-name prefix and
// reserved a name taken before all others ("" for none).
//
// Generated names (prefix followed by the index) are distinct from each other and from
// every suffixed name (they contain no '_'), so when no given name looks like a
// generated one they are left out of the set: a model of unnamed columns then costs no
// hashing at all.
func uniqueNames(names, orig []string, prefix byte, reserved string) []string {
	clash := false
	for i, n := range names {
		if orig[i] != "" && looksGenerated(n, prefix) {
			clash = true
			break
		}
	}
	set := newNameSet(len(names))
	if reserved != "" {
		set.unique(reserved)
	}
	for i, n := range names {
		if orig[i] == "" && !clash {
			continue
		}
		names[i] = set.unique(n)
	}
	return names
}

// looksGenerated reports whether n is prefix followed by decimal digits only.
func looksGenerated(n string, prefix byte) bool {
	if len(n) < 2 || n[0] != prefix {
		return false
	}
	for i := 1; i < len(n); i++ {
		if n[i] < '0' || n[i] > '9' {
			return false
		}
	}
	return true
}

// sanitizedNames applies rules 1 to 3 to names, generating prefix<index> for empty
// ones.
func sanitizedNames(names []string, prefix byte) []string {
	out := make([]string, len(names))
	ends := make([]int, len(names))
	var arena []byte
	for i, n := range names {
		switch {
		case n == "":
			arena = append(arena, prefix)
			arena = strconv.AppendInt(arena, int64(i), 10)
		case validName(n):
			arena = append(arena, n...)
		default:
			arena = append(arena, sanitizeName(n)...)
		}
		ends[i] = len(arena)
	}
	all := string(arena)
	b := 0
	for i, e := range ends {
		out[i] = all[b:e]
		b = e
	}
	return out
}

// validName reports whether sanitizeName would return n unchanged.
func validName(n string) bool {
	if n == "" {
		return false
	}
	for i := 0; i < len(n); i++ {
		if !nameByte(n[i]) {
			return false
		}
	}
	c := n[0]
	if c >= '0' && c <= '9' || c == '.' {
		return false
	}
	return len(n) > len("semi-continuous") || !lpKeywords[strings.ToLower(n)]
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
