// Package kindtest holds what the kind adapters' tests share: the path of the sample
// instances, loading through a registry, a backend by name and a relative difference.
package kindtest

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/registry"
	"github.com/schedopt/schedopt/kinds"
)

// InstancePath is the path of a sample instance file, from a test of a kind
// subpackage (kinds/<kind>).
func InstancePath(name string) string { return filepath.Join("..", "..", "instances", name) }

// MustLoad loads the sample instance file name with a registry of the kinds ks, and
// fails the test when it does not load.
func MustLoad(t testing.TB, name string, ks ...kinds.Kind) kinds.Problem {
	t.Helper()
	p, err := kinds.NewRegistry(ks...).LoadFile(InstancePath(name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Solver returns a new instance of the MILP backend called name, failing the test
// when there is none.
func Solver(t testing.TB, name string) backends.Solver {
	t.Helper()
	s, err := registry.New(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// RelDiff is |a − b| / max(1, |a|, |b|).
func RelDiff(a, b float64) float64 {
	return math.Abs(a-b) / math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}
