package slurm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/schedopt/schedopt/bench"
)

// stateName is the file in Job.Dir that records how the sweep was split and what
// was submitted, so that a rerun and `bench status` use the same split.
const stateName = "slurm.json"

// State is what Job.Dir records of a sweep's submissions.
type State struct {
	Spec      string  `json:"spec"`
	WorkDir   string  `json:"workdir"`
	TimeScale float64 `json:"time_scale"`
	// Tasks is the array size: the shards' split depends on it, so every
	// submission of one directory uses the same.
	Tasks       int          `json:"tasks"`
	Submissions []Submission `json:"submissions"`
}

// Submission is one sbatch of the array job and its merge job.
type Submission struct {
	ArrayJob  string `json:"array_job"`
	MergeJob  string `json:"merge_job"`
	Array     string `json:"array"` // the --array indices submitted
	Time      string `json:"time"`  // the task time limit
	Submitted string `json:"submitted"`
}

// LoadState reads dir's state; it returns nil and no error when there is none.
func LoadState(dir string) (*State, error) {
	b, err := os.ReadFile(filepath.Join(dir, stateName))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("slurm: read state: %w", err)
	}
	var s State
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("slurm: %s: %w", filepath.Join(dir, stateName), err)
	}
	return &s, nil
}

// Save writes the state into dir (atomically).
func (s *State) Save(dir string) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("slurm: encode state: %w", err)
	}
	p := filepath.Join(dir, stateName)
	if err := os.WriteFile(p+".tmp", append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("slurm: write state: %w", err)
	}
	if err := os.Rename(p+".tmp", p); err != nil {
		return fmt.Errorf("slurm: write state: %w", err)
	}
	return nil
}

// jobIDs lists the array and merge jobs of every submission.
func (s *State) jobIDs() []string {
	if s == nil {
		return nil
	}
	var ids []string
	for _, sub := range s.Submissions {
		ids = append(ids, sub.ArrayJob)
		if sub.MergeJob != "" {
			ids = append(ids, sub.MergeJob)
		}
	}
	return ids
}

// StateEnded is the state of a submitted task that Slurm no longer reports: it ended,
// however (squeue forgets ended jobs; sacct, where enabled, says how they ended).
const StateEnded = "ENDED"

// Progress is where a sweep on Slurm stands: per shard, the jobs with and without a
// result, and what Slurm says of the array tasks and merge jobs.
type Progress struct {
	Shards []bench.ShardState
	// Tasks holds, per array index, the state of its latest submission that Slurm
	// still knows (squeue, then sacct); absent when Slurm knows none.
	Tasks map[int]TaskState
	// Merge is the state of the latest merge job, when Slurm knows it.
	Merge *TaskState
	// Queried says whether squeue answered (false: no Slurm here, or no submission).
	Queried bool
	// QueueErr is squeue's failure, when it failed: the counts hold, but which tasks
	// still run is unknown.
	QueueErr error
}

// ReadProgress compares the plan with the parts in job.Dir and, when st records
// submissions and squeue is on PATH, with the tasks Slurm holds. sacct fills in the
// states of ended tasks where accounting is enabled. A failing squeue is recorded in
// QueueErr, not returned: the counts from the files still hold.
func ReadProgress(ctx context.Context, c *Client, plan *bench.Plan, job *Job, st *State) (*Progress, error) {
	shards, err := bench.ShardStates(plan, job.Tasks, func(s bench.Shard) string { return job.PartPath(s.Index) })
	if err != nil {
		return nil, fmt.Errorf("slurm: %w", err)
	}
	p := &Progress{Shards: shards, Tasks: map[int]TaskState{}}
	ids := st.jobIDs()
	if len(ids) == 0 || !c.Available("squeue") {
		return p, nil
	}
	rank := map[string]int{} // later submissions win
	for i, id := range ids {
		rank[id] = i
	}
	put := func(ts []TaskState) {
		for _, t := range ts {
			if t.Task < 0 {
				if p.Merge == nil || rank[t.Job] >= rank[p.Merge.Job] {
					t := t
					p.Merge = &t
				}
				continue
			}
			if old, ok := p.Tasks[t.Task]; !ok || rank[t.Job] > rank[old.Job] {
				p.Tasks[t.Task] = t
			}
		}
	}
	if c.Available("sacct") {
		if acct, err := c.Accounting(ctx, ids); err == nil {
			put(acct)
		}
	}
	q, err := c.Queue(ctx, ids)
	if err != nil {
		p.QueueErr = fmt.Errorf("slurm: %w", err)
		return p, nil
	}
	p.Queried = true
	// Tasks that Slurm no longer knows (squeue forgets ended jobs, and sacct may be
	// disabled) ended; the latest submission of each index says which job ran it.
	for _, sub := range st.Submissions {
		for _, i := range expandIndices(sub.Array) {
			if old, ok := p.Tasks[i]; !ok || rank[sub.ArrayJob] > rank[old.Job] {
				p.Tasks[i] = TaskState{Job: sub.ArrayJob, Task: i, State: StateEnded}
			}
		}
	}
	// squeue is the live truth: it overrides sacct for the tasks it holds.
	for _, t := range q {
		if t.Task >= 0 {
			if old, ok := p.Tasks[t.Task]; ok && rank[old.Job] > rank[t.Job] {
				continue
			}
			p.Tasks[t.Task] = t
		} else if p.Merge == nil || rank[t.Job] >= rank[p.Merge.Job] {
			t := t
			p.Merge = &t
		}
	}
	return p, nil
}

