package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/registry"
	"github.com/schedopt/schedopt/benchfile"
	"github.com/schedopt/schedopt/certify"
	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/portfolio"
	"github.com/schedopt/schedopt/solve"
)

// Record is one line of a sweep's results file (JSON lines): the job and its outcome.
type Record struct {
	Key      string `json:"key"`
	Instance string `json:"instance"` // file path or generator call
	Kind     string `json:"kind"`
	Name     string `json:"name"`
	Size     Size   `json:"size"`
	Backend  string `json:"backend"`
	// TimeLimit is the limit the job ran with, in seconds (0: none).
	TimeLimit float64 `json:"time_limit"`
	// RelGap is the requested relative MIP gap; null for exact algorithms and heuristics.
	RelGap *float64 `json:"rel_gap"`
	Rep    int      `json:"rep"`
	// Status is the result's status, or "error" when the job failed, or "unsupported"
	// when the instance has no exact algorithm for an "exact" job.
	Status string `json:"status"`
	// Error says why a job failed; Crashed marks a panic inside the job; Abandoned
	// marks a job whose solver ignored its hard stop (see SweepOptions.Overrun), recorded
	// as time_limit while the solver was left to finish in the background.
	Error     string        `json:"error,omitempty"`
	Crashed   bool          `json:"crashed,omitempty"`
	Abandoned bool          `json:"abandoned,omitempty"`
	Wall      float64       `json:"wall_seconds"`
	Host      string        `json:"host,omitempty"`
	Done      string        `json:"finished"` // RFC 3339 UTC
	Result    *solve.Result `json:"result,omitempty"`

	// Permutation numbers the row and column permutation of a model-file job (0: the
	// file as written).
	Permutation int `json:"permutation"`
	// Sense is "min" or "max" for a model file, whose objective may maximise.
	Sense string `json:"sense,omitempty"`
	// Solu is the verdict of a model-file result against the spec's .solu file.
	Solu *SoluCheck `json:"solu,omitempty"`
	// PeakRSS is the job's peak resident memory in bytes, when the runner measured
	// it; Memory says how.
	PeakRSS *int64 `json:"peak_rss_bytes,omitempty"`
	Memory  string `json:"memory,omitempty"`
	// PointCheck is the check of the reported point against the file's coefficients.
	PointCheck *PointCheck `json:"point_check,omitempty"`
}

// IsModelFile reports whether the record is a job on a model file (MPS or LP).
func (r *Record) IsModelFile() bool {
	return r.Kind == benchfile.FormatMPS || r.Kind == benchfile.FormatLP
}

// StatusUnsupported marks an "exact" job on an instance without an exact algorithm.
const StatusUnsupported = "unsupported"

// Failed reports whether the job failed (an error or a crash, as opposed to any
// definite solver status).
func (r *Record) Failed() bool { return r.Status == solve.StatusError && !r.NoSchedule() }

// NoSchedule reports whether the job is a heuristic that found no valid schedule: an
// answer of the heuristic, not a failure of the job.
func (r *Record) NoSchedule() bool {
	return r.Status == solve.StatusError && r.Result != nil && strings.HasPrefix(r.Result.Message, kinds.NoScheduleMessage)
}

// Objective returns the result's objective, if any.
func (r *Record) Objective() (float64, bool) {
	if r.Result == nil || r.Result.Objective == nil {
		return 0, false
	}
	return *r.Result.Objective, true
}

// SolveSeconds is the solver's time (build + solve), or the wall time when the job
// failed before timing.
func (r *Record) SolveSeconds() float64 {
	if r.Result == nil {
		return r.Wall
	}
	return r.Result.Seconds.Build + r.Result.Seconds.Solve
}

// Shard selects the part i (1-based) of N of a sweep's jobs.
type Shard struct {
	Index, Count int
}

// ParseShard parses "i/N" with 1 <= i <= N.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Shard{}, domain.Errorf("--shard", "malformed shard %q: want i/N with 1 <= i <= N, e.g. 2/4", s)
	}
	return Shard{Index: i, Count: n}, nil
}

// Owns reports whether the job with key belongs to the shard. The split hashes the
// key, so it does not depend on the order of jobs or on the machine.
func (s Shard) Owns(key string) bool {
	if s.Count <= 1 {
		return true
	}
	return shardOf(key, s.Count) == s.Index-1
}

func keyHash(key string) uint64 {
	h := fnv.New64()
	io.WriteString(h, key)
	return h.Sum64()
}

