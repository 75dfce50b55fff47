package model

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The writers' fast paths (names in arenas with a hash check, the number cache,
// the group-wise transposition and the parallel COLUMNS section) must give the bytes
// of the reference writer of mpsref_test.go. These tests compare them on random models,
// small and large enough to take every path.

// randomNames are the names randomModel draws from: valid ones, ones the sanitiser
// changes (brackets, spaces, a leading digit, keywords in any case, non-ASCII and
// invalid UTF-8), ones that look generated (x3, c7), "obj", and ones that clash after
// sanitising ("a[1]" and "a_1_").
var randomNames = []string{"", "", "", "x", "y1", "a[1]", "a_1_", "a 1 ", "1a", "_1a", ".5", "free", "FREE",
	"Free", "st", "s.t.", "e", "E", "semi-continuous", "obj", "obj_2", "x3", "c7", "x", "é", "\xff", "a\xffb",
	"alpha[1000,12]", "6.17[1,2,3]", "c", "x0", "verylongname_that_is_long", "inf", "Infinity"}

// randomModel returns a model with about nnz nonzeros: columns of every kind, rows of
// every type, names drawn from randomNames with probability pNamed (made unique by an
// index suffix when unique is set) and coefficients that repeat and that do not.
func randomModel(seed uint64, cols, nnz int, pNamed float64, unique bool) *Model {
	r := rand.New(rand.NewPCG(seed, 17))
	name := func(i int) string {
		if r.Float64() >= pNamed {
			return ""
		}
		n := randomNames[r.IntN(len(randomNames))]
		if unique {
			n += "_" + strconv.Itoa(i)
		}
		return n
	}
	num := func() float64 {
		switch r.IntN(5) {
		case 0:
			return float64(r.IntN(21) - 10)
		case 1:
			return []float64{0.1, -2.5, 1e6, 1e-7, 3.14159, 1e14, -1e-300}[r.IntN(7)]
		default:
			return (r.Float64() - 0.3) * math.Pow(10, float64(r.IntN(12)-6))
		}
	}
	m := New("random model")
	for j := range cols {
		switch k := r.IntN(10); {
		case k < 3:
			m.AddBinary(name(j))
		case k < 5:
			m.AddInteger(float64(-r.IntN(3)), float64(r.IntN(5)), name(j))
		case k == 5:
			m.AddSemiContinuous(float64(r.IntN(3)), 5, name(j))
		case k == 6:
			m.AddContinuous(math.Inf(-1), math.Inf(1), name(j))
		case k == 7:
			v := num()
			m.AddContinuous(v, v, name(j))
		default:
			m.AddContinuous(0, math.Inf(1), name(j))
		}
	}
	var e Expr
	for i := 0; m.NumNonzeros() < nnz; i++ {
		e.Reset()
		for range 1 + r.IntN(8) {
			e.Add(Var(r.IntN(cols)), num())
		}
		switch r.IntN(6) {
		case 0:
			m.AddRange(e, -1, 2.5, name(i))
		case 1:
			m.AddRange(e, math.Inf(-1), math.Inf(1), name(i))
		case 2:
			m.AddConstr(e, EQ, num(), name(i))
		case 3:
			m.AddConstr(e, GE, num(), name(i))
		default:
			m.AddConstr(e, LE, num(), name(i))
		}
	}
	var obj Expr
	for j := range cols {
		if r.IntN(3) == 0 {
			obj.Add(Var(j), num())
		}
	}
	obj.AddConst(num())
	m.SetObjective(Sense(1-2*r.IntN(2)), obj)
	return m
}

func TestFileNamesMatchTheReference(t *testing.T) {
	for seed := range uint64(200) {
		pNamed := []float64{0, 0.3, 1}[seed%3]
		unique := seed%2 == 0
		m := randomModel(seed, 1+int(seed%37), int(seed%53), pNamed, unique)
		gotC, gotR := m.fileNames()
		wantC, wantR := m.fileNamesSlow()
		if !slices.Equal(gotC, wantC) || !slices.Equal(gotR, wantR) {
			t.Fatalf("seed %d: fast names\n%q\n%q\nreference\n%q\n%q", seed, gotC, gotR, wantC, wantR)
		}
	}
}

