package claims

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/backendtest"
	"github.com/schedopt/schedopt/backends/registry"
	"github.com/schedopt/schedopt/certify"
	"github.com/schedopt/schedopt/model"
)

// TestGeneratorTruths checks every truth the generator claims, independently of it:
// enumerable cases by backendtest.BruteForce (on a twin whose implied-free columns
// get the bounds their defining equality implies, derived here from the model
// alone), planted rays by model.Verify along the ray, planted infeasibility by the
// certificate's arithmetic.
func TestGeneratorTruths(t *testing.T) {
	for _, tc := range []struct {
		cfg   GenConfig
		count int
	}{
		{GenConfig{}, 600},
		{GenConfig{MinVars: 1, MaxVars: 2}, 150},
		{GenConfig{MinVars: 12, MaxVars: 16, EnumLimit: 1 << 12}, 100},
	} {
		t.Run(fmt.Sprintf("%d-%d columns", tc.cfg.MinVars, tc.cfg.MaxVars), func(t *testing.T) {
			checkTruths(t, tc.cfg, tc.count)
		})
	}
}

// checkTruths checks the truths of count cases generated with cfg.
func checkTruths(t *testing.T, cfg GenConfig, count int) {
	if testing.Short() {
		count /= 4
	}
	seen := map[string]int{}
	for i := range count {
		c := GenerateAt(7, i, cfg)
		m := c.Model
		if err := m.Validate(); err != nil {
			t.Fatalf("case %d (%s): invalid model: %v", i, c.Family, err)
		}
		seen[string(c.Family)+" "+c.Truth.Status.String()]++
		switch c.Family {
		case FamilyEnumerable:
			checkEnumerable(t, i, c)
		case FamilyUnbounded:
			if c.Truth.Status != Unbounded || c.Ray == nil {
				t.Fatalf("case %d: unbounded family with truth %v, ray %v", i, c.Truth, c.Ray)
			}
			if err := checkRay(m, c.Ray); err != nil {
				t.Errorf("case %d (%s): %v", i, c.Variant, err)
			}
		case FamilyInfeasible:
			if c.Truth.Status != Infeasible || c.Proof == nil {
				t.Fatalf("case %d: infeasible family with truth %v, proof %v", i, c.Truth, c.Proof)
			}
			if err := checkProof(m, c.Proof); err != nil {
				t.Errorf("case %d (%s): %v", i, c.Variant, err)
			}
		case FamilyMixed:
			if c.Truth.Status != Unknown {
				t.Errorf("case %d: mixed family with truth %v", i, c.Truth)
			}
			checkMixedBounded(t, i, m)
		case FamilyDecimal:
			if c.Truth.Status != Unknown || m.NumVars() > maxDecimalVars {
				t.Errorf("case %d: decimal family with truth %v and %d columns", i, c.Truth, m.NumVars())
			}
		default:
			t.Fatalf("case %d: unknown family %q", i, c.Family)
		}
	}
	t.Logf("cases by family and truth: %v", seen)
}

// checkEnumerable compares an enumerable case's truth with BruteForce.
func checkEnumerable(t *testing.T, i int, c Case) {
	t.Helper()
	m := c.Model
	for j := range m.NumVars() {
		if !m.VarKind(model.Var(j)).IsInteger() {
			t.Fatalf("case %d: enumerable case with a continuous column", i)
		}
	}
	twin := impliedTwin(t, m)
	_, obj, feasible, err := backendtest.BruteForce(twin)
	if err != nil {
		t.Fatalf("case %d (%s): %v", i, c.Variant, err)
	}
	switch {
	case feasible && (c.Truth.Status != Optimal || math.Abs(c.Truth.Objective-obj) > 1e-9*math.Max(1, math.Abs(obj))):
		t.Errorf("case %d (%s): truth %v, enumeration optimal %g", i, c.Variant, c.Truth, obj)
	case !feasible && c.Truth.Status != Infeasible:
		t.Errorf("case %d (%s): truth %v, enumeration infeasible", i, c.Variant, c.Truth)
	}
	if feasible {
		rep, err := m.Verify(c.Witness)
		if err != nil || !rep.Feasible() || math.Abs(rep.Objective-obj) > 1e-9*math.Max(1, math.Abs(obj)) {
			t.Errorf("case %d: witness %v: %v, %+v; optimum %g", i, c.Witness, err, rep, obj)
		}
	}
}

