package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/schedopt/schedopt/bench"
	"github.com/schedopt/schedopt/bench/htmlreport"
	"github.com/schedopt/schedopt/bench/plot"
	"github.com/schedopt/schedopt/benchproc"
	"github.com/schedopt/schedopt/domain"
	fig "github.com/schedopt/schedopt/figure"
	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/kinds/builtin"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func newBenchCmd(e *env) *cobra.Command {
	cmd := newBenchRunCmd(e, "bench SPEC.json")
	run := newBenchRunCmd(e, "run SPEC.json")
	run.Short = "Run a sweep (the same as schedopt bench SPEC.json)"
	cmd.AddCommand(run, newBenchMergeCmd(e), newBenchReportCmd(e), newBenchStatusCmd(e), newBenchFileJobCmd(e))
	return cmd
}

// newBenchFileJobCmd is the hidden child side of a model-file job (package
// benchproc): one JSON request on stdin, one JSON response on stdout. The sweep runs
// it as a child process so that each job's peak memory is its own.
func newBenchFileJobCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "file-job",
		Short: "Run one model-file job of a sweep (internal: JSON request on stdin, response on stdout)",
		Long: `file-job is the child side of a sweep's model-file jobs (package benchproc): it reads one
JSON request (file, backend, limits, permutation, SC reading) on stdin, solves it as
solve-mps does, and writes one JSON response {"result": ..., "error": ...} on stdout. The
sweep runs each job this way so that its peak memory (ru_maxrss) is its own.`,
		Example: `  echo '{"path":"p0033.mps.gz","name":"p0033","backend":"highs","time_limit_ns":10000000000,
         "rel_gap":1e-6,"abs_gap":0,"threads":1,"seed":0,"permutation":0,
         "sc_in_integer":"semi-continuous","certify":false}' | schedopt bench file-job`,
		Hidden: true,
		Args:   argsOf(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			return benchproc.Serve(cmd.Context(), e.stdin, e.stdout, bench.InProcess{})
		},
	}
}

// fileRunner returns how a sweep runs its model-file jobs: in child processes of this
// program (each job's peak memory measured), or in process when inProcess is set or
// the program's path is unknown.
func fileRunner(inProcess bool) bench.FileRunner {
	if inProcess {
		return bench.InProcess{}
	}
	exe, err := os.Executable()
	if err != nil {
		return bench.InProcess{}
	}
	return benchproc.Runner{Command: []string{exe, "bench", "file-job"}, Env: os.Environ()}
}

