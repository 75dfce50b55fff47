package main

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/schedopt/schedopt/backends/registry"
	"github.com/schedopt/schedopt/certify/claims"
	"github.com/spf13/cobra"
)

// claimsProgressEvery is how often `schedopt claims` prints a progress line.
const claimsProgressEvery = 10 * time.Second

func newClaimsCmd(e *env) *cobra.Command {
	var n, workers int
	var seed uint64
	var backendList, out string
	var limit time.Duration
	cmd := &cobra.Command{
		Use:   "claims",
		Short: "Count the wrong claims of every backend on adversarial random MILPs, raw and certified",
		Long: `claims runs the wrong-claims suite (package certify/claims, docs/certification.md):
N small adversarial MILPs (equality- and integer-heavy, tight and free bounds, ranged
rows, planted infeasible and unbounded models), each solved by every backend twice: raw
(the solver's own claim) and through the certification policy. Every claim is judged
against the model's known answer (enumeration, or a planted point, ray or infeasibility
proof) or, for models without one, the answer the other backends agree on.

It prints a Markdown table per backend and mode (wrong claims by kind, indefinite
answers, solve time) and lists every wrong claim with its seed and index, so that it can
be rebuilt with claims.GenerateAt. The exit status is 1 when a certified claim is wrong.`,
		Example: `  schedopt claims --models 1000
  schedopt claims --models 10000 --time-limit 2s --backends highs,lpsolve,cbc -o docs/claims-10k.md
  schedopt claims --models 200 --backends cbc --time-limit 2s --seed 7`,
		Args: argsOf(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			if n < 1 {
				return usagef("--models: must be >= 1, got %d", n)
			}
			if workers < 1 {
				return usagef("--workers: must be >= 1, got %d", workers)
			}
			if limit <= 0 {
				return usagef("--time-limit: must be > 0, got %s", limit)
			}
			var names []string
			if backendList != "" {
				for _, b := range strings.Split(backendList, ",") {
					b = strings.TrimSpace(b)
					if !registry.Has(b) {
						return usagef("--backends: unknown backend %q (one of %s)", b, strings.Join(registry.Names(), ", "))
					}
					names = append(names, b)
				}
			}
			begin, last := time.Now(), time.Now()
			rep, err := claims.Run(cmd.Context(), claims.RunConfig{N: n, Seed: seed, Backends: names, Workers: workers, TimeLimit: limit,
				Progress: func(done, total int) {
					if time.Since(last) >= claimsProgressEvery || done == total {
						last = time.Now()
						fmt.Fprintf(e.stderr, "claims: %d/%d models, %s\n", done, total, time.Since(begin).Round(time.Second))
					}
				}})
			if err != nil && rep == nil {
				return err
			}
			w := e.stdout
			if out != "" {
				f, ferr := os.Create(out)
				if ferr != nil {
					return fmt.Errorf("-o: %w", ferr)
				}
				defer f.Close()
				w = f
			}
			fmt.Fprintf(w, "%d models, seed %d, per-solve limit %s, %d workers, %s on %s\n\n", n, seed, limit, workers,
				time.Since(begin).Round(time.Second), machine())
			if werr := rep.WriteMarkdown(w); werr != nil {
				return werr
			}
			if err != nil {
				return err // cancelled: the report covers the models finished so far
			}
			if wrong, _ := rep.Totals(claims.Certified); wrong > 0 {
				return exitError{code: exitFailure, msg: fmt.Sprintf("%d wrong certified claims", wrong)}
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&n, "models", 1000, "number of random models")
	cmd.Flags().Uint64Var(&seed, "seed", 1, "generator seed: model i is claims.GenerateAt(seed, i)")
	cmd.Flags().StringVar(&backendList, "backends", "", "comma-separated backends to judge (default: every registered one)")
	cmd.Flags().IntVar(&workers, "workers", claims.DefaultWorkers, "models solved at once (one thread each)")
	cmd.Flags().DurationVar(&limit, "time-limit", claims.DefaultTimeLimit, "time limit of each solve")
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the Markdown report to FILE instead of stdout")
	return cmd
}

// machine describes where a report was measured: the core count and the Go version.
func machine() string {
	return fmt.Sprintf("%d cores, %s", runtime.NumCPU(), runtime.Version())
}
