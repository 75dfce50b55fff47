// Command schedopt solves energy-aware scheduling instances exactly, exports their
// MILPs, solves MPS files, generates instances, sweeps instances across backends and
// heuristics, and reports and plots the results.
//
// Run `schedopt --help` for the commands, and ../../README.md for a tour. The command
// line follows ../../../shared/spec/README.md: `--json` prints exactly one JSON object on
// stdout, logs and progress go to stderr, and the exit status is 0 for any definite
// solver status (infeasible included), 2 for bad input or usage (one line on stderr
// naming the file, the field and the reason), and 1 for any other failure.
package main
