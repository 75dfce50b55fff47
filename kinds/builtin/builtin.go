// Package builtin is the registry of every instance kind schedopt ships. The CLI and
// sweeps load instances and find generators through Registry; adding a kind is one
// line here.
package builtin

import (
	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/kinds/dlt"
	"github.com/schedopt/schedopt/kinds/dltmulti"
	"github.com/schedopt/schedopt/kinds/partition"
	"github.com/schedopt/schedopt/kinds/stencil"
	"github.com/schedopt/schedopt/kinds/workload"
)

// Registry returns the registry of the built-in kinds, in the order of the spec.
func Registry() *kinds.Registry {
	return kinds.NewRegistry(
		dlt.FlatKind(),
		dlt.SingleKind(),
		dltmulti.Kind(),
		stencil.Kind(),
		workload.Kind(),
		partition.Kind(),
	)
}
