// Package partition holds exact algorithms for the PeaPaw roofline partitioning
// problem (seed 002; reference 002 §2.3 "Structure and exact algorithms"), used to
// cross-check the MILP of formulations/partition and as `--backend exact`.
//
//   - PDP: the perfect dataset partition of one divisible portion (Eq. 19 and its
//     split α_k ∝ 1/w_k), closed form, any number of processors.
//   - One divisible intensity, any number of processors: the makespan T is the root of
//     a monotone piecewise-linear capacity function, and the energy, convex and
//     piecewise linear in T, is minimised over its breakpoints. With two processors and
//     one portion this is the reference's "CO, GO or p-DP" (L186).
//   - Several divisible intensities on two processors: the CPU's share of flops and
//     bytes ranges over a zonotope whose boundary is exactly the set of intensity
//     threshold partitions (portions sorted by intensity, one side of a threshold on
//     each processor, one portion split). The objective is convex and piecewise linear
//     in that share, so its minimum lies at a vertex of the zonotope cut by the lines
//     where two roofline terms (or a term and the deadline) are equal: boundary
//     vertices are threshold partitions, interior ones are decomposed into two of them.
//     The interior vertices correct reference 002 §2.3 item 3, whose claim that some
//     threshold partition is always optimal fails when the optimal prices are
//     degenerate (see TestThresholdAloneIsNotExact).
//   - Whole and chunked portions: depth-first enumeration of their placements, largest
//     portions first and each on its best processor first, pruned by a lower bound
//     (placed loads, water filling of the remaining flops and bytes, the next whole
//     portion on its best processor, the cheapest dynamic energy of the rest), solving
//     the divisible rest exactly at each leaf.
//
// Instances outside these cases (three or more processors with divisible portions of
// different intensities, or too many placements) get ErrNotCovered.
package partition
