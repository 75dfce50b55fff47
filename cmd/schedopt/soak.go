package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"
)

// Soak thresholds (docs/robustness.md).
const (
	// soakHangSlack is how long past --time-limit a run may take before it counts as a hang.
	soakHangSlack = time.Second
	// soakKillAfter is how long past --time-limit a run is left before it is killed.
	soakKillAfter = 10 * time.Second
	// soakRSSLimit is the peak resident size that counts as a memory blow-up for an
	// input under soakSmallInput bytes.
	soakRSSLimit = 1 << 30
	// soakSmallInput is the input size below which soakRSSLimit applies.
	soakSmallInput = 1 << 20
	// soakSignalSlack is how long after SIGINT a run may take to end.
	soakSignalSlack = time.Second
	// soakEarlySignal is the start-up window: a SIGINT sent earlier may arrive before
	// the handler is installed and kill the child, as for any program.
	soakEarlySignal = 50 * time.Millisecond
	// soakCapture caps the bytes kept of a child's stdout and stderr.
	soakCapture = 1 << 20
)

// soakFlags are the flags of the hidden soak command.
type soakFlags struct {
	runs       int
	timeLimit  time.Duration
	workers    int
	seed       uint64
	keep       string
	keepErrors bool
	out        string
	signalFrac float64
	backends   string
}

// soakRun is what one child run did.
type soakRun struct {
	input    string        // the mutated instance file
	size     int           // its size in bytes
	backend  string        // --backend
	signal   time.Duration // SIGINT after this long; 0: none
	wall     time.Duration // start to exit
	afterSig time.Duration // signal to exit (when a signal was sent before the exit)
	code     int           // exit status; -1 when killed by a signal
	rss      int64         // peak resident bytes
	stdout   string
	stderr   string
	killed   bool // killed by the soak after soakKillAfter
}

// soakCounts are the soak's tallies; every field but Runs, Exit and Status counts a finding.
type soakCounts struct {
	Runs         int            `json:"runs"`
	Exit         map[string]int `json:"exit"`          // by exit status
	Status       map[string]int `json:"status"`        // by result status (exit 0 and 1 with --json)
	Hangs        int            `json:"hangs"`         // wall > limit + 1 s
	Killed       int            `json:"killed"`        // still running at limit + 10 s
	BigRSS       int            `json:"big_rss"`       // peak RSS > 1 GB for an input < 1 MB
	Panics       int            `json:"panics"`        // a Go panic or fatal error on stderr
	BadExit      int            `json:"bad_exit"`      // exit status other than 0, 1, 2
	BadMessage   int            `json:"bad_message"`   // exit 2 without one line naming the file
	BadJSON      int            `json:"bad_json"`      // exit 0 without exactly one JSON result on stdout
	SlowSignal   int            `json:"slow_signal"`   // ended more than 1 s after SIGINT
	NotInterrupt int            `json:"not_interrupt"` // SIGINT before the end, yet not "interrupted"
	Signalled    int            `json:"signalled"`     // runs that received SIGINT before they ended
	EarlySignal  int            `json:"early_signal"`  // killed by a SIGINT sent within the start-up window
	MaxWall      float64        `json:"max_wall_s"`
	MaxRSSMB     float64        `json:"max_rss_mb"`
	Seconds      float64        `json:"seconds"`
}

