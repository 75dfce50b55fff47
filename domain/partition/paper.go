package partition

import (
	"fmt"
	"sort"
	"strings"
)

// Unit conversions for Table IV, which gives times in ps and energies in pJ.
const (
	pico = 1e-12
)

// paperProcessors holds Table IV (L387–L393) in seconds, joules and watts.
var paperProcessors = map[string]Processor{
	"i7":    {Name: "i7 2600K", TimePerFlop: 9.5 * pico, TimePerByte: 65.9 * pico, EnergyPerFlop: 118 * pico, EnergyPerByte: 462 * pico, StaticPower: 26.8},
	"i3":    {Name: "i3 2100T", TimePerFlop: 25 * pico, TimePerByte: 73 * pico, EnergyPerFlop: 135 * pico, EnergyPerByte: 581 * pico, StaticPower: 9.7},
	"titan": {Name: "GTX Titan", TimePerFlop: 0.4 * pico, TimePerByte: 4.2 * pico, EnergyPerFlop: 57 * pico, EnergyPerByte: 187 * pico, StaticPower: 64.1},
	"750":   {Name: "GTX 750", TimePerFlop: 1.9 * pico, TimePerByte: 14.8 * pico, EnergyPerFlop: 78 * pico, EnergyPerByte: 169 * pico, StaticPower: 16.4},
}

// PaperPlatforms lists the four platforms of the case studies (L383), as accepted by
// PaperPlatform.
func PaperPlatforms() []string { return []string{"i7+titan", "i7+750", "i3+titan", "i3+750"} }

// PaperPlatform returns the CPU and the GPU of one of the paper's platforms
// ("i7+titan", "i7+750", "i3+titan", "i3+750"), with the Table IV parameters in
// seconds, joules and watts.
func PaperPlatform(name string) ([]Processor, error) {
	c, g, ok := strings.Cut(strings.ToLower(name), "+")
	cpu, ok1 := paperProcessors[c]
	gpu, ok2 := paperProcessors[g]
	if !ok || !ok1 || !ok2 || (c != "i7" && c != "i3") || (g != "titan" && g != "750") {
		return nil, fmt.Errorf("unknown platform %q (one of %s)", name, strings.Join(PaperPlatforms(), ", "))
	}
	return []Processor{cpu, gpu}, nil
}

// paperWorkloads holds the code portions of the three case studies (reference 002
// §3.2), with counts by the paper's rule: one flop per useful arithmetic operation,
// four bytes per single-precision array access (L164, L441).
var paperWorkloads = map[string][]Portion{
	// SA (L428–L441), SIZE = 6.4e6 iterations: the vector add a[i] = b[i] + c[i] is 1
	// flop and 12 bytes per i; the 32-step pow loop is 2048 flops and 256 bytes per i
	// (erratum E21). I = 2049/268 = 7.65; CP puts the add on the CPU (I_C = 1/12) and
	// the pow loop on the GPU (I_G = 8).
	"sa": {
		{Name: "vector-add", Flops: 6.4e6, Bytes: 12 * 6.4e6},
		{Name: "pow-loop", Flops: 2048 * 6.4e6, Bytes: 256 * 6.4e6},
	},
	// LA (L443–L445): the transpose of an 8192×8192 matrix (no flops, 8·8192² bytes; CP
	// puts it on the CPU) and C = A·B with 1024×1024 matrices (2·1024³ flops, 8·1024³ +
	// 4·1024² bytes; on the GPU). The
	// counts are reconstructed; they reproduce the printed I = 0.24 and I_G = 0.25.
	"la": {
		{Name: "transpose", Flops: 0, Bytes: 8 * 8192 * 8192},
		{Name: "matmul", Flops: 2 * 1024 * 1024 * 1024, Bytes: 8*1024*1024*1024 + 4*1024*1024},
	},
	// DA (L447–L449): only the intensities are printed (I = 4.4, CP I_C = 1.1,
	// I_G = 4.9). The counts are per unit of N_b derived from them (reference 002 §3.2),
	// scaled here to an assumed N_b = 1e9 bytes; the model is linear in that scale.
	"da": {
		{Name: "SMA", Flops: 0.14474e9, Bytes: 0.13158e9},
		{Name: "STC", Flops: 4.25526e9, Bytes: 0.86842e9},
	},
}

// PaperWorkloads lists the case-study workloads accepted by PaperWorkload.
func PaperWorkloads() []string {
	names := make([]string, 0, len(paperWorkloads))
	for n := range paperWorkloads {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// PaperWorkload returns the code portions of a case study ("sa", "la" or "da"), each
// with the given split (and chunk count, for Chunks). Portion 0 is the one the paper's
// CP puts on the CPU, portion 1 the one it puts on the GPU.
func PaperWorkload(app string, split Split, chunks int) ([]Portion, error) {
	ps, ok := paperWorkloads[strings.ToLower(app)]
	if !ok {
		return nil, fmt.Errorf("unknown workload %q (one of %s)", app, strings.Join(PaperWorkloads(), ", "))
	}
	out := append([]Portion(nil), ps...)
	for j := range out {
		out[j].Split = split
		if split == Chunks {
			out[j].Chunks = chunks
		}
	}
	return out, nil
}

// Merged returns the portions merged into one portion with the summed counts: the
// dataset-partitioning view of a workload (DP, L186), where every part has the
// workload's intensity.
func Merged(name string, ps []Portion, split Split, chunks int) Portion {
	m := Portion{Name: name, Split: split}
	if split == Chunks {
		m.Chunks = chunks
	}
	for _, p := range ps {
		m.Flops += p.Flops
		m.Bytes += p.Bytes
	}
	return m
}
