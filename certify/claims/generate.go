package claims

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/schedopt/schedopt/model"
)

// Answer is the status of a reference answer: what is known to be true of a model.
type Answer uint8

// Reference statuses. Unknown means the generator does not know the answer; the
// runner then takes it from the agreement of the other backends (see Run).
const (
	Unknown    Answer = iota // not known by construction or enumeration
	Optimal                  // a finite optimum exists; Truth.Objective holds it
	Infeasible               // no point satisfies the model
	Unbounded                // feasible, and the objective improves without limit
)

// String returns the answer's name.
func (a Answer) String() string {
	switch a {
	case Unknown:
		return "unknown"
	case Optimal:
		return "optimal"
	case Infeasible:
		return "infeasible"
	case Unbounded:
		return "unbounded"
	}
	return fmt.Sprintf("Answer(%d)", uint8(a))
}

// Truth is the reference answer for a model: the status and, for Optimal, the
// optimal objective value (constant included). Claims are judged against it.
type Truth struct {
	Status    Answer
	Objective float64 // meaningful only when Status is Optimal
	// Slack is how far the true optimum may lie from Objective: 0 when it is known
	// by enumeration, ObjTol·max(1, |Objective|) when it is the optimum other
	// backends agree on (their answers carry their tolerances). Judge widens its
	// objective tolerance by it.
	Slack float64
}

// String formats the truth for reports, e.g. "optimal -12" or "infeasible".
func (t Truth) String() string {
	if t.Status == Optimal {
		return fmt.Sprintf("optimal %.10g", t.Objective)
	}
	return t.Status.String()
}

// Family names a generator family: a way of building models whose reference
// answer is known (or deliberately left to the other backends).
type Family string

// The generator families. Each is drawn at random with the weight GenConfig gives it.
const (
	// FamilyEnumerable models are pure-integer with a small box (the product of the
	// column ranges is at most GenConfig.EnumLimit): equality-heavy, ranged rows,
	// tight and fixed bounds, coefficient magnitude mixes, and traps that make many
	// of them infeasible (a row whose coefficients share a divisor the right-hand
	// side lacks, two rows on multiples of one expression with disjoint ranges,
	// shifted equalities). Some add "implied-free" integer columns: free or
	// one-sided columns fixed by an equality on the box columns, the bait for
	// presolve's substitutions; the enumeration then runs on a twin model whose
	// bounds are the implied range. Truth: enumeration with backendtest.BruteForce.
	FamilyEnumerable Family = "enumerable"
	// FamilyUnbounded models are planted: a feasible integer point x0 and an integer
	// direction d with A·d = 0 on equality and ranged rows, A·d of the right sign on
	// one-sided rows, an infinite column bound in d's direction (free columns and
	// one-sided MI/PL bounds), and c·d strictly improving. Truth: Unbounded; Case.Ray
	// holds x0 and d.
	FamilyUnbounded Family = "unbounded"
	// FamilyInfeasible models are planted among free and one-sided columns, so that
	// no enumeration could decide them: a Farkas certificate over two to four rows
	// (x+y ≤ 1 and x+y ≥ 2, generalised) or an integer congruence (an equality whose
	// integer coefficients share a divisor g that the right-hand side lacks, alone
	// or hidden as the difference of two equalities). Many of them have an
	// unbounded LP relaxation once the certificate rows are dropped: the bait for
	// "infeasible or unbounded". Truth: Infeasible; Case.Proof holds the
	// certificate.
	FamilyInfeasible Family = "infeasible"
	// FamilyMixed models are bounded mixed-integer programs: continuous columns with
	// fractional bounds, integers, binaries linked to continuous columns by big-M
	// rows, equality and ranged rows, magnitude mixes, and free "absolute value"
	// epigraph columns that the objective keeps bounded. Rows are placed around a
	// planted point, or (half of them) around the box's midpoint as in
	// backendtest.RandomMixed, whose models have caught HiGHS 1.10's MIP presolve.
	// Truth: Unknown; the runner takes the reference from the agreement of the
	// other backends.
	FamilyMixed Family = "mixed"
	// FamilyDecimal models copy the shape of the small models on which random-MILP
	// fuzzers found HiGHS presolve bugs: wide bounds around [-100, 100], half the
	// columns integer, two-decimal coefficients, right-hand sides with four
	// decimals. Truth: Unknown, as for FamilyMixed.
	FamilyDecimal Family = "decimal"
)