func newSoakCmd(e *env) *cobra.Command {
	var f soakFlags
	cmd := &cobra.Command{
		Use:    "soak INSTANCE.json...",
		Short:  "Run schedopt solve on random mutations of valid instances and count failures",
		Hidden: true,
		Long: `soak mutates the given instances at random (numbers, missing and unknown keys,
wrong types, grown and shrunk arrays, damaged bytes) and runs this binary's solve on each
mutation in a child process with --time-limit, optionally interrupting it with SIGINT. It
counts hangs (past the limit + 1 s), peak RSS over 1 GB for inputs under 1 MB, panics,
exit statuses other than 0/1/2, bad-input messages that do not name the file, results
that are not one JSON object, and signals not obeyed within 1 s. Failing inputs are kept
in --keep. See docs/robustness.md.`,
		Example: `  schedopt soak --runs 2000 --keep /tmp/soak instances/*.json
  schedopt soak --runs 10000 --workers 2 --seed 4 --out counts.json --backends highs,cbc instances/*.json`,
		Args: argsOf(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.runs <= 0 || f.workers <= 0 || f.timeLimit <= 0 {
				return usagef("soak: --runs, --workers and --time-limit must be > 0")
			}
			return soak(cmd.Context(), e, f, args)
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&f.runs, "runs", 2000, "number of child runs")
	fl.DurationVar(&f.timeLimit, "time-limit", 2*time.Second, "--time-limit of every child")
	fl.IntVar(&f.workers, "workers", 2, "child runs at a time")
	fl.Uint64Var(&f.seed, "seed", 1, "random seed")
	fl.StringVar(&f.keep, "keep", "", "directory for the inputs and stderr of failing runs")
	fl.BoolVar(&f.keepErrors, "keep-errors", false, "also keep runs whose status is \"error\" (in --keep/errors; not findings)")
	fl.StringVar(&f.out, "out", "", "write the counts as JSON to FILE (rewritten every 50 runs)")
	fl.Float64Var(&f.signalFrac, "signal", 0.1, "fraction of runs sent SIGINT at a random time within the limit")
	fl.StringVar(&f.backends, "backends", "highs", "comma-separated backends the runs cycle through")
	return cmd
}

// soak runs f.runs mutated solves and prints the counts.
func soak(ctx context.Context, e *env, f soakFlags, paths []string) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("soak: %w", err)
	}
	var seeds [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("soak: %w", err)
		}
		seeds = append(seeds, b)
	}
	dir, err := os.MkdirTemp("", "schedopt-soak-")
	if err != nil {
		return fmt.Errorf("soak: %w", err)
	}
	defer os.RemoveAll(dir)
	if f.keep != "" {
		if err := os.MkdirAll(filepath.Join(f.keep, "errors"), 0o755); err != nil {
			return fmt.Errorf("soak: %w", err)
		}
	}
	backends := strings.Split(f.backends, ",")
	counts := soakCounts{Exit: map[string]int{}, Status: map[string]int{}}
	var mu sync.Mutex
	start := time.Now()
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < f.workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				rng := rand.New(rand.NewPCG(f.seed, uint64(i)))
				src := rng.IntN(len(seeds))
				in := mutate(rng, seeds[src])
				path := filepath.Join(dir, fmt.Sprintf("run%06d.json", i))
				if err := os.WriteFile(path, in, 0o644); err != nil {
					fmt.Fprintln(e.stderr, "soak:", err)
					continue
				}
				var sig time.Duration
				if rng.Float64() < f.signalFrac {
					sig = time.Duration(rng.Int64N(int64(f.timeLimit)))
				}
				r := soakOne(exe, path, backends[i%len(backends)], f.timeLimit, sig)
				r.size = len(in)
				findings := classify(&r, f.timeLimit)
				mu.Lock()
				tally(&counts, &r, findings, f.timeLimit)
				counts.Seconds = time.Since(start).Seconds()
				if len(findings) > 0 {
					fmt.Fprintf(e.stderr, "run %d (%s, %s): %s\n", i, filepath.Base(paths[src]), r.backend, strings.Join(findings, ", "))
					if f.keep != "" {
						keepRun(f.keep, i, in, &r, findings)
					}
				} else if f.keepErrors && f.keep != "" {
					if st, err := soakStatus(r.stdout); err == nil && st == "error" {
						keepRun(filepath.Join(f.keep, "errors"), i, in, &r, nil)
					}
				}
				if counts.Runs%50 == 0 {
					fmt.Fprintf(e.stderr, "soak: %d runs, %.0f s, findings: hangs %d, rss %d, panics %d, bad exit %d\n",
						counts.Runs, counts.Seconds, counts.Hangs, counts.BigRSS, counts.Panics, counts.BadExit)
					if f.out != "" {
						writeCounts(f.out, &counts)
					}
				}
				mu.Unlock()
				os.Remove(path)
			}
		}()
	}
