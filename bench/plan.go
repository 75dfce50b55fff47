package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/benchfile"
	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/kinds/builtin"
	"github.com/schedopt/schedopt/model"
	"github.com/schedopt/schedopt/solu"
	"github.com/schedopt/schedopt/solve"
	"github.com/spf13/pflag"
)

// DefaultTimeLimit is the time limit of a spec that lists none.
const DefaultTimeLimit = 60 * time.Second

// minScaledLimit keeps --time-scale from turning a limit into nothing.
const minScaledLimit = 100 * time.Millisecond

// Instance is one instance of a sweep, held as its JSON so that every job loads its
// own copy (Problems are not shared between goroutines).
type Instance struct {
	// ID identifies the instance in job keys and results: the file path, or the
	// generator call ("gen dlt-multi --m=10 --seed=3").
	ID   string
	File string // the file, for file instances
	Kind string
	Name string
	Size Size
	Data []byte // the instance JSON
	// Integers is the number of integer variables of its model (-1 when unknown).
	Integers   int
	Heuristics []string
	// Format is benchfile.FormatMPS or FormatLP for an instance read from a model
	// file (its Kind is the same), "" for an instance of a kind.
	Format string
	// Maximize is the objective sense of a model file.
	Maximize bool
}

// IsModelFile reports whether the instance is a model file (MPS or LP) rather than
// an instance of a kind.
func (in *Instance) IsModelFile() bool { return in.Format != "" }

// Size is the size of an instance as reports and plots use it: m machines or
// processors, n messages, tasks or portions (0 when the kind has none).
type Size struct {
	M int `json:"m"`
	N int `json:"n"`
}

// Job is one unit of a sweep.
type Job struct {
	Key       string // stable identity for resume, shard and merge
	Instance  *Instance
	Backend   string
	TimeLimit time.Duration
	Gap       float64 // relative gap; MILP backends, and exact when its entry lists gaps
	HasGap    bool
	Rep       int
	// Permutation numbers the row and column permutation of a model-file job (0: the
	// file as written; see Spec.Permutations).
	Permutation int
}

// Plan is an expanded sweep: every job in a deterministic order.
type Plan struct {
	Spec      *Spec
	Instances []*Instance
	Jobs      []Job
	// Solu holds the spec's .solu file (nil without one).
	Solu *solu.File

	load func([]byte, string) (kinds.Problem, error)
}

// PlanOptions tune how a spec expands. The zero value uses the real loaders.
type PlanOptions struct {
	// SpecFile is the spec's path: relative instance paths are resolved against its
	// directory, and errors name it.
	SpecFile string
	// TimeScale multiplies every time limit (e.g. 0.1 on a laptop); 0 means 1.
	TimeScale float64
	// Load parses an instance (default: the built-in kinds, kinds/builtin).
	Load func(data []byte, name string) (kinds.Problem, error)
	// Generators lists the instance generators (default: the built-in kinds').
	Generators func() []kinds.Generator
}

// defaultLoad is the loader of the built-in kinds (kinds/builtin).
func defaultLoad() func(data []byte, name string) (kinds.Problem, error) {
	return builtin.Registry().Load
}

// NewPlan expands spec into jobs. It loads and validates every instance and checks
// every backend before any job runs, so a bad spec fails at once with a
// *domain.FieldError naming the spec file, the field and the reason.
func NewPlan(spec *Spec, o PlanOptions) (*Plan, error) {
	p, err := newPlan(spec, o)
	if err != nil && o.SpecFile != "" {
		return nil, domain.InFile(o.SpecFile, err)
	}
	return p, err
}

func newPlan(spec *Spec, o PlanOptions) (*Plan, error) {
	if o.Load == nil {
		o.Load = defaultLoad()
	}
	if o.Generators == nil {
		o.Generators = builtin.Registry().Generators
	}
	if o.TimeScale == 0 {
		o.TimeScale = 1
	}
	if !(o.TimeScale > 0) {
		return nil, domain.Errorf("--time-scale", "must be > 0, got %g", o.TimeScale)
	}
	dir := "."
	if o.SpecFile != "" {
		dir = filepath.Dir(o.SpecFile)
	}
	plan := &Plan{Spec: spec, load: o.Load}
	if spec.Solu != "" {
		path := spec.Solu
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		f, err := solu.ReadFile(path)
		if err != nil {
			return nil, err
		}
		plan.Solu = f
	}
	seen := map[string]bool{}
	for i, is := range spec.Instances {
		field := fmt.Sprintf("instances[%d]", i)
		var got []*Instance
		var err error
		if is.Gen != "" {
			got, err = expandGen(field, is, o)
		} else {
			got, err = expandFiles(field, dir, is.Files, spec.ReadOptions(), o)
		}
		if err != nil {
			return nil, err
		}
		for _, in := range got {
			if !seen[in.ID] {
				seen[in.ID] = true
				plan.Instances = append(plan.Instances, in)
			}
		}
	}
	if err := plan.expandJobs(o.TimeScale); err != nil {
		return nil, err
	}
	return plan, nil
}

