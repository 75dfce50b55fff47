// Package dltsingle formulates the single-installment schedule of homogeneous machines
// with hierarchical memory of seed 004 §5.1 as the ILP (5.1)-(5.11), in both
// directions: minimum length T, optionally under an energy limit (5.5), and minimum
// energy E under a deadline, or at a fixed length as in the thesis's trade-off curves
// (5.6).
//
// The running time t_i^R = τ(α_i) = max{a1·α_i, a2·α_i + b2} is exact, with one
// selector binary per machine and big-M constants from the bounds as in (6.19):
// (a2 − a1)·V + b2 (tighter than Z' = (a2 − a1)·V) and Z” = −b2. A lower bound alone (t_i^R >= both pieces) is not enough: the energy,
// after substituting the idle time (5.9) into (5.4), is
//
//	E = (m+1)P^I·T + S(P^S + P^N − 2P^I)·Σx_i + 2CV(P^N − P^I) + Σ_i [ε(α_i) − P^I·t_i^R]
//
// so a larger t_i^R lowers E by P^I per second: an energy minimisation (or an energy
// cap) would inflate the running time to hide idle energy. The running energy ε(α_i)
// enters E with a positive sign, so its epigraph (E_i^R >= k1·α_i, E_i^R >= k2·α_i +
// l2, as (6.9)) is exact under minimisation and safe under an upper limit.
package dltsingle