// Families lists the generator families in a fixed order.
func Families() []Family {
	return []Family{FamilyEnumerable, FamilyUnbounded, FamilyInfeasible, FamilyMixed, FamilyDecimal}
}

// Weights are the relative frequencies of the families. Only ratios matter.
type Weights struct {
	Enumerable, Unbounded, Infeasible, Mixed, Decimal float64
}

// DefaultWeights are the weights GenConfig uses when all are zero. With them about a
// third of all models are infeasible and a quarter unbounded, and a quarter are left
// to the agreement of the backends.
func DefaultWeights() Weights {
	return Weights{Enumerable: 0.3, Unbounded: 0.25, Infeasible: 0.2, Mixed: 0.15, Decimal: 0.1}
}

// total returns the sum of the weights.
func (w Weights) total() float64 {
	return w.Enumerable + w.Unbounded + w.Infeasible + w.Mixed + w.Decimal
}

// GenConfig controls Generate. The zero value is the default configuration.
type GenConfig struct {
	// MinVars and MaxVars bound the number of columns a family starts from (a few
	// families add helper columns). Defaults 3 and 10.
	MinVars, MaxVars int
	// Weights are the family frequencies; all zero means DefaultWeights. Negative
	// weights count as zero.
	Weights Weights
	// EnumLimit caps the number of integer points of an enumerable case's box, the
	// cost of its enumeration. Default 4096; implied-free columns may multiply it by
	// up to 8.
	EnumLimit int
}

// normalized returns c with defaults filled in.
func (c GenConfig) normalized() GenConfig {
	if c.MinVars <= 0 {
		c.MinVars = 3
	}
	if c.MaxVars <= 0 {
		c.MaxVars = 10
	}
	if c.MaxVars < c.MinVars {
		c.MaxVars = c.MinVars
	}
	w := &c.Weights
	for _, p := range []*float64{&w.Enumerable, &w.Unbounded, &w.Infeasible, &w.Mixed, &w.Decimal} {
		if !(*p > 0) || math.IsInf(*p, 1) {
			*p = 0
		}
	}
	if w.total() == 0 {
		*w = DefaultWeights()
	}
	if c.EnumLimit <= 0 {
		c.EnumLimit = 4096
	}
	return c
}

// Case is one generated model with its reference answer and, where the family plants
// one, the evidence behind the answer. Cases are independent: nothing is shared
// between two cases or with the generator.
type Case struct {
	Model   *model.Model
	Truth   Truth
	Family  Family
	Variant string // the family's traits used, e.g. "equality-heavy+gcd-trap"
	// Witness is an optimal point found by enumeration (FamilyEnumerable, when feasible).
	Witness []float64
	// Ray is the planted ray of a FamilyUnbounded case, nil otherwise.
	Ray *Ray
	// Proof is the planted certificate of a FamilyInfeasible case, nil otherwise.
	Proof *Proof
}

// Ray is a planted proof of unboundedness: Point is feasible, and Point + t·Dir is
// feasible for every t ≥ 0 (integral for integral t) with an objective that improves
// strictly as t grows.
type Ray struct {
	Point, Dir []float64
}

// Proof is a planted infeasibility certificate over rows of the model.
//
// With Modulus 0 it is a Farkas certificate: the multipliers combine the rows to
// Σ Mult_i·a_i = 0 exactly, while the bounds they select (the upper bound of a row
// with a positive multiplier, the lower bound of one with a negative multiplier) sum
// to a negative number, so 0 ≤ Σ Mult_i·(a_i·x) < 0 for every x.
//
// With Modulus g > 0 it is a congruence certificate: every row is an equality, the
// integer multipliers combine them to a row whose coefficients are 0 on continuous
// columns and multiples of g on integer columns, while the combined right-hand side
// is not a multiple of g, so no integer point satisfies the combination.
type Proof struct {
	Rows    []model.Row
	Mult    []float64
	Modulus float64
}

