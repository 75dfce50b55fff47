package slurm

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Resources are the Slurm requests of a sweep's array tasks.
type Resources struct {
	// Partition and Account are passed as --partition and --account when set.
	Partition string
	Account   string
	// Time is the wall-time limit of one array task; 0 derives it from the jobs of the
	// task (TaskTime).
	Time time.Duration
	// CPUsPerTask is --cpus-per-task, and the number of sweep jobs a task runs at once
	// (default 1).
	CPUsPerTask int
	// Mem is --mem, memory per node as sbatch writes it ("4G", "500M"); "" leaves the
	// cluster's default.
	Mem string
	// Throttle, when > 0, lets at most this many array tasks run at once (--array=...%k).
	Throttle int
	// Extra are more #SBATCH options for the array job, one per entry ("--qos=short",
	// or a whole "#SBATCH --qos=short" line).
	Extra []string
}

// Job is a sweep laid out for Slurm: what the tasks run, where, and where every file
// goes. All paths are absolute except Spec.
type Job struct {
	// Name is the Slurm job name of the array; the merge job adds "-merge".
	Name string
	// Binary is the schedopt executable the tasks run.
	Binary string
	// WorkDir is where the tasks run. Spec is taken relative to it, as the user gave
	// it, so the instance paths in the job keys are the same as in a local run from
	// that directory (and a local run's results and a cluster run's can be merged).
	WorkDir string
	Spec    string
	// TimeScale is the sweep's --time-scale (job keys hold the scaled limits).
	TimeScale float64
	// Dir holds the scripts, the per-task results (part-<i>.jsonl), the logs and the
	// submission state (slurm.json).
	Dir string
	// Results is the merged results file the merge job writes; Report is the
	// directory of its report ("" for none).
	Results string
	Report  string
	// Tasks is the array size N: task i (1-based) runs shard i/N.
	Tasks int
	Resources
}

// Names of the files in Job.Dir.
const (
	arrayScriptName = "array.sbatch"
	mergeScriptName = "merge.sbatch"
	logDirName      = "logs"
)

// mergeTime is the time limit of the merge job: reading and writing results files
// and drawing the report take seconds, even for large sweeps.
const mergeTime = 30 * time.Minute

// PartPath is the results file of array task i.
func (j *Job) PartPath(task int) string {
	return filepath.Join(j.Dir, fmt.Sprintf("part-%d.jsonl", task))
}

// ArrayScriptPath and MergeScriptPath are where Submit writes the two scripts.
func (j *Job) ArrayScriptPath() string { return filepath.Join(j.Dir, arrayScriptName) }

// MergeScriptPath is where Submit writes the merge job's script.
func (j *Job) MergeScriptPath() string { return filepath.Join(j.Dir, mergeScriptName) }

// LogDir is the directory of the tasks' and merge job's output (Slurm does not create
// it: Submit does).
func (j *Job) LogDir() string { return filepath.Join(j.Dir, logDirName) }

// Check reports what makes the job unusable, naming the flag a user would set.
func (j *Job) Check() error {
	switch {
	case j.Tasks < 1:
		return fmt.Errorf("--array-size: must be >= 1, got %d", j.Tasks)
	case j.Tasks > MaxTasks:
		return fmt.Errorf("--array-size: at most %d tasks (a cluster's MaxArraySize is often 1001), got %d", MaxTasks, j.Tasks)
	case j.Throttle < 0:
		return fmt.Errorf("--throttle: must be >= 0, got %d", j.Throttle)
	case j.CPUsPerTask < 0:
		return fmt.Errorf("--cpus-per-task: must be >= 1, got %d", j.CPUsPerTask)
	case j.Mem != "" && !memRE.MatchString(j.Mem):
		return fmt.Errorf("--mem: malformed memory %q: want a number with an optional unit K, M, G or T, e.g. 4G", j.Mem)
	case j.Time < 0:
		return fmt.Errorf("--time: must be > 0, got %s", j.Time)
	case strings.ContainsAny(j.Partition, " \t\n'\""):
		return fmt.Errorf("--partition: malformed partition %q", j.Partition)
	case strings.ContainsAny(j.Account, " \t\n'\""):
		return fmt.Errorf("--account: malformed account %q", j.Account)
	}
	for _, e := range j.Extra {
		if _, err := sbatchLine(e); err != nil {
			return fmt.Errorf("--sbatch: %w", err)
		}
	}
	return nil
}

// MaxTasks is the largest array size Submit uses: array indices run from 1 to N, and
// Slurm's default MaxArraySize (1001) allows indices up to 1000.
const MaxTasks = 1000

var memRE = regexp.MustCompile(`^[0-9]+[KMGTkmgt]?$`)

// sbatchLine turns an --sbatch value into one #SBATCH line.
func sbatchLine(s string) (string, error) {
	s = strings.TrimSpace(s)
	s = strings.TrimSpace(strings.TrimPrefix(s, "#SBATCH"))
	if !strings.HasPrefix(s, "-") || strings.ContainsAny(s, "\n\r") {
		return "", fmt.Errorf("malformed #SBATCH option %q: want one option such as --qos=short", s)
	}
	return "#SBATCH " + s, nil
}

func (j *Job) cpus() int { return max(j.CPUsPerTask, 1) }