// impliedTwin returns m, or a copy in which every column with an infinite bound is
// bounded by the range an equality row implies for it from columns with finite
// bounds. It fails the test when a column has no such row.
func impliedTwin(t *testing.T, m *model.Model) *model.Model {
	t.Helper()
	var twin *model.Model
	for j := range m.NumVars() {
		v := model.Var(j)
		lo, hi := m.Bounds(v)
		if !math.IsInf(lo, 0) && !math.IsInf(hi, 0) {
			continue
		}
		found := false
		for r := range m.NumRows() {
			rlo, rhi := m.RowBounds(model.Row(r))
			if rlo != rhi {
				continue
			}
			idx, val := m.RowTerms(model.Row(r))
			// rhs − Σ_{k≠j} a_k x_k over the box, divided by a_j.
			a, smin, smax, ok := 0.0, rlo, rlo, true
			for k, col := range idx {
				if int(col) == j {
					a = val[k]
					continue
				}
				l, h := m.Bounds(model.Var(col))
				if math.IsInf(l, 0) || math.IsInf(h, 0) {
					ok = false
					break
				}
				smin -= math.Max(val[k]*l, val[k]*h)
				smax -= math.Min(val[k]*l, val[k]*h)
			}
			if !ok || a == 0 {
				continue
			}
			zlo, zhi := smin/a, smax/a
			if a < 0 {
				zlo, zhi = zhi, zlo
			}
			if twin == nil {
				twin = m.Clone()
			}
			twin.SetBounds(v, math.Max(lo, math.Ceil(zlo-1e-9)), math.Min(hi, math.Floor(zhi+1e-9)))
			found = true
			break
		}
		if !found {
			t.Fatalf("%s: column %s has an infinite bound and no defining equality", m.Name, m.VarName(v))
		}
	}
	if twin == nil {
		return m
	}
	return twin
}

// checkRay verifies a planted ray: x0 feasible, x0 + t·d feasible for t = 1, 10,
// 1000 with an objective strictly better each time.
func checkRay(m *model.Model, r *Ray) error {
	rep, err := m.Verify(r.Point)
	if err != nil || !rep.Feasible() || rep.MaxViolation() != 0 {
		return fmt.Errorf("planted point %v: %v, %+v", r.Point, err, rep)
	}
	if allZero(r.Dir) {
		return fmt.Errorf("zero direction")
	}
	sign := float64(m.Sense())
	prev := rep.Objective
	for _, step := range []float64{1, 10, 1000} {
		x := make([]float64, len(r.Point))
		for j := range x {
			x[j] = r.Point[j] + step*r.Dir[j]
		}
		rep, err := m.Verify(x)
		if err != nil || !rep.Feasible() || rep.MaxViolation() != 0 {
			return fmt.Errorf("x0 + %g·d = %v: %v, %s", step, x, err, rep.Worst)
		}
		if !(sign*(rep.Objective-prev) < 0) {
			return fmt.Errorf("x0 + %g·d: objective %g does not improve on %g", step, rep.Objective, prev)
		}
		prev = rep.Objective
	}
	return nil
}

