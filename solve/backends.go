package solve

import (
	"strings"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/registry"
	"github.com/schedopt/schedopt/certify"
	"github.com/schedopt/schedopt/domain"
)

// Backend names beyond the MILP backends of backends/registry, as the command line and
// the sweep specs spell them.
const (
	// Exact runs a kind's exact combinatorial algorithm instead of a MILP backend.
	Exact = "exact"
	// HeuristicPrefix starts the name of a heuristic "backend" in sweeps:
	// "heuristic:gss" runs the heuristic gss of a kinds.HeuristicProblem, "heuristic:*"
	// all of them.
	HeuristicPrefix = "heuristic:"
	// Auto runs the strongest paths an instance's kind has (its exact algorithm, a
	// MILP backend, or both concurrently) and answers with the first proof (package
	// portfolio).
	Auto = "auto"
)

// MILPBackends lists the MILP solver backends, default first (backends/registry).
func MILPBackends() []string { return registry.Names() }

// NewSolver returns the MILP backend called name. For Exact, Auto and heuristic names
// it returns a nil Solver and no error: those run without a MILP solver. An unknown name
// is bad input: a *domain.FieldError for the field "backend".
func NewSolver(name string) (backends.Solver, error) {
	return NewSolverFrom(registry.New, name)
}

// NewSolverFrom is NewSolver with the MILP backends made by newBackend (registry.New,
// or a registry.Set's New).
func NewSolverFrom(newBackend func(name string) (backends.Solver, error), name string) (backends.Solver, error) {
	if name == Exact || name == Auto || strings.HasPrefix(name, HeuristicPrefix) {
		return nil, nil
	}
	if !registry.Has(name) {
		return nil, unknownBackend("backend", name)
	}
	s, err := newBackend(name)
	if err != nil {
		return nil, unknownBackend("backend", name)
	}
	return s, nil
}

// CheckBackend reports whether name is a backend NewSolver knows, as a FieldError
// naming field when it is not.
func CheckBackend(field, name string) error {
	if name == Exact || name == Auto {
		return nil
	}
	if h, ok := strings.CutPrefix(name, HeuristicPrefix); ok {
		if h == "" {
			return domain.Errorf(field, "heuristic backend %q has no heuristic name (e.g. %sgss, or %s* for all)", name, HeuristicPrefix, HeuristicPrefix)
		}
		return nil
	}
	if !registry.Has(name) {
		return unknownBackend(field, name)
	}
	return nil
}

func unknownBackend(field, name string) error {
	return domain.Errorf(field, "unknown backend %q (one of %s, %s, %s, %s<name>)",
		name, Auto, strings.Join(MILPBackends(), ", "), Exact, HeuristicPrefix)
}

// NewPolicy returns the certification policy for solves on the backend called name:
// the default policy with the best other backends (registry.Others) as second and
// third opinions, and with certifyAll every optimum confirmed by the second
// (--certify). Exact and heuristic backends make no MILP claims and get the zero
// policy.
func NewPolicy(name string, certifyAll bool) (certify.Policy, error) {
	return NewPolicyFrom(registry.New, name, certifyAll)
}

// NewPolicyFrom is NewPolicy with the second and third backends made by newBackend
// (registry.New, or a registry.Set's New to share instances and their workers).
func NewPolicyFrom(newBackend func(name string) (backends.Solver, error), name string, certifyAll bool) (certify.Policy, error) {
	if !registry.Has(name) {
		return certify.Policy{}, nil
	}
	p := certify.Policy{Certify: certifyAll}
	for i, other := range registry.Others(name) {
		s, err := newBackend(other)
		if err != nil {
			return p, err
		}
		switch i {
		case 0:
			p.Second = s
		case 1:
			p.Third = s
		}
	}
	return p, nil
}