// String formats the shard as "i/N".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// DefaultThreadsPerJob is the solver thread count of one sweep job: sweeps run one job
// per core, so each solver gets one thread.
const DefaultThreadsPerJob = 1

// SweepOptions say how to run a plan.
type SweepOptions struct {
	// Output is the results file (JSON lines). Records already in it are not run
	// again: a killed sweep resumes where it stopped.
	Output string
	Shard  Shard
	// Workers is the number of jobs run at once (default: the number of cores).
	Workers int
	// NewSolver maps backend names to solvers (default: solve.NewSolverFrom a
	// registry.Set that runs HiGHS in worker processes, shared by the sweep's jobs
	// and their certification policies, so that a HiGHS solve that overruns its
	// limit is killed rather than left running on a core of the sweep's process).
	NewSolver func(name string) (backends.Solver, error)
	// newPolicy makes a job's certification policy (default solve.NewPolicy; with the
	// default NewSolver, from the same set), and newBackend the MILP backends of
	// the backend "auto" (default registry.New; with the default NewSolver, the set's).
	newPolicy  func(name string, certifyAll bool) (certify.Policy, error)
	newBackend func(name string) (backends.Solver, error)
	// Load parses instances in jobs (default: the plan's loader, PlanOptions.Load).
	Load func(data []byte, name string) (kinds.Problem, error)
	// OnStart is called once with the number of jobs to run and already done.
	OnStart func(todo, done int)
	// OnDone is called after each finished job's record is written.
	OnDone func(rec *Record)
	// Host is written into each record (optional).
	Host string
	// FileRunner runs the jobs on model files (default InProcess).
	FileRunner FileRunner
	// CheckPoint, when set, checks every point reported for a model file against the
	// file's coefficients.
	CheckPoint PointChecker
	// Overrun is how long a job with a time limit may run past it before its context
	// is cancelled (default: DefaultOverrun). A job whose solver still has
	// not returned GiveUpGrace after that is recorded as abandoned (status time_limit)
	// and its worker takes the next job: a solver deaf to its limit and to
	// cancellation (HiGHS presolve on a large MIP checks neither) cannot stall a sweep.
	Overrun time.Duration
}

// GiveUpGrace is how long a worker waits, after cancelling a job at its hard stop,
// for a solver that ignores the cancellation before it records the job as abandoned.
// DefaultOverrun + GiveUpGrace keeps every job within its time limit plus a second,
// the promise of the command line.
const GiveUpGrace = 400 * time.Millisecond

// DefaultOverrun is the default SweepOptions.Overrun.
const DefaultOverrun = 500 * time.Millisecond

// SweepSummary counts what a sweep did.
type SweepSummary struct {
	Total   int // jobs of this shard
	Skipped int // already in the results file
	Ran     int // finished in this run
	Failed  int // of Ran, jobs that failed or crashed
}

