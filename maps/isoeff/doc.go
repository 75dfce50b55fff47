// Package isoeff draws isoefficiency maps of the homogeneous multi-installment MIP
// (5.17)-(5.26) of seed 004 §5.2.4.
//
// The efficiency is the seed's (§5.2.4, the formula after (5.26)):
//
//	E(m, n, V) = T(1, 1, V) / (m · T(m, n, V)),
//	T(1, 1, V) = S + O + C·V + max{a_1·V, a_2·V + b_2},
//
// where T(m, n, V) is the schedule length of (5.17)-(5.26) for m identical machines, n
// messages and load V. An isoefficiency line of level e is I(e, m, n) = {V : E = e}.
//
// Search (algorithm A6 of the reference, §5.2.4): for each m, the maximum E_max(m) and
// its load V_max(m) are found by an interval search that keeps two probes and narrows
// the interval to the probe of smaller efficiency (golden section, so each step costs one
// new probe), stopped when the interval is narrower than a tolerance (1 MB in the
// thesis). The thesis leaves the initial bracket open; here it comes from a coarse
// log-spaced scan of the V range, evaluated in parallel. Each efficiency level e <
// E_max(m) is then bisected on both sides of V_max(m): below V_max E rises with V,
// above it E falls.
//
// Every probe is one MIP solve (MIPProbe) through the certification policy
// (solve.SolveModel with solve.NewPolicy), or one run of the sequence branch-and-bound
// of the chapter 6 model, the same problem on identical machines (SeqBBProbe, which also
// reports a proven lower bound on T, from SuffixLowerBound among others); its schedule's
// length is recomputed by the independent evaluator of domain/dltmulti. Probes run on a worker pool (Run):
// the searches of all m and of all levels run concurrently, at most Workers solves at a
// time; cancelling the context stops them.
//
// The bounds of §5.2.4 are in Bounds: (5.27) brackets E below V_max, (5.28)
// approximates E above V_max and (5.29) is the isoline it implies.
package isoeff
