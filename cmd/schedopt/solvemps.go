package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/registry"
	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/model"
	"github.com/schedopt/schedopt/portfolio"
	"github.com/schedopt/schedopt/solve"
	"github.com/spf13/cobra"
)

// KindMPS is the result kind of solve-mps.
const KindMPS = "mps"

func newSolveMPSCmd(e *env) *cobra.Command {
	var f solveFlags
	var scReading string
	cmd := &cobra.Command{
		Use:     "solve-mps FILE.mps|FILE.lp",
		Aliases: []string{"solve-lp"},
		Short:   "Solve a MILP given as an MPS (free or fixed) or CPLEX LP file",
		Long: `solve-mps (alias solve-lp) reads a free- or fixed-format MPS file, or a CPLEX LP file
(FILE.lp, or any file under the name solve-lp), solves it with HiGHS (the default), lp_solve or
CBC and verifies the solution against the model independently of the solver (bounds, rows,
integrality and the objective are recomputed). The result has kind "mps"; its solution maps
column names to values. --backend auto races HiGHS against CBC when --threads is 2 or more
(0: all cores) and answers with the first proof; with one thread it is HiGHS.
--time-limit covers the whole command: it ends within a second of the limit, whatever
the solver does.

The reader follows the dialects other solvers read (docs/spec.md, "Reading MPS files"):
|v| >= 1e20 in RHS and BOUNDS is infinite, Fortran exponents (1.5D3), OBJSENSE and
OBJNAME, SC/SI semi-continuous and semi-integer bounds, fixed format with spaces in
names, tabs and CRLF. Constructs read by a convention other readers do not share (a
negative upper bound without a lower bound, an INTORG marker without INTEND) are
warned about on stderr.

The LP reader reads what "schedopt export --format lp" writes and the common CPLEX LP
constructs: Minimize/Maximize with a constant term, Subject To with named or unnamed
rows and two-sided rows (lo <= terms <= hi), Bounds (free, -inf, inf), General,
Binary and Semi-continuous sections, End, and \ comments (docs/spec.md).

A malformed file, an unknown section, a quadratic section (QUADOBJ, QSECTION, QMATRIX,
QCMATRIX) or LP term ([ ... ]), a NaN, a coefficient of magnitude 1e15 or more, or a
missing file is bad
input: exit status 2 with one line naming the file, the line, and the reason.`,
		Example: `  schedopt export instances/workload-small.json --format mps -o w.mps && schedopt solve-mps w.mps
  schedopt solve-mps w.mps --backend lpsolve --time-limit 30s --json
  schedopt solve-mps w.mps --backend auto --threads 2
  schedopt export instances/workload-small.json --format lp -o w.lp && schedopt solve-lp w.lp`,
		Args: argsOf(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts, err := f.options(e, false)
			if err != nil {
				return err
			}
			path := args[0]
			// --time-limit covers the whole command, as for solve: reading, solving,
			// certifying. A solver that overruns it is abandoned (within).
			sigCtx := cmd.Context()
			ctx, cancel := wallClock(sigCtx, f.timeLimit)
			defer cancel()
			sc, err := model.ParseSCReading(scReading)
			if err != nil {
				return usagef("--sc-in-integer: %q: want semi-continuous (HiGHS's reading) or semi-integer (lp_solve's)", scReading)
			}
			t0 := time.Now()
			m, err := readModelFile(path, cmd.CalledAs() == "solve-lp", sc, e.stderr)
			if err != nil {
				return err
			}
			build := time.Since(t0).Seconds()
			solver, err := solve.NewSolver(f.backend)
			if err != nil {
				return err
			}
			policy, err := f.policy()
			if err != nil {
				return err
			}
			opts.TimeLimit = remaining(ctx, opts.TimeLimit)
			name := mpsName(path, m)
			res, err := within(ctx, func() (*solve.Result, error) {
				if f.backend == solve.Auto {
					return portfolio.RunModel(ctx, KindMPS, name, m, portfolio.Request{Options: opts, Certify: f.certify})
				}
				return solve.Bare(ctx, KindMPS, name, m, solve.Request{Backend: f.backend, Solver: solver, Options: opts, Policy: policy})
			})
			if errors.Is(err, errAbandoned) {
				res, err = &solve.Result{Kind: KindMPS, Name: name, Backend: f.backend, Status: solve.StatusTimeLimit,
					Model: solve.Stats(m), Message: "the solver did not stop at the time limit and was abandoned"}, nil
			}
			if err != nil {
				if f.json && res != nil {
					writeJSON(e.stdout, res)
				}
				return fmt.Errorf("%s: %w", path, err)
			}
			stoppedStatus(res, sigCtx, ctx)
			res.Seconds.Build = build
			if f.json {
				if err := writeJSON(e.stdout, res); err != nil {
					return err
				}
			} else {
				writeSummary(e.stdout, res)
			}
			return statusExit(res, sigCtx)
		},
	}
	f.register(cmd.Flags(), false, registry.Names()[0])
	cmd.Flags().StringVar(&scReading, "sc-in-integer", model.SCSemiContinuous.String(),
		"reading of an SC bound inside integer markers: semi-continuous (HiGHS) or semi-integer (lp_solve)")
	return cmd
}

// isLPFile reports whether path names a CPLEX LP file (by its extension).
func isLPFile(path string) bool { return strings.EqualFold(filepath.Ext(path), ".lp") }

// readModelFile reads an MPS file, or an LP file when lp is set or the name ends in
// .lp (either gunzipped when the name ends in .gz); every problem with the file is a
// FieldError naming it ("file: line N: reason", exit status 2). sc is the reading of
// an SC bound inside integer markers. Warnings about conventions other readers do
// not share go to warnOut as "file:N: warning: reason".
func readModelFile(path string, lp bool, sc model.SCReading, warnOut io.Writer) (*model.Model, error) {
	fh, err := domain.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	r, err := gunzipped(path, fh)
	if err != nil {
		return nil, err
	}
	var m *model.Model
	if lp || isLPFile(withoutGz(path)) {
		m, err = readLP(r)
	} else {
		m, err = readMPS(r, sc, func(line int, msg string) {
			fmt.Fprintf(warnOut, "%s:%d: warning: %s\n", path, line, msg)
		})
	}
	if err != nil {
		return nil, domain.InFile(path, err)
	}
	if err := m.Validate(); err != nil {
		return nil, domain.InFile(path, err)
	}
	return m, nil
}

func mpsName(path string, m *model.Model) string {
	if m != nil && m.Name != "" {
		return m.Name
	}
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}

// mpsResult turns a raw backend result on the MPS file's model into the result
// object (solve.BareResult): statuses mapped as for every kind, and the solution
// verified against the model.
func mpsResult(path string, m *model.Model, backend string, raw backends.Result, opts backends.Options) *solve.Result {
	return solve.BareResult(KindMPS, mpsName(path, m), m, backend, raw, opts)
}
