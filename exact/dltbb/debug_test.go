//go:build dltbbdebug

package dltbb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	dm "github.com/schedopt/schedopt/domain/dltmulti"
	"github.com/schedopt/schedopt/exact/dltseq"
)

func dense(p *LP) ([]float64, float64, error) {
	x, o, err := (&dltseq.LP{C: p.C, Rows: p.Rows, Rel: p.Rel, B: p.B}).Solve()
	if errors.Is(err, dltseq.ErrInfeasible) {
		return nil, 0, ErrInfeasible
	}
	return x, o, err
}

func TestDebugTable61(t *testing.T) {
	data, _ := os.ReadFile("../../instances/dlt-multi-table6.1.json")
	in, err := dm.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	s := &search{in: in, solver: dense, rx: newRelax(in), res: &Result{T: 279.2578}, opt: Options{Gap: 0.002}}
	s.res.Feasible = true
	s.rx.setTarget(s.target())
	fmt.Println("lbT", s.rx.lbT, "forced", s.rx.forced)
	for i, mc := range in.Machines {
		fmt.Printf("M%d alphaMin %.1f lam %.2f S %g\n", i, s.rx.alphaMin[i], mc.O+mc.C*s.rx.alphaMin[i], mc.S)
	}
	t0 := time.Now()
	x, b, cuts, ok, err := s.solve(nil, nil)
	fmt.Println("root", b, len(cuts), ok, err, time.Since(t0), s.res.LPs)
	nl := s.rx.build(nil, cuts)
	for i, c := range nl.s {
		fmt.Printf("  s[%d]=%.2f beta=%.1f\n", i, x[c], x[nl.T+1+i])
	}
	for _, seq := range [][]int{{3}, {3, 7}, {3, 7, 5}, {3, 7, 5, 4}, {3, 7, 5, 4, 2}, {3, 7, 5, 4, 2, 3}, {3, 7, 5, 4, 2, 3, 6, 0}} {
		_, b, cuts, _, _ := s.solve(seq, cuts)
		fmt.Println(seq, b, len(cuts))
	}
	_ = context.Background()
}

func TestDebugProfileRun(t *testing.T) {
	data, _ := os.ReadFile("../../instances/dlt-multi-table6.1.json")
	in, _ := dm.Parse(data)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := Solve(ctx, in, dense, Options{Gap: 0.002, Starts: [][]int{{3, 7, 5, 4, 2, 3, 6, 0, 1, 8, 9, 5}}, Threads: 1})
	fmt.Println(res.T, res.Bound, res.Nodes, res.LPs, err)
}

func TestDebugCompareSimplex(t *testing.T) {
	data, _ := os.ReadFile("../../instances/dlt-multi-table6.1.json")
	in, _ := dm.Parse(data)
	rx := newRelax(in)
	rx.setTarget(277.4)
	for _, seq := range [][]int{nil, {3}, {3, 7}, {3, 7, 5, 4, 2}, {3, 7, 5, 4, 2, 3, 6, 0}, {3, 7, 5, 4, 2, 3, 6, 0, 1, 8, 9, 5}} {
		nl := rx.build(seq, [][]int{{0, 1, 6, 8, 9}, {1, 8, 9}})
		t0 := time.Now()
		x1, o1, e1 := dense(nl.lp)
		d1 := time.Since(t0)
		t0 = time.Now()
		x2, o2, e2 := Simplex(nl.lp)
		d2 := time.Since(t0)
		fmt.Println(seq, o1, o2, e1, e2, d1, d2, len(x1), len(x2))
	}
}

func TestDebugSimplexBug(t *testing.T) {
	in := tiny(t, 12, 3)[8]
	rx := newRelax(in)
	rx.setTarget(1.02 * completions(t, in, nil))
	nl := rx.build([]int{0}, nil)
	for r := range nl.lp.Rows {
		fmt.Println(r, nl.lp.Rows[r], nl.lp.Rel[r], nl.lp.B[r])
	}
	x, o, err := Simplex(nl.lp)
	fmt.Println(x, o, err)
	x, o, err = refLP(nl.lp)
	fmt.Println(x, o, err)
}

func TestDebugPivots(t *testing.T) {
	in := table61(t)
	rx := newRelax(in)
	rx.setTarget(277.36)
	nl := rx.build([]int{3, 7, 5, 4, 2}, [][]int{{0, 1, 6, 8, 9}, {1, 8, 9}})
	pivots = 0
	Simplex(nl.lp)
	fmt.Println("pivots", pivots, "rows", len(nl.lp.Rows), "cols", len(nl.lp.C))
}
