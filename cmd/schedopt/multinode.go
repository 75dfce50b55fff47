package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	dst "github.com/schedopt/schedopt/domain/stencil"
	"github.com/schedopt/schedopt/domain/stencil/multinode"
	"github.com/schedopt/schedopt/exact/edgecolour"
	hst "github.com/schedopt/schedopt/heuristics/stencil"
	"github.com/spf13/cobra"
)

// packingFraction is the share of each processor's deadline capacity the packing start
// fills (TM then has room to spread tasks and cut rounds).
const packingFraction = 0.9

// multinodeFlags are the flags of `schedopt multinode`.
type multinodeFlags struct {
	systems     string
	grid        string
	rounds      string
	tmTime      time.Duration
	iterations  int
	seed        uint64
	jsonOut     bool
	instanceOut string
	noTM        bool
	extra       bool
}

// multinodeRow is one row of Tables 7.5-7.7, ours.
type multinodeRow struct {
	System    string           `json:"system"`
	Heuristic string           `json:"heuristic"`
	Report    multinode.Report `json:"report"`
	Colours   int64            `json:"greedy_colours"` // colours of a greedy colouring of M
	Deadline  float64          `json:"deadline"`       // t^d, 0 for LB random
	Seconds   float64          `json:"seconds"`
	Stats     *hst.TMStats     `json:"tm,omitempty"`
}

// multinodeOut is the command's JSON output per system.
type multinodeOut struct {
	System   string          `json:"system"`
	Grid     dst.Grid        `json:"grid"`
	Rounds   string          `json:"rounds"`
	Deadline float64         `json:"deadline"`
	Rows     []multinodeRow  `json:"rows"`
	Bound    multinode.Bound `json:"bound"`
	Best     int             `json:"best_tm_row"`   // the driver's best TM run (from LB, DM, MM, NA)
	Extras   []int           `json:"extra_tm_rows"` // TM from our starts (--extra-start)
	Procs    int             `json:"processors"`
	// Interrupted marks a system a signal stopped: its rows so far, no bound.
	Interrupted bool `json:"interrupted,omitempty"`
}

