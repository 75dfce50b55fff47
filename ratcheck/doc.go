// Package ratcheck verifies a solver's point against a model file in exact rational
// arithmetic, as the MIPLIB solution checker does.
//
// A float64 reading of a file already rounds its coefficients (0.1 is not 0.1), and a
// float64 check sums rounded products, so a point can pass a float check that it fails
// on the numbers as written, or the other way round. ReadFile keeps every number of an
// MPS or CPLEX LP file as the exact rational of its decimal text (math/big), and
// Model.Check converts the point exactly (big.Rat.SetFloat64) and evaluates every row
// activity, bound, integrality condition and the objective without rounding.
//
// # Reading
//
// The semantics are those of schedopt's float readers, model.ReadMPSWarn and
// model.ReadLP (docs/spec.md, "Reading MPS files" and "Reading LP files"): ranges,
// bound types (UP, LO, FX, FR, MI, PL, BV, LI, UI, SC, SI), integer markers, the
// objective's sense and constant, and |v| >= 1e20 (model.MPSInfinity) as infinite in
// MPS RHS and BOUNDS. ReadFile runs the float reader first, so a file is accepted or
// refused exactly as solve-mps would, with the same error; names, column kinds and the
// order of rows and columns come from that reading. For MPS the numbers come through
// model.ReadMPSFields, which hands over each data line as the float reader split it
// (fixed-format columns included), so there is no second MPS tokenizer. For LP a
// compact parser of the same grammar re-reads the tokens of model.LPLexer, the float
// reader's own tokenizer; sums (a name repeated in a row, constants moved to the
// right-hand side) are formed exactly. Literals beyond
// the range of float64 (an exponent of magnitude above 1000) are read as float64
// reads them (0 or infinite), so that a hostile file cannot make a huge rational.
//
// # Checking
//
// Check follows the MIPLIB 2017 solution checker (solchecker, model.cpp, by
// D. Salvagnin), whose tolerances are relative:
//
//   - a row L <= a·x <= U is violated on its upper side when a·x − U exceeds
//     tol · max(1, |U|, P, |N|), where P and N are the sums of the positive and the
//     negative products a_j·x_j (the lower side likewise); solchecker's code compares
//     N itself, which is never positive, so its tolerance ignores N: ours uses |N| as
//     its comment says, and is never stricter than solchecker for it;
//   - a column bound l <= x_j <= u with tolerance tol · max(1, |l| or |u|, |x_j|);
//     a semi-continuous or semi-integer column may also be exactly 0;
//   - an integer column with |x_j − round(x_j)| <= the integrality tolerance.
//
// The reported absolute violation of a row or bound is the distance outside it, and
// the relative one is that distance divided by the max(...) scale above, so Feasible
// holds exactly when every relative violation is within Tolerances.Feasibility and
// every integrality violation within Tolerances.Integrality. The defaults
// (DefaultFeasibility, DefaultIntegrality) are 1e-6 both. solchecker takes its two
// tolerances on the command line; the README of its 2010 version documents an
// absolute 1e-4 default, and the MIPLIB 2017 version scales the linear tolerance as
// above. A tolerance is taken as the exact rational of its shortest decimal text
// (1e-6 is 1/10^6).
//
// Columns are matched by name: a model column missing from the point, a name the model
// does not have, and a NaN or infinite value are violations in the report, never a
// panic.
package ratcheck