// Missing is the number of jobs without a result.
func (p *Progress) Missing() int {
	n := 0
	for _, s := range p.Shards {
		n += len(s.Missing)
	}
	return n
}

// Live lists the array indices whose task is queued or running.
func (p *Progress) Live() []int {
	var out []int
	for i, t := range p.Tasks {
		if t.Live() {
			out = append(out, i)
		}
	}
	sort.Ints(out)
	return out
}

// ToSubmit lists the array indices that have jobs without a result and no task that
// is queued or running: the ones a rerun submits.
func (p *Progress) ToSubmit() []int {
	var out []int
	for _, s := range p.Shards {
		if len(s.Missing) == 0 {
			continue
		}
		if t, ok := p.Tasks[s.Shard.Index]; ok && t.Live() {
			continue
		}
		out = append(out, s.Shard.Index)
	}
	return out
}

// WriteTable prints one line per shard: jobs, done, running (jobs without a result
// whose task is queued or running), missing (without a result and without a live
// task), and Slurm's state of the task; then the totals.
func (p *Progress) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "shard\tjobs\tdone\trunning\tmissing\t slurm task\t")
	var jobs, done, running, missing int
	for _, s := range p.Shards {
		state := "–"
		live := false
		if t, ok := p.Tasks[s.Shard.Index]; ok {
			state = fmt.Sprintf("%s_%d %s", t.Job, t.Task, t.State)
			live = t.Live()
		}
		r, m := 0, len(s.Missing)
		if live {
			r, m = m, 0
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t %s\t\n", s.Shard, s.Jobs, s.Done, r, m, state)
		jobs, done, running, missing = jobs+s.Jobs, done+s.Done, running+r, missing+m
	}
	fmt.Fprintf(tw, "all\t%d\t%d\t%d\t%d\t\t\n", jobs, done, running, missing)
	if err := tw.Flush(); err != nil {
		return err
	}
	if p.Merge != nil {
		_, err := fmt.Fprintf(w, "merge job %s: %s\n", p.Merge.Job, p.Merge.State)
		return err
	}
	return nil
}

// Commands are the shell commands that submit the array tasks and the merge job, as
// a user would type them (dry runs print them).
func (j *Job) Commands(tasks []int) string {
	return fmt.Sprintf("mkdir -p %s\njobid=$(sbatch --parsable %s %s)\nsbatch --dependency=afterany:$jobid %s\n",
		shellQuote(j.LogDir()), strings.Join(j.arrayOptions(tasks), " "), shellQuote(j.ArrayScriptPath()), shellQuote(j.MergeScriptPath()))
}

func (j *Job) arrayOptions(tasks []int) []string {
	opts := []string{"--array=" + ArrayList(tasks, j.Throttle)}
	return opts
}

// Submit writes the two scripts into job.Dir, submits the given array tasks and a
// merge job that runs after all of them (afterany), and records the submission in
// st, saved in job.Dir.
func Submit(ctx context.Context, c *Client, job *Job, tasks []int, st *State) (Submission, error) {
	if len(tasks) == 0 {
		return Submission{}, errors.New("slurm: no task to submit")
	}
	if err := os.MkdirAll(job.LogDir(), 0o755); err != nil {
		return Submission{}, fmt.Errorf("slurm: %w", err)
	}
	for path, text := range map[string]string{job.ArrayScriptPath(): job.ArrayScript(), job.MergeScriptPath(): job.MergeScript()} {
		if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
			return Submission{}, fmt.Errorf("slurm: write script: %w", err)
		}
	}
	sub := Submission{Array: ArrayList(tasks, job.Throttle), Time: FormatTime(job.Time), Submitted: time.Now().UTC().Format(time.RFC3339)}
	id, err := c.Sbatch(ctx, job.ArrayScriptPath(), job.arrayOptions(tasks)...)
	if err != nil {
		return sub, fmt.Errorf("slurm: submit the array: %w", err)
	}
	sub.ArrayJob = id
	st.Submissions = append(st.Submissions, sub)
	// Record the array before the merge job, so that a failed second sbatch still
	// leaves the running tasks known to the next rerun.
	if err := st.Save(job.Dir); err != nil {
		return sub, err
	}
	mid, err := c.Sbatch(ctx, job.MergeScriptPath(), "--dependency=afterany:"+id)
	if err != nil {
		return sub, fmt.Errorf("slurm: submit the merge job after array job %s: %w", id, err)
	}
	sub.MergeJob = mid
	st.Submissions[len(st.Submissions)-1] = sub
	return sub, st.Save(job.Dir)
}

// Wait polls squeue every interval until Slurm holds none of the jobs any more, or
// ctx ends.
func Wait(ctx context.Context, c *Client, jobs []string, interval time.Duration) error {
	for {
		q, err := c.Queue(ctx, jobs)
		if err != nil {
			return fmt.Errorf("slurm: wait: %w", err)
		}
		if len(q) == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(interval):
		}
	}
}
