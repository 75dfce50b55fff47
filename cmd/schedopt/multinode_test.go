package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

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
