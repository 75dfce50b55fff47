// Package dltbb is a branch-and-bound over message sequences for the dlt-multi
// problem (seed 004 §6.2.2, MIP (6.6)-(6.28)): minimum time T, and minimum energy at a
// fixed (or bounded) length T (energy.go).
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
// Before a node's children are solved, its load bounds are tightened (tighten.go):
// for every machine, the largest suffix load β_i of the node LP with T <= T_target,
// one LP each, certified like every node bound. The subtree inherits them, and they
// make the message count k_i >= β_i/β̄_i bite where it was weakest: deep in the tree
// the relaxation spread the last messages' load over many machines at a fraction of
// a message each.
//
// A node can also be split on a message count (counts.go): every completion sends a
// whole number k_i of the suffix messages to each machine, the node LP has k_i
// continuous, and a node whose LP shares the messages out fractionally is split as a
// MIP branches on an integer variable, k_i <= ⌊k_i⌋ against k_i >= ⌈k_i⌉. Its
// sequence children inherit the count ranges, shifted by the message each adds.
//
// With more machines than suffix messages, the choice of machines matters: the node
// LPs carry used-machine rows (relax.useRows), the McCormick envelope of "a machine
// that takes load takes a whole message and fits it between its startup and T" over
// T between the node's known lower bound (its parent's bound) and the target, so that
// a machine loaded to its capacity at T costs a whole message in Σ k_i <= n − p
// (generator seed 2 with m = 15: root bound 233.0 → 247.4 s). And a node is split on
// whether a machine without a count column is used at all, k_i = 0 against k_i >= 1,
// the latter making it forced in the node (relax.splitsUse, relax.nodeForced). With
// m <= n a served machine is split the same way: deep in the tree the LP moved load
// from its prefix chunk to a fraction of a suffix message on it.
//
// On one thread (Options.Threads <= 1) the tree is explored best-first, with dives for
// incumbents, in a fixed order. With more threads, the LPs of the starts' local search
// and of the root's dive are shared out among them, and then the tree is explored in
// parallel (tree.go): every thread takes the open node with the smallest bound from a
// shared queue and expands it alone, with a shared incumbent and its own copy of the
// relaxation, tightened to the incumbent it last saw. The optimum within the gap and
// the validity of the bound do not depend on the threads; the tree does, and varies
// from run to run.
//
// The node LPs also get link-and-tail cuts (linktail.go): the suffix messages cross
// the link one after the other, and each must then still be computed with the later
// chunks of its machine, so T − t_p is at least a convex function of the suffix loads
// (Queyranne's inequality for the link, weighted by each chunk's remaining compute
// time), whose tangents at the LP point are added as linear cuts, a few rounds per
// node, and passed on to the children (by prefix, and only where the machines they
// count on as forced still take a message: tailStore). Each machine's term is taken in its
// perspective form with its message count (a machine with load takes a whole message),
// so that a suffix spread over more machines than it has messages is charged as if it
// were concentrated on as many machines as it has messages. They charge the order of
// the first messages, which the rows above leave to the branching (generator seed 3:
// root bound 241.7 → 253.6 s, optimum 260.09 s).
//
// Incumbents come from the caller's sequences (the online heuristics), improved by a
// local search over sequences (replace, swap, move), each sequence solved by its LP.
// Every incumbent is re-evaluated with the evaluator of domain/dltmulti before it is
// accepted.
//
// Minimum energy (energy.go) uses the same node LP with the energy as its objective:
// a used machine's energy is S(P^S − P^I) + P^I t_f + P^N (T − t_f) + Σ g(α) with
// g = ε − P^N τ, exact in the prefix (G >= both lines of a convex g; the piece of a
// concave g is part of the sequence, symbol m+i for out-of-core) and bounded below in
// the suffix (for a concave g through the out-of-core excess X_i, which the time rows
// charge and the excess chord X_i <= β_i x̄_i/(ρ_i + x̄_i) bounds: excessMax). The search first decides for every machine whether it is used (a binary
// tree of depth m; undecided machines are relaxed by z_i in [0, 1]), then sequences
// the messages among the used machines, which are then all forced, so that the count
// rule and the sequencing cuts apply and their startups are paid in full. The LPs go through an LPSolver given by the caller,
// so the package needs no backend; with Options.Threads > 1 it is called from several
// goroutines at once.
//
// The package's own solver, SimplexDual, is a dense tableau simplex sized for these
// programs (a few dozen rows). A node's LPs follow one another closely: a cut round
// adds rows to the previous round, and the load-bound LPs share their rows. So each
// starts from the previous one's final tableau (warm.go: the dual simplex after new
// rows, the primal after a new objective), and an LP solved from scratch runs the dual
// simplex from the slack basis (dualsimplex.go), without a phase one; negative costs
// (a load-bound LP maximises a load) are shifted to zero until the rows are feasible,
// and the primal simplex finishes. Every answer is still checked against the rows and
// certified by DualBound. A node's cut rounds stop at the target, after a round that
// gains little (maxTailRounds, tailProgress), or once a round gains less than
// 1/roundHope of the way left to the target.
package dltbb
