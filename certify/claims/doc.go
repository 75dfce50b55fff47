// Package claims is schedopt's wrong-claims suite: it generates small, deliberately
// nasty random MILPs whose answer is known, solves each with every backend, raw and
// under the certification policy (package certify), and counts the claims that are
// wrong and the answers that are indefinite.
//
// The promise it measures is the project's: a result is never wrong, and never
// called optimal without proof. Solvers break it on small models: HiGHS 1.10's MIP
// presolve has called feasible models infeasible and returned wrong optima, and
// lp_solve has reported "optimal" at its infinity 1e30 on unbounded models and
// "unbounded" on integer-infeasible ones. The suite finds such claims by the
// hundred among a few thousand models, so that the policy can be shown to catch
// them.
//
// # Generator
//
// Generate (and GenerateAt, its reproducible form) draws one Case from five
// families, with the weights of GenConfig (DefaultWeights: 30/25/20/15/10):
//
//   - FamilyEnumerable: pure-integer models on a box of at most GenConfig.EnumLimit
//     points — equality-heavy, ranged rows, tight and fixed bounds, magnitude mixes,
//     traps (congruence rows, disjoint ranges on multiples of one expression, rows
//     shifted off the planted point) and implied-free columns. Truth by enumeration
//     with backendtest.BruteForce. About 40% are infeasible.
//   - FamilyUnbounded: a planted point and integer ray (free and one-sided columns in
//     the ray's direction, A·d = 0 on equality and ranged rows, c·d improving).
//     Truth: Unbounded.
//   - FamilyInfeasible: infeasibility planted among free and one-sided columns, out
//     of reach of enumeration — a Farkas certificate over two to four rows, or an
//     integer congruence (coefficients sharing a divisor the right-hand side lacks),
//     alone or hidden as the difference of two equalities. Their LP relaxations are
//     often feasible and unbounded: the bait for "infeasible or unbounded" and for a
//     solver that takes an unbounded relaxation for an unbounded MILP. Truth:
//     Infeasible.
//   - FamilyMixed: bounded mixed-integer models (fractional bounds, big-M links,
//     free epigraph columns the objective keeps bounded), half of them with rows
//     around the box's midpoint like backendtest.RandomMixed. Truth: Unknown; the
//     runner takes the reference from the other backends.
//   - FamilyDecimal: the shape of the small models random-MILP fuzzers caught HiGHS
//     presolve with (wide bounds, two-decimal coefficients). Truth: Unknown.
//
// Overall about a third of the models are infeasible and a quarter unbounded. The
// evidence behind a planted truth travels with the case (Case.Ray, Case.Proof,
// Case.Witness), and the package's tests check it independently of the generator.
//
// # Judge
//
// Judge classifies one Claim against a reference Truth. Wrong claims: infeasible
// when a feasible point exists, unbounded when the model is infeasible or bounded,
// optimal when it is infeasible or unbounded, "infeasible or unbounded" when it has
// an optimum, an optimum off by more than ObjTol·max(1, |opt|) plus the requested
// gaps, a point that model.Verify rejects, and a verified point better than the
// optimum. Indefinite answers: time limit, interrupt, numerical error, other, an
// error return, and "infeasible or unbounded" on a model that is one of the two.
//
// # Runner
//
// Run solves RunConfig.N models with every backend named in RunConfig.Backends, each
// twice (raw: certify.Policy{Off: true}; certified: the default policy with the
// second and third backends registry.Others names), with gap 0, one thread and a per-solve time
// limit, over RunConfig.Workers goroutines. Models whose truth is Unknown are judged
// against the answer all other registered backends' certified solves agree on; when
// they disagree the model is not judged (bad points still count). The Report holds
// one Tally per backend and mode and every WrongClaim, with the model index that
// GenerateAt rebuilds; Report.WriteMarkdown prints it.
//
// The short suite (TestShortSuite, 150 models, part of `go test`) requires zero
// wrong certified claims. The long suite runs from the test binary:
//
//	go test ./certify/claims -run TestLongSuite -timeout 0 \
//	    -claims.n 10000 -claims.out docs/wrong-claims.md
package claims
