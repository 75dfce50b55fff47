package slurm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// Client runs Slurm's commands. The zero value runs them with os/exec from PATH
// (SLURM_CONF and the rest of the environment pass through).
type Client struct {
	// Run runs a command and returns its standard output; an error carries its
	// standard error. Tests replace it.
	Run func(ctx context.Context, name string, args ...string) ([]byte, error)
}

// ErrNoSlurm says that a Slurm command is not on PATH.
var ErrNoSlurm = errors.New("slurm: command not found (is this a Slurm login node? is PATH set?)")

func (c *Client) run(ctx context.Context, name string, args ...string) ([]byte, error) {
	if c != nil && c.Run != nil {
		return c.Run(ctx, name, args...)
	}
	if _, err := exec.LookPath(name); err != nil {
		return nil, fmt.Errorf("%s: %w", name, ErrNoSlurm)
	}
	cmd := exec.CommandContext(ctx, name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return out, fmt.Errorf("%s %s: %s", name, strings.Join(args, " "), msg)
	}
	return out, nil
}

// Available reports whether the Slurm command name is on PATH (or whether a
// replaced Run is set).
func (c *Client) Available(name string) bool {
	if c != nil && c.Run != nil {
		return true
	}
	_, err := exec.LookPath(name)
	return err == nil
}

// Sbatch submits script with the extra sbatch options and returns the job id.
func (c *Client) Sbatch(ctx context.Context, script string, opts ...string) (string, error) {
	args := append([]string{"--parsable"}, opts...)
	args = append(args, script)
	out, err := c.run(ctx, "sbatch", args...)
	if err != nil {
		return "", err
	}
	// --parsable prints "jobid" or "jobid;cluster".
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
	if _, err := strconv.ParseUint(id, 10, 64); err != nil {
		return "", fmt.Errorf("sbatch %s: unexpected answer %q", script, strings.TrimSpace(string(out)))
	}
	return id, nil
}

// TaskState is what Slurm says of one array task (or of a plain job).
type TaskState struct {
	Job   string // the array job's id (or the plain job's)
	Task  int    // the array index; -1 for a plain job
	State string // PENDING, RUNNING, COMPLETED, TIMEOUT, CANCELLED, FAILED, ...
}

// Live reports whether the task is queued or running, that is, will still write
// results.
func (t TaskState) Live() bool {
	switch strings.Fields(t.State + " ")[0] {
	case "PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "REQUEUED", "RESIZING", "SUSPENDED", "STAGE_OUT", "SIGNALING", "REQUEUE_HOLD", "REQUEUE_FED":
		return true
	}
	return false
}

// Queue asks squeue for the tasks of the given jobs that Slurm still holds, one per
// array task (pending tasks included).
func (c *Client) Queue(ctx context.Context, jobs []string) ([]TaskState, error) {
	if len(jobs) == 0 {
		return nil, nil
	}
	// Ask for the user's jobs and filter: squeue -j fails as a whole as soon as one
	// of the ids has left the controller's memory.
	out, err := c.run(ctx, "squeue", "--me", "--array", "--noheader", "--format=%i|%T")
	if err != nil {
		return nil, err
	}
	return parseStates(out, jobs), nil
}

// Accounting asks sacct for the states of the given jobs' tasks, finished ones
// included. It fails where accounting is disabled.
func (c *Client) Accounting(ctx context.Context, jobs []string) ([]TaskState, error) {
	if len(jobs) == 0 {
		return nil, nil
	}
	out, err := c.run(ctx, "sacct", "--noheader", "--parsable2", "--allocations", "--jobs="+strings.Join(jobs, ","), "--format=JobID,State")
	if err != nil {
		return nil, err
	}
	return parseStates(out, jobs), nil
}

// parseStates reads "id|STATE" lines (id: 123, 123_4 or 123_[5-7%2]) of the given
// jobs. A pending range 123_[5-7] becomes one state per index.
func parseStates(out []byte, jobs []string) []TaskState {
	want := map[string]bool{}
	for _, j := range jobs {
		want[j] = true
	}
	var states []TaskState
	for _, line := range strings.Split(string(out), "\n") {
		id, state, ok := strings.Cut(strings.TrimSpace(line), "|")
		if !ok {
			continue
		}
		job, task, isArray := strings.Cut(id, "_")
		if !want[job] {
			continue
		}
		if !isArray {
			states = append(states, TaskState{Job: job, Task: -1, State: state})
			continue
		}
		for _, t := range expandIndices(task) {
			states = append(states, TaskState{Job: job, Task: t, State: state})
		}
	}
	return states
}

// expandIndices reads "4", or "[1-3,5%2]" as squeue prints pending ranges.
func expandIndices(s string) []int {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	s, _, _ = strings.Cut(s, "%")
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			continue
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil {
				continue
			}
		}
		for i := a; i <= b && i-a <= MaxTasks; i++ {
			out = append(out, i)
		}
	}
	return out
}
