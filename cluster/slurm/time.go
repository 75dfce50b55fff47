package slurm

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Allowances of the derived task time (TaskTime).
const (
	// JobOverhead is added to every job's limit: loading and formulating the
	// instance, the certification and exact cross-check around the solve.
	JobOverhead = 10 * time.Second
	// TaskMargin is added to every task: start-up, reading the spec and planning, and
	// a job that overruns its limit.
	TaskMargin = 5 * time.Minute
	// taskSlack multiplies the work of a task, for slower nodes than expected.
	taskSlack = 1.1
)

// TaskTime is the wall time a task needs to run jobs with these time limits on
// workers workers: the jobs' limits plus JobOverhead each, spread over the workers,
// plus one whole job for the worker that ends last, times 1.1, plus TaskMargin,
// rounded up to a minute. It fails when a job has no time limit (0), since nothing
// bounds it then.
func TaskTime(limits []time.Duration, workers int) (time.Duration, error) {
	workers = max(workers, 1)
	var sum, longest time.Duration
	for _, l := range limits {
		if l <= 0 {
			return 0, fmt.Errorf("a job has no time limit, so the time per task cannot be derived: give --time")
		}
		sum += l + JobOverhead
		longest = max(longest, l+JobOverhead)
	}
	if len(limits) == 0 {
		return TaskMargin, nil
	}
	work := sum/time.Duration(workers) + longest
	d := time.Duration(float64(work)*taskSlack) + TaskMargin
	return d.Truncate(time.Minute) + time.Minute, nil
}

// FormatTime writes d as a Slurm time, D-HH:MM:SS, rounded up to a second.
func FormatTime(d time.Duration) string {
	s := int64((d + time.Second - 1) / time.Second)
	return fmt.Sprintf("%d-%02d:%02d:%02d", s/86400, s/3600%24, s/60%60, s%60)
}

// ParseTime reads a task time as a Go duration ("90m", "2h30m") or in one of Slurm's
// forms: minutes "90", "MM:SS", "HH:MM:SS", "D-HH", "D-HH:MM", "D-HH:MM:SS".
func ParseTime(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if d, err := time.ParseDuration(s); err == nil {
		if d <= 0 {
			return 0, fmt.Errorf("time %q: must be > 0", s)
		}
		return d, nil
	}
	bad := fmt.Errorf("malformed time %q: want a Go duration (90m, 2h) or a Slurm time (90, 1:30:00, 2-00:00:00)", s)
	days := 0
	rest := s
	if d, r, ok := strings.Cut(s, "-"); ok {
		n, err := strconv.Atoi(d)
		if err != nil || n < 0 {
			return 0, bad
		}
		days, rest = n, r
	}
	var f []int
	for _, p := range strings.Split(rest, ":") {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return 0, bad
		}
		f = append(f, n)
	}
	var h, m, sec int
	switch {
	case len(f) == 1 && days == 0:
		m = f[0]
	case len(f) == 2 && days == 0:
		m, sec = f[0], f[1]
	case len(f) == 3:
		h, m, sec = f[0], f[1], f[2]
	case len(f) == 1:
		h = f[0]
	case len(f) == 2:
		h, m = f[0], f[1]
	default:
		return 0, bad
	}
	d := time.Duration(days)*24*time.Hour + time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(sec)*time.Second
	if d <= 0 {
		return 0, fmt.Errorf("time %q: must be > 0", s)
	}
	return d, nil
}
