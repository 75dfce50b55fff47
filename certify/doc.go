// Package certify is schedopt's one certification policy: every claim a MILP backend
// makes (optimal, feasible, infeasible, unbounded) is checked here before it leaves
// the program, whatever the solver underneath does.
//
// Solvers have bugs. HiGHS 1.10's MIP presolve sometimes declares feasible models
// infeasible or returns wrong optima (HiGHS issues 2173, 2204, 2290, 2402, 2446);
// lp_solve reports "optimal" at its infinity (1e30) on unbounded models, and its
// scaling and depth limit have produced false infeasibility and optimality claims.
// The policy (see Solve) verifies points against the original model, confirms
// infeasibility and unboundedness by re-solves without presolve, lets a second
// backend decide when the two disagree, resolves "infeasible or unbounded" to a
// definite status, and, on request, confirms an optimum by an objective-cutoff solve
// on a second backend. Every result carries a Certificate that says how its status
// was established.
package certify
