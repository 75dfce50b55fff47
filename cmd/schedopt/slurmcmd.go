package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/schedopt/schedopt/bench"
	"github.com/schedopt/schedopt/cluster/slurm"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Without --array-size, a first --slurm submission gives each task about
// defaultJobsPerTask jobs, in at most defaultSlurmTasks tasks: a task's start-up
// (scheduling, reading the spec, planning) is then small against its work.
const (
	defaultJobsPerTask = 10
	defaultSlurmTasks  = 100
)

// waitPoll is how often --wait asks squeue whether the jobs have ended.
const waitPoll = 2 * time.Second

// slurmFlags are the flags of bench --slurm.
type slurmFlags struct {
	on                  bool
	partition, account  string
	timeStr, mem        string
	cpus, tasks, thrott int
	extra               []string
	dir                 string
	wait                bool
}

// slurmOnly names the flags that mean something only with --slurm.
var slurmOnly = []string{"partition", "account", "time", "cpus-per-task", "mem", "array-size", "throttle", "sbatch", "wait"}

func (s *slurmFlags) add(fl *pflag.FlagSet) {
	fl.BoolVar(&s.on, "slurm", false, "run the sweep as a Slurm job array plus a merge job (see docs/bench.md)")
	fl.StringVar(&s.partition, "partition", "", "with --slurm: the partition (sbatch --partition)")
	fl.StringVar(&s.account, "account", "", "with --slurm: the account (sbatch --account)")
	fl.StringVar(&s.timeStr, "time", "", "with --slurm: time per array task, e.g. 2h or 0-02:00:00 (default: from the jobs per task × their time limit + margin)")
	fl.IntVar(&s.cpus, "cpus-per-task", 1, "with --slurm: CPUs per array task, and jobs each task runs at once")
	fl.StringVar(&s.mem, "mem", "", "with --slurm: memory per task's node, e.g. 4G (sbatch --mem)")
	fl.IntVar(&s.tasks, "array-size", 0, fmt.Sprintf("with --slurm: number of array tasks N, task i runs shard i/N (default: jobs/%d, at most %d; then as first submitted)", defaultJobsPerTask, defaultSlurmTasks))
	fl.IntVar(&s.thrott, "throttle", 0, "with --slurm: at most this many tasks at once (--array=...%k)")
	fl.StringArrayVar(&s.extra, "sbatch", nil, "with --slurm: an extra #SBATCH option for the array, e.g. --sbatch=--qos=short (repeatable)")
	fl.StringVar(&s.dir, "slurm-dir", "", "with --slurm: directory for scripts, per-task results and logs (default: RESULTS without .jsonl, plus .slurm)")
	fl.BoolVar(&s.wait, "wait", false, "with --slurm: wait until the array and merge jobs end, then print the summary")
	// --slurm-partition and the like are accepted for every Slurm flag.
	fl.SetNormalizeFunc(func(f *pflag.FlagSet, name string) pflag.NormalizedName {
		if n, ok := strings.CutPrefix(name, "slurm-"); ok && n != "dir" {
			for _, s := range slurmOnly {
				if n == s {
					return pflag.NormalizedName(n)
				}
			}
		}
		return pflag.NormalizedName(name)
	})
}

// check rejects Slurm flags without --slurm, and flags that contradict it.
func (s *slurmFlags) check(fl *pflag.FlagSet) error {
	if !s.on {
		for _, n := range append(slurmOnly, "slurm-dir") {
			if fl.Changed(n) {
				return usagef("--%s: needs --slurm", n)
			}
		}
		return nil
	}
	for _, n := range []string{"shard", "workers"} {
		if fl.Changed(n) {
			return usagef("--%s: not with --slurm (array task i runs shard i/N with --cpus-per-task workers)", n)
		}
	}
	if s.cpus < 1 {
		return usagef("--cpus-per-task: must be >= 1, got %d", s.cpus)
	}
	if fl.Changed("array-size") && (s.tasks < 1 || s.tasks > slurm.MaxTasks) {
		return usagef("--array-size: must be between 1 and %d, got %d", slurm.MaxTasks, s.tasks)
	}
	if s.thrott < 0 {
		return usagef("--throttle: must be >= 0, got %d", s.thrott)
	}
	if s.timeStr != "" {
		if _, err := slurm.ParseTime(s.timeStr); err != nil {
			return usagef("--time: %v", err)
		}
	}
	return nil
}

