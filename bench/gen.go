package bench

import "github.com/spf13/pflag"

// Generator makes instances of one kind for `schedopt gen KIND`.
type Generator struct {
	Kind    string // the instance kind it writes, e.g. "dlt-multi"
	Summary string // one line for --help
	Example string // example invocations for --help
	// Flags registers the generator's flags on fs and returns the function that builds
	// an instance (a value that encodes to the kind's instance JSON) once the flags are
	// parsed. It returns a *domain.FieldError naming the flag for bad flag values.
	Flags func(fs *pflag.FlagSet) func(seed int64) (any, error)
}

// Generators lists the instance generators of every kind.
func Generators() []Generator {
	var gs []Generator
	gs = append(gs, dltGenerators()...)
	gs = append(gs, dltMultiGenerators()...)
	gs = append(gs, stencilGenerators()...)
	gs = append(gs, workloadGenerators()...)
	gs = append(gs, partitionGenerators()...)
	return gs
}
