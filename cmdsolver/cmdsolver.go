package cmdsolver

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/model"
)

// Run is one solve of a model file by a command-line solver.
type Run struct {
	File      string        // .mps, .mps.gz, .lp or .lp.gz
	TimeLimit time.Duration // 0: none; otherwise passed to the program, which is killed at the limit + KillGrace
	Gap       float64       // relative MIP gap, always passed explicitly (the absolute gap is set to 0)
	Threads   int           // passed to programs that take it; 0 lets the program choose
	WorkDir   string        // where the options, solution and decompressed files go; "" means a temporary directory, removed afterwards
}

// Result is what a program answered, read back from its solution file and log.
type Result struct {
	Status    backends.Status
	Objective float64            // NaN when unknown
	Bound     float64            // the best proven bound, NaN when unknown
	Values    map[string]float64 // by column name; nil when the program reported no solution
	Wall      time.Duration      // wall time of the child process
	PeakRSS   int64              // bytes, the child's rusage Maxrss
	Version   string             // the program's version, as it prints it
	Log       string             // the last LogTail bytes of its output (stdout and stderr)
	// Killed is set when the program did not stop on its own by its time limit plus
	// KillGrace and was killed (Status is then TimeLimit, with no values).
	Killed bool
}

// KillGrace is how long a program may run past its time limit before it is killed
// (its process group, SIGKILL). A killed run reports backends.TimeLimit.
const KillGrace = time.Second

// LogTail is how many bytes of a program's output Result.Log keeps.
const LogTail = 8 << 10

// parseTail is how many bytes of output the parsers see (status and bound lines are
// near the end).
const parseTail = 256 << 10

// Invocation is what a command template is filled with: the input file (decompressed
// when the program cannot read gzip), the input's format, the paths the program
// writes, and the run's limits.
type Invocation struct {
	File     string // the file the program reads
	Format   string // "mps" or "lp"
	Solution string // where the program writes its solution
	Options  string // an options file in the work directory, for programs that take one
	Run
}

// Answer is what a solution parser extracts.
type Answer struct {
	Status    backends.Status
	Objective float64            // NaN when unknown
	Bound     float64            // NaN when unknown
	Values    map[string]float64 // nil when there is no solution to read
}

// Adapter describes one command-line solver: everything that differs between
// programs is here, and Solve does the rest (decompressing, running in a process
// group with the time limit, measuring time and memory, reading the answer).
//
// To add a solver, write one Adapter value (see adapters.go) and add it to Lookup's
// table: the program's name, how to pass the file, limits and solution path
// (Command, and OptionsFile for programs that read options from a file), how to
// read its version, and a parser from its solution file and log to an Answer. Its
// parser gets a fuzz target and its adapter a row in the tests' solve table.
type Adapter struct {
	Name    string // the backend name after "cmd:" ("highs")
	Program string // the executable, looked up in PATH
	// ReadsGzip says whether the program reads a .gz file itself; when false, Solve
	// decompresses it into the work directory first.
	ReadsGzip bool
	// NeedsModel says whether Parse needs the ModelInfo (read with schedopt's
	// reader): for programs whose solution file numbers the columns, or whose
	// objective must be corrected for a constant they read differently.
	NeedsModel bool
	// VersionArgs are the arguments that make the program print its version;
	// Version picks it out of that output.
	VersionArgs []string
	Version     func(out string) string
	// OptionsFile returns the text of the options file (written to
	// Invocation.Options), or "" for none.
	OptionsFile func(inv Invocation) string
	// Command returns the program's arguments.
	Command func(inv Invocation) []string
	// Parse reads the solution file (nil when the program wrote none) and the tail
	// of the program's output; info is filled when NeedsModel is set.
	Parse func(solution, log []byte, info ModelInfo) (Answer, error)
}

// ModelInfo is what a parser may need to know of the model, as schedopt reads it.
type ModelInfo struct {
	Format   string   // "mps" or "lp"
	Names    []string // column names in file order
	ObjConst float64  // the objective constant
}