// checkProof checks a planted infeasibility certificate from the model's rows.
func checkProof(m *model.Model, p *Proof) error {
	if len(p.Rows) == 0 || len(p.Rows) != len(p.Mult) {
		return fmt.Errorf("proof with %d rows and %d multipliers", len(p.Rows), len(p.Mult))
	}
	comb := make([]float64, m.NumVars())
	bound := 0.0 // Farkas: Σ λ_i · (the bound λ_i selects); congruence: Σ λ_i · rhs_i
	for i, r := range p.Rows {
		lam := p.Mult[i]
		lo, hi := m.RowBounds(r)
		idx, val := m.RowTerms(r)
		for k, j := range idx {
			comb[j] += lam * val[k]
		}
		switch {
		case p.Modulus > 0:
			if lo != hi || math.IsInf(lo, 0) || lam != math.Round(lam) {
				return fmt.Errorf("congruence row %d: bounds [%g, %g], multiplier %g", r, lo, hi, lam)
			}
			bound += lam * lo
		case lam > 0 && !math.IsInf(hi, 0):
			bound += lam * hi
		case lam < 0 && !math.IsInf(lo, 0):
			bound += lam * lo
		default:
			return fmt.Errorf("Farkas row %d: multiplier %g selects an infinite bound of [%g, %g]", r, lam, lo, hi)
		}
	}
	if p.Modulus == 0 {
		for j, c := range comb {
			if c != 0 {
				return fmt.Errorf("Farkas combination has %g on column %d", c, j)
			}
		}
		if !(bound <= -0.1) {
			return fmt.Errorf("Farkas combination 0 <= %g is satisfiable", bound)
		}
		return nil
	}
	g := p.Modulus
	for j, c := range comb {
		if c == 0 {
			continue
		}
		if !m.VarKind(model.Var(j)).IsInteger() {
			return fmt.Errorf("congruence combination has %g on continuous column %d", c, j)
		}
		if c/g != math.Round(c/g) {
			return fmt.Errorf("congruence coefficient %g is not a multiple of %g", c, g)
		}
	}
	if q := bound / g; math.Abs(q-math.Round(q)) < 0.1 {
		return fmt.Errorf("congruence right-hand side %g is a multiple of %g", bound, g)
	}
	return nil
}

// checkMixedBounded checks that a mixed case's only unbounded columns are
// continuous epigraph columns the objective pushes towards their lower bound.
func checkMixedBounded(t *testing.T, i int, m *model.Model) {
	t.Helper()
	for j := range m.NumVars() {
		v := model.Var(j)
		lo, hi := m.Bounds(v)
		if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
			if m.VarKind(v).IsInteger() || float64(m.Sense())*m.ObjectiveCoef(v) <= 0 {
				t.Errorf("case %d: free column %s is %s with cost %g", i, m.VarName(v), m.VarKind(v), m.ObjectiveCoef(v))
			}
		}
	}
}

// TestGeneratorMix checks the share of infeasible and unbounded models, that the
// weights select families and that generation is deterministic per seed.
func TestGeneratorMix(t *testing.T) {
	const count = 1000
	answers := map[Answer]int{}
	for i := range count {
		answers[GenerateAt(3, i, GenConfig{}).Truth.Status]++
	}
	for _, a := range []Answer{Infeasible, Unbounded} {
		if share := float64(answers[a]) / count; share < 0.2 {
			t.Errorf("%s share %.2f < 0.2 (%v)", a, share, answers)
		}
	}
	t.Logf("truths of %d models: %v", count, answers)

	for _, tc := range []struct {
		w    Weights
		want Family
	}{
		{Weights{Enumerable: 1}, FamilyEnumerable},
		{Weights{Unbounded: 2}, FamilyUnbounded},
		{Weights{Infeasible: 1, Mixed: -1}, FamilyInfeasible},
		{Weights{Mixed: 0.5}, FamilyMixed},
		{Weights{Decimal: 3, Enumerable: math.Inf(1)}, FamilyDecimal},
	} {
		for i := range 20 {
			if c := GenerateAt(5, i, GenConfig{Weights: tc.w}); c.Family != tc.want {
				t.Errorf("weights %+v: family %s", tc.w, c.Family)
			}
		}
	}

	for i := range 50 {
		cfg := GenConfig{MinVars: 2, MaxVars: 12}
		a, b := GenerateAt(11, i, cfg), GenerateAt(11, i, cfg)
		var wa, wb bytes.Buffer
		if err := a.Model.WriteLP(&wa); err != nil {
			t.Fatal(err)
		}
		if err := b.Model.WriteLP(&wb); err != nil {
			t.Fatal(err)
		}
		if wa.String() != wb.String() || a.Truth != b.Truth || a.Variant != b.Variant {
			t.Fatalf("case %d differs between two generations with the same seed", i)
		}
	}
	// Generate itself takes any generator.
	c := Generate(rand.New(rand.NewPCG(1, 2)), GenConfig{MinVars: 1, MaxVars: 1})
	if c.Model == nil || c.Model.Validate() != nil {
		t.Errorf("one-column case: %v", c.Model.Validate())
	}
}