// defaultSlurmDir is where a sweep's Slurm files go: next to the results file.
func defaultSlurmDir(results string) string {
	return strings.TrimSuffix(results, filepath.Ext(results)) + ".slurm"
}

// slurmJob lays the sweep out for Slurm, taking the split and the time scale from an
// earlier submission in the same directory. changed reports which flags the user set.
func slurmJob(specPath, out string, scale float64, scaleSet bool, reportDir string, s *slurmFlags, plan *bench.Plan, binary string) (*slurm.Job, *slurm.State, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, nil, err
	}
	abs := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(wd, p)
	}
	dir := s.dir
	if dir == "" {
		dir = defaultSlurmDir(out)
	}
	dir = abs(dir)
	st, err := slurm.LoadState(dir)
	if err != nil {
		return nil, nil, err
	}
	tasks := s.tasks
	if st != nil {
		switch {
		case st.Spec != specPath || st.WorkDir != wd:
			return nil, nil, usagef("--slurm-dir: %s holds the sweep %s run from %s; run from there with the same spec path, or give another --slurm-dir", dir, st.Spec, st.WorkDir)
		case scaleSet && st.TimeScale != scale:
			return nil, nil, usagef("--time-scale: %s holds the sweep at --time-scale %g; give the same, or another --slurm-dir", dir, st.TimeScale)
		case tasks != 0 && tasks != st.Tasks:
			return nil, nil, usagef("--array-size: %s splits the sweep into %d tasks; give the same, or another --slurm-dir", dir, st.Tasks)
		}
		scale, tasks = st.TimeScale, st.Tasks
	} else {
		if tasks == 0 {
			tasks = max(1, min((len(plan.Jobs)+defaultJobsPerTask-1)/defaultJobsPerTask, defaultSlurmTasks))
		}
		st = &slurm.State{Spec: specPath, WorkDir: wd, TimeScale: scale, Tasks: tasks}
	}
	if reportDir == "" {
		reportDir = filepath.Join(dir, "report")
	}
	name := strings.TrimSuffix(filepath.Base(specPath), filepath.Ext(specPath))
	job := &slurm.Job{
		Name: "schedopt-" + name, Binary: binary, WorkDir: wd, Spec: specPath, TimeScale: scale,
		Dir: dir, Results: abs(out), Report: abs(reportDir), Tasks: tasks,
		Resources: slurm.Resources{Partition: s.partition, Account: s.account, CPUsPerTask: s.cpus, Mem: s.mem,
			Throttle: s.thrott, Extra: s.extra},
	}
	if s.timeStr != "" {
		job.Time, _ = slurm.ParseTime(s.timeStr)
	}
	if err := job.Check(); err != nil {
		return nil, nil, usageError{err}
	}
	return job, st, nil
}

// executable is the absolute path of the running schedopt, which the tasks run.
func executable() (string, error) {
	p, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("--slurm: cannot find the schedopt executable: %w", err)
	}
	if q, err := filepath.EvalSymlinks(p); err == nil {
		p = q
	}
	return p, nil
}

