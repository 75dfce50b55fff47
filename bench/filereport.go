package bench

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/schedopt/schedopt/benchstats"
	"github.com/schedopt/schedopt/solu"
	"github.com/schedopt/schedopt/solve"
)

// FileReport is the report of the records on model files: the statistics by which
// the field compares solvers (package benchstats), the .solu verdicts with every fail
// and better listed, and the exact verification of the points.
type FileReport struct {
	Stats *benchstats.Summary
	// Verdicts counts the .solu verdicts per backend label.
	Verdicts map[string]map[solu.Verdict]int
	// Notable lists every record whose verdict is fail or better, with its evidence.
	Notable []*Record
	// Points summarises the exact point checks per backend label.
	Points []PointSummary
	// Labels are the backend labels in report order.
	Labels []string
	// Limit is the largest time limit of the records, in seconds.
	Limit float64
	// Permuted is set when some instance ran in more than one permutation or
	// repetition.
	Permuted bool
}

// PointSummary is the exact verification of one backend's points.
type PointSummary struct {
	Label                            string
	Checked                          int     // points checked
	Infeasible                       int     // points the exact check rejected
	FloatOnly                        int     // points the float check accepted and the exact one rejected
	MaxAbsViolation, MaxRelViolation float64 // over the points checked
}

// Outcome classifies a model-file record for the statistics: solved (a definite
// answer the .solu file does not contradict), timeout, fail or abort.
func Outcome(r *Record) benchstats.Outcome {
	if r.Solu != nil {
		switch r.Solu.Verdict {
		case solu.Fail:
			return benchstats.Fail
		case solu.Abort:
			return benchstats.Abort
		case solu.Timeout:
			return benchstats.Timeout
		}
	}
	switch r.Status {
	case solve.StatusOptimal, solve.StatusInfeasible, solve.StatusUnbounded:
		return benchstats.Solved
	case solve.StatusError:
		return benchstats.Abort
	}
	return benchstats.Timeout
}

// RunOf turns a model-file record into a benchstats.Run labelled label. The time is
// the job's wall time (reading, first solve and certification); the first solve's and
// the certification's times come from the certificate, and are NaN without one.
func RunOf(r *Record, label string) benchstats.Run {
	run := benchstats.Run{Instance: r.Name, Permutation: r.Permutation, Rep: r.Rep, Backend: label,
		Outcome: Outcome(r), Status: r.Status, Seconds: r.Wall, Limit: r.TimeLimit,
		FirstSeconds: math.NaN(), CertSeconds: math.NaN(), PeakRSS: math.NaN(), PDI: math.NaN()}
	if r.Result != nil && r.Result.Certificate != nil && len(r.Result.Certificate.Solves) > 0 {
		run.FirstSeconds, run.CertSeconds = 0, 0
		for i, a := range r.Result.Certificate.Solves {
			if i == 0 {
				run.FirstSeconds = a.Seconds
			} else {
				run.CertSeconds += a.Seconds
			}
		}
	}
	if r.Result != nil && r.Result.Certificate == nil && IsCmdBackend(r.Backend) {
		// A command-line solver's run is its first solve; nothing certifies it.
		run.FirstSeconds, run.CertSeconds = r.Result.Seconds.Solve, 0
	}
	if r.PeakRSS != nil {
		run.PeakRSS = float64(*r.PeakRSS)
	}
	if r.Result != nil && r.Result.PrimalDualIntegral != nil {
		run.PDI = *r.Result.PrimalDualIntegral
	}
	return run
}

