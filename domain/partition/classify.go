package partition

import "math"

// P-Paw categories (performance goal, reference 002 §2.1, L286–L298).
const (
	PPawDP      = "CPU_DP-GPU_DP"    // BL_C = BL_G: partition the dataset to get p-DP
	PPawCompMem = "CPU_COMP-GPU_MEM" // BL_C > BL_G: higher-intensity code → CPU
	PPawMemComp = "CPU_MEM-GPU_COMP" // BL_C < BL_G: higher-intensity code → GPU
)

// E-Paw categories (energy goal, reference 002 §2.2, L324–L359).
const (
	EPawCPUOnly     = "CPU-only"
	EPawGPUOnly     = "GPU-only"
	EPawCompMem     = "CPU_COMP-GPU_MEM"
	EPawMemComp     = "CPU_MEM-GPU_COMP"
	EPawRaceToHalt  = "Race-to-halt"
	EPawCompComp    = "CPU_COMP-GPU_COMP"
	EPawMemMem      = "CPU_MEM-GPU_MEM"
	EPawWorkloadDep = "Workload-dependent"
)

// TieTol is the relative difference below which two machine balances, two energies,
// or a gradient energy and zero count as equal when classifying a platform.
const TieTol = 1e-9

// PPaw is the P-Paw classification of a CPU+GPU platform.
type PPaw struct {
	BalanceCPU, BalanceGPU float64 // BL = t_b/t_f, Eq. (27)
	Category               string
}

// ClassifyPPaw classifies a CPU+GPU platform by comparing machine balances (Eq. 27).
// Balances within TieTol of each other are equal (CPU_DP-GPU_DP, Observation 5.1).
func ClassifyPPaw(cpu, gpu Processor) PPaw {
	c := PPaw{BalanceCPU: cpu.Balance(), BalanceGPU: gpu.Balance()}
	switch {
	case tie(c.BalanceCPU, c.BalanceGPU):
		c.Category = PPawDP
	case c.BalanceCPU > c.BalanceGPU:
		c.Category = PPawCompMem
	default:
		c.Category = PPawMemComp
	}
	return c
}

// Rules selects the E-Paw rule set.
type Rules int

const (
	// Reconstructed is the consistent rule set of reference 002 §2.2 item 4: ordered
	// rules, categories named by their action, symmetric gradient energies, and every
	// zero or tie classified Workload-dependent. It reproduces the labels of Table VI
	// from Table IV.
	Reconstructed Rules = iota
	// Literal applies the identifiers exactly as printed (L324–L359), with the GPU's
	// times in both gradients (Eqs. 28–29); a platform matching several identifiers is
	// ambiguous (erratum E8).
	Literal
)

// EPaw is the E-Paw classification of a CPU+GPU platform.
type EPaw struct {
	DeltaF, DeltaB float64  // gradient energies ΔGP_f, ΔGP_b (energy per flop, per byte; erratum E7)
	StaticPower    float64  // p_sC + p_sG
	Category       string   // the category; with Literal rules, the first match
	Matches        []string // Literal rules: every identifier that matches
	Ambiguous      bool     // Literal rules: more than one identifier matches
}

// GradientEnergies returns ΔGP_f and ΔGP_b (Eqs. 28–29):
//
//	ΔGP_f = |e_fC − e_fG| − (p_sC + p_sG)·t_f,   ΔGP_b = |e_bC − e_bG| − (p_sC + p_sG)·t_b
//
// As printed, t_f and t_b are the GPU's (t_fG, t_bG). With symmetric set they are the
// times of the processor with the smaller dynamic energy, the one work would move away
// from (reference 002 §2.2 item 3, erratum E18); on the paper's platforms both agree.
func GradientEnergies(cpu, gpu Processor, symmetric bool) (dF, dB float64) {
	ps := cpu.StaticPower + gpu.StaticPower
	tf, tb := gpu.TimePerFlop, gpu.TimePerByte
	if symmetric {
		if cpu.EnergyPerFlop < gpu.EnergyPerFlop {
			tf = cpu.TimePerFlop
		}
		if cpu.EnergyPerByte < gpu.EnergyPerByte {
			tb = cpu.TimePerByte
		}
	}
	dF = math.Abs(cpu.EnergyPerFlop-gpu.EnergyPerFlop) - ps*tf
	dB = math.Abs(cpu.EnergyPerByte-gpu.EnergyPerByte) - ps*tb
	return dF, dB
}