feed:
	for i := 0; i < f.runs; i++ {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if f.out != "" {
		writeCounts(f.out, &counts)
	}
	return writeJSON(e.stdout, &counts)
}

func writeCounts(path string, c *soakCounts) {
	b, err := json.MarshalIndent(c, "", "  ")
	if err == nil {
		_ = os.WriteFile(path, append(b, '\n'), 0o644)
	}
}

func keepRun(dir string, i int, in []byte, r *soakRun, findings []string) {
	base := filepath.Join(dir, fmt.Sprintf("run%06d", i))
	_ = os.WriteFile(base+".json", in, 0o644)
	note := fmt.Sprintf("backend %s\nsignal %s\nwall %s\nexit %d\nrss %d\nfindings %s\n--- stderr\n%s\n--- stdout\n%s\n",
		r.backend, r.signal, r.wall, r.code, r.rss, strings.Join(findings, ", "), r.stderr, r.stdout)
	_ = os.WriteFile(base+".txt", []byte(note), 0o644)
}

// cappedBuffer keeps the first soakCapture bytes written to it.
type cappedBuffer struct{ bytes.Buffer }

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if room := soakCapture - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// soakOne runs one child solve and measures it.
func soakOne(exe, path, backend string, limit, sig time.Duration) soakRun {
	r := soakRun{input: path, backend: backend, signal: sig}
	cmd := exec.Command(exe, "solve", path, "--json", "--threads", "1", "--backend", backend, "--time-limit", limit.String())
	cmd.Env = append(os.Environ(), "SCHEDOPT_TEST_AS_CLI=1")
	var so, se cappedBuffer
	cmd.Stdout, cmd.Stderr = &so, &se
	start := time.Now()
	if err := cmd.Start(); err != nil {
		r.code, r.stderr = -1, err.Error()
		return r
	}
	done := make(chan struct{})
	var sigAt time.Time
	var killed bool
	go func() {
		var sigC <-chan time.Time
		if sig > 0 {
			t := time.NewTimer(sig)
			defer t.Stop()
			sigC = t.C
		}
		kill := time.NewTimer(limit + soakKillAfter)
		defer kill.Stop()
		for {
			select {
			case <-done:
				return
			case <-sigC:
				sigAt = time.Now()
				_ = cmd.Process.Signal(syscall.SIGINT)
				sigC = nil
			case <-kill.C:
				killed = true
				_ = cmd.Process.Kill()
				return
			}
		}
	}()
	_ = cmd.Wait()
	end := time.Now()
	close(done)
	r.wall = end.Sub(start)
	r.killed = killed
	if !sigAt.IsZero() && sigAt.Before(end) {
		r.afterSig = end.Sub(sigAt)
	} else {
		r.signal = 0
	}
	r.code = cmd.ProcessState.ExitCode()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.rss = ru.Maxrss * 1024
	}
	r.stdout, r.stderr = so.String(), se.String()
	return r
}