// expandFiles resolves the paths, globs and directories of an instance entry. A
// model file (benchfile.IsModelFile) is read and checked now; anything else is an
// instance JSON loaded with o.Load. A directory stands for the model files in it.
func expandFiles(field, dir string, patterns []string, ro benchfile.Options, o PlanOptions) ([]*Instance, error) {
	var out []*Instance
	for j, pat := range patterns {
		f := fmt.Sprintf("%s.files[%d]", field, j)
		full := pat
		if !filepath.IsAbs(full) {
			full = filepath.Join(dir, pat)
		}
		var files []string
		if strings.ContainsAny(pat, "*?[") {
			m, err := filepath.Glob(full)
			if err != nil {
				return nil, domain.Errorf(f, "bad glob %q: %v", pat, err)
			}
			if len(m) == 0 {
				return nil, domain.Errorf(f, "no file matches %q (looked in %s)", pat, dir)
			}
			files = m
		} else {
			st, err := os.Stat(full)
			if err != nil {
				return nil, domain.Errorf(f, "instance %s: %s", full, domain.ReadReason(err))
			}
			if st.IsDir() {
				m, err := benchfile.ModelFiles(full)
				if err != nil {
					return nil, domain.Errorf(f, "directory %s: %v", full, err)
				}
				if len(m) == 0 {
					return nil, domain.Errorf(f, "directory %s holds no .mps, .mps.gz, .lp or .lp.gz file", full)
				}
				files = m
			} else {
				files = []string{full}
			}
		}
		sort.Strings(files)
		for _, file := range files {
			if benchfile.IsModelFile(file) {
				in, err := describeModelFile(filepath.Clean(file), ro)
				if err != nil {
					return nil, err
				}
				out = append(out, in)
				continue
			}
			data, err := os.ReadFile(file)
			if err != nil {
				return nil, domain.Errorf(f, "instance %s: %s", file, domain.ReadReason(err))
			}
			in, err := describe(filepath.Clean(file), data, kinds.DefaultName(file), o.Load)
			if err != nil {
				return nil, domain.Errorf(f, "instance %s: %v", file, err)
			}
			in.File = filepath.Clean(file)
			out = append(out, in)
		}
	}
	return out, nil
}

// describeModelFile reads a model file once, to check it before any job runs and to
// learn its sense and number of integer variables. A file that does not read is a
// *domain.FieldError naming the file and line.
func describeModelFile(path string, ro benchfile.Options) (*Instance, error) {
	m, err := benchfile.Read(path, ro)
	if err != nil {
		return nil, err
	}
	format := benchfile.Format(path)
	return &Instance{
		ID: path, File: path, Kind: format, Format: format, Name: benchfile.Name(path),
		Integers: m.NumIntegers(), Maximize: m.Sense() == model.Maximize,
	}, nil
}

