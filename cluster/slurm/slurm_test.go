package slurm

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/schedopt/schedopt/bench"
)

func TestArrayListJoinsRunsOfIndices(t *testing.T) {
	for _, c := range []struct {
		tasks    []int
		throttle int
		want     string
	}{
		{[]int{1, 2, 3, 4}, 0, "1-4"},
		{[]int{1, 3, 5}, 2, "1,3,5%2"},
		{[]int{2, 3, 4, 7, 9, 10}, 0, "2-4,7,9-10"},
		{[]int{8}, 1, "8%1"},
	} {
		if got := ArrayList(c.tasks, c.throttle); got != c.want {
			t.Errorf("ArrayList(%v, %d) = %q, want %q", c.tasks, c.throttle, got, c.want)
		}
	}
}

func TestParseTimeReadsGoDurationsAndSlurmTimes(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"90m": 90 * time.Minute, "2h30m": 150 * time.Minute, "90": 90 * time.Minute, "5:30": 5*time.Minute + 30*time.Second,
		"1:00:00": time.Hour, "2-00": 48 * time.Hour, "1-02:03": 26*time.Hour + 3*time.Minute, "0-00:10:05": 10*time.Minute + 5*time.Second,
	} {
		got, err := ParseTime(in)
		if err != nil || got != want {
			t.Errorf("ParseTime(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "abc", "1:2:3:4", "-5", "0", "0s", "1-x"} {
		if _, err := ParseTime(in); err == nil {
			t.Errorf("ParseTime(%q) accepted", in)
		}
	}
	if got := FormatTime(26*time.Hour + 3*time.Minute + 500*time.Millisecond); got != "1-02:03:01" {
		t.Errorf("FormatTime = %q", got)
	}
}

func TestTaskTimeCoversTheJobsSpreadOverTheWorkersPlusAMargin(t *testing.T) {
	limits := []time.Duration{time.Minute, time.Minute, time.Minute, time.Minute}
	one, err := TaskTime(limits, 1)
	if err != nil {
		t.Fatal(err)
	}
	two, _ := TaskTime(limits, 2)
	work := 4 * (time.Minute + JobOverhead)
	if one < work+TaskMargin || two >= one || two < work/2+TaskMargin {
		t.Errorf("TaskTime: 1 worker %v, 2 workers %v; the work alone is %v", one, two, work)
	}
	if one%time.Minute != 0 {
		t.Errorf("TaskTime %v is not whole minutes", one)
	}
	if _, err := TaskTime([]time.Duration{time.Minute, 0}, 1); err == nil {
		t.Error("a job without a time limit gave a task time")
	}
}

func TestParseStatesReadsTasksPendingRangesAndPlainJobs(t *testing.T) {
	out := []byte("12_3|RUNNING\n12_[5-7%2]|PENDING\n13|PENDING\n99_1|RUNNING\n")
	got := parseStates(out, []string{"12", "13"})
	want := []TaskState{{"12", 3, "RUNNING"}, {"12", 5, "PENDING"}, {"12", 6, "PENDING"}, {"12", 7, "PENDING"}, {"13", -1, "PENDING"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseStates = %v, want %v", got, want)
	}
	if (TaskState{State: "CANCELLED by 0"}).Live() || !(TaskState{State: "COMPLETING"}).Live() {
		t.Error("Live is wrong for CANCELLED or COMPLETING")
	}
}

func testJob(dir string) *Job {
	return &Job{Name: "schedopt-t", Binary: "/opt/schedopt bin/schedopt", WorkDir: dir, Spec: "specs/t.json", TimeScale: 0.1,
		Dir: filepath.Join(dir, "out/t $x.slurm"), Results: filepath.Join(dir, "out/t.jsonl"), Report: filepath.Join(dir, "out/report"),
		Tasks: 4, Resources: Resources{Partition: "short", Account: "proj", Time: 90 * time.Minute, CPUsPerTask: 2, Mem: "4G",
			Throttle: 2, Extra: []string{"--qos=low", "#SBATCH --constraint=avx2"}}}
}

func TestScriptsAreValidBashWithEveryRequest(t *testing.T) {
	j := testJob(t.TempDir())
	if err := j.Check(); err != nil {
		t.Fatal(err)
	}
	arr := j.ArrayScript()
	for _, want := range []string{"#SBATCH --array=1-4%2", "#SBATCH --time=0-01:30:00", "#SBATCH --cpus-per-task=2",
		"#SBATCH --mem=4G", "#SBATCH --partition=short", "#SBATCH --account=proj", "#SBATCH --qos=low",
		"#SBATCH --constraint=avx2", `--shard "$SLURM_ARRAY_TASK_ID/4"`, "--time-scale 0.1", "exec '/opt/schedopt bin/schedopt' bench specs/t.json"} {
		if !strings.Contains(arr, want) {
			t.Errorf("array script lacks %q:\n%s", want, arr)
		}
	}
	merge := j.MergeScript()
	for _, want := range []string{"bench merge -o", "bench report", "bench status specs/t.json --slurm-dir"} {
		if !strings.Contains(merge, want) {
			t.Errorf("merge script lacks %q:\n%s", want, merge)
		}
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash to check the syntax")
	}
	for name, s := range map[string]string{"array": arr, "merge": merge} {
		p := filepath.Join(t.TempDir(), name+".sh")
		os.WriteFile(p, []byte(s), 0o644)
		if out, err := exec.Command("bash", "-n", p).CombinedOutput(); err != nil {
			t.Errorf("%s script: bash -n: %v\n%s", name, err, out)
		}
	}
}

func TestCheckNamesTheBadFlag(t *testing.T) {
	for flag, mutate := range map[string]func(*Job){
		"--array-size":    func(j *Job) { j.Tasks = 0 },
		"--throttle":      func(j *Job) { j.Throttle = -1 },
		"--mem":           func(j *Job) { j.Mem = "lots" },
		"--partition":     func(j *Job) { j.Partition = "a b" },
		"--sbatch":        func(j *Job) { j.Extra = []string{"qos=low"} },
		"--cpus-per-task": func(j *Job) { j.CPUsPerTask = -2 },
	} {
		j := testJob(t.TempDir())
		mutate(j)
		err := j.Check()
		if err == nil || !strings.HasPrefix(err.Error(), flag+":") {
			t.Errorf("%s: Check() = %v", flag, err)
		}
	}
}

func TestSubmitSendsTheArrayThenTheMergeJobAfterIt(t *testing.T) {
	j := testJob(t.TempDir())
	var calls [][]string
	c := &Client{Run: func(ctx context.Context, name string, args ...string) ([]byte, error) {
		calls = append(calls, append([]string{name}, args...))
		return []byte([]string{"41", "42;cluster"}[len(calls)-1] + "\n"), nil
	}}
	st := &State{Spec: j.Spec, WorkDir: j.WorkDir, TimeScale: j.TimeScale, Tasks: j.Tasks}
	sub, err := Submit(context.Background(), c, j, []int{2, 4}, st)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"sbatch", "--parsable", "--array=2,4%2", j.ArrayScriptPath()},
		{"sbatch", "--parsable", "--dependency=afterany:41", j.MergeScriptPath()},
	}
	if !reflect.DeepEqual(calls, want) || sub.ArrayJob != "41" || sub.MergeJob != "42" {
		t.Errorf("calls %v, submission %+v", calls, sub)
	}
	back, err := LoadState(j.Dir)
	if err != nil || back == nil || len(back.Submissions) != 1 || back.Submissions[0].MergeJob != "42" {
		t.Errorf("saved state %+v, %v", back, err)
	}
	if _, err := os.Stat(j.LogDir()); err != nil {
		t.Errorf("no log directory: %v", err)
	}
}