func TestNumCacheMatchesAppendNum(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var c numCache
	// Few distinct values, so that slots are hit and overwritten.
	values := []float64{0, math.Copysign(0, -1), 1, -1, 999999, 1e6, -1e6, 0.1, 1.0 / 3, -2.5e-300,
		math.MaxFloat64, -math.SmallestNonzeroFloat64, 123456789012, -2.2250738585072014e-308}
	for range 1000 {
		values = append(values, (r.Float64()-0.5)*math.Pow(10, float64(r.IntN(40)-20)))
	}
	for range 200000 {
		v := values[r.IntN(len(values))]
		got, want := string(c.append(nil, v)), string(appendNum(nil, v))
		if got != want {
			t.Fatalf("numCache(%v) = %q, want %q", v, got, want)
		}
		if f, err := strconv.ParseFloat(got, 64); err != nil || f != v {
			t.Fatalf("%q does not read back as %v", got, v)
		}
	}
}

func TestWriteMPSMatchesTheReference(t *testing.T) {
	type tc struct {
		name         string
		seed         uint64
		cols, nnz    int
		pNamed       float64
		unique, seq1 bool
	}
	cases := []tc{
		{"small unnamed", 1, 50, 200, 0, false, false},
		{"small clashing names", 2, 80, 400, 0.8, false, false},
		{"parallel, unique names", 3, 20000, 3 * parallelEntries, 1, true, false},
		{"parallel, groups, clashing names", 4, 60000, 3 * groupNonzeros, 0.5, false, false},
		{"parallel, groups, unnamed", 5, 200000, 5 * groupNonzeros, 0, false, false},
		{"one processor, groups", 6, 60000, 3 * groupNonzeros, 1, true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := randomModel(c.seed, c.cols, c.nnz, c.pNamed, c.unique)
			if c.seq1 {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
			}
			var got, want bytes.Buffer
			if err := m.WriteMPS(&got); err != nil {
				t.Fatal(err)
			}
			if err := writeMPSReference(m, &want); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				a, b := got.Bytes(), want.Bytes()
				i := 0
				for i < len(a) && i < len(b) && a[i] == b[i] {
					i++
				}
				lo := max(i-200, 0)
				t.Fatalf("%d bytes, reference %d; first difference at byte %d:\n%s\n--- reference:\n%s",
					len(a), len(b), i, a[lo:min(i+200, len(a))], b[lo:min(i+200, len(b))])
			}
		})
	}
}

// failAfter fails every write once n bytes have been written.
type failAfter struct{ n int }

var errFull = errors.New("disk full")

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n < len(p) {
		return 0, errFull
	}
	f.n -= len(p)
	return len(p), nil
}

func TestWriteMPSReportsAWriteErrorAndStops(t *testing.T) {
	m := randomModel(7, 50000, 3*groupNonzeros, 0.5, true)
	before := runtime.NumGoroutine()
	for _, n := range []int{0, 100, 1 << 20, 5 << 20} {
		t.Run(fmt.Sprint("after ", n, " bytes"), func(t *testing.T) {
			err := m.WriteMPS(&failAfter{n: n})
			if !errors.Is(err, errFull) {
				t.Fatalf("WriteMPS returned %v, want the write error", err)
			}
		})
	}
	// A goroutine that has signalled its end may take a moment to exit.
	after := runtime.NumGoroutine()
	for deadline := time.Now().Add(2 * time.Second); after > before && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		after = runtime.NumGoroutine()
	}
	if after > before {
		t.Errorf("%d goroutines before, %d after: the writer left some running", before, after)
	}
}