// newBenchRunCmd makes the sweep command; `schedopt bench SPEC` and `schedopt bench
// run SPEC` are the same.
func newBenchRunCmd(e *env, use string) *cobra.Command {
	var out, shardStr, reportDir string
	var workers int
	var scale float64
	var dryRun, noPlots, strict, inProcess bool
	var sl slurmFlags
	cmd := &cobra.Command{
		Use:   use,
		Short: "Run a sweep of instances × backends × time limits × gaps",
		Long: `bench runs the sweep a spec describes (see docs/bench.md and bench/specs/): every
combination of instance, backend (highs, lpsolve, cbc, exact, heuristic:NAME or heuristic:*),
time limit, gap and repetition is one job. Jobs run on a pool of workers, one per core,
with a live progress bar on stderr (plain progress lines when stderr is not a terminal).

Each finished job is appended to the results file as one JSON line and synced to disk.
A killed sweep resumes: run the same command again and only the missing jobs run. A job
that fails or crashes is recorded as such and the sweep goes on.

--shard i/N runs the i-th of N deterministic parts of the sweep (for several machines);
join the parts with schedopt bench merge.

--slurm submits the sweep to Slurm instead: one job array whose task i runs shard i/N
into its own file, and a merge job that runs after the array and writes the merged
results to RESULTS (-o) and the report. Rerun the same command to submit only the tasks
that still have jobs without a result; schedopt bench status SPEC shows the progress.
--dry-run prints the two sbatch scripts and the commands instead of submitting. A bad spec (missing instance, unknown backend,
malformed duration) fails before any job starts, with exit status 2.

After the sweep the summary table is printed; --report DIR also writes the Markdown and
CSV reports, the plots and report.html (all of them in one page for a browser).`,
		Example: `  schedopt bench bench/specs/default.json --report out/
  schedopt bench bench/specs/dltmulti-6.4.json --time-scale 0.1 -o out/64.jsonl
  schedopt bench bench/specs/dltmulti-6.4.json --shard 2/4 -o out/64.part2.jsonl
  schedopt bench merge -o out/64.jsonl out/64.part*.jsonl
  schedopt bench bench/specs/dltmulti-6.4.json --slurm --partition short --array-size 40 -o out/64.jsonl
  schedopt bench status bench/specs/dltmulti-6.4.json -o out/64.jsonl
  schedopt bench report out/64.jsonl -o out/report/`,
		Args: argsOf(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			specPath := args[0]
			if err := sl.check(cmd.Flags()); err != nil {
				return err
			}
			var shard bench.Shard
			if shardStr != "" {
				s, err := bench.ParseShard(shardStr)
				if err != nil {
					return err
				}
				shard = s
			}
			if !(scale > 0) {
				return usagef("--time-scale: must be > 0, got %g", scale)
			}
			if workers < 0 {
				return usagef("--workers: must be >= 0, got %d", workers)
			}
			spec, err := bench.LoadSpec(specPath)
			if err != nil {
				return err
			}
			if err := checkSpecCounts(spec, e.limits); err != nil {
				return domain.InFile(specPath, err)
			}
			plan, err := bench.NewPlan(spec, bench.PlanOptions{SpecFile: specPath, TimeScale: scale, Load: limitedLoad(e.limits)})
			if err != nil {
				return err
			}
			if out == "" {
				out = defaultResultsPath(specPath, shard)
			}
			if sl.on {
				return runSlurm(cmd.Context(), e, specPath, out, scale, cmd.Flags().Changed("time-scale"), reportDir, dryRun, strict, &sl, plan)
			}
			fmt.Fprintf(e.stderr, "%d instance(s), %d job(s)", len(plan.Instances), len(plan.Jobs))
			if shard.Count > 1 {
				fmt.Fprintf(e.stderr, " (shard %s)", shard)
			}
			fmt.Fprintf(e.stderr, "; results in %s\n", out)
			if dryRun {
				for _, j := range plan.Jobs {
					if shard.Owns(j.Key) {
						fmt.Fprintln(e.stdout, j.Key)
					}
				}
				return nil
			}
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				return err
			}
			host, _ := os.Hostname()
			pr := newProgress(e.stderr, e.stderrTTY)
			sum, err := bench.RunSweep(cmd.Context(), plan, bench.SweepOptions{
				Output: out, Shard: shard, Workers: workers, Host: host,
				OnStart: pr.Start, OnDone: pr.Done, FileRunner: fileRunner(inProcess), CheckPoint: bench.RatCheck(spec.ReadOptions()),
			})
			pr.Finish()
			if err != nil {
				if cmd.Context().Err() != nil {
					return exitError{code: exitFailure, msg: fmt.Sprintf("interrupted after %d job(s); rerun the same command to resume", sum.Ran)}
				}
				return err
			}
			recs, err := bench.ReadRecords(out)
			if err != nil {
				return err
			}
			rep := bench.BuildReportWith(recs, bench.ReportOptions{FileShift: spec.FileSGMShift()})
			if err := rep.WriteSummary(e.stdout); err != nil {
				return err
			}
			if reportDir != "" {
				if err := writeReport(e, rep, recs, reportDir, titleOf(spec, specPath), !noPlots); err != nil {
					return err
				}
			}
			fails := 0
			if rep.Files != nil {
				fails = rep.Files.Fails()
			}
			if strict && (len(rep.Disagreements) > 0 || len(rep.Failures) > 0 || fails > 0) {
				return exitError{code: exitFailure, msg: fmt.Sprintf("--strict: %d disagreement(s), %d failed job(s), %d .solu fail(s) in %s",
					len(rep.Disagreements), len(rep.Failures), fails, out)}
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&out, "output", "o", "", "results file, JSON lines (default out/<spec>.jsonl, or out/<spec>.shard-i-of-N.jsonl)")
	fl.StringVar(&shardStr, "shard", "", "run only part i of N of the jobs, e.g. 2/4")
	fl.IntVar(&workers, "workers", 0, "jobs run at once (default: the number of cores)")
	fl.Float64Var(&scale, "time-scale", 1, "multiply every time limit, e.g. 0.1 on a laptop")
	fl.StringVar(&reportDir, "report", "", "also write the report (Markdown, CSV, HTML) and plots to this directory")
	fl.BoolVar(&noPlots, "no-plots", false, "with --report, skip the plots")
	fl.BoolVar(&strict, "strict", false, "exit with status 1 when any two answers disagree or any job failed")
	fl.BoolVar(&inProcess, "in-process", false, "run model-file jobs in this process instead of one child process each (no per-job peak memory)")
	fl.BoolVar(&dryRun, "dry-run", false, "check the spec and list the job keys without running them (with --slurm: print the scripts and sbatch commands)")
	sl.add(fl)
	return cmd
}

func titleOf(spec *bench.Spec, path string) string {
	if spec != nil && spec.Name != "" {
		return "schedopt sweep: " + spec.Name
	}
	return "schedopt sweep: " + strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}

func defaultResultsPath(specPath string, shard bench.Shard) string {
	base := strings.TrimSuffix(filepath.Base(specPath), filepath.Ext(specPath))
	if shard.Count > 1 {
		return filepath.Join("out", fmt.Sprintf("%s.shard-%d-of-%d.jsonl", base, shard.Index, shard.Count))
	}
	return filepath.Join("out", base+".jsonl")
}

func newBenchMergeCmd(e *env) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "merge -o OUT.jsonl IN.jsonl...",
		Short: "Join the results files of the shards of a sweep",
		Long: `merge joins results files (for example the shards of one sweep) into one, with one
record per job, sorted by job key. When a job appears twice, the record that did not fail
is kept.`,
		Example: `  schedopt bench bench/specs/default.json --shard 1/2
  schedopt bench bench/specs/default.json --shard 2/2
  schedopt bench merge -o out/all.jsonl out/default.shard-1-of-2.jsonl out/default.shard-2-of-2.jsonl`,
		Args: argsOf(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usagef("merge: -o OUT.jsonl is required")
			}
			for _, in := range args {
				if same, _ := sameFile(in, out); same {
					return usagef("merge: output %s is also an input", out)
				}
			}
			if dir := filepath.Dir(out); dir != "" {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					return err
				}
			}
			res, err := bench.Merge(out, args)
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stderr, "wrote %s: %d record(s), %d duplicate(s) dropped\n", out, res.Records, res.Duplicates)
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "merged results file (required)")
	return cmd
}

