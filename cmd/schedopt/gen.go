package main

import (
	"strconv"

	"encoding/json"
	"fmt"
	"github.com/spf13/pflag"
	"io"
	"sort"
	"strings"

	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/kinds/builtin"
	"github.com/spf13/cobra"
)

func newGenCmd(e *env) *cobra.Command {
	gens := builtin.Registry().Generators()
	sort.SliceStable(gens, func(i, j int) bool { return gens[i].Kind < gens[j].Kind })
	var kinds []string
	for _, g := range gens {
		kinds = append(kinds, g.Kind)
	}
	cmd := &cobra.Command{
		Use:   "gen KIND [generator flags] [--seed N] [-o FILE]",
		Short: "Generate a random instance of a kind",
		Long: `gen writes a random instance of KIND as instance JSON (the format solve reads). The
same flags and seed always give the same instance. Each kind has its own flags: see
schedopt gen KIND --help.

Kinds with a generator: ` + strings.Join(kinds, ", "),
		Example: `  schedopt gen dlt-multi --m 10 --seed 1 -o inst.json
  schedopt gen stencil --grid cuboid -o cuboid.json
  schedopt gen workload --help`,
		Args: argsOf(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			return usagef("gen: name a kind (one of %s); see schedopt gen --help", strings.Join(kinds, ", "))
		},
	}
	// Unknown kinds are usage errors with the list of kinds.
	cmd.Args = func(c *cobra.Command, args []string) error {
		if len(args) > 0 {
			return usagef("gen: no generator for kind %q (one of %s)", args[0], strings.Join(kinds, ", "))
		}
		return nil
	}
	for _, g := range gens {
		cmd.AddCommand(newGenKindCmd(e, g))
	}
	return cmd
}

func newGenKindCmd(e *env, g kinds.Generator) *cobra.Command {
	var seed int64
	var out string
	var build func(seed int64) (any, error)
	cmd := &cobra.Command{
		Use:     g.Kind + " [flags]",
		Short:   g.Summary,
		Example: g.Example,
		Args:    argsOf(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			var lerr error
			cmd.Flags().Visit(func(f *pflag.Flag) {
				if n, err := strconv.ParseInt(f.Value.String(), 10, 64); err == nil && f.Value.Type() == "int" && lerr == nil {
					lerr = e.limits.CheckCount("--"+f.Name, n)
				}
			})
			if lerr != nil {
				return lerr
			}
			v, err := build(seed)
			if err != nil {
				return err
			}
			b, err := encodeInstance(v, e.limits)
			if err != nil {
				return fmt.Errorf("gen %s: %w", g.Kind, err)
			}
			// Check that what we wrote loads: a generator must never write bad input.
			if _, err := builtin.Registry().Load(b, g.Kind); err != nil {
				return fmt.Errorf("gen %s: the generated instance does not load: %w", g.Kind, err)
			}
			if out == "" || out == "-" {
				_, err = e.stdout.Write(b)
				return err
			}
			if err := writeFileAtomic(out, func(w io.Writer) error { _, err := w.Write(b); return err }); err != nil {
				return fmt.Errorf("gen %s: %w", g.Kind, err)
			}
			fmt.Fprintf(e.stderr, "wrote %s\n", out)
			return nil
		},
	}
	build = g.Flags(cmd.Flags())
	cmd.Flags().Int64Var(&seed, "seed", 1, "random seed")
	cmd.Flags().StringVarP(&out, "output", "o", "", "output file (default: stdout)")
	return cmd
}

// encodeInstance writes a generated instance as JSON that the other commands accept:
// indented for people when that fits under the input size limit, compact when only
// that fits (seed scale, e.g. 256 identical processors with 1250 points each: 33.5 MB
// indented, 16.3 MB compact), and bad input naming the limit when neither fits, so
// that gen never writes a file that solve, export and front then refuse.
func encodeInstance(v any, limits kinds.Limits) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	b = append(b, '\n')
	if limits.MaxInputBytes <= 0 || int64(len(b)) <= limits.MaxInputBytes {
		return b, nil
	}
	b, err = json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	b = append(b, '\n')
	if int64(len(b)) > limits.MaxInputBytes {
		return nil, domain.Errorf("", "the instance would have %d bytes (compact JSON), more than the input limit of %d that solve, export and front apply: use smaller sizes (or set %s=1 to lift the limit on purpose)",
			len(b), limits.MaxInputBytes, kinds.NoLimitsEnv)
	}
	return b, nil
}