// GenerateAt returns case number i of the run seeded with seed: Generate with the
// generator rand.NewPCG(seed, i). It is how a wrong claim in a Report is reproduced.
func GenerateAt(seed uint64, i int, cfg GenConfig) Case {
	c := Generate(rand.New(rand.NewPCG(seed, uint64(i))), cfg)
	c.Model.Name = fmt.Sprintf("claims-%d-%d-%s", seed, i, c.Family)
	return c
}

// Generate draws a family with cfg's weights and returns one of its cases. It is
// deterministic: the same generator state and configuration give the same case.
func Generate(rng *rand.Rand, cfg GenConfig) Case {
	cfg = cfg.normalized()
	w := cfg.Weights
	n := cfg.MinVars + rng.IntN(cfg.MaxVars-cfg.MinVars+1)
	r := rng.Float64() * w.total()
	switch {
	case r < w.Enumerable:
		return genEnumerable(rng, n, cfg.EnumLimit)
	case r < w.Enumerable+w.Unbounded:
		return genUnbounded(rng, n)
	case r < w.Enumerable+w.Unbounded+w.Infeasible:
		return genInfeasible(rng, n)
	case r < w.Enumerable+w.Unbounded+w.Infeasible+w.Mixed:
		return genMixed(rng, n)
	}
	return genDecimal(rng, n)
}

// builder collects a model's columns in dense form while a family builds it.
type builder struct {
	rng    *rand.Rand
	m      *model.Model
	kind   []model.Kind
	lo, hi []float64
	e      model.Expr
	traits []string
}

func newBuilder(rng *rand.Rand, name string) *builder {
	return &builder{rng: rng, m: model.New(name)}
}

// col adds a column and returns its index.
func (b *builder) col(kind model.Kind, lo, hi float64) int {
	v := b.m.AddVar(kind, lo, hi, "")
	lo, hi = b.m.Bounds(v)
	b.kind = append(b.kind, kind)
	b.lo = append(b.lo, lo)
	b.hi = append(b.hi, hi)
	return int(v)
}

// n returns the number of columns so far.
func (b *builder) n() int { return len(b.kind) }

// row is a constraint in dense form, kept until the rows are shuffled and added.
type row struct {
	a      []float64
	lo, hi float64
	proof  bool // part of the planted certificate
	mult   float64
}

// addRows adds rows in a random order and returns the model rows of the certificate
// rows, in their original order, with their multipliers.
func (b *builder) addRows(rows []row) ([]model.Row, []float64) {
	order := b.rng.Perm(len(rows))
	at := make([]model.Row, len(rows))
	for _, k := range order {
		r := rows[k]
		b.e.Reset()
		for j, c := range r.a {
			if c != 0 {
				b.e.Add(model.Var(j), c)
			}
		}
		at[k] = b.m.AddRange(b.e, r.lo, r.hi, "")
	}
	var pr []model.Row
	var mult []float64
	for k, r := range rows {
		if r.proof {
			pr = append(pr, at[k])
			mult = append(mult, r.mult)
		}
	}
	return pr, mult
}

// objective sets sense c·x + constant.
func (b *builder) objective(sense model.Sense, c []float64, constant float64) {
	b.e.Reset()
	for j, v := range c {
		if v != 0 {
			b.e.Add(model.Var(j), v)
		}
	}
	b.e.AddConst(constant)
	b.m.SetObjective(sense, b.e)
}

func (b *builder) trait(s string) {
	if !slices.Contains(b.traits, s) {
		b.traits = append(b.traits, s)
	}
}

func (b *builder) variant() string {
	if len(b.traits) == 0 {
		return "plain"
	}
	return strings.Join(b.traits, "+")
}

// Coefficient styles of a row or objective.
type style uint8

const (
	styleSmall     style = iota // integers in [-5, 5]
	styleWide                   // integers in [-30, 30]
	styleQuarter                // multiples of 0.25 in [-5, 5]: exact in binary
	styleMagnitude              // small integers with a few ×100 and ×1000
	styleTenth                  // multiples of 0.1 in [-5, 5]: inexact in binary
	numStyles
)

