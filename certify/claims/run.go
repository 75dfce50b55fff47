package claims

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/registry"
	"github.com/schedopt/schedopt/certify"
	"github.com/schedopt/schedopt/model"
)

// Mode says whether a solve ran under the certification policy.
type Mode string

// Modes: every model is solved once of each.
const (
	Raw       Mode = "raw"       // certify.Policy{Off: true}: the solver's own claims
	Certified Mode = "certified" // the default certify.Policy with a second backend
)

// Defaults of RunConfig.
const (
	DefaultWorkers   = 2
	DefaultTimeLimit = 10 * time.Second
)

// RunConfig controls Run. The zero value runs nothing (N = 0) with the defaults.
type RunConfig struct {
	// N is the number of models; every backend solves each of them twice.
	N int
	// Seed seeds the generator: model i is GenerateAt(Seed, i, Gen).
	Seed uint64
	// Backends names the backends to judge (registry names); nil means all
	// registered. Names the registry does not know are skipped and reported in
	// Run's error.
	Backends []string
	// Workers is the number of models solved at once; 0 means DefaultWorkers. Each
	// solve uses one thread.
	Workers int
	// TimeLimit limits each solve (raw and certified alike); 0 means
	// DefaultTimeLimit.
	TimeLimit time.Duration
	// Gen configures the generator.
	Gen GenConfig
	// Progress, when set, is called after each model with the number judged so far
	// and N. Calls are serialised.
	Progress func(done, total int)
}

// Tally counts one backend's claims under one mode.
type Tally struct {
	Backend string
	Mode    Mode
	// Models is the number of models solved.
	Models int
	// Judged is the number of models with a reference answer: known by
	// construction or enumeration, or agreed on by the other backends.
	Judged int
	// Wrong is the number of wrong claims; WrongBy splits it by verdict.
	Wrong   int
	WrongBy map[Verdict]int
	// Indefinite is the number of answers without a definite status; IndefiniteBy
	// splits it by status ("error" for an error return).
	Indefinite   int
	IndefiniteBy map[string]int
	// Unjudged is the number of definite claims on models without a reference.
	Unjudged int
	// Seconds is the total wall time of the solves, certification included.
	Seconds float64
}

// WrongClaim is one wrong claim, with what is needed to reproduce it:
// GenerateAt(Report.Seed, Index, Report.Gen) rebuilds the model.
type WrongClaim struct {
	Index     int
	Family    Family
	Variant   string
	Backend   string
	Mode      Mode
	Verdict   Verdict
	Claim     string // the claim as Claim.String formats it
	Reference string // the reference answer, as Truth.String formats it
	Source    string // where the reference came from: "construction", "enumeration", "agreement"
	Detail    string
}

// Report is the outcome of Run.
type Report struct {
	N         int // models solved and judged (fewer than RunConfig.N when the run was cancelled)
	Seed      uint64
	Gen       GenConfig // normalised
	TimeLimit time.Duration
	Workers   int
	// Versions maps the registered backends to their solver versions.
	Versions map[string]string
	// Families counts the models per family.
	Families map[Family]int
	// Answers counts the models per reference status known by construction or
	// enumeration (Unknown: left to the agreement of the backends).
	Answers map[Answer]int
	// Tallies holds one entry per judged backend and mode, backend by backend,
	// Raw before Certified.
	Tallies []Tally
	// Wrong lists every wrong claim, by model index, backend and mode.
	Wrong []WrongClaim
	// Elapsed is the run's wall time.
	Elapsed time.Duration
}

// Tally returns the tally of backend under mode, or nil.
func (r *Report) Tally(backend string, mode Mode) *Tally {
	for i := range r.Tallies {
		if r.Tallies[i].Backend == backend && r.Tallies[i].Mode == mode {
			return &r.Tallies[i]
		}
	}
	return nil
}

// solved is one solve's claim and wall time.
type solved struct {
	claim   Claim
	seconds float64
}

// verdictOf is one judged claim of a model.
type verdictOf struct {
	j       Judgement
	claim   string
	status  string
	judged  bool
	seconds float64
}

// outcome is what a worker hands back for one model: small, the model is gone.
type outcome struct {
	index     int
	family    Family
	variant   string
	answer    Answer
	ref       []Truth  // per judged backend
	source    []string // per judged backend
	raw, cert []verdictOf
}

// runner is one Run's fixed state, shared read-only by its workers.
type runner struct {
	cfg     RunConfig
	names   []string // backends judged
	all     []string // every registered backend
	solvers map[string]backends.Solver
	opts    backends.Options
}