// runSlurm submits the sweep's missing shards as a job array and the merge job, or
// prints what it would submit (dry run).
func runSlurm(ctx context.Context, e *env, specPath, out string, scale float64, scaleSet bool, reportDir string,
	dryRun, strict bool, s *slurmFlags, plan *bench.Plan) error {
	bin, err := executable()
	if err != nil {
		return err
	}
	job, st, err := slurmJob(specPath, out, scale, scaleSet, reportDir, s, plan, bin)
	if err != nil {
		return err
	}
	if job.TimeScale != scale {
		// An earlier submission fixed the time scale: plan with it, so keys match.
		spec := plan.Spec
		if plan, err = bench.NewPlan(spec, bench.PlanOptions{SpecFile: specPath, TimeScale: job.TimeScale}); err != nil {
			return err
		}
	}
	client := &slurm.Client{}
	prog, err := slurm.ReadProgress(ctx, client, plan, job, st)
	if err != nil {
		return err
	}
	if prog.QueueErr != nil && !dryRun {
		// Without squeue, a task of an earlier submission may still be running.
		return fmt.Errorf("cannot tell which tasks of %s still run: %w", job.Dir, prog.QueueErr)
	}
	todo := prog.ToSubmit()
	if job.Time == 0 && len(todo) > 0 {
		for _, t := range todo {
			var limits []time.Duration
			for _, j := range prog.Shards[t-1].Missing {
				limits = append(limits, j.TimeLimit)
			}
			d, err := slurm.TaskTime(limits, job.CPUsPerTask)
			if err != nil {
				return usagef("--time: %v", err)
			}
			job.Time = max(job.Time, d)
		}
	}
	fmt.Fprintf(e.stderr, "%d job(s) in %d task(s): %d with results, %d missing; slurm files in %s\n",
		len(plan.Jobs), job.Tasks, len(plan.Jobs)-prog.Missing(), prog.Missing(), job.Dir)
	if dryRun {
		if len(todo) == 0 {
			todo = []int{}
			fmt.Fprintln(e.stderr, "nothing to submit: every job has a result or a task that is queued or running")
		}
		fmt.Fprintf(e.stdout, "#### %s\n%s\n#### %s\n%s\n#### submit\n%s", job.ArrayScriptPath(), job.ArrayScript(),
			job.MergeScriptPath(), job.MergeScript(), job.Commands(orAll(todo, job.Tasks)))
		return nil
	}
	var waitFor []string
	switch {
	case len(todo) > 0:
		sub, err := slurm.Submit(ctx, client, job, todo, st)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "submitted array job %s (tasks %s, %s each) and merge job %s; results in %s when they end\n",
			sub.ArrayJob, sub.Array, sub.Time, sub.MergeJob, job.Results)
		waitFor = []string{sub.ArrayJob, sub.MergeJob}
	case prog.Missing() > 0:
		fmt.Fprintf(e.stderr, "nothing submitted: the %d missing job(s) belong to tasks still queued or running (%s)\n",
			prog.Missing(), slurm.ArrayList(prog.Live(), 0))
		for _, sub := range st.Submissions {
			waitFor = append(waitFor, sub.ArrayJob, sub.MergeJob)
		}
	default:
		// Every job has a result: merge here, no need to queue a job for it.
		res, err := bench.Merge(job.Results, partsOf(job))
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "every job has a result; merged %d record(s) into %s\n", res.Records, job.Results)
	}
	fmt.Fprintf(e.stderr, "progress: schedopt bench status %s --slurm-dir %s\n", specPath, job.Dir)
	if !s.wait {
		return nil
	}
	if len(waitFor) > 0 {
		if err := slurm.Wait(ctx, client, waitFor, waitPoll); err != nil {
			return err
		}
	}
	if prog, err = slurm.ReadProgress(ctx, client, plan, job, st); err != nil {
		return err
	}
	if err := prog.WriteTable(e.stderr); err != nil {
		return err
	}
	recs, err := bench.ReadRecords(job.Results)
	if err != nil {
		return err
	}
	rep := bench.BuildReport(recs)
	if err := rep.WriteSummary(e.stdout); err != nil {
		return err
	}
	if n := prog.Missing(); n > 0 {
		return exitError{code: exitFailure, msg: fmt.Sprintf("%d job(s) still without a result after the array ended; rerun the same command to run them", n)}
	}
	if strict && (len(rep.Disagreements) > 0 || len(rep.Failures) > 0) {
		return exitError{code: exitFailure, msg: fmt.Sprintf("--strict: %d disagreement(s), %d failed job(s) in %s",
			len(rep.Disagreements), len(rep.Failures), job.Results)}
	}
	return nil
}

func orAll(tasks []int, n int) []int {
	if len(tasks) > 0 {
		return tasks
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i + 1
	}
	return all
}

// partsOf lists the per-task results files that exist.
func partsOf(job *slurm.Job) []string {
	var parts []string
	for i := 1; i <= job.Tasks; i++ {
		if _, err := os.Stat(job.PartPath(i)); err == nil {
			parts = append(parts, job.PartPath(i))
		}
	}
	return parts
}

