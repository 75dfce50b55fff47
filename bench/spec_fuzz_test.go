package bench_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedopt/schedopt/bench"
	"github.com/schedopt/schedopt/domain"
)

// FuzzParseSpec checks that any input either parses or fails as bad input, never
// with a panic or another kind of error.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{
		`{"instances":[{"files":["a.json"]}],"backends":["highs"]}`,
		`{"instances":[{"gen":"dlt-multi","args":{"m":3},"vary":{"n":[2,3]},"seeds":"1..3"}],"backends":[{"name":"lpsolve","max_integers":60}],"time_limits":["1m",5],"gaps":[0.1]}`,
		`{"instances":[{"gen":"x","seeds":[1,2]}],"backends":["heuristic:*"],"repetitions":2}`,
		`{"time_limits":["6o s"]}`, `[]`, `{`, `null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := bench.ParseSpec(data)
		if err != nil {
			if !errors.Is(err, domain.ErrBadInput) {
				t.Fatalf("ParseSpec error is not bad input: %v", err)
			}
			return
		}
		if len(s.Instances) == 0 || len(s.Backends) == 0 {
			t.Fatalf("accepted a spec without instances or backends: %s", data)
		}
	})
}

// FuzzReadRecords checks that a results file either reads or fails with an error
// naming the file, never with a panic.
func FuzzReadRecords(f *testing.F) {
	f.Add([]byte(`{"key":"a|highs|tl=1s|rep=0","status":"optimal","result":{"objective":1}}` + "\n"))
	f.Add([]byte("{\"key\":\"a\"}\n{\"key\":\"b\",\"size\":{\"m\":3}}\n{\"key\":\"c"))
	f.Add([]byte("\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "r.jsonl")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		recs, err := bench.ReadRecords(p)
		if err != nil {
			return
		}
		for _, r := range recs {
			if r.Key == "" {
				t.Fatal("a record without a key was accepted")
			}
		}
	})
}
