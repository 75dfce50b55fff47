package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/schedopt/schedopt/benchfile"
	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/kinds/builtin"
	"github.com/schedopt/schedopt/model"
	"github.com/schedopt/schedopt/solve"
)

// Spec is a sweep specification: which instances to solve with which backends, time
// limits, gaps and repetitions. It is read from JSON (see bench/specs/ and the sweep
// section of docs/bench.md); every job of the sweep is one (instance, backend, time
// limit, gap, repetition) combination.
type Spec struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Instances   []InstanceSpec `json:"instances"`
	Backends    []BackendSpec  `json:"backends"`
	// TimeLimits are the solver time limits, as Go durations ("60s", "20m"); one job per
	// limit. Default: 60s.
	TimeLimits []Duration `json:"time_limits"`
	// Gaps are the relative MIP gaps; one MILP job per gap. Default: 1e-6. Exact
	// algorithms and heuristics ignore them and run once per time limit (the backend
	// "exact" takes the gaps of its own entry, BackendSpec.Gaps).
	Gaps []float64 `json:"gaps"`
	// Repetitions runs every job this many times (default 1).
	Repetitions int `json:"repetitions"`
	// Threads is the solver thread count of one job (default 1: the sweep runs one job
	// per core).
	Threads int `json:"threads"`
	// NoCheck skips the exact cross-check of MILP results (the evaluator always runs).
	NoCheck bool `json:"no_check"`
	// Certify confirms every optimum of a MILP backend with a second backend (a cutoff
	// solve that must be infeasible), as `solve --certify` does; the default policy
	// of docs/certification.md applies either way.
	Certify bool `json:"certify"`

	// Solu names a solution-value file in the MIPLIB format (package solu), relative
	// to the spec file: every result on a model file (MPS or LP) gets a verdict
	// against it.
	Solu string `json:"solu,omitempty"`
	// Permutations runs every model-file instance this many more times, each with a
	// seeded random permutation of its rows and columns (package modelperm), the same
	// for every backend: the performance variability of Lodi and Tramontani (2013).
	Permutations int `json:"permutations,omitempty"`
	// SGMShift is the shift, in seconds, of the shifted geometric means of the
	// file-set report (default DefaultFileSGMShift, as in Mittelmann's benchmarks).
	SGMShift *float64 `json:"sgm_shift,omitempty"`
	// SCInInteger is the reading of an SC bound inside integer markers of MPS files:
	// "semi-continuous" (HiGHS's reader, the default) or "semi-integer" (lp_solve's).
	SCInInteger string `json:"sc_in_integer,omitempty"`
}

// DefaultFileSGMShift is the shift, in seconds, of the shifted geometric means of
// time in the report of a file set: 10 s, the convention of H. Mittelmann's
// benchmarks and of the SCIP and MIPLIB check scripts.
const DefaultFileSGMShift = 10.0

// FileSGMShift returns the spec's shift of the file-set report (DefaultFileSGMShift
// when the spec sets none).
func (s *Spec) FileSGMShift() float64 {
	if s == nil || s.SGMShift == nil {
		return DefaultFileSGMShift
	}
	return *s.SGMShift
}

// ReadOptions returns how the spec's model files are read (an unset or malformed
// sc_in_integer reads as HiGHS; check refuses a malformed one).
func (s *Spec) ReadOptions() benchfile.Options {
	r, err := model.ParseSCReading(s.SCInInteger)
	if err != nil {
		r = model.SCSemiContinuous
	}
	return benchfile.Options{SCInInteger: r}
}

// InstanceSpec names instances: either files (paths or globs, relative to the spec
// file's directory) or a generator call with seeds.
type InstanceSpec struct {
	Files []string `json:"files,omitempty"`
	// Gen is an instance kind with a generator (schedopt gen KIND).
	Gen string `json:"gen,omitempty"`
	// Args are the generator's flags by name; values are written as on the command
	// line (numbers and strings; arrays become comma-separated lists).
	Args map[string]any `json:"args,omitempty"`
	// Vary lists values of generator flags to sweep over: one instance set per
	// combination (cartesian product), e.g. {"m": [1, 2, 5, 10]}.
	Vary map[string][]any `json:"vary,omitempty"`
	// Seeds are the generator seeds: a list [1, 2, 3] or a range "1..30".
	Seeds Seeds `json:"seeds"`
}