// ArrayScript is the job array's sbatch script. Its #SBATCH --array lists every task;
// a resubmission of some tasks passes --array on the sbatch command line, which wins.
func (j *Job) ArrayScript() string {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	w("#!/bin/bash")
	w("# The sweep %s as a Slurm job array, written by schedopt bench --slurm.", j.Spec)
	w("# Task i of %d runs shard i/%d of the sweep and appends one synced line per", j.Tasks, j.Tasks)
	w("# finished job to")
	w("#   %s", filepath.Join(j.Dir, "part-<i>.jsonl"))
	w("# A task that is cancelled, preempted or stopped at its time limit loses only the")
	w("# jobs it was running: resubmitting it (or rerunning schedopt bench --slurm) runs")
	w("# only the jobs that have no result yet.")
	w("#")
	w("# Submit by hand; the merge job joins the parts into the results file and writes")
	w("# the report once every task has ended:")
	w("#   mkdir -p %s", shellQuote(j.LogDir()))
	w("#   jobid=$(sbatch --parsable %s)", shellQuote(j.ArrayScriptPath()))
	w("#   sbatch --dependency=afterany:$jobid %s", shellQuote(j.MergeScriptPath()))
	w("#SBATCH --job-name=%s", j.Name)
	w("#SBATCH --array=%s", ArrayList(allTasks(j.Tasks), j.Throttle))
	if j.Time > 0 {
		w("#SBATCH --time=%s", FormatTime(j.Time))
	}
	j.resources(w, j.cpus(), "task-%a.out")
	for _, e := range j.Extra {
		l, _ := sbatchLine(e)
		w("%s", l)
	}
	w("")
	w("set -euo pipefail")
	w("cd %s", shellQuote(j.WorkDir))
	w("# exec: Slurm's SIGTERM (scancel, time limit, preemption) reaches schedopt, which")
	w("# starts no new job and leaves the interrupted ones to the next run.")
	w("exec %s bench %s --time-scale %s \\", shellQuote(j.Binary), shellQuote(j.Spec), strconv.FormatFloat(j.TimeScale, 'g', -1, 64))
	w("  --shard \"$SLURM_ARRAY_TASK_ID/%d\" --workers \"${SLURM_CPUS_PER_TASK:-1}\" \\", j.Tasks)
	w("  -o \"%s/part-$SLURM_ARRAY_TASK_ID.jsonl\"", dquoted(j.Dir))
	return b.String()
}

// MergeScript is the merge job's sbatch script: it joins the parts that exist into the
// results file (one record per job key), writes the report and lists per shard what is
// still missing.
func (j *Job) MergeScript() string {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	w("#!/bin/bash")
	w("# Joins the results of the array tasks of the sweep %s into", j.Spec)
	w("# %s, one record per job (a job recorded twice is kept once),", j.Results)
	w("# and writes the report. Submitted with --dependency=afterany on the array job, so")
	w("# it runs when every task has ended, however it ended; the status at the end lists")
	w("# the jobs still missing per shard (rerun schedopt bench --slurm to run them).")
	w("#SBATCH --job-name=%s-merge", j.Name)
	w("#SBATCH --time=%s", FormatTime(mergeTime))
	j.resources(w, 1, "merge.out")
	w("")
	w("set -euo pipefail")
	w("cd %s", shellQuote(j.WorkDir))
	w("shopt -s nullglob")
	w("parts=(\"%s\"/part-*.jsonl)", dquoted(j.Dir))
	w("if [ ${#parts[@]} -eq 0 ]; then")
	w("  echo \"no task wrote results in %s\" >&2", j.Dir)
	w("  exit 1")
	w("fi")
	w("%s bench merge -o %s \"${parts[@]}\"", shellQuote(j.Binary), shellQuote(j.Results))
	if j.Report != "" {
		w("%s bench report %s -o %s", shellQuote(j.Binary), shellQuote(j.Results), shellQuote(j.Report))
	}
	w("%s bench status %s --slurm-dir %s --shards %d --time-scale %s", shellQuote(j.Binary), shellQuote(j.Spec),
		shellQuote(j.Dir), j.Tasks, strconv.FormatFloat(j.TimeScale, 'g', -1, 64))
	return b.String()
}

func allTasks(n int) []int {
	t := make([]int, n)
	for i := range t {
		t[i] = i + 1
	}
	return t
}

// ArrayList formats array indices as sbatch --array wants them: ascending runs joined
// by commas ("1-3,5,7-9"), with "%k" when throttle > 0.
func ArrayList(tasks []int, throttle int) string {
	var parts []string
	for i := 0; i < len(tasks); {
		j := i
		for j+1 < len(tasks) && tasks[j+1] == tasks[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(tasks[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", tasks[i], tasks[j]))
		}
		i = j + 1
	}
	s := strings.Join(parts, ",")
	if throttle > 0 {
		s += fmt.Sprintf("%%%d", throttle)
	}
	return s
}

// shellQuote quotes s for bash when it holds anything but plain path characters.
func shellQuote(s string) string {
	if s != "" && safeShellRE.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// dquoted escapes s for the inside of a bash double-quoted string.
func dquoted(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`").Replace(s)
}

var safeShellRE = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// resources writes the #SBATCH lines both scripts share: one task of cpus CPUs, the
// memory, partition and account when given, and the log file (appended to, so that a
// resubmitted task keeps its earlier log) in the log directory.
func (j *Job) resources(w func(format string, a ...any), cpus int, log string) {
	w("#SBATCH --cpus-per-task=%d", cpus)
	w("#SBATCH --ntasks=1")
	if j.Mem != "" {
		w("#SBATCH --mem=%s", j.Mem)
	}
	if j.Partition != "" {
		w("#SBATCH --partition=%s", j.Partition)
	}
	if j.Account != "" {
		w("#SBATCH --account=%s", j.Account)
	}
	w("#SBATCH --output=%s", filepath.Join(j.LogDir(), log))
	w("#SBATCH --open-mode=append")
}