// Run generates cfg.N models and judges every claim the backends make on them, raw
// and certified. For each model and backend it solves twice with one thread, gap 0
// and cfg.TimeLimit: raw (certify.Policy{Off: true}) and certified (the default
// policy with Second and Third from registry.Others(backend)). The reference answer is the case's Truth
// when the generator knows it; otherwise the certified answer all other registered
// backends agree on (same definite status, optima within ObjTol), provided a
// verified point backs an agreed optimum and no verified point from any solve of the
// model refutes it. Models without a reference are still checked for bad points.
//
// Run returns the report and an error that joins the unknown backend names and the
// context's error; on cancellation the report covers the models finished so far.
func Run(ctx context.Context, cfg RunConfig) (*Report, error) {
	begin := time.Now()
	if cfg.Workers <= 0 {
		cfg.Workers = DefaultWorkers
	}
	if cfg.TimeLimit <= 0 {
		cfg.TimeLimit = DefaultTimeLimit
	}
	cfg.Gen = cfg.Gen.normalized()
	if cfg.Backends == nil {
		cfg.Backends = registry.Names()
	}
	var errs []error
	r := &runner{cfg: cfg, all: registry.Names(), solvers: map[string]backends.Solver{},
		opts: backends.Options{TimeLimit: cfg.TimeLimit, Threads: 1}}
	for _, name := range cfg.Backends {
		if !registry.Has(name) {
			errs = append(errs, fmt.Errorf("claims: unknown backend %q skipped (registered: %v)", name, r.all))
			continue
		}
		if !slices.Contains(r.names, name) {
			r.names = append(r.names, name)
		}
	}
	for _, name := range r.all {
		s, err := registry.New(name)
		if err != nil {
			return nil, err
		}
		r.solvers[name] = s
	}
	rep := &Report{Seed: cfg.Seed, Gen: cfg.Gen, TimeLimit: cfg.TimeLimit, Workers: cfg.Workers,
		Versions: registry.Versions(), Families: map[Family]int{}, Answers: map[Answer]int{}}
	for _, name := range r.names {
		for _, mode := range []Mode{Raw, Certified} {
			rep.Tallies = append(rep.Tallies, Tally{Backend: name, Mode: mode,
				WrongBy: map[Verdict]int{}, IndefiniteBy: map[string]int{}})
		}
	}
	if len(r.names) == 0 || cfg.N <= 0 {
		rep.Elapsed = time.Since(begin)
		return rep, errors.Join(errs...)
	}

	jobs := make(chan int)
	out := make(chan outcome)
	var wg sync.WaitGroup
	for range cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				if o, ok := r.evaluate(ctx, i); ok {
					out <- o
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range cfg.N {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(out)
	}()
	for o := range out {
		rep.add(r.names, o)
		if cfg.Progress != nil {
			cfg.Progress(rep.N, cfg.N)
		}
	}
	slices.SortFunc(rep.Wrong, func(a, b WrongClaim) int {
		return cmp.Or(cmp.Compare(a.Index, b.Index), cmp.Compare(a.Backend, b.Backend), cmp.Compare(a.Mode, b.Mode))
	})
	if err := ctx.Err(); err != nil {
		errs = append(errs, err)
	}
	rep.Elapsed = time.Since(begin)
	return rep, errors.Join(errs...)
}

// add merges one model's outcome into the report.
func (rep *Report) add(names []string, o outcome) {
	rep.N++
	rep.Families[o.family]++
	rep.Answers[o.answer]++
	for k, name := range names {
		for _, mode := range []Mode{Raw, Certified} {
			v := o.raw[k]
			if mode == Certified {
				v = o.cert[k]
			}
			t := rep.Tally(name, mode)
			t.Models++
			t.Seconds += v.seconds
			if v.judged {
				t.Judged++
			}
			switch {
			case v.j.Verdict.Wrong():
				t.Wrong++
				t.WrongBy[v.j.Verdict]++
				rep.Wrong = append(rep.Wrong, WrongClaim{Index: o.index, Family: o.family, Variant: o.variant,
					Backend: name, Mode: mode, Verdict: v.j.Verdict, Claim: v.claim,
					Reference: o.ref[k].String(), Source: o.source[k], Detail: v.j.Detail})
			case v.j.Verdict == Indefinite:
				t.Indefinite++
				t.IndefiniteBy[v.status]++
			case v.j.Verdict == Unjudged:
				t.Unjudged++
			}
		}
	}
}

// solve runs one solve of m by the backend called name under mode.
func (r *runner) solve(ctx context.Context, name string, m *model.Model, mode Mode) solved {
	p := certify.Policy{Off: true}
	if mode == Certified {
		p = certify.Policy{}
		for i, other := range registry.Others(name) {
			switch i {
			case 0:
				p.Second = r.solvers[other]
			case 1:
				p.Third = r.solvers[other]
			}
		}
	}
	begin := time.Now()
	res, err := certify.Solve(ctx, r.solvers[name], m, r.opts, p)
	return solved{claim: ClaimOf(res.Result, err), seconds: time.Since(begin).Seconds()}
}

// evaluate generates model i, solves it and judges every claim. ok is false when the
// context ended during the solves, whose answers then mean nothing.
func (r *runner) evaluate(ctx context.Context, i int) (outcome, bool) {
	if ctx.Err() != nil {
		return outcome{}, false
	}
	c := GenerateAt(r.cfg.Seed, i, r.cfg.Gen)
	m := c.Model
	raw := make([]solved, len(r.names))
	cert := map[string]solved{}
	for k, name := range r.names {
		raw[k] = r.solve(ctx, name, m, Raw)
		cert[name] = r.solve(ctx, name, m, Certified)
	}
	if c.Truth.Status == Unknown {
		for _, name := range r.all {
			if _, ok := cert[name]; !ok {
				cert[name] = r.solve(ctx, name, m, Certified)
			}
		}
	}
	if ctx.Err() != nil {
		return outcome{}, false
	}
	o := outcome{index: i, family: c.Family, variant: c.Variant, answer: c.Truth.Status}
	every := slices.Clone(raw) // all claims on this model, to refute a reference
	for _, s := range cert {
		every = append(every, s)
	}
	for k, name := range r.names {
		ref, source := c.Truth, "construction"
		if c.Family == FamilyEnumerable {
			source = "enumeration"
		}
		if ref.Status == Unknown {
			ref, source = r.agreement(m, name, cert, every)
		}
		o.ref = append(o.ref, ref)
		o.source = append(o.source, source)
		for _, mode := range []Mode{Raw, Certified} {
			s := raw[k]
			if mode == Certified {
				s = cert[name]
			}
			v := verdictOf{j: Judge(m, s.claim, ref, r.opts), claim: s.claim.String(),
				status: string(s.claim.Status), judged: ref.Status != Unknown, seconds: s.seconds}
			if s.claim.Err != nil {
				v.status = "error"
			}
			if mode == Raw {
				o.raw = append(o.raw, v)
			} else {
				o.cert = append(o.cert, v)
			}
		}
	}
	return o, true
}

// agreement returns the reference for a model without a known truth, as seen when
// judging the backend judged: the certified answer every other registered backend
// gives, when they all give the same definite status (and optima within ObjTol), a
// verified point backs an agreed optimum, and no verified point among every claim
// on the model refutes it. Otherwise the reference is Unknown.
func (r *runner) agreement(m *model.Model, judged string, cert map[string]solved, every []solved) (Truth, string) {
	var ref Truth
	backed := false
	n := 0
	for _, name := range r.all {
		if name == judged {
			continue
		}
		c := cert[name].claim
		if c.Err != nil || !definite(c.Status) {
			return Truth{}, "no agreement"
		}
		t := Truth{Status: answerOf(c.Status), Objective: c.Objective}
		if t.Status != Optimal {
			t.Objective = 0
		}
		if n == 0 {
			ref = t
		} else if t.Status != ref.Status || t.Status == Optimal &&
			!(math.Abs(t.Objective-ref.Objective) <= ObjTol*math.Max(1, math.Max(math.Abs(t.Objective), math.Abs(ref.Objective)))) {
			return Truth{}, "no agreement"
		}
		n++
		if t.Status == Optimal && c.Values != nil {
			if rep, err := m.Verify(c.Values); err == nil && rep.Feasible() &&
				math.Abs(rep.Objective-ref.Objective) <= objTol(ref.Objective, r.opts) {
				backed = true
			}
		}
	}
	if n == 0 || ref.Status == Optimal && !backed {
		return Truth{}, "no agreement"
	}
	if ref.Status == Optimal {
		ref.Slack = ObjTol * math.Max(1, math.Abs(ref.Objective))
	}
	sign := float64(m.Sense())
	for _, s := range every {
		if s.claim.Values == nil {
			continue
		}
		rep, err := m.Verify(s.claim.Values)
		if err != nil || !rep.Feasible() {
			continue
		}
		if ref.Status == Infeasible || ref.Status == Optimal && sign*(rep.Objective-ref.Objective) < -objTol(ref.Objective, r.opts)-ref.Slack {
			return Truth{}, "refuted agreement"
		}
	}
	return ref, "agreement"
}

// answerOf maps a definite backend status to an Answer.
func answerOf(s backends.Status) Answer {
	switch s {
	case backends.Optimal:
		return Optimal
	case backends.Infeasible:
		return Infeasible
	case backends.Unbounded:
		return Unbounded
	}
	return Unknown
}