func buildFileReport(recs []*Record, shift float64) *FileReport {
	var files []*Record
	for _, r := range recs {
		if r.IsModelFile() {
			files = append(files, r)
		}
	}
	if len(files) == 0 {
		return nil
	}
	label := groupLabels(files)
	fr := &FileReport{Verdicts: map[string]map[solu.Verdict]int{}}
	var runs []benchstats.Run
	points := map[string]*PointSummary{}
	seen := map[string]bool{}
	sort.SliceStable(files, func(i, j int) bool { return backendRank(files[i].Backend) < backendRank(files[j].Backend) })
	for _, r := range files {
		l := label(r)
		if !seen[l] {
			seen[l] = true
			fr.Labels = append(fr.Labels, l)
			fr.Verdicts[l] = map[solu.Verdict]int{}
		}
		runs = append(runs, RunOf(r, l))
		fr.Limit = math.Max(fr.Limit, r.TimeLimit)
		if r.Permutation > 0 || r.Rep > 0 {
			fr.Permuted = true
		}
		if r.Solu != nil {
			fr.Verdicts[l][r.Solu.Verdict]++
			if r.Solu.Verdict == solu.Fail || r.Solu.Verdict == solu.Better {
				fr.Notable = append(fr.Notable, r)
			}
		}
		if pc := r.PointCheck; pc != nil {
			ps := points[l]
			if ps == nil {
				ps = &PointSummary{Label: l}
				points[l] = ps
			}
			ps.Checked++
			if !pc.Feasible {
				ps.Infeasible++
				if pc.FloatFeasible {
					ps.FloatOnly++
				}
			}
			ps.MaxAbsViolation = math.Max(ps.MaxAbsViolation, pc.MaxAbsViolation)
			ps.MaxRelViolation = math.Max(ps.MaxRelViolation, pc.MaxRelViolation)
		}
	}
	for _, l := range fr.Labels {
		if ps := points[l]; ps != nil {
			fr.Points = append(fr.Points, *ps)
		}
	}
	sort.SliceStable(fr.Notable, func(i, j int) bool {
		a, b := fr.Notable[i], fr.Notable[j]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Key < b.Key
	})
	fr.Stats = benchstats.Summarize(runs, benchstats.Options{Shift: shift})
	return fr
}

// Fails counts the records whose verdict is fail.
func (fr *FileReport) Fails() int {
	n := 0
	for _, vs := range fr.Verdicts {
		n += vs[solu.Fail]
	}
	return n
}

var verdictOrder = []solu.Verdict{solu.OK, solu.Better, solu.Fail, solu.Timeout, solu.Abort, solu.Unknown}

