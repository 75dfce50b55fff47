// Package dltmulti builds the MIP (6.6)-(6.28) of seed 004 §6.2.2: heterogeneous
// machines with hierarchical memory receive a divisible load of size V from one
// originator in exactly n messages (slots); the model chooses the receiver of every
// slot, the chunk sizes and the start times. Objectives: minimum energy under a
// deadline (T <= deadline) or at a fixed length (T = deadline), minimum time, and
// minimum time under an energy cap.
//
// Corrections to the printed model (see the reference note for seed 004):
//
//   - (6.16) for j = n refers to t_{n+1}; we set t_{n+1} := T.
//   - (6.21) Σ α_ij >= V is written as an equality. With >=, a minimum-energy solve may
//     ship load that does not exist whenever a_1i·P_i^N > k_1i (computing an extra MB
//     is cheaper than busy-waiting for its duration), which the §6.4 generator's
//     ranges allow.
//   - The τ linearisation (6.19) is kept exact with the binaries u_ij: with only the
//     lower pieces, idle time charged at P^N in (6.28) could be hidden in τ.
//   - The out-of-core energy row of (6.9) is E_ij >= k_2i·α_ij + l_2i with the
//     constant l_2i instead of l_2i·x_ij, in both variants. Every integer point has the
//     same maxima (x_ij = 0 forces α_ij = 0, and l_2i < 0 <= E_ij), so no optimum
//     changes; the LP relaxation is a little weaker. The reason is numerical: with
//     |l_2i| up to 1e6 on a binary, lp_solve gave up ("undefined internal error") on 15
//     of 32 tiny min-time instances under an energy cap, and on 3 with the constant.
//
// Big-M constants: Z' = (a_2i − a_1i)·V and Z″ = −b_2i in (6.19); in (6.17), (6.18),
// (6.22), (6.23) Z is the horizon H, an upper bound on T: the deadline when there is one
// (T itself when T is fixed), otherwise the thesis's
// Z = 2(max S + V·max C + n·max O + max_i τ_i(V)) in the plain model, and in the
// strengthened model the best single-machine schedule length min_i (S_i + n·O_i + C_i·V
// + τ_i(V)), which every optimum of min-time meets (and any caller's known schedule
// length, Options.UpperT).
//
// Strengthening (all on by default, all keeping the optimal value of the plain model;
// Options.Plain switches them off): symmetry breaking among identical machines (an
// identical machine with a larger index is not used before one with a smaller index,
// y_{i,j} >= y_{i',j}); the valid lower bounds on T and E (the water-filling/link bound
// and the paired form of (6.30), dltmulti.ValidLowerBoundTime/Energy); the tighter
// horizon above; and a MIP start (Options.Start). The thesis's printed (6.29) is not a
// valid bound for every instance, and "empty slots pushed to the end" is not safe when
// every message pays O_i: with machine A (S = 5, O = 0.1, a_1 = 1, C = 0), machine B
// (S = 0, O = 4, a_1 = 10^4), V = 1 and n = 2, the optimum (T just below 6.1) opens with
// a nearly empty message to B while A is still starting, and every schedule whose last
// message is empty needs T >= 6.2 (exact/dltseq's TestEmptySlotsAtTheEndAreNotSafe).
// Neither is used as a cut.
//
// The homogeneous model (5.17)-(5.26) of §5.2.3 is BuildHomogeneous.
package dltmulti