// BackendSpec is one backend of a sweep with optional restrictions. In JSON it is
// either a plain name ("highs", "lpsolve", "exact", "heuristic:gss", "heuristic:*")
// or an object with the name and the restrictions.
type BackendSpec struct {
	Name string `json:"name"`
	// TimeLimits and Gaps replace the spec's lists for this backend when set. The
	// backend "exact" ignores the spec's gaps and runs at gap 0 unless Gaps is set here,
	// on its own entry (e.g. {"name": "exact", "gaps": [0.002]}).
	TimeLimits []Duration `json:"time_limits,omitempty"`
	Gaps       []float64  `json:"gaps,omitempty"`
	// MaxIntegers, when > 0, runs this backend only on instances whose model has at
	// most this many integer variables (lp_solve is only fit for small models).
	MaxIntegers int `json:"max_integers,omitempty"`
	// MaxM, when > 0, runs this backend only on instances with at most this many
	// machines or processors (cheaper to check than MaxIntegers: no model is built).
	MaxM int `json:"max_m,omitempty"`
	// Kinds, when set, runs this backend only on instances of these kinds.
	Kinds []string `json:"kinds,omitempty"`
}

// UnmarshalJSON accepts a plain backend name or the object form.
func (b *BackendSpec) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '"' {
		return json.Unmarshal(data, &b.Name)
	}
	type plain BackendSpec
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var p plain
	if err := dec.Decode(&p); err != nil {
		return err
	}
	*b = BackendSpec(p)
	return nil
}

// Duration is a time limit that reads from JSON as a Go duration string ("90s",
// "20m") or a number of seconds. A malformed value is kept and reported by the spec
// check with its field path.
type Duration struct {
	time.Duration
	bad string // why the JSON value is not a duration; "" when it is
}

// Dur returns a Duration of d.
func Dur(d time.Duration) Duration { return Duration{Duration: d} }

// UnmarshalJSON parses "1m30s" or 90.
func (d *Duration) UnmarshalJSON(data []byte) error {
	*d = Duration{}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		var x float64
		if err := json.Unmarshal(data, &x); err != nil {
			d.bad = fmt.Sprintf("malformed duration %s: want a string like \"60s\" or a number of seconds", data)
			return nil
		}
		s = strconv.FormatFloat(x, 'g', -1, 64) + "s"
	}
	v, err := time.ParseDuration(s)
	switch {
	case err != nil:
		d.bad = fmt.Sprintf("malformed duration %q: want a Go duration like \"60s\" or \"2m30s\"", s)
	case v < 0:
		d.bad = fmt.Sprintf("negative duration %q", s)
	}
	d.Duration = v
	return nil
}

// MarshalJSON writes the duration as a Go duration string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(d.Duration.String()) }

// Seeds is a list of generator seeds; in JSON a list or a range string "from..to". A
// malformed value is kept and reported by the spec check with its field path.
type Seeds struct {
	List []int64
	bad  string
}

// UnmarshalJSON parses [1, 2, 3], a range "1..30", or one seed 7 or "7".
func (s *Seeds) UnmarshalJSON(data []byte) error {
	*s = Seeds{}
	var str string
	if err := json.Unmarshal(data, &str); err == nil {
		lo, hi, ok := strings.Cut(str, "..")
		if !ok { // a single seed "7"
			hi, ok = lo, true
		}
		a, err1 := strconv.ParseInt(strings.TrimSpace(lo), 10, 64)
		b, err2 := strconv.ParseInt(strings.TrimSpace(hi), 10, 64)
		switch {
		case !ok || err1 != nil || err2 != nil || b < a:
			s.bad = fmt.Sprintf("malformed seed range %q: want \"from..to\" like \"1..30\"", str)
		case b-a >= 1_000_000:
			s.bad = fmt.Sprintf("seed range %q has more than a million seeds", str)
		default:
			for v := a; v <= b; v++ {
				s.List = append(s.List, v)
			}
		}
		return nil
	}
	var one int64
	if err := json.Unmarshal(data, &one); err == nil {
		s.List = []int64{one}
		return nil
	}
	if err := json.Unmarshal(data, &s.List); err != nil {
		s.bad = fmt.Sprintf("malformed seeds %s: want a list of integers or a range \"1..30\"", data)
	}
	return nil
}

// MarshalJSON writes the seeds as a list.
func (s Seeds) MarshalJSON() ([]byte, error) { return json.Marshal(s.List) }

// LoadSpec reads a sweep spec. Every problem is a *domain.FieldError naming the file,
// the field and the reason.
func LoadSpec(path string) (*Spec, error) {
	data, err := kinds.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := ParseSpec(data)
	if err != nil {
		return nil, domain.InFile(path, err)
	}
	return s, nil
}

// ParseSpec parses and checks a sweep spec (without looking at the instances).
func ParseSpec(data []byte) (*Spec, error) {
	var s Spec
	// The strict checks of instances (unknown keys with a "did you mean", duplicate
	// keys, trailing data, depth) apply to specs too.
	if err := domain.CheckJSON(data, &s); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, specJSONError(data, err)
	}
	if err := s.check(); err != nil {
		return nil, err
	}
	return &s, nil
}