// RunSweep runs the plan's jobs that are in the shard and not yet in the results
// file, on a pool of workers, appending one synced JSON line per finished job. A job
// that fails or panics is recorded as such and the sweep goes on. When ctx is
// cancelled, no new job starts and interrupted jobs are not recorded, so a rerun
// runs them again.
func RunSweep(ctx context.Context, plan *Plan, o SweepOptions) (SweepSummary, error) {
	o.newPolicy, o.newBackend = solve.NewPolicy, registry.New
	if o.NewSolver == nil {
		set := registry.NewSet(true)
		defer set.Close()
		o.newBackend = set.New
		o.NewSolver = func(name string) (backends.Solver, error) { return solve.NewSolverFrom(set.New, name) }
		o.newPolicy = func(name string, certifyAll bool) (certify.Policy, error) {
			return solve.NewPolicyFrom(set.New, name, certifyAll)
		}
	}
	if o.Load == nil {
		o.Load = plan.load
	}
	if o.Load == nil {
		o.Load = defaultLoad()
	}
	if o.Workers <= 0 {
		o.Workers = runtime.NumCPU()
	}
	if o.Output == "" {
		return SweepSummary{}, errors.New("sweep: no output file")
	}
	// One writer per results file: a second sweep appending to the same file (a
	// resubmitted cluster task while the first still runs) would duplicate jobs.
	f, err := os.OpenFile(o.Output, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return SweepSummary{}, fmt.Errorf("sweep: open results: %w", err)
	}
	defer f.Close()
	if err := lockResults(f); err != nil {
		return SweepSummary{}, fmt.Errorf("sweep: %s: %w", o.Output, err)
	}
	done, err := repairAndReadKeys(o.Output)
	if err != nil {
		return SweepSummary{}, err
	}
	var todo []Job
	var sum SweepSummary
	for _, j := range plan.Jobs {
		if !o.Shard.Owns(j.Key) {
			continue
		}
		sum.Total++
		if done[j.Key] {
			sum.Skipped++
			continue
		}
		todo = append(todo, j)
	}
	// Interleave the jobs in a fixed pseudo-random order, so that slow and fast
	// backends mix and the progress ETA means something.
	sort.SliceStable(todo, func(a, b int) bool { return keyHash(todo[a].Key) < keyHash(todo[b].Key) })
	// Resolve every solver before starting, so an unknown backend fails first.
	solvers := map[string]backends.Solver{}
	for _, j := range todo {
		if _, ok := solvers[j.Backend]; ok || IsCmdBackend(j.Backend) {
			continue
		}
		s, err := o.NewSolver(j.Backend)
		if err != nil {
			return sum, err
		}
		solvers[j.Backend] = s
	}
	if o.OnStart != nil {
		o.OnStart(len(todo), sum.Skipped)
	}
	if len(todo) == 0 {
		return sum, nil
	}

	jobs := make(chan Job)
	recs := make(chan *Record)
	var wg sync.WaitGroup
	for w := 0; w < min(o.Workers, len(todo)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				rec := runJob(ctx, j, solvers[j.Backend], plan, o)
				if ctx.Err() != nil {
					continue // interrupted: leave it for the rerun
				}
				recs <- rec
			}
		}()
	}
	go func() {
		defer close(jobs)
		for _, j := range todo {
			select {
			case jobs <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(recs) }()

	var werr error
	for rec := range recs {
		if werr != nil {
			continue
		}
		if err := appendRecord(f, rec); err != nil {
			werr = fmt.Errorf("sweep: write %s: %w", o.Output, err)
			continue
		}
		sum.Ran++
		if rec.Failed() {
			sum.Failed++
		}
		if o.OnDone != nil {
			o.OnDone(rec)
		}
	}
	if werr != nil {
		return sum, werr
	}
	return sum, ctx.Err()
}

// runJob runs one job and turns any failure, panics included, into a record.
func runJob(ctx context.Context, j Job, solver backends.Solver, plan *Plan, o SweepOptions) (rec *Record) {
	spec := plan.Spec
	t0 := time.Now()
	rec = &Record{
		Key: j.Key, Instance: j.Instance.ID, Kind: j.Instance.Kind, Name: j.Instance.Name,
		Size: j.Instance.Size, Backend: j.Backend, TimeLimit: j.TimeLimit.Seconds(), Rep: j.Rep, Host: o.Host,
	}
	if j.HasGap {
		g := j.Gap
		rec.RelGap = &g
	}
	defer func() {
		// A panic in a kind adapter, formulation or solver must not end the sweep: this
		// goroutine is the one place where it is caught and recorded.
		if v := recover(); v != nil {
			rec.Status = solve.StatusError
			rec.Crashed = true
			rec.Error = fmt.Sprintf("panic: %v\n%s", v, firstLines(debug.Stack(), 12))
			rec.Result = nil
			if j.Instance.IsModelFile() {
				rec.Solu = judge(plan, j, rec)
			}
		}
		rec.Wall = time.Since(t0).Seconds()
		rec.Done = time.Now().UTC().Format(time.RFC3339)
	}()
	if j.Instance.IsModelFile() {
		runFileJob(ctx, j, spec, plan, o, rec)
		return rec
	}
	p, err := o.Load(j.Instance.Data, j.Instance.Name)
	if err != nil {
		rec.Status, rec.Error = solve.StatusError, "load: "+err.Error()
		return rec
	}
	opts := backends.Options{TimeLimit: j.TimeLimit, Threads: max(spec.Threads, DefaultThreadsPerJob), Seed: j.Rep}
	if j.HasGap {
		opts.RelGap = j.Gap
	}
	jctx := ctx
	if j.TimeLimit > 0 {
		// A hard stop in case a backend overruns its own limit.
		overrun := o.Overrun
		if overrun <= 0 {
			overrun = DefaultOverrun
		}
		var cancel context.CancelFunc
		jctx, cancel = context.WithTimeout(ctx, j.TimeLimit+overrun)
		defer cancel()
	}
	policy, err := o.newPolicy(j.Backend, spec.Certify)
	if err != nil {
		rec.Status, rec.Error = solve.StatusError, "certification policy: "+err.Error()
		return rec
	}
	res, err, abandoned := runOrGiveUp(jctx, func() (*solve.Result, error) {
		if j.Backend == solve.Auto {
			return portfolio.Run(jctx, p, portfolio.Request{Options: opts, NoCheck: spec.NoCheck, Certify: spec.Certify, NewBackend: o.newBackend})
		}
		return kinds.Run(jctx, p, kinds.RunRequest{Backend: j.Backend, Solver: solver, Options: opts, NoCheck: spec.NoCheck, Policy: policy})
	})
	if abandoned {
		rec.Status, rec.Abandoned = solve.StatusTimeLimit, true
		rec.Error = fmt.Sprintf("abandoned: the solver did not stop within %s of its hard stop (time limit + overrun)", GiveUpGrace)
		return rec
	}
	switch {
	case errors.Is(err, solve.ErrNoExact):
		rec.Status, rec.Error = StatusUnsupported, err.Error()
	case err != nil:
		rec.Status, rec.Error = solve.StatusError, err.Error()
	default:
		rec.Status, rec.Result = res.Status, res
		if res.Status == solve.StatusError && res.Message != "" {
			rec.Error = res.Message
		}
	}
	return rec
}

// runOrGiveUp runs f in its own goroutine and returns what it returns, unless ctx
// ends and f has not returned GiveUpGrace later: then it reports abandoned, and f
// goes on in the background until it returns (its result is dropped). A panic in f is
// re-raised in the caller's goroutine, where runJob records it.
func runOrGiveUp(ctx context.Context, f func() (*solve.Result, error)) (res *solve.Result, err error, abandoned bool) {
	type outcome struct {
		res   *solve.Result
		err   error
		panic any
		stack []byte
	}
	ch := make(chan outcome, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				ch <- outcome{panic: v, stack: debug.Stack()}
			}
		}()
		r, e := f()
		ch <- outcome{res: r, err: e}
	}()
	var out outcome
	select {
	case out = <-ch:
	case <-ctx.Done():
		t := time.NewTimer(GiveUpGrace)
		defer t.Stop()
		select {
		case out = <-ch:
		case <-t.C:
			return nil, nil, true
		}
	}
	if out.panic != nil {
		panic(fmt.Sprintf("%v\n%s", out.panic, firstLines(out.stack, 12)))
	}
	return out.res, out.err, false
}

