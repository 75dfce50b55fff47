package isoeff

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
)

// WriteCSV writes one row per isoline point and one per maximum:
// "kind,m,n,level,side,V,E,V_lo,V_hi,E_lo,E_hi,T,status,gap" with kind "level" or
// "max" (for a maximum, level is E_max and the bracket columns are empty).
func WriteCSV(w io.Writer, r *Result) error {
	cw := csv.NewWriter(w)
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 10, 64) }
	_ = cw.Write([]string{"kind", "m", "n", "level", "side", "V", "E", "V_lo", "V_hi", "E_lo", "E_hi", "T", "status", "gap"})
	for _, mr := range r.PerM {
		p := mr.MaxProbe
		_ = cw.Write([]string{"max", strconv.Itoa(mr.M), strconv.Itoa(r.N), f(mr.EMax), "", f(mr.VMax), f(mr.EMax), "", "", "", "", f(p.T), p.Status, f(p.Gap)})
		for _, pt := range mr.Points {
			_ = cw.Write([]string{"level", strconv.Itoa(pt.M), strconv.Itoa(r.N), f(pt.Level), string(pt.Side), f(pt.V), f(pt.E),
				f(pt.Lo), f(pt.Hi), f(pt.ELo), f(pt.EHi), f(pt.Probe.T), pt.Probe.Status, f(pt.Probe.Gap)})
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("isoeff: write csv: %w", err)
	}
	return nil
}

// WriteTable writes E_max(m) and V_max(m) as a Markdown table beside the values of
// Table 5.2 (which are for n = 20), with the probes solved at each m and how many of
// them were proven optimal.
func WriteTable(w io.Writer, r *Result) error {
	var b strings.Builder
	fmt.Fprintf(&b, "| m | E_max (n = %d) | V_max [MB] (n = %d) | probes (optimal) | Table 5.2 E_max (n = 20) | Table 5.2 V_max [MB] (n = 20) |\n", r.N, r.N)
	b.WriteString("|---:|---:|---:|---:|---:|---:|\n")
	for _, mr := range r.PerM {
		opt := 0
		for _, p := range mr.Probes {
			if p.Status == "optimal" {
				opt++
			}
		}
		te, tv := "–", "–"
		if e, v, ok := Table52(mr.M); ok {
			te, tv = strconv.FormatFloat(e, 'f', 1, 64), strconv.FormatFloat(v, 'f', 0, 64)
		}
		fmt.Fprintf(&b, "| %d | %.2f | %.0f | %d (%d) | %s | %s |\n", mr.M, mr.EMax, mr.VMax, len(mr.Probes), opt, te, tv)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("isoeff: write table: %w", err)
	}
	return nil
}

// BoundLine is one level's line of a bound in the (m, V) plane.
type BoundLine struct {
	Name  string // "(5.27) upper", "(5.27) lower" or "(5.29)"
	Level float64
	M     []int
	V     []float64
}

// Bounds returns, for every level, the lines the bounds put in the (m, V) plane over
// ms: from (5.27) the smallest load its upper bound allows (the isoline below V_max lies
// above it) and the largest its lower bound allows (the isoline lies below it), searched
// in [vlo, vhi]; and the estimate (5.29) of the isoline above V_max (e > 1, m < n).
func Bounds(mc dm.Machine, ms []int, n int, levels []float64, vlo, vhi float64) []BoundLine {
	var out []BoundLine
	for _, e := range levels {
		up := BoundLine{Name: "(5.27) upper", Level: e}
		low := BoundLine{Name: "(5.27) lower", Level: e}
		iso := BoundLine{Name: "(5.29)", Level: e}
		for _, m := range ms {
			vu, okU, vl, okL := Iso527(mc, e, m, n, vlo, vhi)
			if okU {
				up.M, up.V = append(up.M, m), append(up.V, vu)
			}
			if okL {
				low.M, low.V = append(low.M, m), append(low.V, vl)
			}
			if v, ok := Iso529(mc, e, m, n); ok && v >= vlo && v <= vhi {
				iso.M, iso.V = append(iso.M, m), append(iso.V, v)
			}
		}
		for _, l := range []BoundLine{up, low, iso} {
			if len(l.M) > 0 {
				out = append(out, l)
			}
		}
	}
	return out
}
