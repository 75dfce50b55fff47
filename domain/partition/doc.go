// Package partition holds the instances and solutions of the kind "partition": code
// portions with roofline costs shared among heterogeneous processors, the PeaPaw model
// of seed 002 (Tang, Barrett, Cook, Hu, ACM TODAES 22(3), 2017; reference 002 §1–§2).
//
// A processor k has a time per flop t_fk and per byte t_bk, a dynamic energy per flop
// e_fk and per byte e_bk, and a static power p_sk. A portion j has f_j flops and b_j
// bytes and a split type: divisible (any fraction), whole (all on one processor) or
// chunks (a whole number of its g_j equal chunks on each processor). A solution gives
// the fraction x_jk of every portion on every processor. With F_k = Σ_j f_j x_jk and
// B_k = Σ_j b_j x_jk,
//
//	T = max_k max{t_fk·F_k, t_bk·B_k}                          (Eqs. 14–17)
//	E = (Σ_k p_sk)·T + Σ_k (e_fk·F_k + e_bk·B_k)               (Eqs. 21–24)
//
// Every processor pays its static power for the whole makespan, used or not (Eq. 22).
//
// The package parses and validates instance JSON (bad input is a *domain.FieldError
// naming the JSON path), evaluates any fractions independently of every model and
// algorithm (Measure, Evaluate), classifies two-processor platforms by the paper's
// P-Paw and E-Paw guidelines (Eqs. 27–29, with the reconstructed rule set of
// reference 002 §2.2), and holds the paper's Table IV platforms and §3.2 workloads.
package partition
