// Package multinode builds the multi-node systems of Chapter 7 of seed 001
// (Ciżnicki 2023, Tables 7.2-7.4): a Summit-like fat-tree (8 nodes of 2 CPUs + 6 GPUs,
// 64 processors), a Piz-Daint-like dragonfly (74 nodes of CPU + GPU, 148) and a
// Fugaku-like torus (141 one-CPU nodes), with communication time and energy that depend
// on whether two processors share a node and, between nodes, on the network level
// (fat-tree level, dragonfly rank, torus distance). A System turns into an ordinary
// stencil instance (domain/stencil), so every heuristic, the tabu search and the
// evaluator work on it unchanged; Evaluate adds the chapter's report columns
// (intra- and inter-node edges, CPUs and GPUs used, rounds by Δ+μ).
//
// The constants are the thesis's (Tables 7.3/7.4) in the integer units of the author's
// simulator (1e-7 s and 1e-7 J), which the printed tables round: a V100 task takes
// 22 units (printed 2.17e-6 s), a P100 task 27 (2.67e-6 s); the printed computation
// times are multiples of these integers.
package multinode

import (
	"fmt"
	"sort"
	"strings"

	"github.com/schedopt/schedopt/domain/stencil"
)

// Unit is the simulator's unit of time (s) and energy (J), and the round quantum.
const Unit = 1e-7

// Block and face sizes of Table 7.1: 64³-cell blocks exchanging 32×32-cell faces.
const (
	BlockCells = 64 * 64 * 64
	FaceCells  = 32 * 32
)

// Kind is a processor type.
type Kind uint8

// Processor types.
const (
	CPU Kind = iota
	GPU
)

// String returns "cpu" or "gpu".
func (k Kind) String() string {
	if k == GPU {
		return "gpu"
	}
	return "cpu"
}

// Proc is one processor of a system, with per-task figures in simulator units.
type Proc struct {
	Name   string
	Node   int
	Kind   Kind
	Time   int64 // t^e per task, units of 1e-7 s
	Energy int64 // e^e per task, units of 1e-7 J (without the constant power)
	P0     int64 // constant power while busy, W
	Idle   int64 // P^idle, W
}

// System is a multi-node machine: processors, and per ordered pair the quanta one arc
// (one exchanged face) occupies, its energy, and its network level.
type System struct {
	Name     string
	Topology string // "fat-tree", "dragonfly", "torus"
	Procs    []Proc
	Quanta   [][]int64 // round quanta (1e-7 s) per arc p→k, 0 on the diagonal
	Energy   [][]int64 // 1e-7 J per arc p→k, 0 on the diagonal
	Level    [][]int   // 0 same processor, 1 same node, ≥ 2 network level between nodes
	Nodes    int
}

// Inter reports whether p and k are on different nodes.
func (s *System) Inter(p, k int) bool { return s.Procs[p].Node != s.Procs[k].Node }

// newSystem names the processors p0, p1, … in generator order and lists them in the
// order of the author's simulator, which sorts processor names as strings (p0, p1,
// p10, …, p19, p2, p20, …): the heuristics fill processors in that order, and only with
// it do the published LB rows come out (Tables 7.5-7.7). link gets the positions in
// that order.
func newSystem(name, topo string, procs []Proc, link func(a, b Proc) (quanta, energy int64, level int)) *System {
	for i := range procs {
		procs[i].Name = fmt.Sprintf("p%d", i)
	}
	sort.SliceStable(procs, func(i, j int) bool { return procs[i].Name < procs[j].Name })
	m := len(procs)
	s := &System{Name: name, Topology: topo, Procs: procs,
		Quanta: make([][]int64, m), Energy: make([][]int64, m), Level: make([][]int, m)}
	for p := range procs {
		s.Quanta[p], s.Energy[p], s.Level[p] = make([]int64, m), make([]int64, m), make([]int, m)
		s.Nodes = max(s.Nodes, procs[p].Node+1)
		for k := range procs {
			if k != p {
				s.Quanta[p][k], s.Energy[p][k], s.Level[p][k] = link(procs[p], procs[k])
			}
		}
	}
	return s
}