// TestShortRowsMatchAMergeThenSort checks the sorted insertion of appendShort against
// the definition: sum duplicates in the order they come, drop zeros, sort by column.
func TestShortRowsMatchAMergeThenSort(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	m := New("t")
	const cols = 6
	for range cols {
		m.AddContinuous(0, 1, "")
	}
	var e Expr
	for trial := range 20000 {
		e.Reset()
		for range r.IntN(shortRow + 1) {
			// Few columns and values that cancel, so duplicates and zeros are common.
			e.Add(Var(r.IntN(cols)), []float64{0, 1, -1, 0.1, 0.2, -0.3, 2.5}[r.IntN(7)])
		}
		sum := map[int32]float64{}
		for i, v := range e.Vars {
			sum[int32(v)] += e.Coefs[i]
		}
		var wantIdx []int32
		for j := range int32(cols) {
			if c, ok := sum[j]; ok && c != 0 {
				wantIdx = append(wantIdx, j)
			}
		}
		row := m.AddConstr(e, LE, 1, "")
		idx, val := m.RowTerms(row)
		if !slices.Equal(idx, wantIdx) && !(len(idx) == 0 && len(wantIdx) == 0) {
			t.Fatalf("trial %d: %v %v gives columns %v, want %v", trial, e.Vars, e.Coefs, idx, wantIdx)
		}
		for k, j := range idx {
			if val[k] != sum[j] {
				t.Fatalf("trial %d: %v %v: column %d is %v, want %v", trial, e.Vars, e.Coefs, j, val[k], sum[j])
			}
		}
	}
}

// TestIsKeywordMatchesTheMap checks the quick rejections of isKeyword against the
// keyword map, for every keyword in three cases and for near misses.
func TestIsKeywordMatchesTheMap(t *testing.T) {
	var names []string
	for k := range lpKeywords {
		names = append(names, k, strings.ToUpper(k), strings.ToUpper(k[:1])+k[1:], k+"_", "_"+k, k+"1", "x"+k)
	}
	names = append(names, "x", "t_1_", "sos3", "e1", "s_t", "a", "Z", "m", "inff")
	for _, n := range names {
		if len(n) > len("semi-continuous") {
			continue // isKeyword's callers never ask
		}
		if got, want := isKeyword([]byte(n)), lpKeywords[strings.ToLower(n)]; got != want {
			t.Errorf("isKeyword(%q) = %v, want %v", n, got, want)
		}
	}
}

// TestDerivedNamesMatchTheSanitisedOnes checks the file names derived as they are
// written (derivedList) against rules 1 to 3 applied by the reference sanitizer, and
// the clash flag against sanitizedList's, on the random models' column and row names.
func TestDerivedNamesMatchTheSanitisedOnes(t *testing.T) {
	derived := 0
	for seed := range uint64(300) {
		m := randomModel(seed, 1+int(seed%41), int(seed%67), []float64{0.3, 1}[seed%2], seed%3 == 0)
		for _, list := range []struct {
			names  *nameList
			prefix byte
		}{{&m.colNames, 'x'}, {&m.rowNames, 'c'}} {
			w, clash, ok := derivedList(list.names, list.prefix)
			if !ok {
				continue
			}
			derived++
			want := sanitizedNames(list.names.strings(), list.prefix)
			for i := range want {
				if got := string(w.append(nil, i)); got != want[i] {
					t.Fatalf("seed %d: name %d: derived %q, sanitised %q", seed, i, got, want[i])
				}
			}
			if _, wantClash, _ := sanitizedList(list.names, list.prefix); clash != wantClash {
				t.Fatalf("seed %d: derived clash %v, sanitizedList's %v", seed, clash, wantClash)
			}
		}
	}
	if derived < 100 {
		t.Fatalf("only %d of 600 name lists took the derived path", derived)
	}
}

// TestDistinctNamesFindsEveryDuplicate checks distinctNames on lists of many names:
// true when they are all different, false when one name repeats anywhere, or equals
// the reserved one.
func TestDistinctNamesFindsEveryDuplicate(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for _, n := range []int{1, 2, 3, 100, 5000, 70000} {
		var l nameList
		for i := range n {
			l.add(Indexed("v", i, r.IntN(7)))
		}
		byIndex := func(i int, _ []byte) []byte { return l.name(i) }
		if !distinctNames(&l, false, "obj", byIndex) {
			t.Errorf("n = %d: distinct names reported as not distinct", n)
		}
		if distinctNames(&l, false, string(l.name(n-1)), byIndex) {
			t.Errorf("n = %d: a name equal to the reserved one was not found", n)
		}
		if n < 2 {
			continue
		}
		a, b := r.IntN(n), r.IntN(n-1)
		if b >= a {
			b++
		}
		// A random pair, and pairs within and across the halves a long list is
		// split into.
		for _, pair := range [][2]int{{a, b}, {0, n - 1}, {n/2 - 1, n / 2}, {n - 2, n - 1}, {0, 1}} {
			a, b := pair[0], pair[1]
			// Make name b a copy of name a: rebuild the list with it.
			var d nameList
			for i := range n {
				if i == b {
					d.addBytes(l.name(a))
				} else {
					d.addBytes(l.name(i))
				}
			}
			if distinctNames(&d, false, "", func(i int, _ []byte) []byte { return d.name(i) }) {
				t.Errorf("n = %d: names %d and %d are equal but reported distinct", n, a, b)
			}
		}
	}
}

