package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/schedopt/schedopt/kinds/builtin"
	"github.com/schedopt/schedopt/portfolio"
)

// TestAutoPlans: the paths auto takes, strongest first, for the docs' examples:
// Table 6.1 (docs/cli.md, README: the sequence branch-and-bound proves it within
// 0.2 % where HiGHS stays at 3.6 %) goes to the exact path alone.
func TestAutoPlans(t *testing.T) {
	cases := []struct {
		file string
		want []string
	}{
		{"dlt-multi-table6.1.json", []string{"exact"}},
		{"dlt-multi-tiny-m3-n4.json", []string{"highs"}},
		{"workload-small.json", []string{"exact", "highs"}},
		{"stencil-small.json", []string{"highs"}},
		{"dlt-single-table5.1-mintime.json", []string{"highs"}},
	}
	for _, tc := range cases {
		data, err := os.ReadFile(inst(tc.file))
		if err != nil {
			t.Fatal(err)
		}
		p, err := builtin.Registry().Load(data, tc.file)
		if err != nil {
			t.Fatal(err)
		}
		if got := portfolio.Paths(p); !slices.Equal(got, tc.want) {
			t.Errorf("%s: auto runs %v, want %v", tc.file, got, tc.want)
		}
	}
}

// TestAutoIsTheDefaultAndNamesThePathThatAnswered: without --backend, solve takes the
// strongest path the kind has (docs/cli.md, "The backend auto"), and the result's
// backend names it; solve-mps --backend auto races HiGHS and CBC with two threads.
func TestAutoIsTheDefaultAndNamesThePathThatAnswered(t *testing.T) {
	cases := []struct {
		name        string
		args        []string
		wantBackend []string // any of these
		wantStatus  []string // any of these
		wantPaths   int
	}{
		{"workload: the exact DP alone on one thread", []string{"solve", inst("workload-small.json"), "--threads", "1"},
			[]string{"exact"}, []string{"optimal"}, 1},
		{"tiny dlt-multi: the MILP, cross-checked by enumeration", []string{"solve", inst("dlt-multi-tiny-m3-n4.json"), "--threads", "1"},
			[]string{"highs"}, []string{"optimal"}, 1},
		{"workload on two threads: the DP and the MILP race, the DP wins", []string{"solve", inst("workload-small.json"), "--threads", "2"},
			[]string{"exact"}, []string{"optimal"}, 2},
		{"solve-mps --backend auto --threads 2 races HiGHS and CBC",
			[]string{"solve-mps", filepath.Join(testdata, "highs-peer-2585.lp"), "--backend", "auto", "--threads", "2"},
			[]string{"highs", "cbc"}, []string{"optimal"}, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := schedopt(t, append(tc.args, "--json")...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			res := oneObject(t, stdout)
			if !contains(tc.wantBackend, res["backend"]) || !contains(tc.wantStatus, res["status"]) {
				t.Errorf("backend %v, status %v (%v); want one of %v and %v", res["backend"], res["status"], res["message"], tc.wantBackend, tc.wantStatus)
			}
			paths, _ := res["paths"].([]any)
			if len(paths) != tc.wantPaths {
				t.Errorf("paths %v, want %d", res["paths"], tc.wantPaths)
			}
		})
	}
}

func contains(set []string, v any) bool {
	for _, s := range set {
		if s == v {
			return true
		}
	}
	return false
}
