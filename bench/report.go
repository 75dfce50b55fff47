package bench

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/schedopt/schedopt/benchstats"
	"github.com/schedopt/schedopt/solve"
)

// SGMShift is the shift of the shifted geometric mean of run times, in seconds, as in
// H. Mittelmann's MILP benchmarks: exp(mean(log(t + shift))) − shift.
const SGMShift = 1.0

// Report summarises the records of one or more sweeps. It assumes the objectives
// minimise (every objective of the spec's kinds does: time or energy).
type Report struct {
	Groups []*GroupStats
	// Pairs counts, for every two groups, the instances both answered and on how many
	// their answers agree.
	Pairs []*PairStats
	// Disagreements lists every disagreement: between two groups, or between a
	// result and its own independent checks (evaluator, exact oracle). None is
	// averaged away.
	Disagreements []Disagreement
	// Quality compares each group's objective with the best one known for the
	// instance (the seed 004 Fig. 6.10 measure).
	Quality []*QualityStats
	// Failures are the jobs that failed or crashed.
	Failures []*Record
	Records  int
	// Files is the benchmark-set section of the records on model files (MPS, LP):
	// .solu verdicts, the field's statistics and profiles, variability; nil when no
	// record is on a model file.
	Files *FileReport
	// ByKind holds the per-backend numbers of each instance kind, when the records
	// span several kinds.
	ByKind []KindGroups
}

// KindGroups are the per-backend numbers of one instance kind.
type KindGroups struct {
	Kind   string
	Groups []*GroupStats
}

// GroupStats are the per-backend numbers. A group is a backend with one requested gap
// and time limit.
type GroupStats struct {
	Label       string
	Backend     string
	RelGap      *float64
	TimeLimit   float64
	Jobs        int
	Optimal     int
	Feasible    int
	Infeasible  int
	Unbounded   int
	TimeLimited int // status "time_limit": no solution at the limit
	Errors      int
	Unsupported int
	// SGM is the shifted geometric mean of the run times (build + solve) over the
	// jobs with a definite answer or a time limit; jobs stopped by the limit count as
	// the limit. NaN when there is none.
	SGM float64
	// MeanGap is the mean relative gap of the jobs that stopped at the time limit
	// with a solution (status "feasible" with a known gap); NaN when there is none.
	MeanGap  float64
	GapCount int
	// The certification policy's work (docs/certification.md): jobs whose result has a
	// certificate, those whose status something beyond the solver's word confirms,
	// the solves the policy added, and the seconds of the first solves and of the
	// added ones.
	Certified, Confirmed, ExtraSolves int
	FirstSeconds, ExtraSeconds        float64
}

// CertOverhead is the time of the solves the certification policy added, relative to
// the first solves' time; NaN without certified jobs.
func (g *GroupStats) CertOverhead() float64 {
	if g.Certified == 0 || g.FirstSeconds == 0 {
		return math.NaN()
	}
	return g.ExtraSeconds / g.FirstSeconds
}

// Solved counts the jobs with a proven answer (optimal, infeasible or unbounded).
func (g *GroupStats) Solved() int { return g.Optimal + g.Infeasible + g.Unbounded }

// PairStats counts the comparisons of two groups.
type PairStats struct {
	A, B     string
	Compared int
	Agree    int
	Disagree int
	OracleA  bool // A is an exact algorithm
	OracleB  bool
}

// Disagreement is one conflict, with the instance and both values.
type Disagreement struct {
	Instance string
	A, B     string // group labels, or "evaluator" / "exact oracle"
	ValueA   string
	ValueB   string
	Reason   string
}

// QualityStats are quartiles of objective / best known objective for one group.
type QualityStats struct {
	Label          string
	Count          int // instances with a ratio
	Q1, Median, Q3 float64
	Min, Max, Mean float64
	MedianSeconds  float64
	Q1Sec, Q3Sec   float64
}

// ReportOptions tune a report.
type ReportOptions struct {
	// FileShift is the shift, in seconds, of the shifted geometric means of the
	// file-set section (default DefaultFileSGMShift).
	FileShift float64
}