// judgeModel is  min x + y  s.t.  x + y ≥ 1,  x, y ∈ {0..3} integer: optimum 1.
func judgeModel() *model.Model {
	m := model.New("judge")
	x := m.AddInteger(0, 3, "x")
	y := m.AddInteger(0, 3, "y")
	m.AddConstr(model.Sum(x, y), model.GE, 1, "cover")
	m.SetObjective(model.Minimize, model.Sum(x, y))
	return m
}

// TestJudge classifies hand-made claims against hand-made truths.
func TestJudge(t *testing.T) {
	nan := math.NaN()
	opt1 := Truth{Status: Optimal, Objective: 1}
	inf := Truth{Status: Infeasible}
	unb := Truth{Status: Unbounded}
	unknown := Truth{}
	pt := func(x ...float64) []float64 { return x }
	claim := func(s backends.Status, obj float64, x []float64) Claim {
		return Claim{Status: s, Objective: obj, Values: x}
	}
	for _, tc := range []struct {
		name  string
		claim Claim
		truth Truth
		opts  backends.Options
		want  Verdict
	}{
		{"right optimum with point", claim(backends.Optimal, 1, pt(1, 0)), opt1, backends.Options{}, OK},
		{"right optimum without point", claim(backends.Optimal, 1, nil), opt1, backends.Options{}, OK},
		{"optimum within 1e-6", claim(backends.Optimal, 1+5e-7, pt(0, 1)), opt1, backends.Options{}, OK},
		{"optimum off by 1e-5", claim(backends.Optimal, 1+1e-5, pt(0, 1)), opt1, backends.Options{}, WrongOptimum},
		{"optimum within the reference's slack", claim(backends.Optimal, 1+1.5e-6, nil), Truth{Status: Optimal, Objective: 1, Slack: 1e-6}, backends.Options{}, OK},
		{"optimum beyond the reference's slack", claim(backends.Optimal, 1+2.5e-6, nil), Truth{Status: Optimal, Objective: 1, Slack: 1e-6}, backends.Options{}, WrongOptimum},
		{"optimum within the requested gap", claim(backends.Optimal, 1.05, nil), opt1, backends.Options{RelGap: 0.1}, OK},
		{"wrong optimum", claim(backends.Optimal, 2, pt(1, 1)), opt1, backends.Options{}, WrongOptimum},
		{"right value, suboptimal point", claim(backends.Optimal, 1, pt(1, 1)), opt1, backends.Options{}, WrongOptimum},
		{"NaN optimum", claim(backends.Optimal, nan, nil), opt1, backends.Options{}, WrongOptimum},
		{"optimal with violating point", claim(backends.Optimal, 1, pt(0, 0)), opt1, backends.Options{}, BadPoint},
		{"optimal with fractional point", claim(backends.Optimal, 1, pt(0.5, 0.5)), opt1, backends.Options{}, BadPoint},
		{"optimal with point of wrong length", claim(backends.Optimal, 1, pt(1)), opt1, backends.Options{}, BadPoint},
		{"optimal 1e30 on unbounded", claim(backends.Optimal, 1e30, pt(1e30, 0)), unb, backends.Options{}, FalseOptimal},
		{"optimal on infeasible", claim(backends.Optimal, 1, pt(1, 0)), inf, backends.Options{}, FalseOptimal},
		{"infeasible on optimal", claim(backends.Infeasible, nan, nil), opt1, backends.Options{}, FalseInfeasible},
		{"infeasible on unbounded", claim(backends.Infeasible, nan, nil), unb, backends.Options{}, FalseInfeasible},
		{"infeasible on infeasible", claim(backends.Infeasible, nan, nil), inf, backends.Options{}, OK},
		{"unbounded on optimal", claim(backends.Unbounded, nan, nil), opt1, backends.Options{}, FalseUnbounded},
		{"unbounded on infeasible", claim(backends.Unbounded, nan, nil), inf, backends.Options{}, FalseUnbounded},
		{"unbounded on unbounded", claim(backends.Unbounded, nan, nil), unb, backends.Options{}, OK},
		{"unbounded with feasible point", claim(backends.Unbounded, 2, pt(1, 1)), unb, backends.Options{}, OK},
		{"unbounded with bad point", claim(backends.Unbounded, 0, pt(0, 0)), unb, backends.Options{}, BadPoint},
		{"inf-or-unbd on optimal", claim(backends.InfeasibleOrUnbounded, nan, nil), opt1, backends.Options{}, FalseInfOrUnbd},
		{"inf-or-unbd on infeasible", claim(backends.InfeasibleOrUnbounded, nan, nil), inf, backends.Options{}, Indefinite},
		{"inf-or-unbd on unbounded", claim(backends.InfeasibleOrUnbounded, nan, nil), unb, backends.Options{}, Indefinite},
		{"inf-or-unbd without reference", claim(backends.InfeasibleOrUnbounded, nan, nil), unknown, backends.Options{}, Indefinite},
		{"time limit with incumbent", claim(backends.TimeLimit, 2, pt(1, 1)), opt1, backends.Options{}, Indefinite},
		{"time limit without incumbent", claim(backends.TimeLimit, nan, nil), opt1, backends.Options{}, Indefinite},
		{"time limit with bad incumbent", claim(backends.TimeLimit, 0, pt(0, 0)), opt1, backends.Options{}, BadPoint},
		{"incumbent beyond the optimum", claim(backends.TimeLimit, 1, pt(1, 0)), Truth{Status: Optimal, Objective: 2}, backends.Options{}, BeyondOptimum},
		{"incumbent on an infeasible model", claim(backends.Other, 1, pt(1, 0)), inf, backends.Options{}, BadPoint},
		{"interrupted", claim(backends.Interrupted, nan, nil), opt1, backends.Options{}, Indefinite},
		{"numerical error", claim(backends.NumericalError, nan, nil), inf, backends.Options{}, Indefinite},
		{"other", claim(backends.Other, nan, nil), unb, backends.Options{}, Indefinite},
		{"error return", ClaimOf(backends.Result{}, errors.New("boom")), opt1, backends.Options{}, Indefinite},
		{"optimal without reference", claim(backends.Optimal, 7, pt(3, 3)), unknown, backends.Options{}, Unjudged},
		{"infeasible without reference", claim(backends.Infeasible, nan, nil), unknown, backends.Options{}, Unjudged},
		{"bad point without reference", claim(backends.Optimal, 0, pt(0, 0)), unknown, backends.Options{}, BadPoint},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := Judge(judgeModel(), tc.claim, tc.truth, tc.opts)
			if j.Verdict != tc.want {
				t.Errorf("%s against %s: %s (%s), want %s", tc.claim, tc.truth, j.Verdict, j.Detail, tc.want)
			}
			if j.Verdict.Wrong() != (tc.want != OK && tc.want != Indefinite && tc.want != Unjudged) {
				t.Errorf("%s.Wrong() = %v", j.Verdict, j.Verdict.Wrong())
			}
		})
	}
	// ClaimOf keeps a point only when the result has one.
	if c := ClaimOf(backends.Result{Status: backends.TimeLimit, Objective: nan, Values: []float64{1, 2}}, nil); c.Values != nil {
		t.Errorf("ClaimOf without HasSolution kept the values")
	}
}