// classify lists what is wrong with a run (nothing for a good run).
func classify(r *soakRun, limit time.Duration) []string {
	var out []string
	if r.wall > limit+soakHangSlack && r.signal == 0 {
		out = append(out, fmt.Sprintf("hang (%.2f s)", r.wall.Seconds()))
	}
	if r.killed {
		out = append(out, "killed")
	}
	if r.rss > soakRSSLimit && r.size < soakSmallInput {
		out = append(out, fmt.Sprintf("rss %d MB", r.rss>>20))
	}
	if strings.Contains(r.stderr, "panic:") || strings.Contains(r.stderr, "fatal error:") || strings.Contains(r.stderr, "goroutine ") {
		out = append(out, "panic")
	}
	if r.code == -1 && r.signal > 0 && r.signal < soakEarlySignal && r.stdout == "" && r.stderr == "" {
		// Killed by a SIGINT sent before the handler was installed: any program's
		// start-up window, counted apart (EarlySignal), not a finding.
		return nil
	}
	if r.code != 0 && r.code != 1 && r.code != 2 && !r.killed {
		out = append(out, fmt.Sprintf("exit %d", r.code))
	}
	if r.code == 2 {
		lines := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n")
		if len(lines) != 1 || !strings.Contains(lines[0], filepath.Base(r.input)) {
			out = append(out, "bad message")
		}
	}
	if r.code == 0 {
		if _, err := soakStatus(r.stdout); err != nil {
			out = append(out, "bad json: "+err.Error())
		}
	}
	if r.signal > 0 {
		if r.afterSig > soakSignalSlack {
			out = append(out, fmt.Sprintf("slow signal (%.2f s)", r.afterSig.Seconds()))
		}
		// A signal may arrive as a proof completes: a proven status stands.
		st, err := soakStatus(r.stdout)
		proven := st == "optimal" || st == "infeasible" || st == "unbounded"
		if r.code != 2 && !proven && (err != nil || st != "interrupted") {
			out = append(out, fmt.Sprintf("signal gave status %q exit %d", st, r.code))
		}
	}
	return out
}

// soakStatus reads the status of exactly one JSON result object.
func soakStatus(stdout string) (string, error) {
	dec := json.NewDecoder(strings.NewReader(stdout))
	var res struct {
		Status string `json:"status"`
	}
	if err := dec.Decode(&res); err != nil {
		return "", err
	}
	if _, err := dec.Token(); err != io.EOF {
		return res.Status, fmt.Errorf("more than one JSON value")
	}
	if res.Status == "" {
		return "", fmt.Errorf("no status")
	}
	return res.Status, nil
}

func tally(c *soakCounts, r *soakRun, findings []string, limit time.Duration) {
	c.Runs++
	c.Exit[strconv.Itoa(r.code)]++
	if st, err := soakStatus(r.stdout); err == nil {
		c.Status[st]++
	}
	c.MaxWall = max(c.MaxWall, r.wall.Seconds())
	c.MaxRSSMB = max(c.MaxRSSMB, float64(r.rss)/(1<<20))
	if r.signal > 0 {
		c.Signalled++
		if r.code == -1 && r.signal < soakEarlySignal && r.stdout == "" && r.stderr == "" {
			c.EarlySignal++
		}
	}
	for _, f := range findings {
		switch {
		case strings.HasPrefix(f, "hang"):
			c.Hangs++
		case f == "killed":
			c.Killed++
		case strings.HasPrefix(f, "rss"):
			c.BigRSS++
		case f == "panic":
			c.Panics++
		case strings.HasPrefix(f, "exit"):
			c.BadExit++
		case f == "bad message":
			c.BadMessage++
		case strings.HasPrefix(f, "bad json"):
			c.BadJSON++
		case strings.HasPrefix(f, "slow signal"):
			c.SlowSignal++
		case strings.HasPrefix(f, "signal gave"):
			c.NotInterrupt++
		}
	}
}

// mutate returns a random mutation of a valid instance: one to three structural
// mutations of its JSON tree, and sometimes damaged bytes.
func mutate(rng *rand.Rand, src []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		return src
	}
	for k := 1 + rng.IntN(3); k > 0; k-- {
		root = mutateTree(rng, root)
	}
	out, err := json.Marshal(root)
	if err != nil {
		return src
	}
	if rng.IntN(10) == 0 && len(out) > 0 {
		switch rng.IntN(3) {
		case 0:
			out = out[:rng.IntN(len(out))]
		case 1:
			out[rng.IntN(len(out))] = byte(rng.IntN(256))
		default:
			i := rng.IntN(len(out))
			junk := []string{",", "}", "]", "{", "\"", "1e999", "-", "\x00", "\\u0000", "NaN"}[rng.IntN(10)]
			out = append(out[:i:i], append([]byte(junk), out[i:]...)...)
		}
	}
	return out
}

