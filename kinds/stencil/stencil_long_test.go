//go:build stencillong

package stencil

// The long solves behind docs/reproduction/stencil.md: the ILP optimum at every deadline
// of Tables 6.4 and 6.5 (seed 001), one row at a time, with a time limit per row
// (STENCIL_LIMIT, default 10m). Run with
//
//	go test -tags stencillong -run TestStencilTables -timeout 0 -v ./kinds/stencil/
//
// STENCIL_ROWS selects rows by comma-separated prefixes, e.g. "cuboid/cpu-gpu".

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/highs"
	dst "github.com/schedopt/schedopt/domain/stencil"
	"github.com/schedopt/schedopt/solve"
)

type tableRow struct {
	grid, config string
	deadlineMs   float64
	cols         int
	energy       float64
	comp, comm   int
	millis       float64
}

var stencilTableRows = []tableRow{
	{"cuboid", "cpu-cpu", 27.90, 0, 3.76, 100, 0, 27.90},
	{"cuboid", "cpu-cpu", 26.97, 20, 4.86, 77, 23, 26.81},
	{"cuboid", "cpu-cpu", 14.00, 32, 5.27, 66, 34, 13.95},
	{"cuboid", "cpu-gpu", 3.58, 0, 0.48, 100, 0, 3.58},
	{"cuboid", "cpu-gpu", 3.46, 20, 1.70, 35, 65, 3.44},
	{"cuboid", "cpu-gpu", 3.34, 28, 2.23, 30, 70, 3.33},
	{"cuboid", "cpu-gpu", 3.22, 34, 2.65, 29, 71, 3.22},
	{"cuboid", "2cpu-2gpu", 3.58, 0, 0.62, 100, 0, 3.58},
	{"cuboid", "2cpu-2gpu", 3.46, 20, 1.73, 36, 64, 3.44},
	{"cuboid", "2cpu-2gpu", 3.34, 28, 2.16, 28, 72, 3.33},
	{"cuboid", "2cpu-2gpu", 3.22, 32, 2.26, 21, 79, 1.79},
	{"sphere", "cpu-cpu", 26.97, 30, 5.41, 69, 31, 26.81},
	{"sphere", "cpu-cpu", 25.92, 40, 5.94, 63, 37, 25.28},
	{"sphere", "cpu-cpu", 25.02, 48, 6.37, 58, 42, 24.41},
	{"sphere", "cpu-cpu", 24.13, 56, 6.78, 54, 46, 22.67},
	{"sphere", "cpu-cpu", 14.00, 64, 7.05, 49, 51, 13.95},
	{"sphere", "cpu-gpu", 3.60, 0, 0.48, 100, 0, 3.58},
	{"sphere", "cpu-gpu", 3.46, 30, 2.26, 26, 74, 3.44},
	{"sphere", "cpu-gpu", 3.35, 38, 2.79, 24, 76, 3.33},
	{"sphere", "cpu-gpu", 3.23, 46, 3.32, 23, 77, 3.22},
	{"sphere", "2cpu-2gpu", 3.58, 0, 0.62, 100, 0, 3.58},
	{"sphere", "2cpu-2gpu", 3.46, 30, 2.28, 27, 73, 3.44},
	{"sphere", "2cpu-2gpu", 3.34, 38, 2.72, 22, 78, 3.33},
	{"sphere", "2cpu-2gpu", 3.22, 46, 3.16, 19, 81, 3.22},
	{"sphere", "2cpu-2gpu", 3.11, 54, 3.60, 16, 84, 3.11},
	{"sphere", "2cpu-2gpu", 2.99, 56, 3.69, 16, 84, 2.91},
	{"sphere", "2cpu-2gpu", 2.66, 64, 4.05, 12, 88, 1.79},
	// The 0-colour rows print truncated deadlines: everything on one CPU takes
	// 27.904 ms and on one GPU 3.584 ms, just above the printed 27.90 and 3.58.
	{"cuboid", "cpu-cpu", 27.904, 0, 3.76, 100, 0, 27.90},
	{"cuboid", "cpu-gpu", 3.584, 0, 0.48, 100, 0, 3.58},
	{"cuboid", "2cpu-2gpu", 3.584, 0, 0.62, 100, 0, 3.58},
	{"sphere", "2cpu-2gpu", 3.584, 0, 0.62, 100, 0, 3.58},
}