func sameFile(a, b string) (bool, error) {
	sa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	sb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(sa, sb), nil
}

func newBenchReportCmd(e *env) *cobra.Command {
	var dir, title string
	var noPlots bool
	var shift float64
	cmd := &cobra.Command{
		Use:   "report RESULTS.jsonl... [-o DIR]",
		Short: "Summarise sweep results as Markdown, CSV and plots",
		Long: `report reads results files and writes, to DIR:
  report.md   per backend: solved counts, shifted geometric mean of times (shift 1 s),
              mean gap at the time limit; the agreement table of every pair of backends
              and exact oracles, listing every disagreement with the instance and both
              values; heuristic (and MIP) quality against the best known objective as
              quartiles of the ratio (seed 004, Fig. 6.10); failed jobs
  report.csv  the same tables as CSV
  *.svg/*.png runtime vs m (log axes) and quality vs runtime, per method
  report.html one self-contained page (no network, no script) with the tables of
              report.md and every *.svg of DIR inline: open it in a browser
It prints the per-backend table on stdout.`,
		Example: `  schedopt bench bench/specs/default.json
  schedopt bench report out/default.jsonl -o out/
  schedopt bench report out/default.shard-1-of-2.jsonl out/default.shard-2-of-2.jsonl -o out/both --no-plots`,
		Args: argsOf(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			var recs []*bench.Record
			for _, in := range args {
				r, err := bench.ReadRecords(in)
				if err != nil {
					return err
				}
				recs = append(recs, r...)
			}
			if len(recs) == 0 {
				return usagef("report: %s holds no results", strings.Join(args, ", "))
			}
			if !(shift >= 0) {
				return usagef("--sgm-shift: must be >= 0 seconds, got %g", shift)
			}
			rep := bench.BuildReportWith(recs, bench.ReportOptions{FileShift: shift})
			if err := rep.WriteSummary(e.stdout); err != nil {
				return err
			}
			if title == "" {
				title = "schedopt results: " + strings.TrimSuffix(filepath.Base(args[0]), filepath.Ext(args[0]))
			}
			return writeReport(e, rep, recs, dir, title, !noPlots)
		},
	}
	cmd.Flags().StringVarP(&dir, "output", "o", "out", "directory for report.md, report.csv, report.html and the plots")
	cmd.Flags().StringVar(&title, "title", "", "title of the Markdown report")
	cmd.Flags().BoolVar(&noPlots, "no-plots", false, "skip the plots")
	cmd.Flags().Float64Var(&shift, "sgm-shift", bench.DefaultFileSGMShift, "shift in seconds of the shifted geometric means of the MPS/LP file-set section")
	return cmd
}

