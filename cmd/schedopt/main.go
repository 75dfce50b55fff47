package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/kinds/builtin"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// Exit statuses of the command line.
const (
	exitOK       = 0
	exitFailure  = 1 // a failure that is not the user's input
	exitBadInput = 2 // bad input or usage
)

func main() {
	tuneGC()
	// The handler stays installed until the process exits: restoring the default
	// action first (stop) left a window in which a late SIGINT killed the process
	// after it had printed its result (the soak saw it, docs/robustness.md).
	ctx, _ := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	stdout, err := guardStdout()
	if err != nil {
		fmt.Fprintln(os.Stderr, "schedopt: "+err.Error())
		stdout = os.Stdout
	}
	os.Exit(run(ctx, os.Args[1:], stdout, os.Stderr))
}

// gcPercent and gcSoftLimit are the garbage collector's settings of the command line
// when the environment sets none (GOGC, GOMEMLIMIT). The exact searches (exact/dltbb
// above all) allocate a dense LP per node over a live heap of a few megabytes, and at
// Go's default of 100 the collector ran so often that it took a third of the CPU:
// generator seed 3 (500 nodes, one thread, a loaded machine) needed 12.9-14.1 s of CPU
// at GOGC=100 and 8.8-8.9 s at 400. The price is a heap up to five times the live
// data; the soft limit caps that at 8 GiB, where a live heap of 4 GiB (a very large
// MPS model) is collected at the default pace again. GOGC=100 restores Go's default.
const (
	gcPercent   = 400
	gcSoftLimit = 8 << 30 // bytes
)

// tuneGC applies gcPercent and gcSoftLimit unless GOGC or GOMEMLIMIT is set.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(gcSoftLimit)
	}
}

// env is what the commands write to.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// stderrTTY reports whether stderr is a terminal (progress bars) .
	stderrTTY bool
	// limits are the size limits (kinds.LimitsFromEnv: lifted by SCHEDOPT_NO_LIMITS=1).
	limits kinds.Limits
}

// stdinArg is the instance argument that means standard input ("-", or no argument
// when stdin is not a terminal): `schedopt gen ... | schedopt solve`. Messages name it
// stdinName.
const (
	stdinArg  = "-"
	stdinName = "stdin"
)

// instanceArg is the instance argument of a command taking at most one: args[0], or
// stdinArg when there is none and the input is piped.
func (e *env) instanceArg(args []string) (string, error) {
	if len(args) > 0 {
		return args[0], nil
	}
	if f, ok := e.stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return "", usagef("no instance: give INSTANCE.json, or pipe one in (schedopt gen ... | schedopt solve)")
	}
	return stdinArg, nil
}

// displayPath is how messages name an instance argument.
func displayPath(path string) string {
	if path == stdinArg {
		return stdinName
	}
	return path
}

// readInstance reads an instance file, or standard input for stdinArg, under e's
// input size limit: a file's size is checked before it is read, stdin's while it is.
// An MPS or LP model given where an instance belongs is bad input that names
// solve-mps.
func (e *env) readInstance(path string) ([]byte, error) {
	if path != stdinArg {
		if err := e.limits.CheckInput(path); err != nil {
			return nil, err
		}
		data, err := kinds.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if err := notAModel(path, data); err != nil {
			return nil, err
		}
		return data, nil
	}
	r := e.stdin
	if e.limits.MaxInputBytes > 0 {
		r = io.LimitReader(r, e.limits.MaxInputBytes+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, &domain.FieldError{File: stdinName, Reason: err.Error()}
	}
	if err := e.limits.CheckReadSize(stdinName, int64(len(data))); err != nil {
		return nil, err
	}
	return data, nil
}

// loadProblem reads and validates an instance (a file, or stdin for stdinArg) under e's
// size limits: the file's size is checked before it is read, and the model's estimated
// size before it is built.
func (e *env) loadProblem(path string) (kinds.Problem, error) {
	data, err := e.readInstance(path)
	if err != nil {
		return nil, err
	}
	name := kinds.DefaultName(path)
	if path == stdinArg {
		name = stdinName
	}
	p, err := builtin.Registry().Load(data, name)
	if err != nil {
		return nil, domain.InFile(displayPath(path), err)
	}
	if err := e.limits.CheckSize(p); err != nil {
		return nil, domain.InFile(displayPath(path), err)
	}
	return p, nil
}

// run executes the command line args and returns the exit status. Tests call it
// in-process.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runWithStdin(ctx, args, os.Stdin, stdout, stderr)
}

