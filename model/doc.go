// Package model is schedopt's solver-independent representation of a mixed-integer
// linear program.
//
// A Model holds columns (continuous, integer or binary variables with bounds and
// names), rows (linear constraints stored once, in compressed sparse row form), a
// linear objective with a constant, and an optional MIP start. Expressions are flat
// buffers of (variable, coefficient) pairs: adding a term appends to two slices, and
// duplicate terms are summed when the expression becomes a row, so no object is
// allocated per term. A backend hands the row arrays to its solver as they are: the
// model is never copied into a second representation.
//
// Errors made while building (an unknown variable, a NaN coefficient, lower > upper)
// are recorded rather than panicking; Validate reports the first one with the name of
// the row or column involved. Output is deterministic: the same sequence of calls gives
// byte-identical MPS and LP text.
//
// The linearisation helpers (ProductBinary, MaxOfAffine, Epigraph, Implies) derive
// every big-M from the bounds of the variables involved, never from a blind constant,
// and record what they added in Reformulations, in the spirit of MathOptInterface's
// bridges.
//
// Verify recomputes every row, bound, integrality and the objective for a candidate
// solution, so a solver's answer is checked by code that does not trust the solver.
//
// WriteMPS and WriteLP write free MPS and CPLEX LP files that HiGHS reads (and lp_solve,
// for MPS), for inspecting a formulation or handing it to a solver's command line;
// ReadMPS reads free (and simple fixed) MPS back. Their conventions (names, the sign of
// the objective constant, ranged rows, integer bounds) are documented on each function
// and in names.go. A model read from an MPS file writes back byte for byte.
//
// For a large model, Grow reserves the arrays up front; building then costs about
// 25 B and a few tens of nanoseconds per nonzero (see BenchmarkBuild1MNonzeros and
// docs/benchmarks.md). Names are kept back to back in one byte arena per list, not as
// one string each, and the file names are derived from them as they are written when
// sanitising only maps bytes. WriteMPS formats its sections in pieces on every
// processor and writes them in order, so its bytes are those of a sequential writer; it
// costs about as much as formatting the nonzeros' numbers alone (BenchmarkDLTWriteMPS
// and BenchmarkDLTRawBytes).
package model