// writeReport writes report.md, report.csv, the plots and report.html (the Markdown
// tables and every SVG of dir in one self-contained page) into dir.
func writeReport(e *env, rep *bench.Report, recs []*bench.Record, dir, title string, plots bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	md := filepath.Join(dir, "report.md")
	if err := writeFileAtomic(md, func(w io.Writer) error { return rep.WriteMarkdown(w, title) }); err != nil {
		return fmt.Errorf("write %s: %w", md, err)
	}
	csvPath := filepath.Join(dir, "report.csv")
	if err := writeFileAtomic(csvPath, rep.WriteCSV); err != nil {
		return fmt.Errorf("write %s: %w", csvPath, err)
	}
	written := []string{md, csvPath}
	if plots {
		files, err := plot.SweepPlots(recs, dir)
		if err != nil && !errors.Is(err, fig.ErrNoData) {
			return fmt.Errorf("plots: %w", err)
		}
		written = append(written, files...)
		if rep.Files != nil {
			files, err := filePlots(rep.Files, dir)
			if err != nil {
				return fmt.Errorf("plots: %w", err)
			}
			written = append(written, files...)
		}
	}
	page, err := htmlreport.WriteDir(dir)
	if err != nil {
		return fmt.Errorf("write the HTML report: %w", err)
	}
	written = append(written, page)
	fmt.Fprintf(e.stderr, "wrote %s\n", strings.Join(written, ", "))
	return nil
}

// filePlots draws the performance profile (performance_profile.svg/.png) and the
// solved-within curves (solved_within.svg/.png) of a file-set report into dir.
func filePlots(fr *bench.FileReport, dir string) ([]string, error) {
	var out []string
	files, err := plot.PerformanceProfile(fr.Stats.Profile, filepath.Join(dir, "performance_profile"))
	if err != nil && !errors.Is(err, fig.ErrNoData) {
		return nil, err
	}
	out = append(out, files...)
	files, err = plot.SolvedWithin(fr.Stats.Curves, fr.Stats.Problems, fr.Limit, filepath.Join(dir, "solved_within"))
	if err != nil && !errors.Is(err, fig.ErrNoData) {
		return nil, err
	}
	return append(out, files...), nil
}

// checkSpecCounts applies the generator count limit (kinds.Limits.CheckCount) to every
// integer flag a sweep spec gives a generator, in args and in vary, before anything is
// generated: "instances[0].args.m: 10000000 is more than the limit of 100000".
func checkSpecCounts(spec *bench.Spec, limits kinds.Limits) error {
	gens := builtin.Registry().Generators()
	for i, is := range spec.Instances {
		if is.Gen == "" {
			continue
		}
		fs := pflag.NewFlagSet(is.Gen, pflag.ContinueOnError)
		found := false
		for _, g := range gens {
			if g.Kind == is.Gen {
				g.Flags(fs)
				found = true
				break
			}
		}
		if !found {
			continue // NewPlan names the unknown generator
		}
		check := func(field, name string, v any) error {
			f := fs.Lookup(name)
			if f == nil || f.Value.Type() != "int" {
				return nil
			}
			if x, ok := v.(float64); ok && x == math.Trunc(x) && math.Abs(x) < 1<<62 {
				return limits.CheckCount(field, int64(x))
			}
			return nil
		}
		for _, name := range sortedKeys(is.Args) {
			if err := check(fmt.Sprintf("instances[%d].args.%s", i, name), name, is.Args[name]); err != nil {
				return err
			}
		}
		for _, name := range sortedKeys(is.Vary) {
			for j, v := range is.Vary[name] {
				if err := check(fmt.Sprintf("instances[%d].vary.%s[%d]", i, name, j), name, v); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// sortedKeys returns the keys of m in order, so that the first error is always the same.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// limitedLoad is the sweep's instance loader under the size limits: an instance larger
// than the input limit, or whose model is estimated beyond the nonzero limit, is bad
// input before any job runs.
func limitedLoad(limits kinds.Limits) func(data []byte, name string) (kinds.Problem, error) {
	return func(data []byte, name string) (kinds.Problem, error) {
		if limits.MaxInputBytes > 0 && int64(len(data)) > limits.MaxInputBytes {
			return nil, domain.Errorf("", "the instance has %d bytes, more than the limit of %d (set %s=1 to lift the limit on purpose)",
				len(data), limits.MaxInputBytes, kinds.NoLimitsEnv)
		}
		p, err := builtin.Registry().Load(data, name)
		if err != nil {
			return nil, err
		}
		if err := limits.CheckSize(p); err != nil {
			return nil, err
		}
		return p, nil
	}
}
