// Package workload holds the exact combinatorial algorithms for distributing a
// workload over discrete time/energy profiles (seeds 000 and 003; reference
// 000_003_workload_distribution.md, cited as "ref").
//
// Every algorithm works on domain/workload.Tables (sizes in granules) and returns
// distributions in the instance's original units:
//
//   - ParetoDP: the bi-objective dynamic program over states (processor, remaining
//     workload) of ref §2.8, the reference oracle for every other method;
//   - HEPOPTA: seed 000 Algorithms 1–2 and 7–13 with the energy threshold ε, the size
//     thresholds σ, the memo PMem and key back-pointers, with the printed bugs fixed
//     (ref §2.4–§2.5);
//   - HTPOPTA: the total-energy filter of seed 000 Algorithm 3, with the idle-count
//     comparison fixed (ref §2.9);
//   - MinEnergy: the multiple-choice knapsack DP with an exact-sum row for E*(τ)
//     (ref §1.9), lexicographic in (energy, active processors);
//   - MinMakespan: binary search over the table times with a feasibility DP;
//   - Sweep: the exact time-threshold ε-constraint over the distinct table times,
//     driven by any E*(τ) oracle (the MILP one lives in bench);
//   - IdenticalMinEnergy: E*(τ) for identical processors by min-plus doubling;
//   - AlephCore / AdaptAleph: seed 003 Algorithms 1–2 over partial models for
//     identical processors, corrected (ref §2.10–§2.11);
//   - BruteForce: enumeration of every distribution, for tests on tiny instances.
//
// Front points are sorted by increasing makespan with strictly decreasing energy; among
// distributions with the same point, the representative has the fewest active
// processors (seed 000 [L853, L1218]).
package workload
