// Package workload builds the integer linear programs for distributing a workload
// over discrete time/energy profiles (seeds 000 and 003). Neither paper gives an ILP;
// the model is the one derived in reference 000_003 §1.9 (cited as "ref").
//
// Per-processor model (heterogeneous processors, HEPOPT/HTPOPT):
//
//	y_ij ∈ {0,1}            processor i runs point j (j ∈ J_i); idle is the slack of C1
//	T ∈ [0, max t_ij]       makespan
//	(C1) Σ_j y_ij ≤ 1                      ∀i
//	(C2) Σ_i Σ_j x_ij·y_ij = n             exact sum, the only coupling row
//	(C3) T ≥ Σ_j t_ij·y_ij                 ∀i (no big-M: C1 makes the sum one time)
//	E_D = Σ e_ij·y_ij,  E_tot = P_S·T + E_D,  A = Σ y_ij (active processors)
//
// Aggregated model (identical processors, seed 003's BOPPE, ref §1.9 "symmetry-free"):
//
//	z_j ∈ {0..min(p, ⌊n/x_j⌋)}  processors on point j;   u_j ∈ {0,1}
//	Σ_j z_j ≤ p;   Σ_j x_j·z_j = n;   z_j ≤ U_j·u_j;   T ≥ t_j·u_j
//	E_D = Σ e_j·z_j,  A = Σ z_j
//
// which has no p! permutation symmetry. Both models are built once and re-solved: a
// time threshold τ fixes every point with t > τ to zero (the exact ε-constraint of ref
// §1.9 needs no T row), and bound rows on E_D and E_tot carry the lexicographic
// stages. Sizes are in granules (the instance's sizes divided by their gcd).
//
// The package never solves anything: bench drives the stages with a backend.
package workload
