// Package isoline traces isoenergy lines of an energy.Model in a plane of two of its
// parameters, the others fixed (algorithm A3 of the seed 004 reference, §4.2.2 of the
// thesis), and evaluates the model on a grid for heat maps.
//
// Every traced point lies on its level to within TraceTol: for each sample of the
// independent axis, the other parameter is found with the model's closed-form
// inversion where one exists ((4.17)-(4.21) for k, P^C, P^N, V, S), checked by
// evaluating the model there, and otherwise by a safe root search — a scan of the axis
// for sign changes of E − level, then bisection of every bracket down to adjacent
// floating-point numbers. The processor number m is discrete: when it is one of the two
// parameters the line is traced at every integer m (step-wise isolines), solving for
// the other parameter. Infeasible configurations (α_m < 0 in (4.8)) are never traced:
// a scan stops at the feasibility boundary, found by bisection, so isolines end there
// as the thesis's do.
package isoline