// ClassifyEPaw classifies a CPU+GPU platform for the energy goal.
//
// Reconstructed rules, in order (reference 002 §2.2 item 4):
//   - either gradient zero → Workload-dependent;
//   - both > 0 → CPU-only, GPU-only, CPU_COMP-GPU_MEM or CPU_MEM-GPU_COMP by the signs
//     of e_fC − e_fG and e_bC − e_bG (a tie → Workload-dependent);
//   - ΔGP_f > 0, ΔGP_b < 0 → CPU_MEM-GPU_MEM (balance bytes, flops to the lower-e_f
//     processor: the paper's usage in Table VI and L493, not its printed identifier);
//   - ΔGP_f < 0, ΔGP_b > 0 → CPU_COMP-GPU_COMP (balance flops, bytes to the lower-e_b
//     processor);
//   - both < 0 → Race-to-halt.
//
// Literal rules match every printed identifier and report all matches.
func ClassifyEPaw(cpu, gpu Processor, rules Rules) EPaw {
	c := EPaw{StaticPower: cpu.StaticPower + gpu.StaticPower}
	c.DeltaF, c.DeltaB = GradientEnergies(cpu, gpu, rules == Reconstructed)
	sf := sign(c.DeltaF, math.Abs(cpu.EnergyPerFlop-gpu.EnergyPerFlop))
	sb := sign(c.DeltaB, math.Abs(cpu.EnergyPerByte-gpu.EnergyPerByte))
	ef := cmp3(cpu.EnergyPerFlop, gpu.EnergyPerFlop) // −1: CPU cheaper per flop
	eb := cmp3(cpu.EnergyPerByte, gpu.EnergyPerByte)
	if rules == Literal {
		add := func(ok bool, cat string) {
			if ok {
				c.Matches = append(c.Matches, cat)
			}
		}
		both := sf > 0 && sb > 0
		add(both && ef < 0 && eb < 0, EPawCPUOnly)
		add(both && ef > 0 && eb > 0, EPawGPUOnly)
		add(both && ef < 0 && eb > 0, EPawCompMem)
		add(both && ef > 0 && eb < 0, EPawMemComp)
		add(c.DeltaF+c.DeltaB < 0, EPawRaceToHalt)
		add(sf > 0 && sb < 0, EPawCompComp)
		add(sf < 0 && sb > 0, EPawMemMem)
		if len(c.Matches) == 0 {
			c.Matches = []string{EPawWorkloadDep}
		}
		c.Category = c.Matches[0]
		c.Ambiguous = len(c.Matches) > 1
		return c
	}
	switch {
	case sf == 0 || sb == 0:
		c.Category = EPawWorkloadDep
	case sf > 0 && sb > 0:
		switch {
		case ef < 0 && eb < 0:
			c.Category = EPawCPUOnly
		case ef > 0 && eb > 0:
			c.Category = EPawGPUOnly
		case ef < 0 && eb > 0:
			c.Category = EPawCompMem
		case ef > 0 && eb < 0:
			c.Category = EPawMemComp
		default:
			c.Category = EPawWorkloadDep
		}
	case sf > 0:
		c.Category = EPawMemMem
	case sb > 0:
		c.Category = EPawCompComp
	default:
		c.Category = EPawRaceToHalt
	}
	return c
}

// tie reports whether a and b are equal within TieTol, relatively.
func tie(a, b float64) bool {
	return math.Abs(a-b) <= TieTol*math.Max(math.Abs(a), math.Abs(b))
}

// sign returns the sign of a gradient energy d, treating |d| <= TieTol·scale as zero,
// where scale is the size of the energy difference it is computed from.
func sign(d, scale float64) int {
	if math.Abs(d) <= TieTol*math.Max(scale, math.Abs(d)) {
		return 0
	}
	if d > 0 {
		return 1
	}
	return -1
}

// cmp3 compares a and b with TieTol: −1, 0 or +1.
func cmp3(a, b float64) int {
	switch {
	case tie(a, b):
		return 0
	case a < b:
		return -1
	}
	return 1
}