func newBenchStatusCmd(e *env) *cobra.Command {
	var out, dir string
	var shards int
	var scale float64
	cmd := &cobra.Command{
		Use:   "status SPEC.json",
		Short: "Show per shard how many jobs of a sweep are done, running and missing",
		Long: `status compares a sweep's jobs with its results files and prints, per shard, the jobs,
how many have a result, how many are running (no result yet, in a Slurm task that is
queued or running) and how many are missing, with Slurm's state of each array task.

For a sweep submitted with --slurm it reads the Slurm directory (--slurm-dir, default
RESULTS without .jsonl plus .slurm), its split and time scale, and asks squeue (and
sacct, where accounting is enabled) about the submitted tasks; for scripts submitted by
hand, give --slurm-dir with --shards N and --time-scale. Without a Slurm directory,
--shards N reads the files of bench --shard i/N at their default paths, and otherwise
the one results file (-o).`,
		Example: `  schedopt bench status bench/specs/dltmulti-6.4.json
  schedopt bench status bench/specs/dltmulti-6.4.json --slurm-dir /scratch/me/64.slurm
  schedopt bench status bench/specs/dltmulti-6.4.json --shards 4 --time-scale 0.1`,
		Args: argsOf(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			specPath := args[0]
			if !(scale > 0) {
				return usagef("--time-scale: must be > 0, got %g", scale)
			}
			if shards < 0 || shards > slurm.MaxTasks {
				return usagef("--shards: must be between 1 and %d, got %d", slurm.MaxTasks, shards)
			}
			if out == "" {
				out = defaultResultsPath(specPath, bench.Shard{})
			}
			if dir == "" {
				dir = defaultSlurmDir(out)
			} else if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				// A directory named on purpose must exist: counting every job missing
				// in a directory that is not there hides a typo.
				if err == nil {
					return usagef("--slurm-dir: %s is not a directory", dir)
				}
				if errors.Is(err, fs.ErrNotExist) {
					return usagef("--slurm-dir: %s does not exist", dir)
				}
				return usagef("--slurm-dir: %v", err)
			}
			st, err := slurm.LoadState(dir)
			if err != nil {
				return err
			}
			spec, err := bench.LoadSpec(specPath)
			if err != nil {
				return err
			}
			job := &slurm.Job{Dir: dir, Tasks: max(shards, 1)}
			if st != nil {
				if cmd.Flags().Changed("time-scale") && scale != st.TimeScale {
					return usagef("--time-scale: %s holds the sweep at --time-scale %g", dir, st.TimeScale)
				}
				if shards != 0 && shards != st.Tasks {
					return usagef("--shards: %s splits the sweep into %d tasks", dir, st.Tasks)
				}
				scale, job.Tasks = st.TimeScale, st.Tasks
			}
			// A Slurm directory without a record of submissions (scripts submitted by
			// hand): its parts, split as --shards says.
			slurmParts := st != nil || cmd.Flags().Changed("slurm-dir")
			plan, err := bench.NewPlan(spec, bench.PlanOptions{SpecFile: specPath, TimeScale: scale})
			if err != nil {
				return err
			}
			var prog *slurm.Progress
			switch {
			case slurmParts:
				prog, err = slurm.ReadProgress(cmd.Context(), &slurm.Client{}, plan, job, st)
			default:
				n := max(shards, 1)
				path := func(s bench.Shard) string {
					if n == 1 {
						return out
					}
					return defaultResultsPath(specPath, s)
				}
				var states []bench.ShardState
				states, err = bench.ShardStates(plan, n, path)
				prog = &slurm.Progress{Shards: states}
			}
			if err != nil {
				return err
			}
			if prog.QueueErr != nil {
				fmt.Fprintf(e.stderr, "note: no task states (%v)\n", oneLine(prog.QueueErr.Error()))
			}
			return prog.WriteTable(e.stdout)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&out, "output", "o", "", "the sweep's results file (default out/<spec>.jsonl)")
	fl.StringVar(&dir, "slurm-dir", "", "the Slurm directory of a --slurm sweep (default: RESULTS without .jsonl, plus .slurm)")
	fl.IntVar(&shards, "shards", 0, "without a Slurm directory: read the N files of bench --shard i/N at their default paths")
	fl.Float64Var(&scale, "time-scale", 1, "the sweep's --time-scale (read from the Slurm directory when there is one)")
	return cmd
}
