package dltmulti

import (
	"fmt"
	"math/rand/v2"
)

// GenConfig parameterises Generate, the §6.4 instance generator.
type GenConfig struct {
	M    int     // machines
	N    int     // messages (the thesis uses 12 for the MIP)
	V    float64 // load [MB]; the thesis uses 24000 for m = 10 and does not give it otherwise
	P0N  float64 // originator power [W]; not given by the thesis
	Seed uint64
}

// Generate draws an instance as in §6.4: ρ ~ U[256, 8048] MB, k_1 ~ U[9, 18] J/MB,
// k_2 ~ U[45, 540] J/MB, a_1 ~ U[0.05, 0.15] s/MB, a_2 ~ U[0.3, 4.4] s/MB,
// C ~ U[0.001, 0.01] s/MB, O ~ U[1E-6, 0.02] s, P^S, P^N ~ U[90, 120] W; with
// probability 0.5 a short startup (P^I ~ U[70, 100] W, S ~ U[0.1, 6] s), otherwise a
// long one (P^I ~ U[1, 7] W, S ~ U[40, 90] s). b_2 and l_2 follow from ρ (3.3), so
// they are not stored. The objective is min-time.
func Generate(cfg GenConfig) (*Instance, error) {
	if cfg.M < 1 {
		return nil, fmt.Errorf("dltmulti: generate: m = %d, need >= 1", cfg.M)
	}
	if cfg.N < 1 {
		return nil, fmt.Errorf("dltmulti: generate: n = %d, need >= 1", cfg.N)
	}
	if !(cfg.V > 0) {
		return nil, fmt.Errorf("dltmulti: generate: V = %g, need > 0", cfg.V)
	}
	r := rand.New(rand.NewPCG(cfg.Seed, 0x5eed0004))
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
	in := &Instance{Kind: Kind, Name: fmt.Sprintf("dlt-multi-m%d-n%d-s%d", cfg.M, cfg.N, cfg.Seed),
		V: cfg.V, N: cfg.N, P0N: cfg.P0N, Objective: MinTime}
	for range cfg.M {
		mc := Machine{
			Rho: u(256, 8048), K1: u(9, 18), K2: u(45, 540), A1: u(0.05, 0.15), A2: u(0.3, 4.4),
			C: u(0.001, 0.01), O: u(1e-6, 0.02), PS: u(90, 120), PN: u(90, 120),
		}
		if r.Float64() < 0.5 {
			mc.PI, mc.S = u(70, 100), u(0.1, 6)
		} else {
			mc.PI, mc.S = u(1, 7), u(40, 90)
		}
		in.Machines = append(in.Machines, mc)
	}
	return in, in.Validate()
}