func firstLines(b []byte, n int) string {
	lines := strings.SplitN(string(b), "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

// appendRecord writes rec as one JSON line and syncs the file, so a finished job is
// on disk before the next one is reported.
func appendRecord(f *os.File, rec *Record) error {
	b, err := json.Marshal(rec)
	if err != nil {
		// A solution with NaN/Inf cannot be encoded: keep the record, drop the result.
		rec.Error = strings.TrimSpace(rec.Error + "; result not encodable: " + err.Error())
		rec.Result = nil
		if b, err = json.Marshal(rec); err != nil {
			return err
		}
	}
	b = append(b, '\n')
	if _, err := f.Write(b); err != nil {
		return err
	}
	return f.Sync()
}

// repairAndReadKeys returns the keys already in the results file. A last line cut
// short by a kill is removed, so appending goes on cleanly.
func repairAndReadKeys(path string) (map[string]bool, error) {
	keys := map[string]bool{}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return keys, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sweep: read results: %w", err)
	}
	if n := len(data); n > 0 && data[n-1] != '\n' {
		cut := bytes.LastIndexByte(data, '\n') + 1
		if err := os.Truncate(path, int64(cut)); err != nil {
			return nil, fmt.Errorf("sweep: repair results: %w", err)
		}
		data = data[:cut]
	}
	recs, err := parseRecords(path, data)
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		keys[r.Key] = true
	}
	return keys, nil
}

// ReadRecords reads a results file. A last line cut short by a kill is ignored; any
// other malformed line is an error naming the file and line.
func ReadRecords(path string) ([]*Record, error) {
	data, err := kinds.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if n := len(data); n > 0 && data[n-1] != '\n' {
		data = data[:bytes.LastIndexByte(data, '\n')+1]
	}
	return parseRecords(path, data)
}

