// Package benchproc runs the model-file jobs of a sweep in child processes, so that
// each job's peak memory can be measured honestly: the sweep's own process runs
// several jobs at once and cannot tell their memory apart, while the kernel's
// rusage of a child (ru_maxrss, what /usr/bin/time -f %M prints and the Open Energy
// Transition solver benchmark records) is the peak resident memory of that job
// alone. A child that ignores its limit is killed at the sweep's hard stop.
//
// The parent side is Runner, a bench.FileRunner; the child side is Serve, which the
// command line exposes as the hidden verb "schedopt bench file-job". They talk JSON:
// one request on the child's stdin, one response on its stdout.
package benchproc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/bench"
	"github.com/schedopt/schedopt/benchfile"
	"github.com/schedopt/schedopt/model"
	"github.com/schedopt/schedopt/solve"
)

// Request is a bench.FileJob as it crosses to the child.
type Request struct {
	Path        string        `json:"path"`
	Name        string        `json:"name"`
	Backend     string        `json:"backend"`
	TimeLimit   time.Duration `json:"time_limit_ns"`
	RelGap      float64       `json:"rel_gap"`
	AbsGap      float64       `json:"abs_gap"`
	Threads     int           `json:"threads"`
	Seed        int           `json:"seed"`
	Permutation int           `json:"permutation"`
	SCInInteger string        `json:"sc_in_integer"`
	Certify     bool          `json:"certify"`
}

// Response is the child's answer: the result object, or the error that kept the job
// from producing one (with the result, when there is one).
type Response struct {
	Result *solve.Result `json:"result"`
	Error  string        `json:"error,omitempty"`
}

func requestOf(j bench.FileJob) Request {
	return Request{Path: j.Path, Name: j.Name, Backend: j.Backend, TimeLimit: j.Options.TimeLimit,
		RelGap: j.Options.RelGap, AbsGap: j.Options.AbsGap, Threads: j.Options.Threads, Seed: j.Options.Seed,
		Permutation: j.Permutation, SCInInteger: j.Read.SCInInteger.String(), Certify: j.Certify}
}

func (r Request) job() (bench.FileJob, error) {
	sc, err := model.ParseSCReading(r.SCInInteger)
	if err != nil {
		return bench.FileJob{}, err
	}
	return bench.FileJob{Path: r.Path, Name: r.Name, Backend: r.Backend,
		Options:     backends.Options{TimeLimit: r.TimeLimit, RelGap: r.RelGap, AbsGap: r.AbsGap, Threads: r.Threads, Seed: r.Seed},
		Permutation: r.Permutation, Read: benchfile.Options{SCInInteger: sc}, Certify: r.Certify}, nil
}

// Serve is the child's side: it reads one Request from in, runs it with runner and
// writes one Response to out. A job that fails is a Response with an error, not an
// error of Serve; Serve fails only when it cannot read the request or write the
// response.
func Serve(ctx context.Context, in io.Reader, out io.Writer, runner bench.FileRunner) error {
	var req Request
	dec := json.NewDecoder(in)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return fmt.Errorf("benchproc: read request: %w", err)
	}
	var resp Response
	job, err := req.job()
	if err == nil {
		var o bench.FileOutcome
		o, err = runner.RunFile(ctx, job)
		resp.Result = o.Result
	}
	if err != nil {
		resp.Error = err.Error()
	}
	if err := json.NewEncoder(out).Encode(resp); err != nil {
		return fmt.Errorf("benchproc: write response: %w", err)
	}
	return nil
}

// MemoryMeasure names what Runner's PeakRSS measures.
const MemoryMeasure = "child process ru_maxrss (reading, solve and certification)"

// Runner runs each model-file job as a child process and reports its peak resident
// memory. Command is the child's command line (e.g. the schedopt binary and "bench",
// "file-job"); Env, when not nil, is its environment.
type Runner struct {
	Command []string
	Env     []string
}

// RunFile runs the job in a child and returns its result and peak memory. The child
// is killed when ctx ends (the sweep's hard stop).
func (r Runner) RunFile(ctx context.Context, job bench.FileJob) (bench.FileOutcome, error) {
	if len(r.Command) == 0 {
		return bench.FileOutcome{}, errors.New("benchproc: no child command")
	}
	req, err := json.Marshal(requestOf(job))
	if err != nil {
		return bench.FileOutcome{}, fmt.Errorf("benchproc: encode request: %w", err)
	}
	cmd := exec.CommandContext(ctx, r.Command[0], r.Command[1:]...)
	cmd.Env = r.Env
	cmd.Stdin = bytes.NewReader(req)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	out := bench.FileOutcome{}
	if ps := cmd.ProcessState; ps != nil {
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > 0 {
			out.PeakRSS, out.Memory = ru.Maxrss*1024, MemoryMeasure // Linux reports KiB
		}
	}
	if ctx.Err() != nil {
		return out, fmt.Errorf("benchproc: child stopped at the hard stop: %w", ctx.Err())
	}
	var resp Response
	if err := json.Unmarshal(stdout.Bytes(), &resp); err != nil {
		msg := strings.TrimSpace(lastLines(stderr.String(), 5))
		if runErr != nil {
			return out, fmt.Errorf("benchproc: child failed (%v): %s", runErr, msg)
		}
		return out, fmt.Errorf("benchproc: child answered no response (%v): %s", err, msg)
	}
	out.Result = resp.Result
	if resp.Error != "" {
		return out, errors.New(resp.Error)
	}
	if resp.Result == nil {
		return out, errors.New("benchproc: child answered no result")
	}
	return out, nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