// specJSONError turns a decoding error into a FieldError with the JSON field or byte
// position.
func specJSONError(data []byte, err error) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te) && te.Field == "":
		return domain.Errorf("(root)", "%v", innerReason(err))
	case errors.As(err, &te), errors.As(err, &se):
		return domain.JSONError(data, err)
	}
	msg := err.Error()
	if f, ok := strings.CutPrefix(msg, `json: unknown field "`); ok {
		return domain.Errorf(strings.TrimSuffix(f, `"`), "unknown field")
	}
	return domain.Errorf("", "%s", strings.TrimPrefix(msg, "json: "))
}

func innerReason(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 && strings.HasPrefix(msg, "json: ") {
		return msg[i+2:]
	}
	return msg
}

func (s *Spec) check() error {
	if len(s.Instances) == 0 {
		return domain.Errorf("instances", "empty: name at least one instance file or generator call")
	}
	if len(s.Backends) == 0 {
		return domain.Errorf("backends", "empty: name at least one backend (%s, %s, %s<name>)",
			strings.Join(solve.MILPBackends(), ", "), solve.Exact, solve.HeuristicPrefix)
	}
	for i, in := range s.Instances {
		f := fmt.Sprintf("instances[%d]", i)
		switch {
		case len(in.Files) > 0 && in.Gen != "":
			return domain.Errorf(f, "has both files and gen: use one per entry")
		case len(in.Files) == 0 && in.Gen == "":
			return domain.Errorf(f, "needs files or gen")
		case in.Seeds.bad != "":
			return domain.Errorf(f+".seeds", "%s", in.Seeds.bad)
		case in.Gen != "" && len(in.Seeds.List) == 0:
			return domain.Errorf(f+".seeds", "missing: a generator call needs seeds, e.g. \"1..30\"")
		case in.Gen == "" && (len(in.Args) > 0 || len(in.Vary) > 0 || len(in.Seeds.List) > 0):
			return domain.Errorf(f, "args, vary and seeds belong to generator calls (gen)")
		}
		for k, vs := range in.Vary {
			if len(vs) == 0 {
				return domain.Errorf(f+".vary."+k, "empty list")
			}
		}
	}
	for i, b := range s.Backends {
		f := fmt.Sprintf("backends[%d]", i)
		if err := checkBackend(f, b.Name); err != nil {
			return err
		}
		if err := checkDurations(f+".time_limits", b.TimeLimits); err != nil {
			return err
		}
		for j, g := range b.Gaps {
			if err := checkGap(fmt.Sprintf("%s.gaps[%d]", f, j), g); err != nil {
				return err
			}
		}
		if b.MaxIntegers < 0 {
			return domain.Errorf(f+".max_integers", "must be >= 0")
		}
		if b.MaxM < 0 {
			return domain.Errorf(f+".max_m", "must be >= 0")
		}
		for j, k := range b.Kinds {
			if kinds := append(builtin.Registry().Names(), benchfile.FormatMPS, benchfile.FormatLP); !slices.Contains(kinds, k) {
				return domain.Errorf(fmt.Sprintf("%s.kinds[%d]", f, j), "unknown kind %q (one of %s)", k, strings.Join(kinds, ", "))
			}
		}
	}
	for j, g := range s.Gaps {
		if err := checkGap(fmt.Sprintf("gaps[%d]", j), g); err != nil {
			return err
		}
	}
	if err := checkDurations("time_limits", s.TimeLimits); err != nil {
		return err
	}
	if s.Repetitions < 0 {
		return domain.Errorf("repetitions", "must be >= 1")
	}
	if s.Threads < 0 {
		return domain.Errorf("threads", "must be >= 0")
	}
	if s.Permutations < 0 {
		return domain.Errorf("permutations", "must be >= 0")
	}
	if s.SGMShift != nil && !(*s.SGMShift >= 0) {
		return domain.Errorf("sgm_shift", "must be >= 0 seconds, got %g", *s.SGMShift)
	}
	if s.SCInInteger != "" {
		if _, err := model.ParseSCReading(s.SCInInteger); err != nil {
			return domain.Errorf("sc_in_integer", "%q: want \"semi-continuous\" (HiGHS's reading) or \"semi-integer\" (lp_solve's)", s.SCInInteger)
		}
	}
	return nil
}

func checkDurations(field string, ds []Duration) error {
	for i, d := range ds {
		if d.bad != "" {
			return domain.Errorf(fmt.Sprintf("%s[%d]", field, i), "%s", d.bad)
		}
	}
	return nil
}

func checkGap(field string, g float64) error {
	if !(g >= 0 && g < 1) {
		return domain.Errorf(field, "relative gap %g must be in [0, 1)", g)
	}
	return nil
}
