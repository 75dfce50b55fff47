// Package dltseq is the exact oracle for tiny dlt-multi instances (seed 004, §6): it
// enumerates every message sequence σ ∈ {1..m}^n and, for each, every assignment of
// its chunks to the on-core or out-of-core piece of (3.1)-(3.2). With the sequence and
// the pieces fixed, the schedule lengths, start times and energies of (6.4)-(6.5) are
// linear in the chunk sizes and start times, so each case is a small linear program,
// solved here by a dense two-phase simplex with Bland's rule. The best case over all
// is the optimum of the MIP (6.6)-(6.28) (with (6.21) as an equality).
//
// Fixing the piece per chunk makes the oracle exact for every objective, including
// minimum energy when ε_i(α) − P_i^N·τ_i(α) is concave (marginal out-of-core power below
// P_i^N), where a convex LP alone would not be. Cost: m^n·2^n LPs, meant for m <= 3,
// n <= 4.
package dltseq