// Inter-node arc energies of Table 7.3 by level (3.28e-2 J × level), in 1e-7 J, as in
// the author's generator (the table prints two levels; the generator has a third for
// pairs beyond the largest group, and the torus a fourth).
var levelEnergy = [...]int64{1: 328, 2: 328000, 3: 656000, 4: 983000, 5: 1311000}

// FatTree is the Summit-like system of Table 7.2: 8 nodes of 2 POWER9 CPUs and 6 V100
// GPUs (64 processors; ids node·8 + 0..1 CPUs, + 2..7 GPUs). Links: CPU-CPU 5 quanta
// (4.77e-7 s), other intra-node 6 (6.10e-7 s), inter-node 12 (1.22e-6 s); energy
// 3.28e-5 J inside a node, then 3.28e-2 J between the two nodes of a level-1 switch,
// 6.56e-2 J within a level-2 group of 4 nodes, 9.83e-2 J beyond.
func FatTree() *System {
	const nodes = 8
	var procs []Proc
	for n := 0; n < nodes; n++ {
		for i := 0; i < 8; i++ {
			if i < 2 {
				procs = append(procs, Proc{Node: n, Kind: CPU, Time: 114, Energy: 5530, P0: 70, Idle: 10})
			} else {
				procs = append(procs, Proc{Node: n, Kind: GPU, Time: 22, Energy: 505, P0: 70, Idle: 30})
			}
		}
	}
	return newSystem("summit", "fat-tree", procs, func(a, b Proc) (int64, int64, int) {
		if a.Node == b.Node {
			if a.Kind == CPU && b.Kind == CPU {
				return 5, levelEnergy[1], 1
			}
			return 6, levelEnergy[1], 1
		}
		lvl := groupLevel(a.Node, b.Node, 2, 2)
		return 12, levelEnergy[lvl], lvl
	})
}

// Dragonfly is the Piz-Daint-like system: 74 nodes of one Xeon E5-2690v3 and one P100
// (148 processors; ids node·2 CPU, node·2+1 GPU). Intra-node 19 quanta (1.93e-6 s);
// between nodes 153 / 174 / 195 quanta (1.53e-5 / 1.74e-5 / 1.95e-5 s) and
// 3.28e-2 / 6.56e-2 / 9.83e-2 J for rank 1 (the same group of 8 nodes), rank 2 (two
// groups) and rank 3 (beyond).
func Dragonfly() *System {
	const nodes = 74
	var procs []Proc
	for n := 0; n < nodes; n++ {
		procs = append(procs,
			Proc{Node: n, Kind: CPU, Time: 114, Energy: 4410, P0: 90, Idle: 10},
			Proc{Node: n, Kind: GPU, Time: 27, Energy: 842, P0: 70, Idle: 30})
	}
	times := [...]int64{2: 153, 3: 174, 4: 195}
	return newSystem("piz-daint", "dragonfly", procs, func(a, b Proc) (int64, int64, int) {
		if a.Node == b.Node {
			return 19, levelEnergy[1], 1
		}
		lvl := groupLevel(a.Node, b.Node, 8, 2)
		return times[lvl], levelEnergy[lvl], lvl
	})
}

// Torus is the Fugaku-like system: 141 nodes of one A64FX (the text's 2x2x3x2x3x2
// torus has 144 nodes; the tables use 141 processors). Every inter-node arc takes 7
// quanta (7.48e-7 s); its energy is 3.28e-2 J × distance, the distance being the
// nesting level of the node groups of 6, 12 and 24 nodes (1-4), as in the author's
// generator.
func Torus() *System {
	const nodes = 141
	var procs []Proc
	for n := 0; n < nodes; n++ {
		procs = append(procs, Proc{Node: n, Kind: CPU, Time: 19, Energy: 932, P0: 50, Idle: 5})
	}
	return newSystem("fugaku", "torus", procs, func(a, b Proc) (int64, int64, int) {
		lvl := groupLevel(a.Node, b.Node, 6, 2, 2)
		return 7, levelEnergy[lvl], lvl
	})
}

// groupLevel returns the network level between two different nodes: 2 when they share
// the first group (of size first), 3 when they share the next (size ×factors[0]), and
// so on; one more than the last when they share none.
func groupLevel(a, b, first int, factors ...int) int {
	ga, gb := a/first, b/first
	lvl := 2
	for _, f := range factors {
		if ga == gb {
			return lvl
		}
		ga, gb = ga/f, gb/f
		lvl++
	}
	if ga == gb {
		return lvl
	}
	return lvl + 1
}