// TestAgreement checks how the reference of a model without a known truth is taken
// from the other backends' certified claims.
func TestAgreement(t *testing.T) {
	m := judgeModel() // min x + y, x + y ≥ 1: optimum 1
	nan := math.NaN()
	opt := func(obj float64, x ...float64) solved {
		return solved{claim: Claim{Status: backends.Optimal, Objective: obj, Values: x}}
	}
	status := func(s backends.Status) solved { return solved{claim: Claim{Status: s, Objective: nan}} }
	for _, tc := range []struct {
		name   string
		all    []string
		cert   map[string]solved
		extra  []solved // further claims on the model (raw solves)
		want   Answer
		wantOb float64
	}{
		{"two others agree on an optimum", []string{"a", "b", "c"},
			map[string]solved{"a": opt(5, 3, 2), "b": opt(1, 1, 0), "c": opt(1+1e-7, 0, 1)}, nil, Optimal, 1},
		{"one other, optimum backed by its point", []string{"a", "b"},
			map[string]solved{"a": status(backends.Infeasible), "b": opt(1, 0, 1)}, nil, Optimal, 1},
		{"optimum without a point", []string{"a", "b"},
			map[string]solved{"b": {claim: Claim{Status: backends.Optimal, Objective: 1}}}, nil, Unknown, 0},
		{"optimum backed by a violating point", []string{"a", "b"},
			map[string]solved{"b": opt(0, 0, 0)}, nil, Unknown, 0},
		{"optima differ", []string{"a", "b", "c"},
			map[string]solved{"b": opt(1, 1, 0), "c": opt(2, 1, 1)}, nil, Unknown, 0},
		{"statuses differ", []string{"a", "b", "c"},
			map[string]solved{"b": status(backends.Infeasible), "c": opt(1, 1, 0)}, nil, Unknown, 0},
		{"an indefinite answer", []string{"a", "b", "c"},
			map[string]solved{"b": status(backends.TimeLimit), "c": opt(1, 1, 0)}, nil, Unknown, 0},
		{"an error", []string{"a", "b"},
			map[string]solved{"b": {claim: ClaimOf(backends.Result{}, errors.New("boom"))}}, nil, Unknown, 0},
		{"agreed infeasibility refuted by a verified point", []string{"a", "b"},
			map[string]solved{"b": status(backends.Infeasible)}, []solved{opt(2, 1, 1)}, Unknown, 0},
		{"agreed infeasibility, violating point elsewhere", []string{"a", "b"},
			map[string]solved{"b": status(backends.Infeasible)}, []solved{opt(0, 0, 0)}, Infeasible, 0},
		{"agreed optimum refuted by a better verified point", []string{"a", "b"},
			map[string]solved{"b": opt(2, 1, 1)}, []solved{opt(1, 1, 0)}, Unknown, 0},
		{"agreed unboundedness", []string{"a", "b"},
			map[string]solved{"b": status(backends.Unbounded)}, nil, Unbounded, 0},
		{"no other backend", []string{"a"}, map[string]solved{"a": opt(1, 1, 0)}, nil, Unknown, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &runner{all: tc.all}
			every := append([]solved(nil), tc.extra...)
			for _, s := range tc.cert {
				every = append(every, s)
			}
			ref, source := r.agreement(m, "a", tc.cert, every)
			if ref.Status != tc.want || ref.Status == Optimal && math.Abs(ref.Objective-tc.wantOb) > 1e-6 {
				t.Errorf("reference %v (%s), want %s %g", ref, source, tc.want, tc.wantOb)
			}
			if ref.Status == Optimal && ref.Slack <= 0 {
				t.Errorf("agreed optimum without slack")
			}
		})
	}
}

