package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/schedopt/schedopt/solve"
)

func TestWithinAbandonsARunThatIgnoresItsContext(t *testing.T) {
	for _, tc := range []struct {
		name      string
		deadline  time.Duration // of the context
		work      time.Duration // how long f takes, ignoring its context
		abandoned bool
	}{
		{"a run that ends before the deadline returns its value", time.Second, 0, false},
		{"a run that ends within the grace returns its value", 10 * time.Millisecond, abandonGrace / 4, false},
		{"a run that goes on past the grace is abandoned", 10 * time.Millisecond, 5 * abandonGrace, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), tc.deadline)
			defer cancel()
			start := time.Now()
			v, err := within(ctx, func() (int, error) {
				time.Sleep(tc.work)
				return 7, nil
			})
			took := time.Since(start)
			if tc.abandoned {
				if !errors.Is(err, errAbandoned) || !errors.Is(err, context.DeadlineExceeded) {
					t.Fatalf("err = %v, want errAbandoned and the deadline", err)
				}
				if limit := tc.deadline + abandonGrace + 200*time.Millisecond; took > limit {
					t.Errorf("returned after %s, want at most %s", took, limit)
				}
				return
			}
			if err != nil || v != 7 {
				t.Fatalf("got %d, %v; want 7, nil", v, err)
			}
		})
	}
}

// TestSolveAndFrontEndWithinASecondOfTheLimitWhenTheSolverDoesNot is the soak's first find
// (docs/robustness.md): a pareto workload of 1001 processors whose ε-constraint MILP
// kept HiGHS in presolve, deaf to its time limit, for more than 10 s and 1 GB. The
// command must still end within 1 s + 5% of --time-limit with a definite status.
func TestSolveAndFrontEndWithinASecondOfTheLimitWhenTheSolverDoesNot(t *testing.T) {
	if testing.Short() {
		t.Skip("runs HiGHS on a large model for about 2 s")
	}
	var inst map[string]any
	b, err := os.ReadFile("../../instances/workload-linear-p2-n24.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &inst); err != nil {
		t.Fatal(err)
	}
	two := inst["processors"].([]any)
	var procs []any
	for i := 0; i < 1001; i++ {
		procs = append(procs, two[i%2])
	}
	inst["processors"], inst["objective"] = procs, "pareto"
	b, err = json.Marshal(inst)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "workload-pareto-1001.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	const limit = time.Second
	for _, command := range []string{"solve", "front"} {
		t.Run(command, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], command, path, "--json", "--threads", "1", "--time-limit", limit.String())
			cmd.Env = append(os.Environ(), "SCHEDOPT_TEST_AS_CLI=1")
			start := time.Now()
			out, err := cmd.Output()
			took := time.Since(start)
			max := limit + time.Second + limit/20
			if command == "front" {
				// front's --time-limit is per solve: this front makes one solve, after
				// reading the 1001-processor instance twice (base and pareto), which
				// takes up to a second or two on a loaded machine. Unfixed, it ran past
				// 12 s.
				max += 2 * time.Second
			}
			if took > max {
				t.Errorf("%s took %s, want at most %s", command, took, max)
			}
			if command == "front" {
				// No front within the limit: a failure (exit 1), never a hang.
				if code := cmd.ProcessState.ExitCode(); code != 0 && code != 1 {
					t.Errorf("front: exit %d, want 0 or 1", code)
				}
				return
			}
			if err != nil {
				t.Fatalf("exit: %v", err)
			}
			var res struct{ Status string }
			if err := json.Unmarshal(out, &res); err != nil {
				t.Fatalf("stdout is not one JSON object: %v", err)
			}
			if res.Status != "time_limit" && res.Status != "feasible" {
				t.Errorf("status %q, want time_limit or feasible", res.Status)
			}
		})
	}
}

func TestStoppedStatusAfterASignalOrTheDeadline(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	live := context.Background()
	for _, tc := range []struct {
		name         string
		sig, dl      context.Context
		status, want string
		objective    bool
	}{
		{"a signal turns a partial solution into interrupted", cancelled, cancelled, "feasible", "interrupted", true},
		{"a signal turns time_limit into interrupted", cancelled, cancelled, "time_limit", "interrupted", false},
		{"a proof completed as the signal came stands", cancelled, cancelled, "optimal", "optimal", true},
		{"an infeasibility proof stands", cancelled, cancelled, "infeasible", "infeasible", false},
		{"the deadline turns interrupted with a solution into feasible", live, cancelled, "interrupted", "feasible", true},
		{"the deadline turns interrupted without one into time_limit", live, cancelled, "interrupted", "time_limit", false},
		{"no signal and no deadline leave the status alone", live, live, "feasible", "feasible", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := &solve.Result{Status: tc.status}
			if tc.objective {
				x := 1.0
				res.Objective = &x
			}
			stoppedStatus(res, tc.sig, tc.dl)
			if res.Status != tc.want {
				t.Errorf("status %q, want %q", res.Status, tc.want)
			}
		})
	}
}