// runWithStdin is run with its standard input given (the examples test pipes one
// command into the next).
func runWithStdin(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, stderrTTY: isTerminal(stderr), limits: kinds.LimitsFromEnv(os.Getenv)}
	root := newRoot(e)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	code := exitCode(err)
	fmt.Fprintln(stderr, "schedopt: "+oneLine(err.Error()))
	return code
}

// usageError marks bad command-line usage (exit 2).
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// exitError carries an explicit exit status with a message (the message may be empty
// when the command already reported the failure).
type exitError struct {
	code int
	msg  string
}

func (e exitError) Error() string { return e.msg }

func exitCode(err error) int {
	var ee exitError
	var ue usageError
	switch {
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &ue), errors.Is(err, domain.ErrBadInput):
		return exitBadInput
	case isCobraUsage(err):
		return exitBadInput
	}
	return exitFailure
}

// isCobraUsage recognises cobra's own usage errors (unknown command, wrong argument
// count), which it returns as plain errors.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "accepts ", "requires at least", "requires exactly", "accepts at most",
		"unknown flag", "unknown shorthand flag", "invalid argument", "flag needs an argument", "required flag"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

func newRoot(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:   "schedopt",
		Short: "Exact, energy-aware scheduling of parallel computations",
		Long: `schedopt solves scheduling instances of six kinds (dlt-flat, dlt-single,
dlt-multi, stencil, workload, partition) exactly: it formulates each as a MILP, solves it
with HiGHS, lp_solve or CBC (or an exact combinatorial algorithm), decodes the schedule,
re-evaluates it with an independent simulator and cross-checks the optimum against an
exact oracle. A result is never called optimal without the solver's proof.

Exit status: 0 for any definite solver status (infeasible included), 2 for bad input
or usage (one line on stderr naming the file, the field and the reason), 1 otherwise.`,
		Example: `  schedopt solve instances/workload-small.json
  schedopt solve instances/dlt-multi-tiny-m3-n4.json --backend lpsolve --time-limit 60s --json
  schedopt gen dlt-multi --m 10 --seed 1 -o inst.json
  schedopt bench bench/specs/default.json`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%s: %w (see %s --help)", c.CommandPath(), err, c.CommandPath())}
	})
	root.CompletionOptions.DisableDefaultCmd = true
	root.AddCommand(newSolveCmd(e), newExportCmd(e), newSolveMPSCmd(e), newGenCmd(e), newBenchCmd(e),
		newFrontCmd(e), newClaimsCmd(e), newVersionCmd(e), newSoakCmd(e), newMultinodeCmd(e),
		newMeasureCmd(e), newImportCmd(e))
	root.AddCommand(newMapCmd(e))
	return root
}

// argsOf wraps a cobra positional-argument check so its error is a usage error.
func argsOf(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return usageError{fmt.Errorf("%s: %w (see %s --help)", cmd.CommandPath(), err, cmd.CommandPath())}
		}
		return nil
	}
}

// modelKeywords start an MPS file (NAME, ROWS, a comment) or a CPLEX LP file (its
// objective section, or a comment).
var modelKeywords = []string{"NAME", "ROWS", "*", "\\", "MINIMIZE", "MAXIMIZE", "MINIMISE", "MAXIMISE", "MINIMUM", "MAXIMUM", "MIN", "MAX"}

// notAModel refuses an MPS or LP model given as an instance: a file named .mps or .lp
// (optionally .gz), or one that does not start like JSON but like a model. The JSON
// parser's own message ('invalid value "NA"') would not say what to do.
func notAModel(path string, data []byte) error {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		return nil
	}
	ext := strings.ToLower(strings.TrimSuffix(path, ".gz"))
	looks := strings.HasSuffix(ext, ".mps") || strings.HasSuffix(ext, ".lp")
	if !looks && len(trimmed) > 0 {
		first := strings.ToUpper(strings.Fields(string(trimmed[:min(len(trimmed), 64)]))[0])
		for _, k := range modelKeywords {
			if first == k || (k == "*" || k == "\\") && strings.HasPrefix(first, k) {
				looks = true
				break
			}
		}
	}
	if !looks {
		return nil
	}
	return &domain.FieldError{File: path, Reason: "an MPS or LP model, not a JSON instance: solve it with schedopt solve-mps " + path}
}
