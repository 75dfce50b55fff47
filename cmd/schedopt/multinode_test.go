package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	dst "github.com/schedopt/schedopt/domain/stencil"
)

// `schedopt multinode` on a small grid: every row is there, the driver's best TM meets
// the deadline and beats every simple heuristic that meets it, the bound is below it, and the
// instance written with --instance-out parses strictly with that deadline.
func TestMultinodeRowsBoundAndInstance(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "torus.json")
	code, stdout, stderr := schedopt(t, "multinode", "--system", "torus,fattree", "--grid", "6x4x4", "--tm-time", "300ms",
		"--iterations", "400", "--json", "--instance-out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res []multinodeOut
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("output is not the JSON list: %v", err)
	}
	if len(res) != 2 {
		t.Fatalf("%d systems, want 2", len(res))
	}
	for _, o := range res {
		if len(o.Rows) != 9 || o.Best < 5 {
			t.Fatalf("%s: %d rows, best %d", o.System, len(o.Rows), o.Best)
		}
		best := o.Rows[o.Best].Report
		if !best.MeetsDeadline || best.TS > o.Deadline*(1+1e-9) {
			t.Fatalf("%s: best TM misses t^d %g: %+v", o.System, o.Deadline, best)
		}
		for _, r := range o.Rows[1:5] {
			if r.Report.MeetsDeadline && r.Report.E < best.E {
				t.Fatalf("%s: %s (%.3f J) beats TM (%.3f J)", o.System, r.Heuristic, r.Report.E, best.E)
			}
			if r.Deadline != o.Deadline {
				t.Fatalf("%s: %s has deadline %g, want %g", o.System, r.Heuristic, r.Deadline, o.Deadline)
			}
		}
		if o.Bound.E <= 0 || o.Bound.E > best.E {
			t.Fatalf("%s: bound %.3f J, best TM %.3f J", o.System, o.Bound.E, best.E)
		}
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	in, err := dst.Parse(data)
	if err != nil {
		t.Fatalf("written instance does not parse: %v", err)
	}
	if len(in.Tasks) != 96 || len(in.Processors) != 141 || in.Deadline != res[0].Deadline {
		t.Fatalf("written instance: %d tasks, %d processors, deadline %g", len(in.Tasks), len(in.Processors), in.Deadline)
	}
}

func TestMultinodeRejectsBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"multinode", "--system", "hypercube"},
		{"multinode", "--grid", "0x4x4"},
		{"multinode", "--rounds", "chromatic"},
	} {
		if code, _, _ := schedopt(t, args...); code != 2 {
			t.Fatalf("%v: exit %d, want 2", args, code)
		}
	}
}

// TestMultinodeInterruptedKeepsItsRows: a signal during Task Movement ends the command
// with exit status 1, and the simple heuristics' rows already computed are printed
// (in the JSON too), marked interrupted, without a bound.
func TestMultinodeInterruptedKeepsItsRows(t *testing.T) {
	for _, jsonOut := range []bool{false, true} {
		t.Run(fmt.Sprintf("json %v", jsonOut), func(t *testing.T) {
			var stdout, stderr strings.Builder
			e := &env{stdout: &stdout, stderr: &stderr}
			ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
			defer cancel()
			f := multinodeFlags{systems: "fattree", grid: "8x4x4", rounds: "bound", tmTime: time.Minute,
				iterations: 1 << 30, seed: 1, jsonOut: jsonOut}
			start := time.Now()
			err := runMultinode(ctx, e, f)
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("took %s after the signal at 1.5 s", took)
			}
			if code := exitCode(err); code != exitFailure {
				t.Fatalf("exit %d (%v), want %d", code, err, exitFailure)
			}
			out := stdout.String()
			if jsonOut {
				var outs []multinodeOut
				if err := json.Unmarshal([]byte(out), &outs); err != nil {
					t.Fatalf("stdout is not the JSON of the systems: %v", err)
				}
				if len(outs) != 1 || !outs[0].Interrupted || len(outs[0].Rows) < 4 {
					t.Fatalf("got %d systems, interrupted %v, want 1 interrupted with the heuristic rows", len(outs), len(outs) > 0 && outs[0].Interrupted)
				}
				return
			}
			if !strings.Contains(out, "| LB |") || !strings.Contains(out, "Interrupted: no lower bound") {
				t.Errorf("stdout lacks the rows so far or the mark:\n%s", out)
			}
		})
	}
}
