package dlt

import "math"

// Memory is the hierarchical-memory model of one machine (§3.3): processing a chunk of
// α MB takes τ(α) = max{A1·α, A2·α + B2} seconds (3.1) and ε(α) = max{K1·α, K2·α + L2}
// joules (3.2). Both pieces intersect at the usable RAM size Rho (3.3): in-core
// (α ≤ Rho) the first piece is active, out-of-core the second. B2 and L2 are always
// derived from Rho, B2 = Rho·(A1 − A2) and L2 = Rho·(K1 − K2), so the kinks coincide.
type Memory struct {
	A1, A2 float64 // in-core and out-of-core time per MB [s/MB]
	K1, K2 float64 // in-core and out-of-core energy per MB [J/MB]
	Rho    float64 // usable RAM [MB]
}

// B2 is the intercept of the out-of-core time piece, ρ(a1 − a2) (3.3) [s].
func (m Memory) B2() float64 { return m.Rho * (m.A1 - m.A2) }

// L2 is the intercept of the out-of-core energy piece, ρ(k1 − k2) (3.3) [J].
func (m Memory) L2() float64 { return m.Rho * (m.K1 - m.K2) }

// Tau is the computing time of a chunk of alpha MB, max{a1·α, a2·α + b2} (3.1).
// Tau(0) = 0 because b2 <= 0.
func (m Memory) Tau(alpha float64) float64 {
	return math.Max(m.A1*alpha, m.A2*alpha+m.B2())
}

// Eps is the computing energy of a chunk of alpha MB, max{k1·α, k2·α + l2} (3.2).
func (m Memory) Eps(alpha float64) float64 {
	return math.Max(m.K1*alpha, m.K2*alpha+m.L2())
}

// OutOfCore reports whether a chunk of alpha MB exceeds the usable RAM (the second,
// steeper pieces of (3.1)-(3.2) are active).
func (m Memory) OutOfCore(alpha float64) bool { return alpha > m.Rho }
