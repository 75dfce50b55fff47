package bench_test

import (
	"bytes"
	"encoding/csv"
	"math"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/bench"
	"github.com/schedopt/schedopt/benchstats"
	"github.com/schedopt/schedopt/certify"
	"github.com/schedopt/schedopt/solve"
)

func f64(v float64) *float64 { return &v }

// rec builds a synthetic result record.
func rec(inst, backend string, gap *float64, status string, obj *float64, secs float64) *bench.Record {
	r := &bench.Record{Key: inst + "|" + backend, Instance: inst, Kind: "workload", Backend: backend, RelGap: gap,
		TimeLimit: 10, Status: status, Size: bench.Size{M: 4}}
	if status != solve.StatusError {
		r.Result = &solve.Result{Status: status, Objective: obj, Seconds: solve.Seconds{Solve: secs}}
		if obj != nil {
			r.Result.Check.Evaluator = &solve.EvaluatorCheck{OK: true, Objective: *obj}
		}
		if status == solve.StatusOptimal {
			r.Result.Bound = obj
		}
	} else {
		r.Error = "boom"
	}
	return r
}

func syntheticRecords() []*bench.Record {
	g := f64(1e-6)
	return []*bench.Record{
		// i1: everyone agrees.
		rec("i1", "highs", g, solve.StatusOptimal, f64(100), 0),
		rec("i1", "lpsolve", g, solve.StatusOptimal, f64(100.00001), 1),
		rec("i1", "exact", nil, solve.StatusOptimal, f64(100), 3),
		rec("i1", "heuristic:greedy", nil, solve.StatusFeasible, f64(150), 0.001),
		// i2: lpsolve claims a different optimum: a disagreement that must be listed.
		rec("i2", "highs", g, solve.StatusOptimal, f64(200), 0),
		rec("i2", "lpsolve", g, solve.StatusOptimal, f64(210), 1),
		rec("i2", "exact", nil, solve.StatusOptimal, f64(200), 3),
		rec("i2", "heuristic:greedy", nil, solve.StatusFeasible, f64(400), 0.001),
		// i3: highs says infeasible, the exact oracle has a schedule.
		rec("i3", "highs", g, solve.StatusInfeasible, nil, 0.5),
		rec("i3", "exact", nil, solve.StatusOptimal, f64(50), 0.1),
		// i4: lpsolve hit the limit with a solution and gap 0.2; highs failed.
		rec("i4", "lpsolve", g, solve.StatusFeasible, f64(80), 10),
		rec("i4", "highs", g, solve.StatusError, nil, 0),
	}
}

func TestReportCountsAndShiftedGeometricMean(t *testing.T) {
	recs := syntheticRecords()
	recs[10].Result.Gap = f64(0.2)
	rep := bench.BuildReport(recs)
	by := map[string]*bench.GroupStats{}
	for _, g := range rep.Groups {
		by[g.Label] = g
	}
	h := by["highs"]
	if h == nil || h.Jobs != 4 || h.Optimal != 2 || h.Infeasible != 1 || h.Errors != 1 || h.Solved() != 3 {
		t.Fatalf("highs stats = %+v", h)
	}
	// highs times 0, 0, 0.5 with shift 1: exp((0+0+log 1.5)/3) − 1.
	if want := math.Exp(math.Log(1.5)/3) - 1; math.Abs(h.SGM-want) > 1e-12 {
		t.Errorf("highs SGM = %g, want %g", h.SGM, want)
	}
	l := by["lpsolve"]
	// lpsolve: 1, 1, and 10 (the limit, for the feasible job): exp((2 log 2 + log 11)/3) − 1.
	if want := math.Exp((2*math.Log(2)+math.Log(11))/3) - 1; math.Abs(l.SGM-want) > 1e-12 {
		t.Errorf("lpsolve SGM = %g, want %g", l.SGM, want)
	}
	if l.GapCount != 1 || math.Abs(l.MeanGap-0.2) > 1e-12 {
		t.Errorf("lpsolve mean gap at limit = %g over %d, want 0.2 over 1", l.MeanGap, l.GapCount)
	}
	if got := benchstats.ShiftedGeoMean([]float64{0, 1, 3}, 1); math.Abs(got-1) > 1e-12 {
		t.Errorf("ShiftedGeoMean(0,1,3; 1) = %g, want 1", got)
	}
}

