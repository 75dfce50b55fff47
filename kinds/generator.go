package kinds

import (
	"errors"
	"strings"

	"github.com/spf13/pflag"

	"github.com/schedopt/schedopt/domain"
)

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

// FlagError renames an instance field error to the generator flag that set it
// (energy_limit is --energy-limit), so that a user reads the flag they gave.
func FlagError(err error) error {
	var fe *domain.FieldError
	if errors.As(err, &fe) && fe.Field != "" {
		fe.Field = "--" + strings.ReplaceAll(fe.Field, "_", "-")
	}
	return err
}
