package partition

import (
	"math"
	"testing"
)

// Table IV (L387–L393) through Eqs. (28)–(29): the gradient energies of reference 002
// §3.1, in pJ, and the labels of Table VI (L414–L420) under the reconstructed rules.
func TestTableVILabelsFromTableIV(t *testing.T) {
	cases := []struct {
		platform string
		dF, dB   float64 // pJ
		label    string
		literal  []string
		pPaw     string
		blC, blG float64
	}{
		{"i7+titan", 24.64, -106.78, EPawMemMem, []string{EPawRaceToHalt, EPawCompComp}, PPawMemComp, 6.94, 10.5},
		{"i7+750", -42.08, -346.36, EPawRaceToHalt, []string{EPawRaceToHalt}, PPawMemComp, 6.94, 7.79},
		{"i3+titan", 48.48, 84.04, EPawGPUOnly, []string{EPawGPUOnly}, PPawMemComp, 2.92, 10.5},
		{"i3+750", 7.41, 25.72, EPawGPUOnly, []string{EPawGPUOnly}, PPawMemComp, 2.92, 7.79},
	}
	for _, c := range cases {
		t.Run(c.platform+" is "+c.label, func(t *testing.T) {
			ps, err := PaperPlatform(c.platform)
			if err != nil {
				t.Fatal(err)
			}
			e := ClassifyEPaw(ps[0], ps[1], Reconstructed)
			if math.Abs(e.DeltaF/pico-c.dF) > 0.005 || math.Abs(e.DeltaB/pico-c.dB) > 0.005 {
				t.Errorf("ΔGP = %.2f / %.2f pJ, want %.2f / %.2f", e.DeltaF/pico, e.DeltaB/pico, c.dF, c.dB)
			}
			if e.Category != c.label {
				t.Errorf("reconstructed E-Paw %q, want %q", e.Category, c.label)
			}
			l := ClassifyEPaw(ps[0], ps[1], Literal)
			if !sameSet(l.Matches, c.literal) || l.Ambiguous != (len(c.literal) > 1) {
				t.Errorf("literal matches %v (ambiguous %v), want %v", l.Matches, l.Ambiguous, c.literal)
			}
			p := ClassifyPPaw(ps[0], ps[1])
			if p.Category != c.pPaw || math.Abs(p.BalanceCPU-c.blC) > 0.005 || math.Abs(p.BalanceGPU-c.blG) > 0.005 {
				t.Errorf("P-Paw %s with BL %.2f/%.2f, want %s with %.2f/%.2f", p.Category, p.BalanceCPU, p.BalanceGPU, c.pPaw, c.blC, c.blG)
			}
		})
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[string]int{}
	for _, s := range a {
		m[s]++
	}
	for _, s := range b {
		m[s]--
	}
	for _, v := range m {
		if v != 0 {
			return false
		}
	}
	return true
}

func TestEPawRulesCoverEveryCategory(t *testing.T) {
	base := Processor{TimePerFlop: 1, TimePerByte: 1, StaticPower: 0.5}
	mk := func(ef, eb float64) Processor { p := base; p.EnergyPerFlop, p.EnergyPerByte = ef, eb; return p }
	cases := []struct {
		name     string
		cpu, gpu Processor
		want     string
	}{
		{"cheaper CPU for both is CPU-only", mk(1, 1), mk(5, 5), EPawCPUOnly},
		{"cheaper GPU for both is GPU-only", mk(5, 5), mk(1, 1), EPawGPUOnly},
		{"CPU cheaper per flop, GPU per byte", mk(1, 5), mk(5, 1), EPawCompMem},
		{"GPU cheaper per flop, CPU per byte", mk(5, 1), mk(1, 5), EPawMemComp},
		{"small differences race to halt", mk(1, 1), mk(1.1, 1.1), EPawRaceToHalt},
		{"flops matter, bytes do not", mk(1, 1), mk(5, 1.1), EPawMemMem},
		{"bytes matter, flops do not", mk(1, 1), mk(1.1, 5), EPawCompComp},
		{"a zero gradient is workload-dependent", mk(1, 1), mk(2, 5), EPawWorkloadDep},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ClassifyEPaw(c.cpu, c.gpu, Reconstructed).Category; got != c.want {
				dF, dB := GradientEnergies(c.cpu, c.gpu, true)
				t.Errorf("got %s, want %s (ΔGP %v, %v)", got, c.want, dF, dB)
			}
		})
	}
}

func TestPPawEqualBalancesArePDP(t *testing.T) {
	c := Processor{TimePerFlop: 2, TimePerByte: 6}
	g := Processor{TimePerFlop: 0.5, TimePerByte: 1.5}
	if got := ClassifyPPaw(c, g).Category; got != PPawDP {
		t.Errorf("got %s", got)
	}
	g.TimePerByte = 1
	if got := ClassifyPPaw(c, g).Category; got != PPawCompMem {
		t.Errorf("got %s", got)
	}
}