func TestProgressSubmitsOnlyTasksWithMissingJobsAndNoLiveTask(t *testing.T) {
	dir := t.TempDir()
	j := &Job{Dir: dir, Tasks: 4}
	plan := &bench.Plan{}
	for i := 0; i < 40; i++ {
		plan.Jobs = append(plan.Jobs, bench.Job{Key: fmt.Sprintf("job-%d", i), TimeLimit: time.Second})
	}
	// Task 1 has all its jobs, task 2 some, tasks 3 and 4 none.
	write := func(task int, all bool) {
		var b strings.Builder
		for n, jb := range plan.Jobs {
			if (bench.Shard{Index: task, Count: 4}).Owns(jb.Key) && (all || n%2 == 0) {
				fmt.Fprintf(&b, "{\"key\":%q,\"status\":\"optimal\"}\n", jb.Key)
			}
		}
		os.WriteFile(j.PartPath(task), []byte(b.String()), 0o644)
	}
	write(1, true)
	write(2, false)
	st := &State{Tasks: 4, Submissions: []Submission{{ArrayJob: "7", MergeJob: "8", Array: "1-4"}}}
	c := &Client{Run: func(ctx context.Context, name string, args ...string) ([]byte, error) {
		switch name {
		case "squeue":
			return []byte("7_3|RUNNING\n8|PENDING\n99_2|RUNNING\n"), nil
		}
		return nil, errors.New("accounting disabled")
	}}
	p, err := ReadProgress(context.Background(), c, plan, j, st)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.ToSubmit(); !reflect.DeepEqual(got, []int{2, 4}) {
		t.Errorf("ToSubmit = %v, want [2 4] (1 is done, 3 runs)", got)
	}
	if p.Tasks[3].State != "RUNNING" || p.Tasks[1].State != StateEnded || p.Merge == nil || p.Merge.Job != "8" {
		t.Errorf("tasks %v, merge %v", p.Tasks, p.Merge)
	}
	var b strings.Builder
	if err := p.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "7_3 RUNNING") || !strings.Contains(b.String(), "merge job 8: PENDING") {
		t.Errorf("table:\n%s", b.String())
	}
}