func parseRecords(path string, data []byte) ([]*Record, error) {
	var out []*Record
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var r Record
		if err := json.Unmarshal(b, &r); err != nil {
			return nil, &domain.FieldError{File: path, Field: fmt.Sprintf("line %d", line), Reason: "malformed result record: " + err.Error()}
		}
		if r.Key == "" {
			return nil, &domain.FieldError{File: path, Field: fmt.Sprintf("line %d", line), Reason: "result record without a key"}
		}
		out = append(out, &r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// MergeResult counts what Merge did.
type MergeResult struct {
	Records    int // records written
	Duplicates int // records dropped because their key was already present
}

// Merge joins results files (for example the outputs of the shards of one sweep)
// into out, one record per job key, sorted by key. Of duplicate keys it keeps the
// first record that did not fail. Inputs that hold no record at all are bad input
// (a *domain.FieldError naming them), and out is then not written.
func Merge(out string, inputs []string) (MergeResult, error) {
	var res MergeResult
	byKey := map[string]*Record{}
	for _, in := range inputs {
		recs, err := ReadRecords(in)
		if err != nil {
			return res, err
		}
		for _, r := range recs {
			old, ok := byKey[r.Key]
			if ok {
				res.Duplicates++
				if !(old.Failed() && !r.Failed()) {
					continue
				}
			}
			byKey[r.Key] = r
		}
	}
	if len(byKey) == 0 {
		// Nothing to merge is a mistake (a wrong glob, a shard that never ran), not
		// an empty results file to write.
		return res, &domain.FieldError{File: strings.Join(inputs, ", "), Reason: "holds no results: nothing to merge"}
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	tmp := out + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return res, fmt.Errorf("merge: %w", err)
	}
	w := bufio.NewWriter(f)
	for _, k := range keys {
		b, err := json.Marshal(byKey[k])
		if err != nil {
			f.Close()
			return res, fmt.Errorf("merge: %w", err)
		}
		w.Write(b)
		w.WriteByte('\n')
		res.Records++
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return res, fmt.Errorf("merge: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return res, fmt.Errorf("merge: %w", err)
	}
	if err := f.Close(); err != nil {
		return res, fmt.Errorf("merge: %w", err)
	}
	if err := os.Rename(tmp, out); err != nil {
		return res, fmt.Errorf("merge: %w", err)
	}
	return res, nil
}

// ErrResultsBusy says that another sweep is writing the same results file.
var ErrResultsBusy = errors.New("bench: results file in use by another running sweep")

// lockResults takes an exclusive advisory lock on the open results file for the
// life of f, or fails at once with ErrResultsBusy.
func lockResults(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return ErrResultsBusy
	}
	if err != nil {
		return fmt.Errorf("lock: %w", err)
	}
	return nil
}

// ShardState is the progress of one shard of a plan: its jobs, how many have a
// record in the shard's results file, and the jobs that have none yet.
type ShardState struct {
	Shard   Shard
	Jobs    int
	Done    int
	Missing []Job
}

// ShardStates reads, for each of the n shards of plan, the results file path(shard)
// and returns the shards' states in shard order. A file that does not exist means
// that no job of the shard is done; records whose key is not one of the shard's jobs
// are ignored. A failed job counts as done, as it does for resume.
func ShardStates(plan *Plan, n int, path func(Shard) string) ([]ShardState, error) {
	if n < 1 {
		return nil, fmt.Errorf("shard states: %d shards", n)
	}
	states := make([]ShardState, n)
	for i := range states {
		states[i].Shard = Shard{Index: i + 1, Count: n}
	}
	done := make([]map[string]bool, n)
	for i := range states {
		p := path(states[i].Shard)
		if _, err := os.Stat(p); errors.Is(err, os.ErrNotExist) {
			continue
		}
		recs, err := ReadRecords(p)
		if err != nil {
			return nil, fmt.Errorf("shard %s: %w", states[i].Shard, err)
		}
		done[i] = make(map[string]bool, len(recs))
		for _, r := range recs {
			done[i][r.Key] = true
		}
	}
	for _, j := range plan.Jobs {
		i := shardOf(j.Key, n)
		states[i].Jobs++
		if done[i][j.Key] {
			states[i].Done++
		} else {
			states[i].Missing = append(states[i].Missing, j)
		}
	}
	return states, nil
}

// shardOf is the 0-based shard of n that owns key (Shard.Owns).
func shardOf(key string, n int) int {
	if n <= 1 {
		return 0
	}
	h := fnv.New64a()
	io.WriteString(h, key)
	return int(h.Sum64() % uint64(n))
}