// soakNode is a place in the JSON tree: the value and how to replace it.
type soakNode struct {
	v   any
	set func(any)
	del func() // nil for the root
}

func collect(v any, set func(any), del func(), out *[]soakNode) {
	*out = append(*out, soakNode{v: v, set: set, del: del})
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			collect(x[k], func(n any) { x[k] = n }, func() { delete(x, k) }, out)
		}
	case []any:
		for i := range x {
			collect(x[i], func(n any) { x[i] = n }, nil, out)
		}
	}
}

// mutateTree applies one random mutation to the tree and returns its (new) root.
func mutateTree(rng *rand.Rand, root any) any {
	var nodes []soakNode
	collect(root, func(n any) { root = n }, nil, &nodes)
	n := nodes[rng.IntN(len(nodes))]
	switch rng.IntN(8) {
	case 0, 1, 2: // a number
		var nums []soakNode
		for _, m := range nodes {
			if _, ok := m.v.(json.Number); ok {
				nums = append(nums, m)
			}
		}
		if len(nums) == 0 {
			return root
		}
		m := nums[rng.IntN(len(nums))]
		x, _ := strconv.ParseFloat(string(m.v.(json.Number)), 64)
		m.set(json.Number(mutateNumber(rng, x)))
	case 3: // a missing key
		var keyed []soakNode
		for _, m := range nodes {
			if m.del != nil {
				keyed = append(keyed, m)
			}
		}
		if len(keyed) > 0 {
			keyed[rng.IntN(len(keyed))].del()
		}
	case 4: // a wrong type
		n.set([]any{nil, true, "x", []any{}, map[string]any{}, json.Number("1")}[rng.IntN(6)])
	case 5: // an unknown key
		if obj, ok := n.v.(map[string]any); ok {
			obj[[]string{"extra", "Machines", "v", "kind2", ""}[rng.IntN(5)]] = json.Number("1")
		}
	case 6, 7: // an array grown, shrunk or reordered
		var arrs []soakNode
		for _, m := range nodes {
			if a, ok := m.v.([]any); ok && len(a) > 0 {
				arrs = append(arrs, m)
			}
		}
		if len(arrs) == 0 {
			return root
		}
		m := arrs[rng.IntN(len(arrs))]
		a := m.v.([]any)
		switch rng.IntN(4) {
		case 0:
			m.set(a[:rng.IntN(len(a))])
		case 1:
			i, j := rng.IntN(len(a)), rng.IntN(len(a))
			a[i], a[j] = a[j], a[i]
		default:
			grow := []int{1, 2, 10, 100, 1000}[rng.IntN(5)]
			if len(a)*grow > 200000 {
				grow = 1
			}
			for g := 0; g < grow; g++ {
				a = append(a, a[rng.IntN(len(a))])
			}
			m.set(a)
		}
	}
	return root
}

// mutateNumber returns a random change of x as JSON number text.
func mutateNumber(rng *rand.Rand, x float64) string {
	switch rng.IntN(10) {
	case 0:
		return "0"
	case 1:
		return strconv.FormatFloat(-x, 'g', -1, 64)
	case 2:
		return []string{"1e-16", "1e-15", "1e16", "1e17", "1e308", "1e400", "-0", "4.9e-324"}[rng.IntN(8)]
	case 3:
		return []string{"1000", "10000", "1000000", "1000000000", "2147483648", "9007199254740993"}[rng.IntN(6)]
	case 4:
		return strconv.FormatFloat(x+1, 'g', -1, 64)
	case 5:
		return strconv.FormatFloat(x+0.5, 'g', -1, 64)
	default:
		k := rng.IntN(13) - 6
		y := x
		for ; k > 0; k-- {
			y *= 10
		}
		for ; k < 0; k++ {
			y /= 10
		}
		return strconv.FormatFloat(y, 'g', -1, 64)
	}
}