// TestSortTermsSortsLongRows checks sortTerms on rows of 1 to 3000 distinct indices,
// shuffled, sorted, reversed and nearly sorted (pairs swapped): the result is sorted
// and every index keeps its value.
func TestSortTermsSortsLongRows(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 13))
	for _, n := range []int{1, 2, 24, 25, 26, 100, 3000} {
		for _, order := range []string{"shuffled", "sorted", "reversed", "pairs"} {
			idx := make([]int32, n)
			for i := range idx {
				idx[i] = int32(3*i + r.IntN(3))
			}
			switch order {
			case "shuffled":
				r.Shuffle(n, func(a, b int) { idx[a], idx[b] = idx[b], idx[a] })
			case "reversed":
				slices.Reverse(idx)
			case "pairs":
				for i := 0; i+1 < n; i += 2 {
					idx[i], idx[i+1] = idx[i+1], idx[i]
				}
			}
			val := make([]float64, n)
			want := map[int32]float64{}
			for i, j := range idx {
				val[i] = float64(j)*0.5 + 1
				want[j] = val[i]
			}
			sortTerms(idx, val)
			if !slices.IsSorted(idx) {
				t.Fatalf("n = %d, %s: not sorted: %v", n, order, idx[:min(n, 10)])
			}
			for i, j := range idx {
				if val[i] != want[j] {
					t.Fatalf("n = %d, %s: index %d has value %g, want %g", n, order, j, val[i], want[j])
				}
			}
		}
	}
}

// TestAppendIndexIsAppendInt checks the fast path of appendIndex against strconv
// around every boundary.
func TestAppendIndexIsAppendInt(t *testing.T) {
	for _, i := range []int{-1001, -1000, -999, -10, -9, -1, 0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 1001, 12345, 1 << 40} {
		if got, want := string(appendIndex([]byte("x"), i)), "x"+strconv.Itoa(i); got != want {
			t.Errorf("appendIndex(%d) = %q, want %q", i, got, want)
		}
	}
	for i := range 2000 {
		if got, want := string(appendIndex(nil, i)), strconv.Itoa(i); got != want {
			t.Fatalf("appendIndex(%d) = %q, want %q", i, got, want)
		}
	}
}

// TestWriteMPSEdgeModelsMatchTheReference compares the writer with the reference on
// models with empty sections: no columns, no rows, rows without terms, only an
// objective constant, a ranged row only.
func TestWriteMPSEdgeModelsMatchTheReference(t *testing.T) {
	cases := map[string]func() *Model{
		"empty": func() *Model { return New("e") },
		"one column, no rows": func() *Model {
			m := New("c")
			m.AddContinuous(0, 5, "x")
			return m
		},
		"rows without terms": func() *Model {
			m := New("r")
			var e Expr
			m.AddConstr(e, LE, 3, "a")
			m.AddConstr(e, GE, -1, "b")
			return m
		},
		"objective constant only": func() *Model {
			m := New("o")
			var e Expr
			e.AddConst(7)
			m.SetObjective(Maximize, e)
			return m
		},
		"a ranged row, a free row": func() *Model {
			m := New("g")
			x := m.AddInteger(-2, 9, "x")
			var e Expr
			e.Add(x, 2)
			m.AddRange(e, -1, 4, "rg")
			m.AddRange(e, math.Inf(-1), math.Inf(1), "free")
			return m
		},
	}
	for name, build := range cases {
		m := build()
		var got, want bytes.Buffer
		if err := m.WriteMPS(&got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := writeMPSReference(m, &want); err != nil {
			t.Fatalf("%s: reference: %v", name, err)
		}
		if got.String() != want.String() {
			t.Errorf("%s:\n%s--- reference:\n%s", name, got.String(), want.String())
		}
	}
}
