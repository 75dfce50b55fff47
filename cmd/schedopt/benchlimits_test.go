package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestBenchRefusesOversizedInstancesBeforeAnyJob(t *testing.T) {
	for _, tc := range []struct {
		name, spec string
		code       int
		want       string // in stderr
	}{
		{"a generator count above the limit in args",
			`{"instances":[{"gen":"dlt-multi","args":{"m":10000000,"n":4},"seeds":"1..2"}],"backends":["highs"],"time_limits":["1s"]}`,
			2, "instances[0].args.m: 10000000 is more than the limit"},
		{"a generator count above the limit in vary",
			`{"instances":[{"gen":"dlt-multi","args":{"n":4},"vary":{"m":[2,200000]},"seeds":"1..1"}],"backends":["highs"],"time_limits":["1s"]}`,
			2, "instances[0].vary.m[1]: 200000 is more than the limit"},
		{"a generated model beyond the nonzero limit",
			`{"instances":[{"gen":"dlt-multi","args":{"n":4},"vary":{"m":[2,15000]},"seeds":"1..1"}],"backends":["highs"],"time_limits":["1s"]}`,
			2, "more than the limit of 2e+06 nonzeros"},
		{"a large non-count flag is not a count",
			`{"instances":[{"gen":"dlt-multi","args":{"m":2,"n":2,"V":1000000},"seeds":"1..1"}],"backends":["heuristic:*"],"time_limits":["1s"]}`,
			0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			spec := writeFile(t, dir, "spec.json", tc.spec)
			code, _, errs := schedopt(t, "bench", spec, "-o", filepath.Join(dir, "r.jsonl"))
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, errs)
			}
			if tc.code == 2 {
				lines := strings.Split(strings.TrimSpace(errs), "\n")
				if len(lines) != 1 || !strings.Contains(errs, "spec.json") || !strings.Contains(errs, tc.want) {
					t.Errorf("stderr %q: want one line naming spec.json and %q", errs, tc.want)
				}
			}
		})
	}
}