// Lookup returns the adapter named name: "highs", "cbc" or "glpsol".
func Lookup(name string) (*Adapter, bool) {
	for _, a := range adapters() {
		if a.Name == name {
			return a, true
		}
	}
	return nil, false
}

// Names lists the adapters' names, sorted.
func Names() []string {
	var out []string
	for _, a := range adapters() {
		out = append(out, a.Name)
	}
	sort.Strings(out)
	return out
}

// ErrNoProgram wraps the error of a run whose program is not installed.
var ErrNoProgram = errors.New("cmdsolver: program not found")

// Solve runs the program on r.File and reads its answer. An error means the run
// could not be made or read (a missing program, an unreadable file, a solution file
// that does not parse); a program that stops on its own (limit, infeasible, crash) is
// a Result with the matching status. When ctx ends first, the program is killed and
// the status is backends.Interrupted.
func (a *Adapter) Solve(ctx context.Context, r Run) (Result, error) {
	res := Result{Status: backends.Other, Objective: math.NaN(), Bound: math.NaN()}
	prog, err := exec.LookPath(a.Program)
	if err != nil {
		return res, fmt.Errorf("%w: %s: %w", ErrNoProgram, a.Program, err)
	}
	if r.Gap < 0 || math.IsNaN(r.Gap) || r.TimeLimit < 0 || r.Threads < 0 {
		return res, fmt.Errorf("cmdsolver: %s: bad run parameters (gap %g, time limit %v, threads %d)", a.Name, r.Gap, r.TimeLimit, r.Threads)
	}
	dir := r.WorkDir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "cmdsolver-"); err != nil {
			return res, fmt.Errorf("cmdsolver: %w", err)
		}
		defer os.RemoveAll(dir)
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, fmt.Errorf("cmdsolver: work directory: %w", err)
	}
	inv := Invocation{Run: r, Format: formatOf(r.File), File: r.File}
	base := strings.TrimSuffix(filepath.Base(r.File), ".gz")
	inv.Solution = filepath.Join(dir, a.Name+"-"+base+".sol")
	inv.Options = filepath.Join(dir, a.Name+"-"+base+".opt")
	_ = os.Remove(inv.Solution) // a stale solution must not be read as this run's
	if strings.HasSuffix(strings.ToLower(r.File), ".gz") && !a.ReadsGzip {
		inv.File = filepath.Join(dir, base)
		if err := gunzip(r.File, inv.File); err != nil {
			return res, fmt.Errorf("cmdsolver: %s: %w", r.File, err)
		}
		defer os.Remove(inv.File)
	}
	info := ModelInfo{Format: inv.Format}
	if a.NeedsModel {
		if info, err = modelInfo(r.File); err != nil {
			return res, fmt.Errorf("cmdsolver: %s: %w", r.File, err)
		}
	}
	if a.OptionsFile != nil {
		if text := a.OptionsFile(inv); text != "" {
			if err := os.WriteFile(inv.Options, []byte(text), 0o644); err != nil {
				return res, fmt.Errorf("cmdsolver: %w", err)
			}
		}
	}
	res.Version = a.version(ctx, prog)

	out, ended, err := run(ctx, prog, a.Command(inv), dir, r.TimeLimit, &res)
	if err != nil {
		return res, fmt.Errorf("cmdsolver: %s: %w", a.Name, err)
	}
	res.Log = string(tail(out, LogTail))
	switch ended {
	case endedCancelled:
		res.Status = backends.Interrupted
		return res, nil
	case endedKilled:
		res.Status, res.Killed = backends.TimeLimit, true
		return res, nil
	}
	sol, err := os.ReadFile(inv.Solution)
	if err != nil {
		sol = nil
	}
	ans, err := a.Parse(sol, tail(out, parseTail), info)
	if err != nil {
		return res, fmt.Errorf("cmdsolver: %s: %s: %w", a.Name, r.File, err)
	}
	res.Status, res.Objective, res.Bound, res.Values = ans.Status, ans.Objective, ans.Bound, ans.Values
	return res, nil
}

