package stencil

import (
	"fmt"
	"strings"
)

// BlockDims are the cells of one block along I, J, K.
type BlockDims [3]int

// BlockGrid returns the tasks and arcs of a 7-point stencil on g: one task per block of
// dims cells (block id i + j·NX + k·NX·NY, I fastest) and, for every block and each of
// its face neighbours present, one arc neighbour → block carrying that face (the
// sender's perspective, as in the thesis's generator). A periodic axis wraps around;
// on a periodic axis of length 2 the two faces reach the same neighbour and give two
// arcs, and on one of length 1 the block would neighbour itself, which is left out.
func BlockGrid(g Grid, dims BlockDims) ([]Task, []Arc) {
	n := g.NX * g.NY * g.NZ
	cells := float64(dims[0]) * float64(dims[1]) * float64(dims[2])
	tasks := make([]Task, n)
	for u := range tasks {
		tasks[u].Cells = cells
	}
	size := [3]int{g.NX, g.NY, g.NZ}
	face := [3]float64{float64(dims[1] * dims[2]), float64(dims[0] * dims[2]), float64(dims[0] * dims[1])}
	id := func(c [3]int) int { return c[0] + c[1]*g.NX + c[2]*g.NX*g.NY }
	var arcs []Arc
	for k := 0; k < g.NZ; k++ {
		for j := 0; j < g.NY; j++ {
			for i := 0; i < g.NX; i++ {
				c := [3]int{i, j, k}
				v := id(c)
				for axis := 0; axis < 3; axis++ {
					for _, step := range []int{-1, 1} {
						nb := c
						nb[axis] += step
						if nb[axis] < 0 || nb[axis] >= size[axis] {
							if !g.Periodic[axis] {
								continue
							}
							nb[axis] = (nb[axis] + size[axis]) % size[axis]
						}
						u := id(nb)
						if u == v {
							continue
						}
						arcs = append(arcs, Arc{From: u, To: v, Cells: face[axis]})
					}
				}
			}
		}
	}
	return tasks, arcs
}

// Thesis constants of the single-node experiments (seed 001 §6.3, Table 6.3, with
// the per-block integers of the author's simulator; reference §4.1).
const (
	ThesisBlockSide   = 64     // cells per block side: 64³ = 262144 cells
	ThesisRoundMicros = 4      // µs to exchange one 64² face (t^e·C ≈ 1e-9 s × 4096)
	ThesisArcEnergy   = 55706  // µJ per cut arc (4096-cell face)
	thesisBlockCells  = 262144 // 64³
	thesisFaceCells   = 4096   // 64²
)

// ThesisProc is a processor of the thesis's simulator, in integer µs, µJ and W.
type ThesisProc struct {
	Name        string
	BlockMicros int64 // µs per block
	BlockEnergy int64 // µJ per block, constant power included (7645 + 218·90 for the CPU)
	IdleWatts   int64 // W
}

// ThesisCPU returns the CPU of the thesis's single node (Xeon E5-2670).
func ThesisCPU() ThesisProc {
	return ThesisProc{Name: "cpu", BlockMicros: 218, BlockEnergy: 7645 + 218*90, IdleWatts: 10}
}

// ThesisGPU returns the GPU of the thesis's single node (Kepler K20m).
func ThesisGPU() ThesisProc {
	return ThesisProc{Name: "gpu", BlockMicros: 28, BlockEnergy: 1443 + 28*74, IdleWatts: 30}
}

// ThesisConfig returns the processors of a configuration of §6.3: "cpu-cpu",
// "cpu-gpu" or "2cpu-2gpu", CPUs first as in the simulator's sorted processor order.
func ThesisConfig(name string) ([]ThesisProc, error) {
	cpu := func(i int) ThesisProc { p := ThesisCPU(); p.Name = fmt.Sprintf("cpu%d", i); return p }
	gpu := func(i int) ThesisProc { p := ThesisGPU(); p.Name = fmt.Sprintf("gpu%d", i); return p }
	switch name {
	case "cpu-cpu":
		return []ThesisProc{cpu(0), cpu(1)}, nil
	case "cpu-gpu":
		return []ThesisProc{cpu(0), gpu(0)}, nil
	case "2cpu-2gpu":
		return []ThesisProc{cpu(0), cpu(1), gpu(0), gpu(1)}, nil
	}
	return nil, fmt.Errorf("unknown configuration %q (cpu-cpu, cpu-gpu, 2cpu-2gpu)", name)
}

// ThesisGrid returns the block grid of the seed's "cuboid" (8×4×4, not periodic) or
// "sphere" (8×4×4, periodic in I and J) experiments.
func ThesisGrid(name string) (Grid, error) {
	switch strings.ToLower(name) {
	case "cuboid":
		return Grid{NX: 8, NY: 4, NZ: 4, Stencil: "7-point"}, nil
	case "sphere":
		return Grid{NX: 8, NY: 4, NZ: 4, Periodic: [3]bool{true, true, false}, Stencil: "7-point"}, nil
	}
	return Grid{}, fmt.Errorf("unknown grid %q (cuboid, sphere)", name)
}

// NewThesisInstance builds a spec instance of a block grid with 64³-cell blocks on the
// thesis's processors, in s, J and W: one cut 64² face is one round quantum of
// ThesisRoundMicros µs, so colours count cut arcs as in the published tables. Memory
// is not binding in the thesis; every processor may hold the whole grid. deadline ≤ 0
// means the loosest meaningful one: everything on the fastest processor.
func NewThesisInstance(name string, g Grid, procs []ThesisProc, deadline float64) *Instance {
	dims := BlockDims{ThesisBlockSide, ThesisBlockSide, ThesisBlockSide}
	tasks, arcs := BlockGrid(g, dims)
	m := len(procs)
	in := &Instance{Kind: "stencil", Name: name, Tasks: tasks, Arcs: arcs, Objective: "min-energy",
		RoundTime: ThesisRoundMicros * 1e-6, Grid: &g}
	total := float64(len(tasks)) * thesisBlockCells
	fastest := procs[0].BlockMicros
	for _, p := range procs {
		in.Processors = append(in.Processors, Processor{
			Name:          p.Name,
			TimePerCell:   float64(p.BlockMicros) * 1e-6 / thesisBlockCells,
			EnergyPerCell: float64(p.BlockEnergy) * 1e-6 / thesisBlockCells,
			IdlePower:     float64(p.IdleWatts),
			MemoryCells:   total,
		})
		fastest = min(fastest, p.BlockMicros)
	}
	in.LinkTime = make([][]float64, m)
	in.LinkEnergy = make([][]float64, m)
	for p := range in.LinkTime {
		in.LinkTime[p] = make([]float64, m)
		in.LinkEnergy[p] = make([]float64, m)
		for k := range in.LinkTime[p] {
			if p != k {
				in.LinkTime[p][k] = 1.0 / thesisFaceCells
				in.LinkEnergy[p][k] = ThesisArcEnergy * 1e-6 / thesisFaceCells
			}
		}
	}
	if deadline <= 0 {
		deadline = float64(int64(len(tasks))*fastest) * 1e-6
	}
	in.Deadline = deadline
	return in
}