func expandGen(field string, is InstanceSpec, o PlanOptions) ([]*Instance, error) {
	var gen *kinds.Generator
	var kinds []string
	for _, g := range o.Generators() {
		kinds = append(kinds, g.Kind)
		if g.Kind == is.Gen && gen == nil {
			g := g
			gen = &g
		}
	}
	if gen == nil {
		return nil, domain.Errorf(field+".gen", "no generator for kind %q (have: %s)", is.Gen, strings.Join(kinds, ", "))
	}
	var out []*Instance
	for _, combo := range combinations(is.Vary) {
		args := map[string]any{}
		for k, v := range is.Args {
			args[k] = v
		}
		for k, v := range combo {
			args[k] = v
		}
		flags, err := flagArgs(args)
		if err != nil {
			return nil, domain.Errorf(field+".args", "%v", err)
		}
		for _, seed := range is.Seeds.List {
			fs := pflag.NewFlagSet(is.Gen, pflag.ContinueOnError)
			fs.SetOutput(discard{})
			build := gen.Flags(fs)
			for _, kv := range flags {
				name, val, _ := strings.Cut(kv, "=")
				if fs.Lookup(name) == nil {
					return nil, domain.Errorf(field+".args."+name, "generator %s has no flag --%s (has: %s)", is.Gen, name, flagNames(fs))
				}
				if err := fs.Set(name, val); err != nil {
					return nil, domain.Errorf(field+".args."+name, "bad value %q: %v", val, err)
				}
			}
			v, err := build(seed)
			if err != nil {
				return nil, domain.Errorf(field, "generator %s (seed %d): %v", is.Gen, seed, err)
			}
			data, err := json.Marshal(v)
			if err != nil {
				return nil, fmt.Errorf("%s: encode generated instance: %w", field, err)
			}
			id := "gen " + is.Gen
			nameParts := []string{is.Gen}
			for _, kv := range flags {
				id += " --" + kv
				nameParts = append(nameParts, strings.ReplaceAll(kv, "=", ""))
			}
			id += fmt.Sprintf(" --seed=%d", seed)
			nameParts = append(nameParts, fmt.Sprintf("s%d", seed))
			in, err := describe(id, data, strings.Join(nameParts, "_"), o.Load)
			if err != nil {
				return nil, domain.Errorf(field, "generated instance %q: %v", id, err)
			}
			out = append(out, in)
		}
	}
	return out, nil
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func flagNames(fs *pflag.FlagSet) string {
	var names []string
	fs.VisitAll(func(f *pflag.Flag) { names = append(names, "--"+f.Name) })
	return strings.Join(names, ", ")
}

// flagArgs turns generator args into sorted "name=value" strings.
func flagArgs(args map[string]any) ([]string, error) {
	var out []string
	for k, v := range args {
		s, err := flagValue(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", k, err)
		}
		out = append(out, k+"="+s)
	}
	sort.Strings(out)
	return out, nil
}

func flagValue(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case float64:
		return fmt.Sprint(x), nil
	case bool:
		return fmt.Sprint(x), nil
	case json.Number:
		return x.String(), nil
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			s, err := flagValue(e)
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return strings.Join(parts, ","), nil
	}
	return "", fmt.Errorf("unsupported value %v (use numbers, strings, booleans or lists of them)", v)
}