func TestReportListsEveryDisagreementWithBothValues(t *testing.T) {
	rep := bench.BuildReport(syntheticRecords())
	var md bytes.Buffer
	if err := rep.WriteMarkdown(&md, "test"); err != nil {
		t.Fatal(err)
	}
	text := md.String()
	for _, want := range []string{
		"| i2 | exact | optimal 200 | lpsolve | optimal 210 |", // both values listed
		"| i2 | highs | optimal 200 | lpsolve | optimal 210 |",
		"| i3 | exact | optimal 50 | highs | infeasible |",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks the disagreement row %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "| i1 |") {
		t.Errorf("agreeing instance i1 listed as a disagreement:\n%s", text)
	}
	if len(rep.Disagreements) != 3 {
		t.Errorf("%d disagreements, want 3: %+v", len(rep.Disagreements), rep.Disagreements)
	}
	pairs := map[string]*bench.PairStats{}
	for _, p := range rep.Pairs {
		pairs[p.A+"/"+p.B] = p
	}
	if p := pairs["highs/lpsolve"]; p == nil || p.Compared != 2 || p.Disagree != 1 || p.Agree != 1 {
		t.Errorf("highs/lpsolve pair = %+v, want 2 compared, 1 disagree", p)
	}
	if p := pairs["exact/highs"]; p == nil || !p.OracleA {
		t.Errorf("exact/highs pair = %+v, want the exact side marked as oracle", p)
	}
}

func TestReportFlagsEvaluatorAndOracleFailures(t *testing.T) {
	r := rec("i9", "highs", f64(1e-6), solve.StatusOptimal, f64(10), 0)
	r.Result.Check.Evaluator = &solve.EvaluatorCheck{OK: false, Objective: 12, Message: "machine 2 overlaps"}
	r.Result.Check.Exact = &solve.ExactCheck{Algorithm: "dp", Objective: f64(11), Agree: false}
	rep := bench.BuildReport([]*bench.Record{r})
	if len(rep.Disagreements) != 2 {
		t.Fatalf("disagreements = %+v, want evaluator and oracle", rep.Disagreements)
	}
	if d := rep.Disagreements[0]; d.B != "evaluator" || d.ValueB != "12" || !strings.Contains(d.Reason, "machine 2 overlaps") {
		t.Errorf("evaluator disagreement = %+v", d)
	}
	if d := rep.Disagreements[1]; !strings.Contains(d.B, "exact oracle") || d.ValueB != "11" {
		t.Errorf("oracle disagreement = %+v", d)
	}
}

func TestReportQualityQuartilesAgainstBestKnown(t *testing.T) {
	rep := bench.BuildReport(syntheticRecords())
	var q *bench.QualityStats
	for _, x := range rep.Quality {
		if x.Label == "heuristic:greedy" {
			q = x
		}
	}
	// Ratios 150/100 = 1.5 and 400/200 = 2.
	if q == nil || q.Count != 2 || q.Min != 1.5 || q.Max != 2 || math.Abs(q.Median-1.75) > 1e-12 || math.Abs(q.Q1-1.625) > 1e-12 {
		t.Errorf("heuristic quality = %+v, want ratios 1.5 and 2", q)
	}
}

func TestReportCSVHasEveryTable(t *testing.T) {
	rep := bench.BuildReport(syntheticRecords())
	var b bytes.Buffer
	if err := rep.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(&b)
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatalf("report.csv is not valid CSV: %v", err)
	}
	tables := map[string]bool{}
	disagreements := 0
	inDis := false
	for _, row := range rows {
		if len(row) == 2 && row[0] == "table" {
			tables[row[1]] = true
			inDis = row[1] == "disagreements"
			continue
		}
		if inDis && len(row) == 6 && row[0] != "instance" {
			disagreements++
		}
	}
	for _, tb := range []string{"backends", "agreement", "disagreements", "quality"} {
		if !tables[tb] {
			t.Errorf("CSV lacks table %s", tb)
		}
	}
	if disagreements != 3 {
		t.Errorf("CSV lists %d disagreements, want 3", disagreements)
	}
}

func TestQuantileInterpolates(t *testing.T) {
	xs := []float64{1, 2, 3, 4}
	for _, c := range []struct{ q, want float64 }{{0, 1}, {0.25, 1.75}, {0.5, 2.5}, {1, 4}} {
		if got := bench.Quantile(xs, c.q); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Quantile(%g) = %g, want %g", c.q, got, c.want)
		}
	}
	if !math.IsNaN(bench.Quantile(nil, 0.5)) {
		t.Error("Quantile of nothing is not NaN")
	}
}

func TestHeuristicWithoutScheduleIsNoDisagreement(t *testing.T) {
	recs := []*bench.Record{
		rec("i1", "highs", f64(1e-6), solve.StatusOptimal, f64(10), 0),
		rec("i1", "heuristic:gss-a1", nil, solve.StatusInfeasible, nil, 0),
		// A heuristic with more installments than the MIP's n may beat its optimum.
		rec("i1", "heuristic:hom-scu", nil, solve.StatusFeasible, f64(9), 0),
	}
	recs[1].Result.Check.Evaluator = &solve.EvaluatorCheck{OK: false, Objective: 12, Message: "T exceeds the deadline"}
	rep := bench.BuildReport(recs)
	if len(rep.Disagreements) != 0 {
		t.Errorf("heuristic results were listed as disagreements: %+v", rep.Disagreements)
	}
	for _, g := range rep.Groups {
		if g.Backend == "heuristic:gss-a1" && (g.Infeasible != 0 || g.TimeLimited != 1) {
			t.Errorf("heuristic without schedule counted as %+v, want one 'no solution'", g)
		}
	}
}

