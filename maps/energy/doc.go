// Package energy holds the closed-form energy models that isoenergy maps are drawn
// from (seed 004, chapter 4): the divisible-load model (4.5)-(4.16) of a homogeneous
// star with unlimited flat memory, with its parameter inversions (4.17)-(4.21), and the
// Amdahl and Gustafson energy laws (4.1)-(4.4).
//
// A Model names its parameters (with the seed's symbols, units and the axis ranges the
// thesis draws), evaluates energy and schedule length at a parameter vector, says
// whether the configuration is feasible (for the divisible-load model: α_m ≥ 0 in
// (4.8)), and solves for one parameter in closed form where the seed gives a formula.
// Package isoline traces isolines of any Model.
//
// The divisible-load model is evaluated stably: κ = 1 + C/a is within 1e-5 of 1 for the
// reference instance, so κ^m − 1 and κ^m − 1 − mq (q = C/a) are summed as binomial
// series when mq is small and through expm1/log1p otherwise, never as differences of
// nearly equal powers. BigDLT evaluates the thesis's formulas literally in math/big
// arithmetic; the tests hold the two together to 1e-12 relative over every plane of
// parameters.
package energy
