package claims

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// MaxListed is the number of wrong claims WriteMarkdown lists per backend and mode;
// Report.Wrong keeps them all.
const MaxListed = 20

// Totals returns the number of wrong claims and of indefinite answers over all
// backends under mode.
func (r *Report) Totals(mode Mode) (wrong, indefinite int) {
	for _, t := range r.Tallies {
		if t.Mode == mode {
			wrong += t.Wrong
			indefinite += t.Indefinite
		}
	}
	return wrong, indefinite
}

// WriteMarkdown writes the report as Markdown: the run's parameters, the model mix,
// one table row per backend and mode with the wrong claims by type and the
// indefinite answers, the indefinite answers by status, and the wrong claims (at
// most MaxListed per backend and mode) with what reproduces them.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Wrong-claims suite: %d models, seed %d, %d to %d columns, time limit %v per solve, 1 thread, gap 0, %d workers, %s wall time.\n\n",
		r.N, r.Seed, r.Gen.MinVars, r.Gen.MaxVars, r.TimeLimit, r.Workers, r.Elapsed.Round(1e8))
	if len(r.Versions) > 0 {
		var vs []string
		for _, k := range slices.Sorted(maps.Keys(r.Versions)) {
			vs = append(vs, fmt.Sprintf("%s = %s", k, r.Versions[k]))
		}
		fmt.Fprintf(&b, "Solvers: %s.\n\n", strings.Join(vs, ", "))
	}
	var fams []string
	for _, f := range Families() {
		fams = append(fams, fmt.Sprintf("%s %d", f, r.Families[f]))
	}
	fmt.Fprintf(&b, "Models by family: %s. Reference answers known by construction or enumeration: optimal %d, infeasible %d, unbounded %d; left to the agreement of the other backends: %d.\n\n",
		strings.Join(fams, ", "), r.Answers[Optimal], r.Answers[Infeasible], r.Answers[Unbounded], r.Answers[Unknown])

	b.WriteString("| backend | policy | models | judged | wrong |")
	for _, v := range WrongVerdicts() {
		fmt.Fprintf(&b, " %s |", v)
	}
	b.WriteString(" indefinite | indefinite % | solve s |\n|---|---|--:|--:|--:|")
	for range WrongVerdicts() {
		b.WriteString("--:|")
	}
	b.WriteString("--:|--:|--:|\n")
	for _, t := range r.Tallies {
		fmt.Fprintf(&b, "| %s | %s | %d | %d | **%d** |", t.Backend, t.Mode, t.Models, t.Judged, t.Wrong)
		for _, v := range WrongVerdicts() {
			fmt.Fprintf(&b, " %d |", t.WrongBy[v])
		}
		pct := 0.0
		if t.Models > 0 {
			pct = 100 * float64(t.Indefinite) / float64(t.Models)
		}
		fmt.Fprintf(&b, " %d | %.2f | %.1f |\n", t.Indefinite, pct, t.Seconds)
	}

	var ind []string
	for _, t := range r.Tallies {
		if t.Indefinite == 0 {
			continue
		}
		var parts []string
		for _, s := range slices.Sorted(maps.Keys(t.IndefiniteBy)) {
			parts = append(parts, fmt.Sprintf("%s %d", s, t.IndefiniteBy[s]))
		}
		ind = append(ind, fmt.Sprintf("%s %s: %s", t.Backend, t.Mode, strings.Join(parts, ", ")))
	}
	if len(ind) > 0 {
		fmt.Fprintf(&b, "\nIndefinite answers by status: %s.\n", strings.Join(ind, "; "))
	}

	if len(r.Wrong) > 0 {
		fmt.Fprintf(&b, "\nWrong claims (model i is claims.GenerateAt(%d, i, gen)):\n\n", r.Seed)
		b.WriteString("| model | family | variant | backend | policy | verdict | claim | reference | detail |\n|--:|---|---|---|---|---|---|---|---|\n")
		byKey := map[string][]WrongClaim{}
		var keys []string
		for _, wc := range r.Wrong {
			k := wc.Backend + "\x00" + string(wc.Mode)
			if _, ok := byKey[k]; !ok {
				keys = append(keys, k)
			}
			byKey[k] = append(byKey[k], wc)
		}
		slices.SortFunc(keys, func(a, b string) int { return cmp.Compare(a, b) })
		for _, k := range keys {
			list := byKey[k]
			for _, wc := range list[:min(len(list), MaxListed)] {
				fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s | %s | %s (%s) | %s |\n", wc.Index, wc.Family,
					wc.Variant, wc.Backend, wc.Mode, wc.Verdict, cell(wc.Claim), wc.Reference, wc.Source, cell(wc.Detail))
			}
			if len(list) > MaxListed {
				fmt.Fprintf(&b, "| | | | %s | %s | … and %d more | | | |\n", list[0].Backend, list[0].Mode, len(list)-MaxListed)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// cell makes s safe inside a Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	return strings.ReplaceAll(s, "\n", " ")
}