func (fr *FileReport) writeMarkdown(b *strings.Builder) {
	s := fr.Stats
	b.WriteString("\n## Benchmark set (MPS and LP files)\n\n")
	fmt.Fprintf(b, "%d problems (instances × permutations × repetitions), time limit up to %s s. "+
		"*solved*: a proven answer (optimal, infeasible, unbounded) that the .solu file does not contradict. "+
		"*sgm*: shifted geometric mean of the job's wall time with a shift of %s s, time-outs, fails and aborts counted at "+
		"the limit (Mittelmann's convention); *ratio*: to the best backend. *wins*: problems on which the backend "+
		"gave the fastest correct answer. *first solve* / *certification*: the solver's first solve and the solves the "+
		"certification policy added, summed over the jobs (the sgm of first solves compares solvers on the same work). "+
		"*memory*: shifted geometric mean (shift 10 MiB) of the jobs' peak resident memory, where measured. "+
		"*virtual best*: the fastest correct answer of any backend per problem.\n\n",
		s.Problems, fmtSig(fr.Limit), fmtSig(s.Shift))
	b.WriteString("| backend | runs | solved | timeouts | fails | aborts | sgm time [s] | ratio | wins | sgm first solve [s] | first solve Σ [s] | certification Σ [s] | sgm memory [MB] | mean PDI |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	row := func(x benchstats.BackendStats, vb bool) {
		first, fsum, cert := "–", "–", "–"
		if !math.IsNaN(x.FirstSGM) {
			first, fsum, cert = fmtSig(x.FirstSGM), fmtSig(x.FirstSeconds), fmtSig(x.CertSeconds)
		}
		name, wins, pdi := x.Backend, itoa(x.Wins), fmtSig(x.PDIMean)
		if x.PDIRuns == 0 {
			pdi = "null"
		}
		if vb {
			name, wins, pdi = "*"+x.Backend+"*", "–", "–"
		}
		fmt.Fprintf(b, "| %s | %d | %d | %d | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n", name, x.Runs, x.Solved, x.Timeouts,
			x.Fails, x.Aborts, fmtSig(x.SGM), fmtFixed(x.Ratio, 2), wins, first, fsum, cert, fmtSig(x.MemSGM/1e6), pdi)
	}
	for _, x := range s.Backends {
		row(x, false)
	}
	row(s.VirtualBest, true)

	b.WriteString("\n### Verdicts against the .solu file\n\n")
	fmt.Fprintf(b, "Tolerances of the MIPLIB 2017 scripts: a value matches a known one within %g absolute when |known| ≤ %g, "+
		"within %g relative above; an optimum claimed at a gap may be worse by that gap. *fail*: the answer contradicts the file "+
		"(another optimum, infeasible on a feasible instance, a verified point better than an =opt= value) or the point is wrong; "+
		"*better*: a verified point better than a =best= value.\n\n", solu.AbsTol, float64(solu.AbsTolBelow), solu.RelTol)
	b.WriteString("| backend |")
	for _, v := range verdictOrder {
		fmt.Fprintf(b, " %s |", v)
	}
	b.WriteString("\n|---|" + strings.Repeat("---:|", len(verdictOrder)) + "\n")
	for _, l := range fr.Labels {
		fmt.Fprintf(b, "| %s |", l)
		for _, v := range verdictOrder {
			fmt.Fprintf(b, " %d |", fr.Verdicts[l][v])
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(b, "\n#### Every fail and better (%d)\n\n", len(fr.Notable))
	if len(fr.Notable) == 0 {
		b.WriteString("None.\n")
	} else {
		b.WriteString("| instance | permutation | backend | status | objective | .solu | verdict | evidence |\n|---|---:|---|---|---:|---|---|---|\n")
		for _, r := range fr.Notable {
			obj := "–"
			if v, ok := r.Objective(); ok {
				obj = fmtNum(v)
			}
			exp := "–"
			if r.Solu.Expected != nil {
				exp = "=" + *r.Solu.Expected + "="
				if r.Solu.Value != nil {
					exp += " " + fmtNum(*r.Solu.Value)
				}
			}
			fmt.Fprintf(b, "| %s | %d | %s | %s | %s | %s | **%s** | %s |\n", mdCell(r.Name), r.Permutation, r.Backend, r.Status, obj, exp,
				r.Solu.Verdict, mdCell(r.Solu.Reason))
		}
	}

	b.WriteString("\n### Exact verification of the points\n\n")
	if len(fr.Points) == 0 {
		b.WriteString("No point was checked in exact arithmetic (no checker was configured); every point was verified " +
			"in floating point against the model (`check.evaluator` of each result).\n")
	} else {
		b.WriteString("Every reported point checked against the file's coefficients in exact rational arithmetic. " +
			"*float only*: points the float verification accepted and the exact check rejected at the same tolerances.\n\n")
		b.WriteString("| backend | points | rejected | float only | max abs violation | max rel violation |\n|---|---:|---:|---:|---:|---:|\n")
		for _, p := range fr.Points {
			fmt.Fprintf(b, "| %s | %d | %d | %d | %s | %s |\n", p.Label, p.Checked, p.Infeasible, p.FloatOnly,
				fmtSig(p.MaxAbsViolation), fmtSig(p.MaxRelViolation))
		}
	}

	b.WriteString("\n### Performance profile\n\n")
	b.WriteString("![performance profile](performance_profile.svg)\n\n![solved within t](solved_within.svg)\n\n")
	b.WriteString("| backend | ρ(1) | ρ(2) | ρ(4) | ρ(10) | ρ(∞) |\n|---|---:|---:|---:|---:|---:|\n")
	for _, l := range s.Profile.Backends {
		fmt.Fprintf(b, "| %s |", l)
		for _, tau := range []float64{1, 2, 4, 10, math.MaxFloat64} {
			fmt.Fprintf(b, " %s |", fmtFixed(s.Profile.Rho(l, tau), 2))
		}
		b.WriteString("\n")
	}

	if fr.Permuted {
		changed := 0
		for _, v := range s.Variability {
			if v.StatusChanged {
				changed++
			}
		}
		fmt.Fprintf(b, "\n### Variability across permutations\n\n%d instance/backend pair(s) change status across permutations "+
			"(marked ⚠). Times as in the sgm (limit for unsolved runs); *cv*: standard deviation over mean.\n\n", changed)
		b.WriteString("| instance | backend | runs | min [s] | median [s] | max [s] | cv | statuses |\n|---|---|---:|---:|---:|---:|---:|---|\n")
		for _, v := range s.Variability {
			flag := ""
			if v.StatusChanged {
				flag = "⚠ "
			}
			fmt.Fprintf(b, "| %s | %s | %d | %s | %s | %s | %s | %s%s |\n", mdCell(v.Instance), v.Backend, v.Runs, fmtSig(v.Min),
				fmtSig(v.Median), fmtSig(v.Max), fmtFixed(v.CV, 2), flag, strings.Join(v.Statuses, ", "))
		}
	}
}

// writeSummary writes the file-set numbers per backend as plain text, for terminals.
func (fr *FileReport) writeSummary(b *strings.Builder) {
	s := fr.Stats
	fmt.Fprintf(b, "\nMPS/LP files: %d problems; sgm shift %s s, unsolved at the limit\n", s.Problems, fmtSig(s.Shift))
	fmt.Fprintf(b, "%-14s %6s %8s %5s %6s %6s %9s %6s\n", "backend", "solved", "timeouts", "fails", "aborts", "better", "sgm [s]", "ratio")
	for _, x := range append(append([]benchstats.BackendStats{}, s.Backends...), s.VirtualBest) {
		better := "–"
		if vs, ok := fr.Verdicts[x.Backend]; ok {
			better = itoa(vs[solu.Better])
		}
		fmt.Fprintf(b, "%-14s %6d %8d %5d %6d %6s %9s %6s\n", x.Backend, x.Solved, x.Timeouts, x.Fails, x.Aborts, better,
			fmtSig(x.SGM), fmtFixed(x.Ratio, 2))
	}
}

// writeCSV appends the file-set tables to a CSV report: per backend (and the virtual
// best), the verdicts, and every fail and better.
func (fr *FileReport) writeCSV(put func(...string)) {
	s := fr.Stats
	put()
	put("table", "files")
	put("backend", "runs", "solved", "timeouts", "fails", "aborts", "sgm_seconds", "sgm_shift", "ratio", "wins",
		"sgm_first_solve_seconds", "first_solve_seconds", "certification_seconds", "sgm_peak_rss_bytes", "mean_primal_dual_integral")
	for _, x := range append(append([]benchstats.BackendStats{}, s.Backends...), s.VirtualBest) {
		put(x.Backend, itoa(x.Runs), itoa(x.Solved), itoa(x.Timeouts), itoa(x.Fails), itoa(x.Aborts), csvNum(x.SGM),
			csvNum(s.Shift), csvNum(x.Ratio), itoa(x.Wins), csvNum(x.FirstSGM), csvNum(x.FirstSeconds), csvNum(x.CertSeconds),
			csvNum(x.MemSGM), csvNum(x.PDIMean))
	}
	put()
	put("table", "verdicts")
	head := []string{"backend"}
	for _, v := range verdictOrder {
		head = append(head, string(v))
	}
	put(head...)
	for _, l := range fr.Labels {
		row := []string{l}
		for _, v := range verdictOrder {
			row = append(row, itoa(fr.Verdicts[l][v]))
		}
		put(row...)
	}
	put()
	put("table", "fails_and_betters")
	put("instance", "permutation", "rep", "backend", "status", "objective", "expected", "value", "verdict", "reason")
	for _, r := range fr.Notable {
		obj, exp, val := "", "", ""
		if v, ok := r.Objective(); ok {
			obj = csvNum(v)
		}
		if r.Solu.Expected != nil {
			exp = *r.Solu.Expected
		}
		if r.Solu.Value != nil {
			val = csvNum(*r.Solu.Value)
		}
		put(r.Name, itoa(r.Permutation), itoa(r.Rep), r.Backend, r.Status, obj, exp, val, string(r.Solu.Verdict), r.Solu.Reason)
	}
}
