//go:build dltbbanalysis

package dltbb

// Where the min-energy node bound is weak: the §6.4 generator instance of DLTBB_SEED
// at fixed length DLTBB_T, its best schedule after DLTBB_NODES nodes broken down by
// machine, and the bound of the root, of the best schedule's machine set and of its
// prefixes, each with the LP's per-machine terms. Run with
//
//	DLTBB_SEED=3 DLTBB_T=700 DLTBB_NODES=300 go test -tags dltbbanalysis -run AnalyseEnergy -v ./exact/dltbb
//
// The prefixes are those of the best schedule's machine sequence, or of DLTBB_PATH
// (symbols, comma-separated: m+i for a chunk of M_i above ρ_i when g_i is concave).
// The machine sequence puts every such chunk in core, so its prefix bounds can lie
// above the schedule's E once one of them is fixed (generator seed 32 at T = 700:
// from depth 9 on); give the symbols (DLTBB_PATH=0,4,3,14,3,16,3,3,0,17,7,3 there).

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
)

func TestAnalyseEnergy(t *testing.T) {
	seed, _ := strconv.ParseUint(os.Getenv("DLTBB_SEED"), 10, 64)
	nodes, _ := strconv.Atoi(os.Getenv("DLTBB_NODES"))
	T, _ := strconv.ParseFloat(os.Getenv("DLTBB_T"), 64)
	in, starts := genInstance(t, 10, seed)
	in.Objective, in.Deadline, in.FixedLength = dm.MinEnergy, &T, true
	res, err := Solve(context.Background(), in, chainLP, Options{Gap: 0.002, Starts: starts, Threads: 1, MaxNodes: nodes})
	if err != nil {
		t.Fatal(err)
	}
	if seq := envSeq("DLTBB_SYMSEQ", nil); seq != nil {
		// The exact LP of one symbol sequence (m+i: M_i out-of-core), by the evaluator.
		rx := newRelax(in)
		x, obj, err := chainLP(rx.build(seq, nil, nil).lp)
		if err != nil {
			fmt.Printf("sequence %v: %v\n", seq, err)
		} else {
			r := dm.Evaluate(in, rx.schedule(seq, x), dm.EvalOptions{})
			fmt.Printf("sequence %v: LP %.2f, evaluator OK %v E %.2f\n", seq, obj, r.OK(), r.E)
		}
	}
	fmt.Printf("E %.2f bound %.2f nodes %d LPs %d seq %v\n", res.E, res.Bound, res.Nodes, res.LPs, res.Sequence)
	em := newEnergyModel(in)
	first := map[int]float64{}
	load := make([]float64, in.M())
	gsum := make([]float64, in.M())
	for _, msg := range res.Schedule.Messages {
		if _, ok := first[msg.Machine]; !ok {
			first[msg.Machine] = msg.Start
		}
		load[msg.Machine] += msg.Size
		gsum[msg.Machine] += em.g(msg.Machine, msg.Size)
		mc := in.Machines[msg.Machine]
		fmt.Printf("  M%d start %.3f size %.1f comm %.3f tau %.3f end %.3f\n", msg.Machine, msg.Start, msg.Size, mc.Comm(msg.Size), mc.Tau(msg.Size), msg.Start+mc.Comm(msg.Size)+mc.Tau(msg.Size))
	}
	tot := in.P0N * T
	for i, mc := range in.Machines {
		tf, used := first[i]
		if !used {
			fmt.Printf("  M%d unused PI·T %.0f   (S %.1f PI %.1f PN %.1f PS %.1f s1 %.2f s2 %.2f)\n", i, mc.PI*T, mc.S, mc.PI, mc.PN, mc.PS, em.s1[i], em.s2[i])
			tot += mc.PI * T
			continue
		}
		e := mc.S*(mc.PS-mc.PI) + mc.PI*tf + mc.PN*(T-tf) + gsum[i]
		tot += e
		fmt.Printf("  M%d used tf %.2f load %.0f startup %.0f PI·T %.0f (PN−PI)(T−tf) %.0f g %.0f  E−PI·T %.0f  (S %.1f PI %.1f PN %.1f s1 %.2f s2 %.2f rho %.0f cap %.0f)\n", i, tf, load[i], mc.S*(mc.PS-mc.PI), mc.PI*T,
			(mc.PN-mc.PI)*(T-tf), gsum[i], e-mc.PI*T, mc.S, mc.PI, mc.PN, em.s1[i], em.s2[i], mc.Rho, (T-mc.S-mc.O)/(mc.A1+mc.C))
	}
	fmt.Printf("  total %.2f\n", tot)
	rx := newRelax(in)
	rx.setTarget(rx.deadline)
	s := &search{in: in, solver: chainLP, rx: rx, res: &Result{Feasible: true, Objective: res.E}, opt: Options{Gap: 0.002}, tails: &tailStore{}}
	show := func(name string, seq []int, cuts [][]int, ms *machineSet) [][]int {
		x, b, c, ok, _, err := s.solveCounted(seq, cuts, ms, nil)
		if err != nil || !ok {
			fmt.Printf("%s: ok %v err %v\n", name, ok, err)
			return nil
		}
		nl := rx.build(seq, c, ms)
		fmt.Printf("%s: bound %.2f (%.2f %% below E) konst %.1f\n", name, b, 100*(res.E-b)/res.E, nl.konst)
		if os.Getenv("DLTBB_TERMS") != "" {
			for j, cj := range nl.lp.C {
				if v := cj * x[j]; v > 1 || v < -1 {
					fmt.Printf("    col %d (T %d tp %d beta0 %d s %v) x %.3f c %.3f: %.1f\n", j, nl.T, nl.tp, nl.beta, nl.s, x[j], cj, v)
				}
			}
		}
		if nl.beta >= 0 {
			for i := range in.M() {
				fmt.Printf("    M%d beta %.0f", i, x[nl.beta+i])
				if sc, ok := nl.s[i]; ok {
					fmt.Printf(" s %.2f", x[sc])
				}
				fmt.Println()
			}
			fmt.Printf("    tp %.2f\n", x[nl.tp])
		}
		return c
	}
	show("root", nil, nil, rx.rootSet())
	if os.Getenv("DLTBB_ROOTONLY") != "" {
		return
	}
	// The best schedule's machine set, decided machine by machine.
	ms := rx.rootSet()
	for ms != nil && !ms.complete(rx.m) {
		var next *machineSet
		for _, c := range rx.children(ms) {
			if c.in[ms.next] == (load[ms.next] > 0) {
				next = c
			}
		}
		ms = next
		if ms != nil {
			show(fmt.Sprintf("set level %d", ms.next), nil, nil, ms)
		}
	}
	if ms == nil {
		fmt.Println("best set not reachable")
		return
	}
	var cuts [][]int
	path := envSeq("DLTBB_PATH", res.Sequence)
	for p := 1; p <= in.N; p++ {
		cuts = show(fmt.Sprintf("prefix %v", path[:p]), path[:p], cuts, ms)
	}
}
