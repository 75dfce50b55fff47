package bench

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/benchfile"
	"github.com/schedopt/schedopt/cmdsolver"
	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/model"
	"github.com/schedopt/schedopt/modelperm"
	"github.com/schedopt/schedopt/solve"
)

// CmdPrefix starts the name of a command-line solver backend: "cmd:highs" runs the
// installed highs program on the model file (package cmdsolver).
const CmdPrefix = "cmd:"

// IsCmdBackend reports whether name is a command-line solver backend ("cmd:...").
func IsCmdBackend(name string) bool { return strings.HasPrefix(name, CmdPrefix) }

// checkBackend is solve.CheckBackend extended with the command-line solvers.
func checkBackend(field, name string) error {
	if p, ok := strings.CutPrefix(name, CmdPrefix); ok {
		if _, ok := cmdsolver.Lookup(p); !ok {
			return domain.Errorf(field, "unknown command-line solver %q (one of %s%s)", name, CmdPrefix,
				strings.Join(cmdsolver.Names(), ", "+CmdPrefix))
		}
		return nil
	}
	return solve.CheckBackend(field, name)
}

// CommandLine is the FileRunner of the cmd:* backends: it runs the installed program
// on the model file as written (the permutation, when there is one, is written to a
// temporary MPS file first), with the job's limit, gap and threads, reads its answer
// back and turns it into a result object as solve-mps does for its backends: the
// status mapped, the point verified against the model (schedopt's reading of the
// file) and the objective recomputed. The program's claims are not certified: these
// backends show what the raw programs answer.
type CommandLine struct{}

// CmdMemory names what the cmd:* backends' peak memory measures.
const CmdMemory = "solver program ru_maxrss"

// RunFile runs the job's program on its file.
func (CommandLine) RunFile(ctx context.Context, job FileJob) (FileOutcome, error) {
	name := strings.TrimPrefix(job.Backend, CmdPrefix)
	a, ok := cmdsolver.Lookup(name)
	if !ok {
		return FileOutcome{}, fmt.Errorf("unknown command-line solver %q", job.Backend)
	}
	m, err := benchfile.Read(job.Path, job.Read)
	if err != nil {
		return FileOutcome{}, err
	}
	file := job.Path
	// column maps a name in the program's answer to a column of m: by the file's
	// names, or for a permutation by the names permutedFile gives.
	known := make(map[string]int, m.NumVars())
	for j := 0; j < m.NumVars(); j++ {
		known[m.VarName(model.Var(j))] = j
	}
	if job.Permutation != 0 {
		pf, perm, cleanup, err := permutedFile(m, job)
		if err != nil {
			return FileOutcome{}, err
		}
		defer cleanup()
		file = pf
		clear(known)
		for j, old := range perm.Cols {
			known[permColName(j)] = old
		}
	}
	cr, err := a.Solve(ctx, cmdsolver.Run{File: file, TimeLimit: job.Options.TimeLimit, Gap: job.Options.RelGap, Threads: job.Options.Threads})
	if err != nil {
		return FileOutcome{PeakRSS: cr.PeakRSS, Memory: CmdMemory}, err
	}
	raw := backends.Result{Status: cr.Status, Objective: cr.Objective, Bound: cr.Bound, Gap: math.NaN(),
		Time: cr.Wall, Solver: cr.Version, Message: "cmd:" + name + " " + string(cr.Status)}
	if cr.Killed {
		raw.Message += " (killed at its limit)"
	}
	if cr.Values != nil {
		x := make([]float64, m.NumVars())
		for n, v := range cr.Values {
			j, ok := known[n]
			if !ok {
				return FileOutcome{PeakRSS: cr.PeakRSS, Memory: CmdMemory}, fmt.Errorf("%s: the solution names column %q, which the file does not have", job.Backend, n)
			}
			x[j] = v // columns the program leaves out are 0, as solution files list nonzeros
		}
		raw.HasSolution, raw.Values = true, x
	}
	res := solve.BareResult(benchfile.Format(job.Path), job.Name, m, job.Backend, raw, job.Options)
	res.Values = raw.Values
	return FileOutcome{Result: res, PeakRSS: cr.PeakRSS, Memory: CmdMemory}, nil
}

// permColName and permRowName name the columns and rows of a permuted file: the
// model writer keeps such names as they are (it rewrites names that start with a
// digit, for instance), so the program's answer maps back by them. They are at
// least four characters long: CBC 2.10's reader (CoinMpsIO) guesses fixed format
// from a free-format line such as "    C0  obj  2700", whose two-character name
// puts the fields at fixed-format positions, and refuses it ("Bad image").
func permColName(j int) string { return "col" + strconv.Itoa(j) }
func permRowName(i int) string { return "row" + strconv.Itoa(i) }

// permutedFile writes the job's permutation of m as a free MPS file in a temporary
// directory, for a program to read, with the columns and rows named by their
// permuted index (permColName, permRowName); cleanup removes it.
func permutedFile(m *model.Model, job FileJob) (string, modelperm.Permutation, func(), error) {
	perm := modelperm.Random(job.Name, job.Permutation, m.NumVars(), m.NumRows())
	newCol := make([]int, m.NumVars())
	for j, old := range perm.Cols {
		newCol[old] = j
	}
	newRow := make([]int, m.NumRows())
	for i, old := range perm.Rows {
		newRow[old] = i
	}
	pm, err := perm.ApplyAs(m, func(old int) string { return permColName(newCol[old]) }, func(old int) string { return permRowName(newRow[old]) })
	if err != nil {
		return "", perm, nil, fmt.Errorf("permutation %d: %w", job.Permutation, err)
	}
	dir, err := os.MkdirTemp("", "schedopt-perm-")
	if err != nil {
		return "", perm, nil, fmt.Errorf("permutation %d: %w", job.Permutation, err)
	}
	cleanup := func() { os.RemoveAll(dir) }
	path := filepath.Join(dir, fmt.Sprintf("%s.p%d.mps", job.Name, job.Permutation))
	var buf bytes.Buffer
	err = pm.WriteMPS(&buf)
	if err == nil {
		err = os.WriteFile(path, withRHSSection(buf.Bytes()), 0o644)
	}
	if err != nil {
		cleanup()
		return "", perm, nil, fmt.Errorf("permutation %d: write %s: %w", job.Permutation, path, err)
	}
	return path, perm, cleanup, nil
}

// withRHSSection returns an MPS file with an RHS section header: model.WriteMPS
// leaves out an empty RHS section, which the MPS standard allows but CBC's reader
// (CoinMpsIO) refuses ("Bad image" at the next section). The header goes before the
// first of RANGES, BOUNDS and ENDATA.
func withRHSSection(mps []byte) []byte {
	lines := bytes.SplitAfter(mps, []byte("\n"))
	for i, l := range lines {
		h := bytes.TrimSpace(l)
		if bytes.Equal(h, []byte("RHS")) {
			return mps
		}
		if bytes.Equal(h, []byte("RANGES")) || bytes.Equal(h, []byte("BOUNDS")) || bytes.Equal(h, []byte("ENDATA")) {
			out := make([]byte, 0, len(mps)+4)
			for _, p := range lines[:i] {
				out = append(out, p...)
			}
			out = append(out, "RHS\n"...)
			for _, p := range lines[i:] {
				out = append(out, p...)
			}
			return out
		}
	}
	return mps
}
