package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/measure"
	"github.com/spf13/cobra"
)

func newImportCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "import",
		Short:   "Turn measurements made elsewhere into instances",
		Example: `  schedopt import profile measure/testdata/profile.csv --n 6 -o imported.json`,
		Args:    argsOf(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			return usagef("import: name what to import (schedopt import profile FILE.csv)")
		},
	}
	cmd.AddCommand(newImportProfileCmd(e))
	return cmd
}

func newImportProfileCmd(e *env) *cobra.Command {
	var out string
	var n int
	var staticPower float64
	p := measure.DefaultParams()
	cmd := &cobra.Command{
		Use:   "profile FILE.csv [--n N] [--static-power W] [-o INSTANCE.json]",
		Short: "Build a workload instance from a CSV of measured samples",
		Long: `import profile reads measured samples, one run per row, and writes the workload
instance (objective "pareto") that schedopt measure would: per processor and size, the
mean time and mean dynamic energy, with their Student-t precision (seed 000 Alg. 6) at
--confidence; points whose precision is not below --eps are listed on stderr and kept.

The CSV has a header row naming its columns, in any order:
  processor    the processor's name (one processor per distinct name)
  size         the size in granules, a positive integer
  repetition   the run's number, a positive integer, unique per processor and size
  time         seconds (may be empty on a row that has an energy)
  energy       dynamic energy in joules (optional column; empty or absent: time-only,
               every energy is 0)
Other columns (schedopt measure also writes total_energy, phase, reached) are ignored,
except that phase (alone|concurrent) tells repetitions apart. Blank lines and lines
starting with # are skipped. --n defaults to the largest size. A bad row exits with
status 2, naming the file, the line and the column.`,
		Example: `  schedopt import profile measure/testdata/profile.csv --n 6 -o imported.json
  schedopt import profile measure/testdata/profile.csv --n 6 | schedopt front`,
		Args: argsOf(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := args[0]
			if err := p.Validate(); err != nil {
				return err
			}
			if staticPower < 0 || math.IsNaN(staticPower) || math.IsInf(staticPower, 0) {
				return domain.Errorf("--static-power", "must be finite and >= 0, got %v", staticPower)
			}
			if err := e.limits.CheckInput(path); err != nil {
				return err
			}
			f, err := os.Open(path)
			if err != nil {
				return &domain.FieldError{File: path, Reason: err.Error()}
			}
			defer f.Close()
			samples, err := measure.ReadSamples(f, path)
			if err != nil {
				return err
			}
			prof := measure.Aggregate(samples, p.Confidence, p.Eps)
			if n == 0 {
				for _, q := range prof.Points {
					n = max(n, q.Size)
				}
			}
			name := strings.TrimSuffix(filepath.Base(path), ".csv")
			if prof.TimeOnly() {
				name += " (time-only: energy not measured)"
			}
			if err := writeProfile(e, prof, samples, name, n, staticPower, out, ""); err != nil {
				return domain.InFile(path, err)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVar(&n, "n", 0, "the workload to distribute, in granules (default: the largest size)")
	f.Float64Var(&staticPower, "static-power", 0, "static power in W, written to the instance (for pareto-total)")
	f.Float64Var(&p.Eps, "eps", p.Eps, "precision a point should reach: CI half-width / mean")
	f.Float64Var(&p.Confidence, "confidence", p.Confidence, "confidence level of the Student-t interval")
	f.StringVarP(&out, "output", "o", "", "the instance file (default: stdout)")
	return cmd
}