// Names lists the systems ByName knows.
func Names() []string { return []string{"fattree", "dragonfly", "torus"} }

// ByName returns the system called name ("fattree" or "summit", "dragonfly" or
// "pizdaint", "torus" or "fugaku").
func ByName(name string) (*System, error) {
	switch strings.ToLower(strings.ReplaceAll(name, "-", "")) {
	case "fattree", "summit":
		return FatTree(), nil
	case "dragonfly", "pizdaint":
		return Dragonfly(), nil
	case "torus", "fugaku":
		return Torus(), nil
	}
	return nil, fmt.Errorf("multinode: unknown system %q (known: %s)", name, strings.Join(Names(), ", "))
}

// PublishedGrid is the grid the published rows of Tables 7.5-7.7 were computed on:
// 16×8×8 blocks (1024 tasks, 5,504 arcs). With it and the simulator's processor order,
// LB reproduces the tables' edge counts (all, intra- and inter-node), processors used,
// computation times and Δ(M) exactly; the computation times of every row (4 CPU
// tasks on Summit, 3 on Piz Daint, 8 on Fugaku) need 1024 tasks, not Table 7.1's 8192.
func PublishedGrid() stencil.Grid { return stencil.Grid{NX: 16, NY: 8, NZ: 8, Stencil: "7-point"} }

// ThesisGrid is the Cuboid of Table 7.1 as its counts require: 32×16×16 blocks,
// non-periodic, 8192 tasks and 46,592 arcs (the printed 1024³ grid of 64³ blocks would
// have 4096).
func ThesisGrid() stencil.Grid { return stencil.Grid{NX: 32, NY: 16, NZ: 16, Stencil: "7-point"} }

// Instance returns the stencil instance of the system on grid g with the given deadline
// (s): tasks of BlockCells cells, arcs of FaceCells cells, per-cell times and energies
// scaled so that one task and one arc cost the system's per-task and per-arc figures,
// round quantum 1e-7 s. Memories never bind (each holds the whole grid), as in the
// thesis's simulator.
func (s *System) Instance(g stencil.Grid, deadline float64) *stencil.Instance {
	tasks, arcs := stencil.BlockGrid(g, stencil.BlockDims{64, 64, 64})
	for i := range arcs {
		arcs[i].Cells = FaceCells // Table 7.1: C = 32×32 on every face
	}
	m := len(s.Procs)
	in := &stencil.Instance{Kind: "stencil", Name: fmt.Sprintf("%s-%dx%dx%d", s.Name, g.NX, g.NY, g.NZ),
		Tasks: tasks, Arcs: arcs, RoundTime: Unit, Deadline: deadline, Objective: "min-energy", Grid: &g,
		LinkTime: make([][]float64, m), LinkEnergy: make([][]float64, m)}
	total := float64(len(tasks)) * BlockCells
	for p, pr := range s.Procs {
		in.Processors = append(in.Processors, stencil.Processor{
			Name:          pr.Name,
			TimePerCell:   float64(pr.Time) * Unit / BlockCells,
			EnergyPerCell: (float64(pr.Energy)*Unit + float64(pr.P0)*float64(pr.Time)*Unit) / BlockCells,
			IdlePower:     float64(pr.Idle),
			MemoryCells:   total,
		})
		in.LinkTime[p], in.LinkEnergy[p] = make([]float64, m), make([]float64, m)
		for k := range s.Procs {
			in.LinkTime[p][k] = float64(s.Quanta[p][k]) / FaceCells
			in.LinkEnergy[p][k] = float64(s.Energy[p][k]) * Unit / FaceCells
		}
	}
	return in
}

// LevelCounts returns how many ordered processor pairs are at each level, for tests and
// documentation.
func (s *System) LevelCounts() map[int]int {
	c := map[int]int{}
	for p := range s.Level {
		for k := range s.Level[p] {
			if p != k {
				c[s.Level[p][k]]++
			}
		}
	}
	return c
}

// Levels returns the distinct levels in increasing order.
func (s *System) Levels() []int {
	var ls []int
	for l := range s.LevelCounts() {
		ls = append(ls, l)
	}
	sort.Ints(ls)
	return ls
}