// version runs the program's version command (briefly) and returns what Version
// picks from its output.
func (a *Adapter) version(ctx context.Context, prog string) string {
	if a.VersionArgs == nil {
		return ""
	}
	var dummy Result
	out, _, err := run(ctx, prog, a.VersionArgs, "", 10*time.Second, &dummy)
	if err != nil {
		return ""
	}
	return a.Version(string(out))
}

// How a child process ended.
const (
	endedOK        = iota // exit status 0
	endedFailed           // a non-zero exit or a signal not sent by us
	endedKilled           // killed by us at the time limit + KillGrace
	endedCancelled        // killed by us because ctx ended
)

// run starts prog in its own process group in dir, collects its output, and kills
// the group at limit + KillGrace (when limit > 0) or when ctx ends. It records the
// wall time and peak RSS in res.
func run(ctx context.Context, prog string, args []string, dir string, limit time.Duration, res *Result) ([]byte, int, error) {
	cmd := exec.Command(prog, args...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var buf tailBuffer
	cmd.Stdout = &buf
	cmd.Stderr = &buf
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, endedFailed, err
	}
	pgid := cmd.Process.Pid
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var timer <-chan time.Time
	if limit > 0 {
		t := time.NewTimer(limit + KillGrace)
		defer t.Stop()
		timer = t.C
	}
	ended := endedOK
	var werr error
	select {
	case werr = <-done:
	case <-timer:
		ended = endedKilled
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		werr = <-done
	case <-ctx.Done():
		ended = endedCancelled
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		werr = <-done
	}
	// The group may hold children that outlived the program: end them too.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	res.Wall = time.Since(start)
	if st := cmd.ProcessState; st != nil {
		if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
			res.PeakRSS = ru.Maxrss * 1024 // kilobytes on Linux
		}
	}
	if ended == endedOK && werr != nil {
		var ee *exec.ExitError
		if !errors.As(werr, &ee) {
			return buf.Bytes(), endedFailed, werr
		}
		ended = endedFailed
	}
	return buf.Bytes(), ended, nil
}

// tailBuffer keeps the last parseTail bytes written to it; it is safe for the two
// copying goroutines of exec.Cmd.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > 2*parseTail {
		b.buf = append(b.buf[:0], b.buf[len(b.buf)-parseTail:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf)
}

// tail returns the last n bytes of b.
func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

// formatOf returns "lp" for .lp and .lp.gz files and "mps" for the others.
func formatOf(path string) string {
	p := strings.TrimSuffix(strings.ToLower(path), ".gz")
	if strings.HasSuffix(p, ".lp") {
		return "lp"
	}
	return "mps"
}

// gunzip decompresses src into dst.
func gunzip(src, dst string) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("gzip: %w", err)
	}
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, z); err != nil {
		out.Close()
		return fmt.Errorf("gzip: %w", err)
	}
	return out.Close()
}

// modelInfo reads the model's column names in file order and its objective constant
// with schedopt's readers.
func modelInfo(path string) (ModelInfo, error) {
	info := ModelInfo{Format: formatOf(path)}
	f, err := os.Open(path)
	if err != nil {
		return info, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(strings.ToLower(path), ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			return info, fmt.Errorf("gzip: %w", err)
		}
		defer z.Close()
		r = z
	}
	var m *model.Model
	if info.Format == "lp" {
		m, err = model.ReadLP(r)
	} else {
		m, err = model.ReadMPSWarn(r, nil)
	}
	if err != nil {
		return info, err
	}
	info.Names = make([]string, m.NumVars())
	for j := range info.Names {
		info.Names[j] = m.VarName(model.Var(j))
	}
	info.ObjConst = m.ObjectiveConstant()
	return info, nil
}

// seconds formats a duration in seconds for a command line.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'g', -1, 64)
}

// number parses a float as the programs print it ("inf", "-inf" and "nan" included).
func number(s string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			return v, true
		}
		return math.NaN(), false
	}
	return v, true
}
