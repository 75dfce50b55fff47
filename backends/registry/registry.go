// Package registry maps the command-line names of schedopt's MILP backends to their
// constructors. It is the one place that knows every backend; the CLI, the
// certification policy (which picks a second backend to decide disagreements) and
// sweeps look backends up here.
package registry

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/cbc"
	"github.com/schedopt/schedopt/backends/highs"
	"github.com/schedopt/schedopt/backends/lpsolve"
)

// Backend names as the command line and the sweep specs spell them.
const (
	HiGHS   = "highs"
	LPSolve = "lpsolve"
	CBC     = "cbc"
)

// entry is one registered backend.
type entry struct {
	name    string
	new     func() backends.Solver
	version func() string // solver name and version, e.g. "HiGHS 1.10.0"
}

// entries lists the backends, default first. Adding a backend is one line here.
func entries() []entry {
	return []entry{
		{HiGHS, func() backends.Solver { return highs.New() }, func() string { return "HiGHS " + highs.Version() }},
		{LPSolve, func() backends.Solver { return lpsolve.New() }, func() string { return "lp_solve " + lpsolve.Version() }},
		{CBC, func() backends.Solver { return cbc.New() }, func() string { return "CBC " + cbc.Version() }},
	}
}

// Names lists the MILP backend names, default first.
func Names() []string {
	var ns []string
	for _, e := range entries() {
		ns = append(ns, e.name)
	}
	return ns
}

// Has reports whether name is a registered backend.
func Has(name string) bool { return slices.Contains(Names(), name) }

// New returns a new instance of the backend called name.
func New(name string) (backends.Solver, error) {
	for _, e := range entries() {
		if e.name == name {
			return e.new(), nil
		}
	}
	return nil, fmt.Errorf("registry: unknown backend %q", name)
}

// Versions returns the linked solver's name and version by backend name.
func Versions() map[string]string {
	v := map[string]string{}
	for _, e := range entries() {
		v[e.name] = e.version()
	}
	return v
}

// Others returns the registered backends other than name, best second opinion first:
// a solver with another code base (CBC for HiGHS), then HiGHS, the most reliable, for
// the others. The certification policy asks them, in this order, when a claim of
// name's needs an independent look.
func Others(name string) []string {
	prefs := map[string][]string{
		HiGHS:   {CBC, LPSolve},
		LPSolve: {HiGHS, CBC},
		CBC:     {HiGHS, LPSolve},
	}[name]
	var out []string
	for _, p := range append(prefs, Names()...) {
		if p != name && Has(p) && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// Set hands out one instance per backend name, for a program that solves many models
// over a long life (a sweep): with isolate, HiGHS runs in worker processes
// (highs.Isolated) that are killed when a solve overruns its limit, instead of being
// abandoned on a thread that keeps a core busy; CBC solves in child processes
// anyway and lp_solve in this process. The instances are shared, so that the
// workers are reused from one job to the next. A Set is safe for concurrent use;
// Close ends its workers.
type Set struct {
	isolate bool
	mu      sync.Mutex
	made    map[string]backends.Solver
}

// NewSet returns an empty set; isolate puts HiGHS in worker processes.
func NewSet(isolate bool) *Set { return &Set{isolate: isolate, made: map[string]backends.Solver{}} }

// New returns the set's instance of the backend called name, made on first use.
func (s *Set) New(name string) (backends.Solver, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b, ok := s.made[name]; ok {
		return b, nil
	}
	var b backends.Solver
	if s.isolate && name == HiGHS {
		b = highs.NewIsolated()
	} else {
		var err error
		if b, err = New(name); err != nil {
			return nil, err
		}
	}
	s.made[name] = b
	return b, nil
}

// Close ends the workers of the set's instances that have any.
func (s *Set) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for _, b := range s.made {
		if c, ok := b.(io.Closer); ok {
			errs = append(errs, c.Close())
		}
	}
	return errors.Join(errs...)
}