// TestRunConfig checks the runner's handling of unknown backends, an empty run and
// cancellation.
func TestRunConfig(t *testing.T) {
	rep, err := Run(context.Background(), RunConfig{N: 3, Backends: []string{"nosuch"}})
	if err == nil || !strings.Contains(err.Error(), "nosuch") || len(rep.Tallies) != 0 {
		t.Errorf("unknown backend: %v, %d tallies", err, len(rep.Tallies))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err = Run(ctx, RunConfig{N: 50, Backends: registry.Names()[:1]})
	if !errors.Is(err, context.Canceled) || rep.N != 0 {
		t.Errorf("cancelled run: %v, %d models", err, rep.N)
	}
	var calls int
	rep, err = Run(context.Background(), RunConfig{N: 4, Seed: 9, Backends: []string{registry.Names()[0], "nosuch"},
		Gen: GenConfig{Weights: Weights{Enumerable: 1}}, TimeLimit: 2 * time.Second,
		Progress: func(done, total int) {
			calls++
			if done != calls || total != 4 {
				t.Errorf("progress %d/%d at call %d", done, total, calls)
			}
		}})
	if err == nil || rep.N != 4 || calls != 4 || len(rep.Tallies) != 2 {
		t.Errorf("partial backends: %v, %d models, %d progress calls, %d tallies", err, rep.N, calls, len(rep.Tallies))
	}
	for _, tl := range rep.Tallies {
		if tl.Models != 4 || tl.Judged != 4 {
			t.Errorf("%s %s: %d models, %d judged", tl.Backend, tl.Mode, tl.Models, tl.Judged)
		}
	}
}

// TestShortSuite is the wrong-claims suite `make test` runs: 150 models per
// registered backend, every claim judged raw and certified. The certified claims
// must all be right; the raw counts are logged.
func TestShortSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("solves 150 models per backend")
	}
	// One second per solve: the models solve in milliseconds, and a longer limit only
	// waits longer for branch and bound on the hopeless ones (congruences over free
	// integers), which end indefinite either way.
	rep, err := Run(context.Background(), RunConfig{N: 150, Seed: 20240601, TimeLimit: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var md strings.Builder
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", md.String())
	for _, tl := range rep.Tallies {
		if tl.Mode == Raw {
			t.Logf("raw %s: %d wrong claims %v, %d indefinite %v", tl.Backend, tl.Wrong, tl.WrongBy, tl.Indefinite, tl.IndefiniteBy)
		}
	}
	for _, wc := range rep.Wrong {
		if wc.Mode == Certified {
			t.Errorf("certified %s on model %d (%s, %s): %s — claim %s, reference %s (%s): %s",
				wc.Backend, wc.Index, wc.Family, wc.Variant, wc.Verdict, wc.Claim, wc.Reference, wc.Source, wc.Detail)
		}
	}
}

// TestRecordedWrongClaims re-runs models on which a certified claim was once wrong
// (the 10^4-model run of docs/certification.md, seed 1) and requires the right answer:
// CBC 2.10 called these unbounded MILPs infeasible, or claimed an optimum of -1.6e11,
// and confirmed it by a cutoff solve it also called infeasible.
func TestRecordedWrongClaims(t *testing.T) {
	for _, tc := range []struct {
		backend string
		index   int
	}{
		{registry.CBC, 812}, {registry.CBC, 4654}, {registry.CBC, 4682}, {registry.CBC, 9562},
	} {
		t.Run(fmt.Sprintf("%s model %d", tc.backend, tc.index), func(t *testing.T) {
			c := GenerateAt(1, tc.index, GenConfig{})
			s, err := registry.New(tc.backend)
			if err != nil {
				t.Fatal(err)
			}
			p := certify.Policy{}
			for i, name := range registry.Others(tc.backend) {
				o, err := registry.New(name)
				if err != nil {
					t.Fatal(err)
				}
				if i == 0 {
					p.Second = o
				} else {
					p.Third = o
				}
			}
			opts := backends.Options{TimeLimit: 5 * time.Second, Threads: 1}
			res, err := certify.Solve(context.Background(), s, c.Model, opts, p)
			j := Judge(c.Model, ClaimOf(res.Result, err), c.Truth, opts)
			if j.Verdict.Wrong() || j.Verdict == Indefinite {
				t.Errorf("%s (%s): %s", j.Verdict, j.Detail, res.Certificate.Method)
			}
		})
	}
}
