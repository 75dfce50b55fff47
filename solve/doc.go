// Package solve runs one certified solve of a formulated model on any backend and
// turns it into the result object of the spec (`schedopt solve --json`).
//
// A kind (package kinds) builds a Formulated model; SolveModel solves it through the
// certification policy of package certify, maps the backend's status to the spec's
// (MapStatus, ProvenWithin), verifies the point against the model, decodes it, runs the
// kind's independent evaluator and cross-checks the objective with the kind's exact
// oracle (Agree). Bare solves a model without a kind, as `schedopt solve-mps` does.
// Every MILP solve of schedopt goes through Certified, so every claim a backend makes
// passes the one policy.
//
// The package knows no instance kind: the CLI, sweeps (package bench) and library
// users call it alike.
package solve