// pickStyle draws a coefficient style, recording it as a trait when it is not the
// plain one. Tenths are drawn only when tenths is set: families whose certificate
// must cancel exactly in floating point do without them.
func (b *builder) pickStyle(tenths bool) style {
	for {
		s := style(b.rng.IntN(int(numStyles)))
		if s == styleTenth && !tenths {
			continue
		}
		switch s {
		case styleWide:
			b.trait("wide-coefs")
		case styleQuarter, styleTenth:
			b.trait("fractional-coefs")
		case styleMagnitude:
			b.trait("magnitude-mix")
		}
		return s
	}
}

// coef draws a nonzero coefficient of style s. Fractions are multiples of 0.1 or
// 0.25, so that activities at integer points stay on a coarse grid and a violation
// is never within a solver's tolerance.
func (b *builder) coef(s style) float64 {
	rng := b.rng
	for {
		var c float64
		switch s {
		case styleSmall:
			c = float64(rng.IntN(11) - 5)
		case styleWide:
			c = float64(rng.IntN(61) - 30)
		case styleQuarter:
			c = float64(rng.IntN(41)-20) / 4
		case styleTenth:
			c = float64(rng.IntN(101)-50) / 10
		case styleMagnitude:
			c = float64(rng.IntN(11) - 5)
			switch rng.IntN(6) {
			case 0:
				c *= 100
			case 1:
				c *= 1000
			}
		}
		if c != 0 {
			return c
		}
	}
}

// randomRow returns a dense row over the columns in cols (nil: all), each present
// with probability density, with at least one nonzero.
func (b *builder) randomRow(s style, density float64, cols []int) []float64 {
	a := make([]float64, b.n())
	if cols == nil {
		cols = make([]int, b.n())
		for j := range cols {
			cols[j] = j
		}
	}
	any := false
	for _, j := range cols {
		if b.rng.Float64() < density {
			a[j] = b.coef(s)
			any = true
		}
	}
	if !any && len(cols) > 0 {
		a[cols[b.rng.IntN(len(cols))]] = b.coef(s)
	}
	return a
}

// dot returns a·x, summing in column order.
func dot(a, x []float64) float64 {
	s := 0.0
	for j, v := range a {
		if v != 0 {
			s += v * x[j]
		}
	}
	return s
}

// slack draws a nonnegative right-hand-side slack: 0 (a tight row) a third of the
// time, otherwise a small integer, or a multiple of 0.25 when fractions is set.
func (b *builder) slack(fractions bool) float64 {
	if b.rng.IntN(3) == 0 {
		return 0
	}
	if fractions && b.rng.IntN(2) == 0 {
		return float64(1+b.rng.IntN(12)) / 4
	}
	return float64(1 + b.rng.IntN(4))
}

// anchoredRow turns a into a row satisfied at x with the relation drawn from eqShare
// and rangeShare: an equality a·x = a·x0, a range around a·x0, or a one-sided row
// with a slack.
func (b *builder) anchoredRow(a, x []float64, eqShare, rangeShare float64, fractions bool) row {
	act := dot(a, x)
	r := b.rng.Float64()
	switch {
	case r < eqShare:
		return row{a: a, lo: act, hi: act}
	case r < eqShare+rangeShare:
		b.trait("ranged")
		return row{a: a, lo: act - b.slack(fractions), hi: act + b.slack(fractions)}
	case b.rng.IntN(2) == 0:
		return row{a: a, lo: math.Inf(-1), hi: act + b.slack(fractions)}
	}
	return row{a: a, lo: act - b.slack(fractions), hi: math.Inf(1)}
}

// randomSense returns Minimize or Maximize with equal probability.
func randomSense(rng *rand.Rand) model.Sense {
	if rng.IntN(2) == 0 {
		return model.Maximize
	}
	return model.Minimize
}

// randomObjective returns objective coefficients of style s on each column with
// probability density.
func (b *builder) randomObjective(s style, density float64) []float64 {
	c := make([]float64, b.n())
	for j := range c {
		if b.rng.Float64() < density {
			c[j] = b.coef(s)
		}
	}
	return c
}