func TestReportComparesProvenFrontsPointByPoint(t *testing.T) {
	front := func(pts ...float64) any {
		var f []map[string]any
		for i := 0; i+1 < len(pts); i += 2 {
			f = append(f, map[string]any{"T": pts[i], "E": pts[i+1], "sizes": []int{1}})
		}
		return map[string]any{"front": f}
	}
	a := rec("w", "highs", f64(1e-6), solve.StatusOptimal, f64(2), 0)
	a.Result.Solution = front(2, 5, 3, 4, 6, 2)
	b := rec("w", "exact", nil, solve.StatusOptimal, f64(2), 0)
	b.Result.Solution = front(2, 5, 3, 4, 6, 2)
	c := rec("w", "lpsolve", f64(1e-6), solve.StatusOptimal, f64(2), 0)
	c.Result.Solution = front(2, 5, 3, 4.5, 6, 2) // a dominated point: wrong
	rep := bench.BuildReport([]*bench.Record{a, b, c})
	if len(rep.Disagreements) != 2 {
		t.Fatalf("disagreements = %+v, want lpsolve against exact and highs", rep.Disagreements)
	}
	for _, d := range rep.Disagreements {
		if d.B != "lpsolve" || !strings.Contains(d.Reason, "point 2") || !strings.Contains(d.Reason, "E 4.5") {
			t.Errorf("disagreement %+v does not name lpsolve's second point", d)
		}
	}
}

// TestReportFrontsWithinTheGap: a front proven within a 5% gap may merge points whose
// energies differ by less than 5%, but it may not claim a point below the exact front
// nor miss one by more than the gap.
func TestReportFrontsWithinTheGap(t *testing.T) {
	front := func(pts ...float64) any {
		var f []map[string]any
		for i := 0; i+1 < len(pts); i += 2 {
			f = append(f, map[string]any{"T": pts[i], "E": pts[i+1], "sizes": []int{1}})
		}
		return map[string]any{"front": f}
	}
	exact := rec("w", "exact", nil, solve.StatusOptimal, f64(2), 0)
	exact.Result.Solution = front(2, 100, 3, 98, 6, 50)
	for _, c := range []struct {
		name     string
		solution any
		conflict bool
	}{
		{"the 98 J point merged into the 100 J one (2% apart)", front(2, 100, 6, 50), false},
		{"every point within 5% above the exact ones", front(2, 102, 6, 52), false},
		{"a point 6% above the exact 98 J with nothing closer", front(2, 104, 6, 52), true},
		{"the 50 J point missed by more than the gap", front(2, 100, 6, 60), true},
		{"a point below the exact front", front(2, 100, 5, 50), true},
		{"no point as fast as T* = 2", front(3, 98, 6, 50), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := rec("w", "highs", f64(0.05), solve.StatusOptimal, f64(2), 0)
			h.Result.Solution = c.solution
			rep := bench.BuildReport([]*bench.Record{exact, h})
			if got := len(rep.Disagreements) > 0; got != c.conflict {
				t.Errorf("disagreements %+v, want conflict = %v", rep.Disagreements, c.conflict)
			}
		})
	}
}

func TestReportCountsTheCertificationWork(t *testing.T) {
	one := 1.0
	withCert := func(inst string, confirmed bool, secs ...float64) *bench.Record {
		r := rec(inst, "highs", nil, solve.StatusOptimal, &one, secs[0])
		c := &certify.Certificate{Method: "m", Confirmed: confirmed}
		for i, s := range secs {
			purpose := certify.PurposeSolve
			if i > 0 {
				purpose = certify.PurposeCutoff
			}
			c.Solves = append(c.Solves, certify.Attempt{Backend: "highs", Purpose: purpose, Seconds: s})
		}
		r.Result.Certificate = c
		return r
	}
	rep := bench.BuildReport([]*bench.Record{withCert("a", true, 2, 0.5), withCert("b", false, 2), withCert("c", true, 4, 1, 0.5)})
	if len(rep.Groups) != 1 {
		t.Fatalf("%d groups, want 1", len(rep.Groups))
	}
	g := rep.Groups[0]
	if g.Certified != 3 || g.Confirmed != 2 || g.ExtraSolves != 3 || g.FirstSeconds != 8 || g.ExtraSeconds != 2 {
		t.Errorf("certified %d, confirmed %d, added %d, first %g s, added %g s; want 3, 2, 3, 8, 2",
			g.Certified, g.Confirmed, g.ExtraSolves, g.FirstSeconds, g.ExtraSeconds)
	}
	if o := g.CertOverhead(); o != 0.25 {
		t.Errorf("overhead %g, want 0.25", o)
	}
	var md strings.Builder
	if err := rep.WriteMarkdown(&md, "t"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| highs | 3 | 2 | 3 | 8 | 2 | 25.0% |") {
		t.Errorf("the certification table is missing or wrong:\n%s", md.String())
	}
}
