package dltmulti_test

import (
	"encoding/json"
	"testing"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
)

// BenchmarkParseM1000 parses a generated instance of 1000 machines (about 360 KB of
// JSON), the input of the issue-17 export benchmark.
func BenchmarkParseM1000(b *testing.B) {
	in, err := dm.Generate(dm.GenConfig{M: 1000, N: 12, V: 24000, P0N: 100, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	data, err := json.MarshalIndent(in, "", "  ")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := dm.Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}