func TestStencilTables(t *testing.T) {
	limit := 10 * time.Minute
	if s := os.Getenv("STENCIL_LIMIT"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatal(err)
		}
		limit = d
	}
	form := os.Getenv("STENCIL_FORM") // compact (default), compact-classes, arc-slot
	out, err := os.OpenFile(os.Getenv("STENCIL_OUT"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		out = os.Stdout
	}
	for _, r := range stencilTableRows {
		id := fmt.Sprintf("%s/%s/%g", r.grid, r.config, r.deadlineMs)
		if sel := os.Getenv("STENCIL_ROWS"); sel != "" {
			match := false
			for _, pre := range strings.Split(sel, ",") {
				match = match || strings.HasPrefix(id, pre)
			}
			if !match {
				continue
			}
		}
		g, _ := dst.ThesisGrid(r.grid)
		procs, _ := dst.ThesisConfig(r.config)
		in := dst.NewThesisInstance(id, g, procs, r.deadlineMs*1e-3)
		p := stencilProblem(t, in)
		p.Formulation = form
		ctx := context.Background()
		cpu0 := cpuSeconds()
		t0 := time.Now()
		res, err := p.Solve(ctx, solve.Request{Backend: "highs", Solver: highs.New(),
			Options: backends.Options{TimeLimit: limit, RelGap: 1e-6, Threads: 1}})
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		rec := map[string]any{"row": id, "status": res.Status, "seconds": time.Since(t0).Seconds(), "cpu_seconds": cpuSeconds() - cpu0,
			"solver": res.Solver, "message": res.Message, "gap": res.Gap,
			"solve_seconds": res.Seconds.Solve, "objective": res.Objective, "bound": res.Bound, "nodes": res.Nodes,
			"thesis": map[string]any{"cols": r.cols, "E": r.energy, "comp": r.comp, "comm": r.comm, "tt": r.millis},
			"model":  res.Model}
		if sol, ok := res.Solution.(*dst.Solution); ok {
			cells := map[string]float64{}
			for i, c := range sol.Cells {
				if c > 0 {
					cells[in.Processors[i].Name] = c / 262144
				}
			}
			rec["rounds"], rec["E_trunc"], rec["ts_ms_trunc"] = sol.Rounds, float64(int64(sol.E*100))/100, float64(int64(sol.TS*1e5))/100
			rec["blocks"], rec["cut_arcs"], rec["comp_share"], rec["comm_share"] = cells, sol.CutArcs, sol.CompShare, sol.CommShare
			rec["model_rounds"] = sol.ModelRounds
		}
		if res.Check.Exact != nil {
			rec["exact_agree"] = res.Check.Exact.Agree
		}
		if res.Check.Evaluator != nil {
			rec["evaluator_ok"] = res.Check.Evaluator.OK
		}
		b, _ := json.Marshal(rec)
		fmt.Fprintln(out, string(b))
		t.Log(string(b))
		// The thesis's ILP values are optima: every row must be proven and match, but
		// for the 0-colour rows at truncated deadlines (see the table's notes) and the
		// 3.599164 J that the thesis rounds to 3.60.
		truncated := r.cols == 0 && math.Round(r.deadlineMs*100) == r.deadlineMs*100
		sol, ok := res.Solution.(*dst.Solution)
		if !ok || res.Status != solve.StatusOptimal || !truncated && r.energy != 3.60 && float64(int64(sol.E*100))/100 != r.energy {
			t.Errorf("%s: status %s, E %v; the thesis has %.2f J", id, res.Status, res.Objective, r.energy)
		}
	}
}

// cpuSeconds returns the user and system CPU time of this process.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
