package energy

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// Source measures a node's energy over a region of time.
type Source interface {
	// Name says which source this is, for messages and the samples file ("rapl",
	// "perf", "meter").
	Name() string
	// Start begins a reading; the caller stops it after the region.
	Start(ctx context.Context) (Reading, error)
}

// Reading is one started measurement.
type Reading interface {
	// Stop ends the reading and returns the joules used since Start.
	Stop(ctx context.Context) (float64, error)
}

// Names of the --energy choices besides a meter command.
const (
	Auto     = "auto"
	RAPLName = "rapl"
	PerfName = "perf"
	None     = "none"
)

// ErrUnavailable is returned by Detect when the source asked for is not present.
var ErrUnavailable = errors.New("energy: source not available")

// Env is where Detect looks: the powercap root and the perf program, injectable so
// that tests use a fake powercap tree and no real perf.
type Env struct {
	PowercapRoot string // DefaultPowercapRoot when empty
	Perf         string // "perf" (looked up in PATH) when empty
}

// Detect returns the source that spec names: "auto" (RAPL if readable, else perf if
// its power/energy-pkg/ event counts, else none), "rapl", "perf", "none", or any other
// text, which is a meter command (see Meter). It returns a nil Source for "none" and
// for "auto" without any source; "rapl" or "perf" that are not present wrap
// ErrUnavailable.
func Detect(ctx context.Context, spec string, env Env) (Source, error) {
	root := env.PowercapRoot
	if root == "" {
		root = DefaultPowercapRoot
	}
	perf := env.Perf
	if perf == "" {
		perf = "perf"
	}
	switch strings.TrimSpace(spec) {
	case None:
		return nil, nil
	case RAPLName:
		r, err := NewRAPL(root)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		return r, nil
	case PerfName:
		p := &Perf{Path: perf}
		if err := p.Probe(ctx); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		return p, nil
	case Auto, "":
		if r, err := NewRAPL(root); err == nil {
			return r, nil
		}
		if _, err := exec.LookPath(perf); err == nil {
			p := &Perf{Path: perf}
			if p.Probe(ctx) == nil {
				return p, nil
			}
		}
		return nil, nil
	}
	return &Meter{Command: spec}, nil
}
