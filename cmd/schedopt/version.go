package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/schedopt/schedopt/backends/registry"
	"github.com/schedopt/schedopt/solve"
	"github.com/spf13/cobra"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func newVersionCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "version",
		Short:   "Print the versions of schedopt and its solvers",
		Example: "  schedopt version\n  schedopt version --json",
		Args:    argsOf(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			v := map[string]string{"schedopt": version, "go": runtime.Version()}
			if bi, ok := debug.ReadBuildInfo(); ok && version == "dev" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
				v["schedopt"] = bi.Main.Version
			}
			for name, ver := range registry.Versions() {
				v[name] = ver
			}
			if asJSON {
				return writeJSON(e.stdout, v)
			}
			fmt.Fprintf(e.stdout, "schedopt %s (%s)\n", v["schedopt"], v["go"])
			for _, name := range solve.MILPBackends() {
				if s, ok := v[name]; ok {
					fmt.Fprintf(e.stdout, "  %-8s %s\n", name, s)
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the versions as one JSON object")
	return cmd
}