func newMultinodeCmd(e *env) *cobra.Command {
	var f multinodeFlags
	cmd := &cobra.Command{
		Use:   "multinode",
		Short: "Chapter 7 of seed 001: heuristics and Task Movement on fat-tree, dragonfly and torus systems",
		Long: `multinode reproduces Tables 7.5-7.7 of seed 001: it builds the Summit-like fat-tree
(64 processors), the Piz-Daint-like dragonfly (148) or the Fugaku-like torus (141), maps the
7-point block grid with LB (random and IJK), DM, MM and NA, takes the shortest of their
makespans as the deadline t^d, runs Task Movement (the tabu search with move, swap and arc
neighbourhoods) from each of the four, and prints the tables' columns for every row together
with a lower bound on the energy of any mapping meeting t^d and TM's gap to it.

What bounds the time: per system, four Task Movement runs (six with --extra-start), each
stopped at --tm-time (or --iterations), plus the lower bound on the energy, which has no
limit of its own (about 15 s of CPU on the thesis grid, under 1 s on the published one), plus
a few seconds for the simple heuristics and the deadline. So --system fattree --tm-time
20s takes about 100 s, and --system all about three times as long. --no-tm skips the
search, a smaller --grid shortens everything. Each stage is reported on stderr as it
starts and ends.`,
		Example: `  schedopt multinode --system fattree --tm-time 30s
  schedopt multinode --system all --grid published --rounds delta --tm-time 20s --json
  schedopt multinode --system torus --no-tm --instance-out torus.json`,
		Args: argsOf(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runMultinode(cmd.Context(), e, f)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.systems, "system", "all", "fattree, dragonfly, torus, or all (comma list)")
	fs.StringVar(&f.grid, "grid", "thesis", "thesis (32x16x16, Table 7.1's 8192 blocks), published (16x8x8, what the printed rows were computed on) or NXxNYxNZ")
	fs.StringVar(&f.rounds, "rounds", "bound", "round count of deadlines and TM: bound (min(Δ+μ, ⌊3Δ/2⌋), an upper bound on χ') or delta (Δ, as the printed rows)")
	fs.DurationVar(&f.tmTime, "tm-time", 30*time.Second, "time limit of each Task Movement run (four per system, six with --extra-start): this bounds the total time")
	fs.IntVar(&f.iterations, "iterations", 1<<30, "iteration limit of each Task Movement run")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of LB random and of the tabu search")
	fs.BoolVar(&f.jsonOut, "json", false, "print JSON instead of a Markdown table")
	fs.StringVar(&f.instanceOut, "instance-out", "", "write the stencil instance (deadline t^d) of the first system to this file")
	fs.BoolVar(&f.noTM, "no-tm", false, "only the simple heuristics and the bound")
	fs.BoolVar(&f.extra, "extra-start", false, "also run TM from two starts of ours (not in the thesis, not used for t^d): LB in KJI order, and KJI slabs packed onto whole nodes")
	return cmd
}

func parseMultinodeGrid(s string) (dst.Grid, error) {
	switch s {
	case "thesis":
		return multinode.ThesisGrid(), nil
	case "published":
		return multinode.PublishedGrid(), nil
	}
	var g dst.Grid
	if _, err := fmt.Sscanf(strings.ToLower(s), "%dx%dx%d", &g.NX, &g.NY, &g.NZ); err != nil || g.NX <= 0 || g.NY <= 0 || g.NZ <= 0 ||
		g.NX > 1<<17 || g.NY > 1<<17 || g.NZ > 1<<17 || g.NX*g.NY*g.NZ > 1<<17 {
		return g, usagef("--grid: want thesis, published or NXxNYxNZ (at most 2^17 blocks), got %q", s)
	}
	g.Stencil = "7-point"
	return g, nil
}

func runMultinode(ctx context.Context, e *env, f multinodeFlags) error {
	if ctx == nil {
		ctx = context.Background()
	}
	g, err := parseMultinodeGrid(f.grid)
	if err != nil {
		return err
	}
	var rule hst.RoundsRule
	switch f.rounds {
	case "bound":
		rule = hst.RoundsBound
	case "delta":
		rule = hst.RoundsDelta
	default:
		return usagef("--rounds: want bound or delta, got %q", f.rounds)
	}
	names := strings.Split(f.systems, ",")
	if f.systems == "all" {
		names = multinode.Names()
	}
	var outs []multinodeOut
	for i, name := range names {
		sys, err := multinode.ByName(strings.TrimSpace(name))
		if err != nil {
			return usagef("--system: %v", err)
		}
		say := func(format string, args ...any) {
			fmt.Fprintf(e.stderr, "multinode: %s: "+format+"\n", append([]any{sys.Name}, args...)...)
		}
		out, in, err := multinodeSystem(ctx, sys, g, rule, f, say)
		if err != nil && ctx.Err() != nil {
			// Stopped by a signal: print what this system has so far (the earlier
			// systems are printed already, or go into the JSON), then exit 1.
			out.Interrupted = true
			outs = append(outs, out)
			if f.jsonOut {
				if werr := writeJSON(e.stdout, outs); werr != nil {
					return werr
				}
			} else if len(out.Rows) > 0 {
				printMultinode(e.stdout, out)
			}
			return exitError{code: exitFailure, msg: fmt.Sprintf("interrupted during %s; the rows so far are printed", sys.Name)}
		}
		if err != nil {
			return err
		}
		if i == 0 && f.instanceOut != "" {
			b, err := json.MarshalIndent(in, "", "  ")
			if err != nil {
				return err
			}
			if err := os.WriteFile(f.instanceOut, append(b, '\n'), 0o644); err != nil {
				return fmt.Errorf("multinode: %w", err)
			}
		}
		outs = append(outs, out)
		if !f.jsonOut {
			printMultinode(e.stdout, out)
		}
	}
	if f.jsonOut {
		return writeJSON(e.stdout, outs)
	}
	return nil
}

// multinodeSystem runs one system: the simple heuristics, the deadline, TM from each
// start, the bound. say reports each stage (stderr).
func multinodeSystem(ctx context.Context, sys *multinode.System, g dst.Grid, rule hst.RoundsRule, f multinodeFlags, say func(string, ...any)) (multinodeOut, *dst.Instance, error) {
	in := sys.Instance(g, 1)
	out := multinodeOut{System: sys.Name + " (" + sys.Topology + ")", Grid: g, Rounds: rule.String(), Best: -1,
		Procs: len(sys.Procs)}
	delta := rule == hst.RoundsDelta
	row := func(name string, a []int, secs float64, td float64) (multinodeRow, error) {
		rep, err := multinode.Evaluate(sys, in, a, delta)
		if err != nil {
			return multinodeRow{}, err
		}
		mu, err := in.Bundles(a)
		if err != nil {
			return multinodeRow{}, err
		}
		col, err := edgecolour.Greedy(ctx, edgecolour.Bundles(mu))
		if err != nil {
			return multinodeRow{}, err
		}
		return multinodeRow{System: sys.Name, Heuristic: name, Report: rep, Colours: int64(col.Colours()), Deadline: td, Seconds: secs}, nil
	}
	t0 := time.Now()
	say("%d processors, %d blocks: the simple heuristics (LB, DM, MM, NA) and the deadline t^d", len(sys.Procs), g.NX*g.NY*g.NZ)
	rd, err := hst.LoadBalancing(in, hst.Random, f.seed)
	if err != nil {
		return out, nil, err
	}
	r, err := row("LB random", rd, time.Since(t0).Seconds(), 0)
	if err != nil {
		return out, nil, err
	}
	out.Rows = append(out.Rows, r)
	starts, err := hst.ThesisStarts(ctx, in, rule)
	if err != nil {
		return out, nil, err
	}
	td := starts[0].TS
	for _, s := range starts {
		td = min(td, s.TS)
	}
	in.Deadline = td
	out.Deadline = td
	say("t^d = %.4e s (%.1f s)", td, time.Since(t0).Seconds())
	if f.extra {
		// Beyond the thesis: LB with slabs across the longest axis, searched under the
		// same deadline (it does not set it).
		t1 := time.Now()
		a, err := hst.LoadBalancing(in, hst.KJI, 0)
		if err != nil {
			return out, nil, err
		}
		starts = append(starts, hst.Start{Name: "LB-KJI (ours)", Assign: a, Elapsed: time.Since(t1)})
		// and a packing of KJI slabs onto whole nodes, GPUs first, at 90 % of what
		// each processor can run by t^d
		t1 = time.Now()
		procs := make([]int, len(sys.Procs))
		for p := range procs {
			procs[p] = p
		}
		slices.SortStableFunc(procs, func(a, b int) int {
			pa, pb := sys.Procs[a], sys.Procs[b]
			return cmp.Or(cmp.Compare(pa.Node, pb.Node), cmp.Compare(pb.Kind, pa.Kind))
		})
		order, err := hst.TaskOrder(in, hst.KJI, 0)
		if err != nil {
			return out, nil, err
		}
		if a, err = hst.PackingStart(in, procs, order, packingFraction); err != nil {
			return out, nil, err
		}
		starts = append(starts, hst.Start{Name: "packing (ours)", Assign: a, Elapsed: time.Since(t1)})
	}
	for _, s := range starts {
		r, err := row(s.Name, s.Assign, s.Elapsed.Seconds(), td)
		if err != nil {
			return out, nil, err
		}
		out.Rows = append(out.Rows, r)
	}
	if !f.noTM {
		for i, s := range starts {
			say("Task Movement %d/%d from %s (at most %v)...", i+1, len(starts), s.Name, f.tmTime)
			a, st, err := hst.Search(ctx, in, s.Assign, hst.TMOptions{Iterations: f.iterations, TimeLimit: f.tmTime,
				Seed: f.seed + uint64(i), Rounds: rule})
			if err != nil {
				return out, nil, fmt.Errorf("multinode: %s: TM from %s: %w", sys.Name, s.Name, err)
			}
			r, err := row("TM from "+s.Name, a, st.Elapsed.Seconds(), td)
			if err != nil {
				return out, nil, err
			}
			r.Stats = &st
			say("Task Movement %d/%d from %s: e^s = %.1f J, deadline met: %v, %d iterations in %.1f s",
				i+1, len(starts), s.Name, r.Report.E, r.Report.MeetsDeadline, st.Iterations, st.Elapsed.Seconds())
			out.Rows = append(out.Rows, r)
			switch {
			case i >= 4:
				out.Extras = append(out.Extras, len(out.Rows)-1)
			case r.Report.MeetsDeadline && (out.Best < 0 || r.Report.E < out.Rows[out.Best].Report.E):
				out.Best = len(out.Rows) - 1
			}
		}
	}
	t1 := time.Now()
	say("the lower bound on the energy...")
	b, err := multinode.LowerBound(ctx, sys, in, g)
	if err != nil {
		return out, nil, err
	}
	out.Bound = b
	say("lower bound %.2f J (%.1f s); %.1f s in all", b.E, time.Since(t1).Seconds(), time.Since(t0).Seconds())
	return out, in, nil
}

func printMultinode(w io.Writer, o multinodeOut) {
	fmt.Fprintf(w, "## %s, %d×%d×%d blocks, rounds %s, t^d = %.4e s\n\n", o.System, o.Grid.NX, o.Grid.NY, o.Grid.NZ, o.Rounds, o.Deadline)
	fmt.Fprintln(w, "| heuristic | #Edges all / intra / inter | cut arcs (inter) | #Proc avail / CPU / GPU used | e^s [J] | t^s total / comp / comm [s] | Δ / Δ+μ / greedy colours | time [s] | TM iterations, scores/s |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	for _, r := range o.Rows {
		p := r.Report
		tm := ""
		if r.Stats != nil {
			tm = fmt.Sprintf("%d, %.0f", r.Stats.Iterations, float64(r.Stats.Evaluated)/r.Stats.Elapsed.Seconds())
		}
		fmt.Fprintf(w, "| %s | %d / %d / %d | %d (%d) | %d / %d / %d | %.1f | %.4e / %.4e / %.4e | %d / %d / %d | %.2f | %s |\n",
			r.Heuristic, p.Edges, p.IntraEdges, p.InterEdges, p.CutArcs, p.InterArcs, o.Procs, p.CPUs, p.GPUs, p.E,
			p.TS, p.CompTime, p.CommTime, p.Delta, p.Delta+p.Mu, r.Colours, r.Seconds, tm)
	}
	if o.Interrupted {
		fmt.Fprintln(w, "\nInterrupted: no lower bound.")
		return
	}
	b := o.Bound
	fmt.Fprintf(w, "\nLower bound on e^s at t^d: %.2f J (load %.2f J at ts %.4e s; communication %.2f J:", b.E, b.Load, b.TS, b.Comm)
	for _, l := range b.Levels {
		fmt.Fprintf(w, " level %d: ≥ %d arcs × %.4g J (groups ≤ %d tasks);", l.Level, l.Cut, l.Energy, l.Capacity)
	}
	fmt.Fprintln(w, ")")
	if o.Best >= 0 {
		best := o.Rows[o.Best]
		fmt.Fprintf(w, "Best TM (%s): %.2f J, gap to the bound %.1f%%\n", best.Heuristic, best.Report.E, 100*(best.Report.E-b.E)/b.E)
		for _, i := range o.Extras {
			x := o.Rows[i]
			fmt.Fprintf(w, "%s: %.2f J (deadline met: %v), %.1f%% below the driver's best TM, %.1f%% above the bound\n", x.Heuristic,
				x.Report.E, x.Report.MeetsDeadline, 100*(best.Report.E-x.Report.E)/best.Report.E, 100*(x.Report.E-b.E)/b.E)
		}
	}
	fmt.Fprintln(w)
}