// combinations returns the cartesian product of vary, in a deterministic order; one
// empty combination when vary is empty.
func combinations(vary map[string][]any) []map[string]any {
	keys := make([]string, 0, len(vary))
	for k := range vary {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := []map[string]any{{}}
	for _, k := range keys {
		var next []map[string]any
		for _, c := range out {
			for _, v := range vary[k] {
				n := map[string]any{k: v}
				for kk, vv := range c {
					n[kk] = vv
				}
				next = append(next, n)
			}
		}
		out = next
	}
	return out
}

// describe loads an instance once to validate it and learn its kind, name, size,
// model size and heuristics.
func describe(id string, data []byte, name string, load func([]byte, string) (kinds.Problem, error)) (*Instance, error) {
	p, err := load(data, name)
	if err != nil {
		return nil, err
	}
	in := &Instance{ID: id, Kind: p.Kind(), Name: p.Name(), Data: data, Size: SizeOf(data), Integers: -1}
	if hp, ok := p.(kinds.HeuristicProblem); ok {
		in.Heuristics = hp.Heuristics()
	}
	return in, nil
}

// SizeOf reads the size of an instance from its JSON: m is the field "m" or the
// length of "machines" or "processors"; n is the field "n" or the length of "tasks"
// or "portions".
func SizeOf(data []byte) Size {
	var raw map[string]json.RawMessage
	if json.Unmarshal(data, &raw) != nil {
		return Size{}
	}
	num := func(k string) int {
		var v float64
		if b, ok := raw[k]; ok && json.Unmarshal(b, &v) == nil {
			return int(v)
		}
		return 0
	}
	count := func(k string) int {
		var v []json.RawMessage
		if b, ok := raw[k]; ok && json.Unmarshal(b, &v) == nil {
			return len(v)
		}
		return 0
	}
	s := Size{M: num("m"), N: num("n")}
	if s.M == 0 {
		s.M = max(count("machines"), count("processors"))
	}
	if s.N == 0 {
		s.N = max(count("tasks"), count("portions"))
	}
	return s
}

// expandJobs makes the jobs: instances × backends × time limits × gaps ×
// repetitions, with each backend's restrictions applied.
func (p *Plan) expandJobs(scale float64) error {
	spec := p.Spec
	reps := max(spec.Repetitions, 1)
	for bi, b := range spec.Backends {
		field := fmt.Sprintf("backends[%d]", bi)
		limits := b.TimeLimits
		if len(limits) == 0 {
			limits = spec.TimeLimits
		}
		if len(limits) == 0 {
			limits = []Duration{Dur(DefaultTimeLimit)}
		}
		gaps := b.Gaps
		if len(gaps) == 0 {
			gaps = spec.Gaps
		}
		if len(gaps) == 0 {
			gaps = []float64{backends.DefaultRelGap}
		}
		milp := !(b.Name == solve.Exact || strings.HasPrefix(b.Name, solve.HeuristicPrefix))
		// The exact backend runs at gap 0 unless its own entry lists gaps (then it
		// stops, like a MILP, as soon as its bound is within the gap).
		hasGap := milp || (b.Name == solve.Exact && len(b.Gaps) > 0)
		matched := 0
		for _, in := range p.Instances {
			if len(b.Kinds) > 0 && !slices.Contains(b.Kinds, in.Kind) {
				continue
			}
			if in.IsModelFile() && !milp {
				continue // exact algorithms and heuristics belong to kinds
			}
			if IsCmdBackend(b.Name) && !in.IsModelFile() {
				continue // command-line solvers read model files only
			}
			perms := 1
			if in.IsModelFile() {
				perms += spec.Permutations
			}
			names := []string{b.Name}
			if h, ok := strings.CutPrefix(b.Name, solve.HeuristicPrefix); ok {
				if h == "*" {
					names = names[:0]
					for _, hn := range in.Heuristics {
						names = append(names, solve.HeuristicPrefix+hn)
					}
				} else if !slices.Contains(in.Heuristics, h) {
					continue
				}
			}
			if b.MaxM > 0 && in.Size.M > b.MaxM {
				continue
			}
			if milp && b.MaxIntegers > 0 {
				n, err := p.integers(in)
				if err != nil {
					return domain.Errorf(field+".max_integers", "instance %s: %v", in.ID, err)
				}
				if n > b.MaxIntegers {
					continue
				}
			}
			for _, name := range names {
				matched++
				for _, tl := range limits {
					limit := time.Duration(float64(tl.Duration) * scale)
					if tl.Duration > 0 && limit < minScaledLimit {
						limit = minScaledLimit
					}
					gl := gaps
					if !hasGap {
						gl = gaps[:1]
					}
					for _, g := range gl {
						for perm := 0; perm < perms; perm++ {
							for r := 0; r < reps; r++ {
								j := Job{Instance: in, Backend: name, TimeLimit: limit, Gap: g, HasGap: hasGap, Rep: r, Permutation: perm}
								j.Key = jobKey(j)
								p.Jobs = append(p.Jobs, j)
							}
						}
					}
				}
			}
		}
		if matched == 0 && strings.HasPrefix(b.Name, solve.HeuristicPrefix) && b.Name != solve.HeuristicPrefix+"*" {
			return domain.Errorf(field, "no instance of the sweep has the heuristic %q", strings.TrimPrefix(b.Name, solve.HeuristicPrefix))
		}
	}
	// Drop duplicate jobs (the same backend listed twice), keeping the first.
	seen := map[string]bool{}
	jobs := p.Jobs[:0]
	for _, j := range p.Jobs {
		if !seen[j.Key] {
			seen[j.Key] = true
			jobs = append(jobs, j)
		}
	}
	p.Jobs = jobs
	return nil
}

// integers formulates in once and caches its number of integer variables.
func (p *Plan) integers(in *Instance) (int, error) {
	if in.Integers >= 0 {
		return in.Integers, nil
	}
	prob, err := p.load(in.Data, in.Name)
	if err != nil {
		return 0, err
	}
	f, err := prob.Formulate()
	if err != nil {
		return 0, fmt.Errorf("formulate: %w", err)
	}
	in.Integers = f.Model.NumIntegers()
	return in.Integers, nil
}

// jobKey is the stable identity of a job. Model-file jobs end in "|perm=k", so
// that the permutations of one instance are distinct jobs for resume, shards and
// merge.
func jobKey(j Job) string {
	k := fmt.Sprintf("%s|%s|tl=%s", j.Instance.ID, j.Backend, j.TimeLimit)
	if j.HasGap {
		k += fmt.Sprintf("|gap=%g", j.Gap)
	}
	k += fmt.Sprintf("|rep=%d", j.Rep)
	if j.Instance.IsModelFile() {
		k += fmt.Sprintf("|perm=%d", j.Permutation)
	}
	return k
}
