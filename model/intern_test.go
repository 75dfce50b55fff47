package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestParseNumberMatchesStrconv checks, on a large random corpus of decimals in every
// shape a writer produces (and some none does), that parseNumber returns exactly
// strconv.ParseFloat's result, bit for bit, including the sign of zero.
func TestParseNumberMatchesStrconv(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	fixed := []string{"0", "-0", "+0", "0.0", "-0.0", ".5", "5.", "1e22", "1e23", "9007199254740992",
		"9007199254740993", "123456789012345678", "1234567890123456789", "12345678901234567890",
		"0.1", "0.3", "1e-22", "1e-23", "4.9e-324", "1.7976931348623157e308", "00001.2500",
		"1E5", "1e+05", "1e-05", "2.5D3", "2.5d-3", "-1.5E+000", "3.14159265358979"}
	corpus := append([]string{}, fixed...)
	for range 200_000 {
		var b strings.Builder
		switch rng.IntN(4) {
		case 0:
			b.WriteByte('-')
		case 1:
			b.WriteByte('+')
		}
		b.WriteString(strconv.FormatUint(rng.Uint64N(1<<uint(rng.IntN(63)+1)), 10))
		if rng.IntN(2) == 0 {
			b.WriteByte('.')
			b.WriteString(strings.Repeat("0", rng.IntN(4)))
			b.WriteString(strconv.FormatUint(rng.Uint64N(1<<uint(rng.IntN(60)+1)), 10))
		}
		if rng.IntN(2) == 0 {
			b.WriteByte("eEdD"[rng.IntN(4)])
			fmt.Fprintf(&b, "%+d", rng.IntN(60)-30)
		}
		corpus = append(corpus, b.String())
		// The shortest representation of a random float64, as our writers emit.
		f := math.Float64frombits(rng.Uint64())
		if !math.IsNaN(f) && !math.IsInf(f, 0) {
			corpus = append(corpus, strconv.FormatFloat(f, 'g', -1, 64))
		}
		corpus = append(corpus, strconv.FormatFloat(rng.NormFloat64()*math.Pow(10, float64(rng.IntN(20)-10)), 'g', -1, 64))
	}
	fast := 0
	for _, s := range corpus {
		want, err := strconv.ParseFloat(strings.NewReplacer("d", "e", "D", "e").Replace(s), 64)
		if err != nil && !strings.Contains(err.Error(), "out of range") {
			t.Fatalf("corpus entry %q: %v", s, err)
		}
		got, ok := parseNumber([]byte(s))
		if !ok || math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("parseNumber(%q) = %v (%x), %v; strconv gives %v (%x)", s, got, math.Float64bits(got), ok, want, math.Float64bits(want))
		}
		if _, ok := parseDecimal([]byte(s)); ok {
			fast++
		}
	}
	if fast < len(corpus)/4 {
		t.Errorf("only %d of %d numbers took the fast path", fast, len(corpus))
	}
}

// TestParseNumberRefuses checks that what is not a number stays refused.
func TestParseNumberRefuses(t *testing.T) {
	for _, s := range []string{"", "-", "+", ".", "e5", "1e", "1e+", "1.2.3", "1x", "nan", "NaN", "-nan", "--1", "1e5x", "0x"} {
		t.Run(s, func(t *testing.T) {
			if v, ok := parseNumber([]byte(s)); ok {
				t.Errorf("parseNumber(%q) = %v, want a refusal", s, v)
			}
		})
	}
}

// TestNameTable checks interning: every name gets one index, lookups find it across
// growth, and absent names are absent.
func TestNameTable(t *testing.T) {
	nt := newNameTable()
	const n = 10_000
	for i := range n {
		if got := nt.add([]byte(fmt.Sprintf("n%d", i))); got != int32(i) {
			t.Fatalf("add #%d returned %d", i, got)
		}
	}
	for i := range n {
		if got := nt.lookup([]byte(fmt.Sprintf("n%d", i))); got != int32(i) {
			t.Fatalf("lookup n%d = %d", i, got)
		}
	}
	for _, s := range []string{"", "n", "n10000", "x1"} {
		if got := nt.lookup([]byte(s)); got != -1 {
			t.Errorf("lookup %q = %d, want -1", s, got)
		}
	}
	names := nt.strings()
	if len(names) != n || names[0] != "n0" || names[n-1] != "n9999" {
		t.Errorf("strings: %d names, first %q, last %q", len(names), names[0], names[len(names)-1])
	}
	if allocs := testing.AllocsPerRun(100, func() { nt.lookup([]byte("n5000")) }); allocs != 0 {
		t.Errorf("lookup allocates %v times", allocs)
	}
}
