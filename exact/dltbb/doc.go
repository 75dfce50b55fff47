// Package dltbb is a branch-and-bound over message sequences for the minimum-time
// dlt-multi problem (seed 004 §6.2.2, MIP (6.6)-(6.28) with the objective T).
//
// Once the machine receiving each of the n messages is fixed, minimising T is a linear
// program (τ_j >= a_1 α_j and τ_j >= a_2 α_j + b_2 stand exactly for the convex (3.1),
// because nothing rewards a larger τ_j). The search fixes the sequence one message at a
// time from the front. A node with prefix σ_1..σ_p is bounded by a linear relaxation in
// which the prefix is exact and the n − p remaining messages are relaxed: each machine
// M_i may still receive a load β_i, which it computes at its on-core rate after its last
// prefix chunk (or after its startup S_i) and after the suffix begins, paying at least
// O_i per suffix message; the suffix crosses the one link after the prefix. The
// relaxation never cuts off a completion of the prefix, so the node bound is below
// every schedule in the subtree (tested against exact/dltseq's enumeration).
//
// Two combinatorial rules tighten it without losing an optimum better than the target
// T_target = UB·(1 − gap): a machine whose absence leaves too little capacity, Σ over
// the others of max(0, T_target − S_k − O_k)/(a_1k + C_k) < V, must receive a message
// (forced), so a prefix leaving fewer messages than unserved forced machines is
// pruned; and machines with identical parameters are first used in index order.
//
// Incumbents come from the caller's sequences (the online heuristics), improved by a
// local search over sequences (replace, swap, move), each sequence solved by its LP.
// Every incumbent is re-evaluated with the evaluator of domain/dltmulti before it is
// accepted. The LPs go through an LPSolver given by the caller, so the package needs no
// backend.
package dltbb