// BuildReport computes the report of recs with the default options.
func BuildReport(recs []*Record) *Report { return BuildReportWith(recs, ReportOptions{}) }

// BuildReportWith computes the report of recs.
func BuildReportWith(recs []*Record, o ReportOptions) *Report {
	rep := &Report{Records: len(recs)}
	if o.FileShift <= 0 {
		o.FileShift = DefaultFileSGMShift
	}
	rep.Files = buildFileReport(recs, o.FileShift)
	label := groupLabels(recs)
	groups := map[string]*GroupStats{}
	times := map[string][]float64{}
	gaps := map[string][]float64{}
	for _, r := range recs {
		l := label(r)
		g := groups[l]
		if g == nil {
			g = &GroupStats{Label: l, Backend: r.Backend, RelGap: r.RelGap, TimeLimit: r.TimeLimit}
			groups[l] = g
		}
		g.Jobs++
		status := r.Status
		if isHeuristic(r) && (status == solve.StatusInfeasible || r.NoSchedule()) {
			// A heuristic that found no schedule within the limits proves nothing.
			status = solve.StatusTimeLimit
		}
		switch status {
		case solve.StatusOptimal:
			g.Optimal++
		case solve.StatusFeasible:
			g.Feasible++
		case solve.StatusInfeasible:
			g.Infeasible++
		case solve.StatusUnbounded:
			g.Unbounded++
		case solve.StatusTimeLimit, solve.StatusInterrupted:
			g.TimeLimited++
		case StatusUnsupported:
			g.Unsupported++
		default:
			g.Errors++
			rep.Failures = append(rep.Failures, r)
		}
		switch r.Status {
		case solve.StatusOptimal, solve.StatusInfeasible, solve.StatusUnbounded:
			times[l] = append(times[l], r.SolveSeconds())
		case solve.StatusFeasible, solve.StatusTimeLimit, solve.StatusInterrupted:
			t := r.SolveSeconds()
			if r.TimeLimit > 0 && atLimit(r) {
				t = r.TimeLimit
			}
			times[l] = append(times[l], t)
		}
		if r.Result != nil && r.Result.Certificate != nil {
			c := r.Result.Certificate
			g.Certified++
			if c.Confirmed {
				g.Confirmed++
			}
			for i, a := range c.Solves {
				if i == 0 {
					g.FirstSeconds += a.Seconds
				} else {
					g.ExtraSolves++
					g.ExtraSeconds += a.Seconds
				}
			}
		}
		if r.Status == solve.StatusFeasible && r.Result != nil && r.Result.Gap != nil && atLimit(r) {
			gaps[l] = append(gaps[l], *r.Result.Gap)
		}
	}
	for l, g := range groups {
		g.SGM = benchstats.ShiftedGeoMean(times[l], SGMShift)
		g.MeanGap = mean(gaps[l])
		g.GapCount = len(gaps[l])
		rep.Groups = append(rep.Groups, g)
	}
	sort.Slice(rep.Groups, func(i, j int) bool { return groupLess(rep.Groups[i], rep.Groups[j]) })
	byKind := map[string][]*Record{}
	for _, r := range recs {
		byKind[r.Kind] = append(byKind[r.Kind], r)
	}
	if len(byKind) > 1 {
		kinds := make([]string, 0, len(byKind))
		for k := range byKind {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		for _, k := range kinds {
			rep.ByKind = append(rep.ByKind, KindGroups{Kind: k, Groups: BuildReport(byKind[k]).Groups})
		}
	}
	rep.compare(recs, label)
	rep.quality(recs, label)
	return rep
}

// isHeuristic reports whether the record comes from a heuristic.
func isHeuristic(r *Record) bool { return strings.HasPrefix(r.Backend, solve.HeuristicPrefix) }

// atLimit reports whether a non-optimal record stopped because of its time limit
// (as opposed to a heuristic, which stops by itself).
func atLimit(r *Record) bool {
	return r.RelGap != nil // only MILP backends have gaps and stop at limits with a solution
}

func groupLess(a, b *GroupStats) bool {
	ra, rb := backendRank(a.Backend), backendRank(b.Backend)
	if ra != rb {
		return ra < rb
	}
	return a.Label < b.Label
}

func backendRank(b string) int {
	milp := solve.MILPBackends()
	if i := slices.Index(milp, b); i >= 0 {
		return i
	}
	if b == solve.Exact {
		return len(milp)
	}
	return len(milp) + 1
}

// groupLabels returns the labelling of records: the backend name, plus the gap and
// time limit when a backend ran with several.
func groupLabels(recs []*Record) func(*Record) string {
	gapsOf := map[string]map[string]bool{}
	tlsOf := map[string]map[float64]bool{}
	for _, r := range recs {
		if gapsOf[r.Backend] == nil {
			gapsOf[r.Backend] = map[string]bool{}
			tlsOf[r.Backend] = map[float64]bool{}
		}
		gapsOf[r.Backend][gapString(r.RelGap)] = true
		tlsOf[r.Backend][r.TimeLimit] = true
	}
	return func(r *Record) string {
		l := r.Backend
		if len(gapsOf[r.Backend]) > 1 {
			l += " gap " + gapString(r.RelGap)
		}
		if len(tlsOf[r.Backend]) > 1 {
			l += " tl " + strconv.FormatFloat(r.TimeLimit, 'g', 4, 64) + "s"
		}
		return l
	}
}

func gapString(g *float64) string {
	if g == nil {
		return "-"
	}
	return strconv.FormatFloat(*g, 'g', 3, 64)
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// Quantile returns the q-quantile of sorted xs by linear interpolation (type 7).
func Quantile(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	h := q * float64(n-1)
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// agreeRelTol is the relative tolerance, on top of the requested gaps, within which
// two objectives agree.
const agreeRelTol = solve.AgreeTol

// claim is what one record says about an instance.
type claim struct {
	label    string
	rec      *Record
	status   string
	obj      float64
	hasObj   bool
	bound    float64
	hasBound bool
	gap      float64 // requested relative gap (0 for exact algorithms)
	oracle   bool
	front    []frontPoint // the Pareto front of a front-valued solution (workload pareto)
	// neg marks a maximisation, whose obj and bound are held negated so that the
	// comparisons minimise; num shows them as reported.
	neg bool
}

// num formats a value of c (obj or bound) as the result reported it.
func (c claim) num(x float64) string {
	if c.neg {
		x = -x
	}
	return fmtNum(x)
}

// frontPoint is one point of a front-valued solution.
type frontPoint struct{ T, E float64 }

// frontOf extracts solution.front, if the solution has one.
func frontOf(sol any) []frontPoint {
	if sol == nil {
		return nil
	}
	b, err := json.Marshal(sol)
	if err != nil {
		return nil
	}
	var v struct {
		Front []frontPoint `json:"front"`
	}
	if json.Unmarshal(b, &v) != nil {
		return nil
	}
	return v.Front
}

func claimOf(r *Record, label string) (claim, bool) {
	c := claim{label: label, rec: r, status: r.Status, oracle: r.Backend == solve.Exact}
	if r.Result == nil {
		return c, false
	}
	if isHeuristic(r) {
		// Heuristics prove nothing, and may search a larger space than the MILP (for
		// example more installments than its n messages), so they are compared in the
		// quality table, not here.
		return c, false
	}
	switch r.Status {
	case solve.StatusOptimal, solve.StatusFeasible, solve.StatusInfeasible, solve.StatusUnbounded:
	default:
		return c, false
	}
	if r.Result.Objective != nil {
		c.obj, c.hasObj = *r.Result.Objective, true
	}
	if r.Result.Bound != nil {
		c.bound, c.hasBound = *r.Result.Bound, true
	}
	if r.Sense == "max" {
		// The comparison below minimises: a maximisation is compared negated.
		c.obj, c.bound, c.neg = -c.obj, -c.bound, true
	}
	if r.RelGap != nil {
		c.gap = *r.RelGap
	}
	if r.Status == solve.StatusOptimal {
		c.front = frontOf(r.Result.Solution)
	}
	return c, true
}

// frontConflict compares two proven fronts. A front proven within relative gap g covers
// the true front: for every true point (T, E) it has a point with T' ≤ T·(1+g) and
// E' ≤ E·(1+g). Every point of the other front is feasible, so it lies on or above the
// true front and must be covered the same way. Two fronts agree when each covers the
// other within its own gap (plus agreeRelTol); with zero gaps that is point-by-point
// equality, since both are strictly monotone.
func frontConflict(a, b claim) string {
	for _, p := range [][2]claim{{a, b}, {b, a}} {
		cov, pts := p[0], p[1]
		if k, ok := uncovered(cov.front, pts.front, cov.gap); !ok {
			q := pts.front[k]
			best := "none"
			for _, c := range cov.front {
				if c.T <= q.T*(1+cov.gap)+agreeRelTol*math.Max(1, q.T) {
					best = "E " + fmtNum(c.E) // fronts are sorted by T: the last one is the lowest
				}
			}
			return fmt.Sprintf("proven fronts differ (%d points against %d) at point %d (T %s): %s has E %s, %s's best at that makespan is %s",
				len(pts.front), len(cov.front), k+1, fmtNum(q.T), pts.label, fmtNum(q.E), cov.label, best)
		}
	}
	return ""
}

// uncovered returns the index of the first point of pts that no point of cov weakly
// dominates within relative gap g (plus agreeRelTol), and false; or -1 and true.
func uncovered(cov, pts []frontPoint, g float64) (int, bool) {
	within := func(x, limit float64) bool {
		return x <= limit*(1+g)+agreeRelTol*math.Max(1, math.Abs(limit))
	}
	for k, q := range pts {
		ok := false
		for _, c := range cov {
			if within(c.T, q.T) && within(c.E, q.E) {
				ok = true
				break
			}
		}
		if !ok {
			return k, false
		}
	}
	return -1, true
}

func (c claim) value() string {
	switch {
	case c.status == solve.StatusInfeasible || c.status == solve.StatusUnbounded:
		return c.status
	case c.hasObj:
		return fmt.Sprintf("%s %s", c.status, c.num(c.obj))
	}
	return c.status
}

// conflict returns why a and b cannot both be right, or "".
func conflict(a, b claim) string {
	if a.status == solve.StatusInfeasible || b.status == solve.StatusInfeasible {
		if a.status == b.status {
			return ""
		}
		inf, other := a, b
		if b.status == solve.StatusInfeasible {
			inf, other = b, a
		}
		if other.hasObj {
			return fmt.Sprintf("%s says infeasible, %s has a solution", inf.label, other.label)
		}
		return ""
	}
	if a.status == solve.StatusUnbounded || b.status == solve.StatusUnbounded {
		if a.status != b.status && (a.hasObj && a.status == solve.StatusOptimal || b.hasObj && b.status == solve.StatusOptimal) {
			return "one says unbounded, the other proved a finite optimum"
		}
		return ""
	}
	if a.front != nil && b.front != nil {
		if why := frontConflict(a, b); why != "" {
			return why
		}
	}
	if !a.hasObj || !b.hasObj {
		return ""
	}
	scale := math.Max(1, math.Max(math.Abs(a.obj), math.Abs(b.obj)))
	tol := (a.gap+b.gap)*scale + agreeRelTol*scale
	if a.status == solve.StatusOptimal && b.status == solve.StatusOptimal && math.Abs(a.obj-b.obj) > tol {
		return fmt.Sprintf("both proved optimal, objectives differ by %s", fmtNum(math.Abs(a.obj-b.obj)))
	}
	// A solution below another's proven lower bound (minimisation).
	for _, p := range [][2]claim{{a, b}, {b, a}} {
		lb, sol := p[0], p[1]
		if lb.hasBound && sol.obj < lb.bound-tol {
			side := "below"
			if sol.neg {
				side = "above"
			}
			return fmt.Sprintf("%s's solution %s is %s %s's proven bound %s", sol.label, sol.num(sol.obj), side, lb.label, lb.num(lb.bound))
		}
		if lb.status == solve.StatusOptimal && !lb.hasBound && sol.obj < lb.obj-tol {
			return fmt.Sprintf("%s's solution %s beats %s's proven optimum %s", sol.label, sol.num(sol.obj), lb.label, lb.num(lb.obj))
		}
	}
	return ""
}

func (rep *Report) compare(recs []*Record, label func(*Record) string) {
	byInst := map[string][]claim{}
	var order []string
	for _, r := range recs {
		// A result's own checks.
		if r.Result != nil {
			claimsSolution := r.Status == solve.StatusOptimal || r.Status == solve.StatusFeasible
			if ev := r.Result.Check.Evaluator; ev != nil && !ev.OK && claimsSolution {
				rep.Disagreements = append(rep.Disagreements, Disagreement{
					Instance: r.Instance, A: label(r), B: "evaluator",
					ValueA: valueOf(r), ValueB: fmtNum(ev.Objective),
					Reason: "evaluator rejected the schedule: " + ev.Message,
				})
			}
			if ex := r.Result.Check.Exact; ex != nil && !ex.Agree && ex.Algorithm != "error" {
				vb := "infeasible"
				if ex.Objective != nil {
					vb = fmtNum(*ex.Objective)
				}
				rep.Disagreements = append(rep.Disagreements, Disagreement{
					Instance: r.Instance, A: label(r), B: "exact oracle (" + ex.Algorithm + ")",
					ValueA: valueOf(r), ValueB: vb, Reason: "cross-check failed" + suffix(ex.Message),
				})
			}
		}
		c, ok := claimOf(r, label(r))
		if !ok {
			continue
		}
		if _, seen := byInst[r.Instance]; !seen {
			order = append(order, r.Instance)
		}
		byInst[r.Instance] = append(byInst[r.Instance], c)
	}
	pairs := map[[2]string]*PairStats{}
	for _, inst := range order {
		cs := byInst[inst]
		sort.SliceStable(cs, func(i, j int) bool { return cs[i].label < cs[j].label })
		for i := range cs {
			for j := i + 1; j < len(cs); j++ {
				a, b := cs[i], cs[j]
				if a.label == b.label {
					if a.rec.Rep == b.rec.Rep {
						continue
					}
				}
				k := [2]string{a.label, b.label}
				ps := pairs[k]
				if ps == nil {
					ps = &PairStats{A: a.label, B: b.label, OracleA: a.oracle, OracleB: b.oracle}
					pairs[k] = ps
				}
				ps.Compared++
				if why := conflict(a, b); why != "" {
					ps.Disagree++
					rep.Disagreements = append(rep.Disagreements, Disagreement{
						Instance: inst, A: a.label, B: b.label, ValueA: a.value(), ValueB: b.value(), Reason: why,
					})
				} else {
					ps.Agree++
				}
			}
		}
	}
	for _, ps := range pairs {
		rep.Pairs = append(rep.Pairs, ps)
	}
	sort.Slice(rep.Pairs, func(i, j int) bool {
		if rep.Pairs[i].A != rep.Pairs[j].A {
			return rep.Pairs[i].A < rep.Pairs[j].A
		}
		return rep.Pairs[i].B < rep.Pairs[j].B
	})
}

func suffix(msg string) string {
	if msg == "" {
		return ""
	}
	return ": " + msg
}

func valueOf(r *Record) string {
	if v, ok := r.Objective(); ok {
		return r.Status + " " + fmtNum(v)
	}
	return r.Status
}

// quality computes, per group, quartiles of objective / best known objective over
// the instances where the group has a solution the evaluator accepted.
func (rep *Report) quality(recs []*Record, label func(*Record) string) {
	rep.Quality = Quality(recs, label)
}

// Quality returns, per label, the quartiles of objective / best known objective (the
// smallest objective of any record of the instance whose solution the evaluator
// accepted), and of the run times, over the records with such a solution. It assumes
// minimisation.
func Quality(recs []*Record, label func(*Record) string) []*QualityStats {
	best := map[string]float64{}
	for _, r := range recs {
		if v, ok := usable(r); ok {
			if b, seen := best[r.Instance]; !seen || v < b {
				best[r.Instance] = v
			}
		}
	}
	ratios := map[string][]float64{}
	secs := map[string][]float64{}
	for _, r := range recs {
		v, ok := usable(r)
		b := best[r.Instance]
		if !ok || !(b > 0) {
			continue
		}
		l := label(r)
		ratios[l] = append(ratios[l], v/b)
		secs[l] = append(secs[l], r.SolveSeconds())
	}
	var out []*QualityStats
	for l, xs := range ratios {
		sort.Float64s(xs)
		ts := secs[l]
		sort.Float64s(ts)
		out = append(out, &QualityStats{
			Label: l, Count: len(xs),
			Q1: Quantile(xs, 0.25), Median: Quantile(xs, 0.5), Q3: Quantile(xs, 0.75),
			Min: xs[0], Max: xs[len(xs)-1], Mean: mean(xs),
			MedianSeconds: Quantile(ts, 0.5), Q1Sec: Quantile(ts, 0.25), Q3Sec: Quantile(ts, 0.75),
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Label < out[j].Label })
	return out
}

// usable returns a record's objective when it has a solution the evaluator accepted.
func usable(r *Record) (float64, bool) {
	if r.IsModelFile() {
		return 0, false // any sign and either sense: the file-set report judges them
	}
	if r.Status != solve.StatusOptimal && r.Status != solve.StatusFeasible {
		return 0, false
	}
	v, ok := r.Objective()
	if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	if ev := r.Result.Check.Evaluator; ev != nil && !ev.OK {
		return 0, false
	}
	return v, true
}

func fmtNum(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return strconv.FormatFloat(x, 'g', 7, 64)
}

func fmtSig(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}

func fmtFixed(x float64, prec int) string {
	if math.IsNaN(x) {
		return "–"
	}
	return strconv.FormatFloat(x, 'f', prec, 64)
}

// WriteSummary writes the per-backend table as aligned plain text (for terminals).
// Heuristics are summed up in one line per family (the Markdown report lists each).
func (rep *Report) WriteSummary(w io.Writer) error {
	rows := [][]string{{"backend", "jobs", "solved", "optimal", "feasible", "infeas", "no sol", "errors", "sgm time [s]", "mean gap@limit"}}
	type fam struct {
		methods, jobs, feasible, none, errors int
	}
	fams := map[string]*fam{}
	var famOrder []string
	for _, g := range rep.Groups {
		if h, ok := strings.CutPrefix(g.Backend, solve.HeuristicPrefix); ok {
			name, _, _ := strings.Cut(h, "-")
			f := fams[name]
			if f == nil {
				f = &fam{}
				fams[name] = f
				famOrder = append(famOrder, name)
			}
			f.methods++
			f.jobs += g.Jobs
			f.feasible += g.Feasible
			f.none += g.TimeLimited + g.Infeasible
			f.errors += g.Errors
			continue
		}
		rows = append(rows, []string{g.Label, itoa(g.Jobs), itoa(g.Solved()), itoa(g.Optimal), itoa(g.Feasible),
			itoa(g.Infeasible), itoa(g.TimeLimited), itoa(g.Errors), fmtSig(g.SGM), gapCell(g)})
	}
	for _, name := range famOrder {
		f := fams[name]
		label := solve.HeuristicPrefix + name
		if f.methods > 1 {
			label = fmt.Sprintf("%s%s-* (%d rules)", solve.HeuristicPrefix, name, f.methods)
		}
		rows = append(rows, []string{label, itoa(f.jobs), "–", "–", itoa(f.feasible), "–", itoa(f.none), itoa(f.errors), "", ""})
	}
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		for i, c := range r {
			pad := widths[i] - len([]rune(c))
			if i == 0 {
				b.WriteString(c + strings.Repeat(" ", pad))
			} else {
				b.WriteString("  " + strings.Repeat(" ", pad) + c)
			}
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "%d disagreement(s), %d failed job(s)\n", len(rep.Disagreements), len(rep.Failures))
	if rep.Files != nil {
		rep.Files.writeSummary(&b)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func itoa(i int) string { return strconv.Itoa(i) }

func gapCell(g *GroupStats) string {
	if g.GapCount == 0 {
		return "–"
	}
	return fmt.Sprintf("%.4g%% (%d)", 100*g.MeanGap, g.GapCount)
}

// WriteMarkdown writes the whole report as Markdown.
func (rep *Report) WriteMarkdown(w io.Writer, title string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", title)
	fmt.Fprintf(&b, "%d result records.\n\n", rep.Records)
	b.WriteString("## Per backend\n\n")
	b.WriteString("*solved*: proven optimal, infeasible or unbounded. *sgm time*: shifted geometric mean of build+solve " +
		"time (shift 1 s; jobs stopped by the limit count as the limit). *n/a*: exact jobs on instances without an exact algorithm. *mean gap@limit*: mean relative gap of the jobs " +
		"that reached the time limit with a solution (their count in parentheses).\n\n")
	b.WriteString("| backend | jobs | solved | optimal | feasible | infeasible | no solution | errors | n/a | sgm time [s] | mean gap@limit |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, g := range rep.Groups {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %s | %s |\n", g.Label, g.Jobs, g.Solved(), g.Optimal,
			g.Feasible, g.Infeasible, g.TimeLimited, g.Errors, g.Unsupported, fmtSig(g.SGM), gapCell(g))
	}
	if len(rep.ByKind) > 0 {
		b.WriteString("\n### Per kind\n\n")
		b.WriteString("| kind | backend | jobs | solved | feasible | no solution | errors | sgm time [s] | mean gap@limit |\n")
		b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|---:|\n")
		for _, kg := range rep.ByKind {
			for _, g := range kg.Groups {
				fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %d | %s | %s |\n", kg.Kind, g.Label, g.Jobs, g.Solved(),
					g.Feasible, g.TimeLimited, g.Errors, fmtSig(g.SGM), gapCell(g))
			}
		}
	}
	writeCertification(&b, rep.Groups)
	b.WriteString("\n## Agreement\n\n")
	b.WriteString("Every pair of backends (and the exact oracles, marked ★) on the instances both answered; heuristics " +
		"prove nothing and are compared in the quality table. Two answers " +
		"disagree when both are proven optimal but differ beyond their gaps, when one is infeasible and the other has " +
		"a solution, when a solution lies below a proven lower bound, or when of two proven Pareto fronts one does not cover the other within its gap (point by point with zero gaps).\n\n")
	if len(rep.Pairs) == 0 {
		b.WriteString("No instance was answered by two backends.\n")
	} else {
		b.WriteString("| A | B | compared | agree | disagree |\n|---|---|---:|---:|---:|\n")
		for _, p := range rep.Pairs {
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %d |\n", star(p.A, p.OracleA), star(p.B, p.OracleB), p.Compared, p.Agree, p.Disagree)
		}
	}
	fmt.Fprintf(&b, "\n### Disagreements (%d)\n\n", len(rep.Disagreements))
	if len(rep.Disagreements) == 0 {
		b.WriteString("None.\n")
	} else {
		b.WriteString("| instance | A | value A | B | value B | reason |\n|---|---|---|---|---|---|\n")
		for _, d := range rep.Disagreements {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", mdCell(d.Instance), mdCell(d.A), mdCell(d.ValueA),
				mdCell(d.B), mdCell(d.ValueB), mdCell(d.Reason))
		}
	}
	b.WriteString("\n## Quality against the best known objective\n\n")
	b.WriteString("Ratio objective / best objective any method found for the instance (1 = best), over the instances " +
		"where the method has a solution the evaluator accepted; quartiles as in seed 004, Fig. 6.10.\n\n")
	if len(rep.Quality) == 0 {
		b.WriteString("No solutions to compare.\n")
	} else {
		b.WriteString("| method | instances | min | Q1 | median | Q3 | max | mean | median time [s] |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
		for _, q := range rep.Quality {
			fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s | %s | %s | %s |\n", q.Label, q.Count, fmtFixed(q.Min, 4),
				fmtFixed(q.Q1, 4), fmtFixed(q.Median, 4), fmtFixed(q.Q3, 4), fmtFixed(q.Max, 4), fmtFixed(q.Mean, 4),
				fmtSig(q.MedianSeconds))
		}
	}
	if rep.Files != nil {
		rep.Files.writeMarkdown(&b)
	}
	fmt.Fprintf(&b, "\n## Failed jobs (%d)\n\n", len(rep.Failures))
	if len(rep.Failures) == 0 {
		b.WriteString("None.\n")
	} else {
		b.WriteString("| instance | backend | crashed | error |\n|---|---|---|---|\n")
		for _, r := range rep.Failures {
			fmt.Fprintf(&b, "| %s | %s | %v | %s |\n", mdCell(r.Instance), r.Backend, r.Crashed, mdCell(firstLine(r.Error)))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func star(s string, oracle bool) string {
	if oracle {
		return s + " ★"
	}
	return s
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func mdCell(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	return strings.ReplaceAll(s, "\n", " ")
}

// WriteCSV writes the report's tables as CSV: the per-backend table, then the
// agreement pairs, the disagreements and the quality quartiles, each headed by a row
// naming the table and separated by an empty line.
func (rep *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	put := func(rec ...string) { cw.Write(rec) }
	put("table", "backends")
	put("backend", "rel_gap", "time_limit_s", "jobs", "solved", "optimal", "feasible", "infeasible", "unbounded",
		"no_solution_at_limit", "errors", "unsupported", "sgm_seconds", "mean_gap_at_limit", "gap_count")
	for _, g := range rep.Groups {
		put(g.Label, gapString(g.RelGap), fmtNum(g.TimeLimit), itoa(g.Jobs), itoa(g.Solved()), itoa(g.Optimal),
			itoa(g.Feasible), itoa(g.Infeasible), itoa(g.Unbounded), itoa(g.TimeLimited), itoa(g.Errors),
			itoa(g.Unsupported), csvNum(g.SGM), csvNum(g.MeanGap), itoa(g.GapCount))
	}
	put()
	put("table", "agreement")
	put("a", "b", "compared", "agree", "disagree")
	for _, p := range rep.Pairs {
		put(p.A, p.B, itoa(p.Compared), itoa(p.Agree), itoa(p.Disagree))
	}
	put()
	put("table", "disagreements")
	put("instance", "a", "value_a", "b", "value_b", "reason")
	for _, d := range rep.Disagreements {
		put(d.Instance, d.A, d.ValueA, d.B, d.ValueB, d.Reason)
	}
	put()
	put("table", "quality")
	put("method", "instances", "min", "q1", "median", "q3", "max", "mean", "median_seconds")
	for _, q := range rep.Quality {
		put(q.Label, itoa(q.Count), csvNum(q.Min), csvNum(q.Q1), csvNum(q.Median), csvNum(q.Q3), csvNum(q.Max),
			csvNum(q.Mean), csvNum(q.MedianSeconds))
	}
	if rep.Files != nil {
		rep.Files.writeCSV(put)
	}
	cw.Flush()
	return cw.Error()
}

func csvNum(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// writeCertification writes what the certification policy did per MILP backend: how
// many statuses it confirmed beyond the solver's word, and what its added solves cost.
func writeCertification(b *strings.Builder, groups []*GroupStats) {
	var rows []*GroupStats
	for _, g := range groups {
		if g.Certified > 0 {
			rows = append(rows, g)
		}
	}
	if len(rows) == 0 {
		return
	}
	b.WriteString("\n## Certification\n\n")
	b.WriteString("What the certification policy (docs/certification.md) did for the MILP backends' results: " +
		"*confirmed*: statuses backed by more than the solver's word (an independent re-solve, a second backend, " +
		"a verified ray or an exact argument); *added solves*: the policy's re-solves; *overhead*: their time relative " +
		"to the first solves' time.\n\n")
	b.WriteString("| backend | certified jobs | confirmed | added solves | first solves [s] | added [s] | overhead |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|\n")
	for _, g := range rows {
		fmt.Fprintf(b, "| %s | %d | %d | %d | %s | %s | %s |\n", g.Label, g.Certified, g.Confirmed, g.ExtraSolves,
			fmtSig(g.FirstSeconds), fmtSig(g.ExtraSeconds), pct(g.CertOverhead()))
	}
}

// pct formats a ratio as a percentage, "–" for NaN.
func pct(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}
