package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/model"
	"github.com/schedopt/schedopt/solve"
	"github.com/spf13/cobra"
)

func newExportCmd(e *env) *cobra.Command {
	var format, out string
	cmd := &cobra.Command{
		Use:   "export [INSTANCE.json | -] --format mps|lp [-o FILE]",
		Short: "Write an instance's MILP as free MPS or CPLEX LP",
		Long: `export builds the MILP of an instance, exactly as solve would, and writes it in free
MPS or CPLEX LP format, so other solvers can read it (and schedopt solve-mps can solve it
again). The output is byte-identical for the same instance.`,
		Example: `  schedopt export instances/dlt-multi-tiny-m3-n4.json --format mps -o dlt.mps
  schedopt export instances/stencil-small.json --format lp | less
  schedopt export instances/workload-small.json --format mps | schedopt solve-mps /dev/stdin`,
		Args: argsOf(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := e.instanceArg(args)
			if err != nil {
				return err
			}
			var write func(m *model.Model, w io.Writer) error
			switch format {
			case "mps":
				write = func(m *model.Model, w io.Writer) error { return m.WriteMPS(w) }
			case "lp":
				write = func(m *model.Model, w io.Writer) error { return m.WriteLP(w) }
			case "":
				return usagef("--format: missing (mps or lp)")
			default:
				return usagef("--format: unknown format %q (mps or lp)", format)
			}
			// Reading and building make little garbage besides the model (which
			// stays), so collecting while they run only costs time: 15 % of a
			// million-nonzero export. The collector is off until the model is built,
			// with a soft memory limit as a safety net (gcPause).
			resume := gcPause()
			// Reading and building a large instance take seconds: a signal stops
			// them (abandonGrace later at most), with exit 1.
			f, err := within(cmd.Context(), func() (*solve.Formulated, error) {
				p, err := e.loadProblem(path)
				if err != nil {
					return nil, err
				}
				f, err := kinds.FormulateModel(cmd.Context(), p)
				if err != nil {
					return nil, fmt.Errorf("%s: formulate: %w", displayPath(path), err)
				}
				return f, nil
			})
			resume()
			if cmd.Context().Err() != nil {
				return exitError{code: exitFailure, msg: "interrupted"}
			}
			if err != nil {
				return err
			}
			invalid := func(err error) error { return fmt.Errorf("%s: formulate: %w", displayPath(path), err) }
			if out == "" || out == "-" {
				if err := f.Model.Validate(); err != nil {
					return invalid(err)
				}
				bw := bufio.NewWriter(e.stdout)
				if err := write(f.Model, bw); err != nil {
					return fmt.Errorf("write %s: %w", format, err)
				}
				return bw.Flush()
			}
			// The model is checked while the file is written: an invalid model leaves
			// no file (writeFileAtomic removes it), and its error is the check's.
			valid := make(chan error, 1)
			go func() { valid <- f.Model.Validate() }()
			var verr error
			err = writeFileAtomic(out, func(w io.Writer) error {
				werr := write(f.Model, w)
				if verr = <-valid; verr != nil {
					return verr
				}
				return werr
			})
			if verr != nil {
				return invalid(verr)
			}
			if err != nil {
				return fmt.Errorf("write %s: %w", out, err)
			}
			fmt.Fprintf(e.stderr, "wrote %s (%d variables, %d rows)\n", out, f.Model.NumVars(), f.Model.NumRows())
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "", "output format: mps or lp (required)")
	cmd.Flags().StringVarP(&out, "output", "o", "", "output file (default: stdout)")
	return cmd
}

// gcPauseLimit is the soft memory limit while gcPause holds the collector off: a
// build that makes more than that (garbage included) is collected as usual.
const gcPauseLimit = 1 << 30

// gcPause turns the garbage collector off, with a soft memory limit of gcPauseLimit
// (or the GOMEMLIMIT given, if lower), and returns the function that restores both. A
// GOGC given in the environment is left alone.
func gcPause() (resume func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	limit := debug.SetMemoryLimit(-1)
	debug.SetMemoryLimit(min(limit, gcPauseLimit))
	percent := debug.SetGCPercent(-1)
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}

// writeFileAtomic writes a file through a temporary file and a rename, so a failed
// write leaves no half file behind.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	if err := write(bw); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}
