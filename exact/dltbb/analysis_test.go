//go:build dltbbanalysis

package dltbb

// Where the node bound is weak: the bound along one sequence of a §6.4 generator
// instance (m = 10, n = 12, V = 24000 MB), depth by depth, with and without the node
// load bounds and the link-and-tail cuts, against the incumbent's target. Run with
//
//	DLTBB_SEED=3 DLTBB_NODES=400 go test -tags dltbbanalysis -run AnalyseSeed -v ./exact/dltbb
//
// The sequence is the best one found in DLTBB_NODES nodes, or DLTBB_SEQ (machines,
// comma-separated); DLTBB_M sets the machine count (10); DLTBB_TARGET replaces the target (e.g. the optimum less 0.2 %).
// It also prints the best schedule's chunks and each machine's load against its ρ.

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestAnalyseSeed(t *testing.T) {
	seed, _ := strconv.ParseUint(os.Getenv("DLTBB_SEED"), 10, 64)
	nodes, _ := strconv.Atoi(os.Getenv("DLTBB_NODES"))
	m := 10
	if v, err := strconv.Atoi(os.Getenv("DLTBB_M")); err == nil {
		m = v
	}
	in, starts := genInstance(t, m, seed)
	for i, mc := range in.Machines {
		fmt.Printf("M%d S %.2f O %.4f C %.5f a1 %.4f a2 %.3f rho %.0f\n", i, mc.S, mc.O, mc.C, mc.A1, mc.A2, mc.Rho)
	}
	res, err := Solve(context.Background(), in, certifiedSimplex, Options{Gap: 0.002, Starts: starts, Threads: 1, MaxNodes: nodes})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("T %.4f bound %.4f nodes %d LPs %d seq %v\n", res.T, res.Bound, res.Nodes, res.LPs, res.Sequence)
	load := make([]float64, in.M())
	count := make([]int, in.M())
	for _, msg := range res.Schedule.Messages {
		mc := in.Machines[msg.Machine]
		fmt.Printf("  M%d start %.3f size %.1f (rho %.0f) comm %.3f tau %.3f end %.3f\n", msg.Machine, msg.Start, msg.Size, mc.Rho,
			mc.Comm(msg.Size), mc.Tau(msg.Size), msg.Start+mc.Comm(msg.Size)+mc.Tau(msg.Size))
		load[msg.Machine] += msg.Size
		count[msg.Machine]++
	}
	for i := range load {
		fmt.Printf("  M%d load %.1f chunks %d load/rho %.2f\n", i, load[i], count[i], load[i]/in.Machines[i].Rho)
	}
	seq := envSeq("DLTBB_SEQ", res.Sequence)
	objective := res.T
	if v, err := strconv.ParseFloat(os.Getenv("DLTBB_TARGET"), 64); err == nil {
		objective = v / (1 - 0.002)
	}
	for _, v := range []struct{ tighten, linkTail, counts, use bool }{{false, false, false, false}, {true, false, false, false}, {false, true, false, false}, {true, true, false, false}, {true, true, false, true}, {true, true, true, false}} {
		s := &search{in: in, solver: certifiedSimplex, rx: newRelax(in), res: &Result{Feasible: true, Objective: objective, T: objective},
			opt: Options{Gap: 0.002, NoLinkTail: !v.linkTail}, tails: &tailStore{}}
		s.rx.noUseRows = os.Getenv("DLTBB_NOUSE") == "1"
		s.retarget()
		var cuts [][]int
		var lb *loads
		for p := 0; p <= len(seq); p++ {
			pre := seq[:p]
			if v.tighten && p > 0 && p < in.N {
				lb, _, _, _ = s.tightenLoads(pre, cuts, nil, lb)
			}
			if v.counts && p < in.N {
				// The sequence's own suffix counts, the tightest count ranges.
				c := make([]int, in.M())
				for _, i := range seq[p:] {
					c[i]++
				}
				if lb == nil {
					lb = &loads{}
				}
				lb = &loads{max: lb.max, kLo: c, kHi: c}
			}
			if v.use && p < in.N {
				// Only whether each machine is used in the suffix.
				lo, hi := make([]int, in.M()), make([]int, in.M())
				for _, i := range seq[p:] {
					lo[i], hi[i] = 1, in.N-p
				}
				if lb == nil {
					lb = &loads{}
				}
				lb = &loads{max: lb.max, kLo: lo, kHi: hi, floor: lb.floor}
			}
			x, b, c, ok, lps, err := s.solveCounted(pre, cuts, nil, lb)
			if err != nil || !ok {
				fmt.Printf("depth %d: ok %v err %v\n", p, ok, err)
				break
			}
			cuts = c
			var parts []string
			if p < in.N {
				nl := s.rx.buildWith(pre, cuts, nil, lb)
				for i := range in.M() {
					if bi := x[nl.beta+i]; bi > 1e-3 {
						parts = append(parts, fmt.Sprintf("M%d:%.0f", i, bi))
					}
				}
			}
			fmt.Printf("use %-5v counts %-5v tighten %-5v linktail %-5v depth %2d bound %.3f target %.3f LPs %d suffix loads %s\n",
				v.use, v.counts, v.tighten, v.linkTail, p, b, s.target(), lps, strings.Join(parts, " "))
		}
	}
}

// envSeq returns the comma-separated integers of the environment variable name, or
// fallback when it is unset.
func envSeq(name string, fallback []int) []int {
	v := os.Getenv(name)
	if v == "" {
		return fallback
	}
	var seq []int
	for _, f := range strings.Split(v, ",") {
		k, _ := strconv.Atoi(strings.TrimSpace(f))
		seq = append(seq, k)
	}
	return seq
}
