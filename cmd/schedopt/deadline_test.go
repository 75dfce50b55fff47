package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedopt/schedopt/kinds"
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
			// On highs: the MILP is what overran (auto answers this front by its exact
			// algorithm at once).
			cmd := exec.Command(os.Args[0], command, path, "--json", "--threads", "1", "--time-limit", limit.String(), "--backend", "highs")
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

func TestSoakClassifiesRuns(t *testing.T) {
	const limit = 2 * time.Second
	for _, tc := range []struct {
		name string
		run  soakRun
		want string // the first finding, "" for none
	}{
		{"a definite answer in time", soakRun{wall: time.Second, code: 0, stdout: `{"status":"optimal"}`}, ""},
		{"bad input naming the file", soakRun{input: "/tmp/x/run1.json", wall: time.Millisecond, code: 2, stderr: "schedopt: /tmp/x/run1.json: V: missing\n"}, ""},
		{"a run past the limit + 1 s", soakRun{wall: limit + 1100*time.Millisecond, code: 0, stdout: `{"status":"time_limit"}`}, "hang"},
		{"a runtime crash", soakRun{input: "run1.json", code: 2, stderr: "fatal error: out of memory\n\ngoroutine 1 [running]:\n"}, "panic"},
		{"bad input without the file", soakRun{input: "/tmp/x/run1.json", code: 2, stderr: "schedopt: V: missing\n"}, "bad message"},
		{"two JSON objects", soakRun{code: 0, stdout: `{"status":"optimal"}{"status":"optimal"}`}, "bad json"},
		{"a slow interrupt", soakRun{signal: time.Second, afterSig: 1500 * time.Millisecond, wall: 2500 * time.Millisecond, code: 1, stdout: `{"status":"interrupted"}`}, "slow signal"},
		{"an interrupt that reports feasible", soakRun{signal: time.Second, afterSig: time.Millisecond, wall: time.Second, code: 0, stdout: `{"status":"feasible"}`}, "signal gave"},
		{"a proof that completed as the signal came", soakRun{signal: time.Second, afterSig: time.Millisecond, wall: time.Second, code: 0, stdout: `{"status":"optimal"}`}, ""},
		{"killed by a signal in the start-up window", soakRun{signal: 10 * time.Millisecond, afterSig: time.Millisecond, code: -1}, ""},
		{"killed by a later signal", soakRun{signal: 500 * time.Millisecond, afterSig: time.Millisecond, code: -1}, "exit -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := classify(&tc.run, limit)
			first := ""
			if len(got) > 0 {
				first = got[0]
			}
			if (tc.want == "") != (first == "") || !strings.HasPrefix(first, tc.want) {
				t.Errorf("findings %q, want first %q", got, tc.want)
			}
		})
	}
}

// TestFrontStopsAtASolveItHadToAbandon: a deadline sweep whose solver ignores its
// limit must not start point after point while the abandoned solves go on in the
// background; it records the abandoned point, marks the rest "not run", and stops.
func TestFrontStopsAtASolveItHadToAbandon(t *testing.T) {
	const path = "../../instances/dlt-multi-tiny-m3-n4.json"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{stdout: io.Discard, stderr: io.Discard}
	base, err := e.loadProblem(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, abandonAt := range []int{0, 2, 4} {
		t.Run(fmt.Sprintf("abandoned at point %d", abandonAt), func(t *testing.T) {
			calls := 0
			run := func(ctx context.Context, p kinds.Problem, start []float64) (*solve.Result, error) {
				calls++
				if calls-1 == abandonAt {
					return nil, fmt.Errorf("%w: %w", errAbandoned, context.DeadlineExceeded)
				}
				x := float64(calls)
				return &solve.Result{Status: solve.StatusOptimal, Objective: &x}, nil
			}
			fr, err := deadlineSweep(context.Background(), e, path, data, base, run, sweepRange{from: 300, to: 400, steps: 5}, true, false)
			if err != nil {
				t.Fatal(err)
			}
			if calls != abandonAt+1 {
				t.Errorf("%d solves started; want %d (none after the abandoned one)", calls, abandonAt+1)
			}
			if len(fr.Points) != 5 {
				t.Fatalf("%d points; want all 5 reported", len(fr.Points))
			}
			for k, pt := range fr.Points {
				switch {
				case k < abandonAt && pt.Status != solve.StatusOptimal:
					t.Errorf("point %d: %s; want optimal", k, pt.Status)
				case k == abandonAt && (pt.Status != solve.StatusTimeLimit || !strings.Contains(pt.Message, "abandoned")):
					t.Errorf("point %d: %s %q; want time_limit, abandoned", k, pt.Status, pt.Message)
				case k > abandonAt && (pt.Status != solve.StatusTimeLimit || !strings.HasPrefix(pt.Message, "not run")):
					t.Errorf("point %d: %s %q; want time_limit, not run", k, pt.Status, pt.Message)
				}
			}
		})
	}
}
