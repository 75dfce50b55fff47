package cmdsolver

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedopt/schedopt/backends"
)

// adapters returns the built-in adapters (a fresh table on every call: no package
// state).
func adapters() []*Adapter {
	return []*Adapter{highsAdapter(), cbcAdapter(), glpsolAdapter()}
}

// firstLine returns the first non-empty line of s, trimmed.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

// lineWith returns the last line of s that contains key, trimmed ("" when none).
func lineWith(s, key string) string {
	i := strings.LastIndex(s, key)
	if i < 0 {
		return ""
	}
	j := strings.LastIndexByte(s[:i], '\n') + 1
	k := strings.IndexByte(s[i:], '\n')
	if k < 0 {
		k = len(s) - i
	}
	return strings.TrimSpace(s[j : i+k])
}

// ---- HiGHS ----

// highsAdapter runs the HiGHS command line:
//
//	highs --model_file FILE --options_file OPT [--time_limit T]
//
// with mip_rel_gap, mip_abs_gap = 0, threads, and the solution file (raw style 0,
// which lists "Model status", "Objective" and one "name value" line per column) in
// the options file. HiGHS reads .gz itself. The bound is the log's "Dual bound" line.
func highsAdapter() *Adapter {
	return &Adapter{
		Name:        "highs",
		Program:     "highs",
		ReadsGzip:   true,
		VersionArgs: []string{"--version"},
		Version: func(out string) string {
			f := strings.Fields(strings.TrimPrefix(lineWith(out, "HiGHS version"), "HiGHS version"))
			if len(f) == 0 {
				return ""
			}
			return f[0]
		},
		OptionsFile: func(inv Invocation) string {
			var b strings.Builder
			fmt.Fprintf(&b, "mip_rel_gap = %s\n", strconv.FormatFloat(inv.Gap, 'g', -1, 64))
			b.WriteString("mip_abs_gap = 0\n")
			if inv.Threads > 0 {
				fmt.Fprintf(&b, "threads = %d\n", inv.Threads)
			}
			b.WriteString("write_solution_to_file = true\n")
			fmt.Fprintf(&b, "solution_file = %s\n", inv.Solution)
			b.WriteString("write_solution_style = 0\n")
			return b.String()
		},
		Command: func(inv Invocation) []string {
			args := []string{"--model_file", inv.File, "--options_file", inv.Options}
			if inv.TimeLimit > 0 {
				args = append(args, "--time_limit", seconds(inv.TimeLimit))
			}
			return args
		},
		Parse: ParseHiGHS,
	}
}

// highsStatus maps HiGHS's model status text to the status taxonomy.
var highsStatus = map[string]backends.Status{
	"Optimal":                        backends.Optimal,
	"Infeasible":                     backends.Infeasible,
	"Unbounded":                      backends.Unbounded,
	"Primal infeasible or unbounded": backends.InfeasibleOrUnbounded,
	"Time limit reached":             backends.TimeLimit,
	"Interrupted by user":            backends.Interrupted,
	"Iteration limit reached":        backends.Other,
	"Solution limit reached":         backends.Other,
	"Objective bound":                backends.Other,
	"Objective target":               backends.Other,
	"Memory limit reached":           backends.Other,
	"Unknown":                        backends.Other,
	"Solve error":                    backends.NumericalError,
	"Postsolve error":                backends.NumericalError,
}

// ParseHiGHS reads a HiGHS solution file written with write_solution_style = 0 and
// the log's "Dual bound" line. A file without a solution file (HiGHS refused the
// model) gives the status Other.
func ParseHiGHS(sol, log []byte, _ ModelInfo) (Answer, error) {
	ans := Answer{Status: backends.Other, Objective: math.NaN(), Bound: math.NaN()}
	if l := lineWith(string(log), "Dual bound"); l != "" {
		if f := strings.Fields(l); len(f) >= 3 {
			if v, ok := number(f[len(f)-1]); ok && !math.IsInf(v, 0) {
				ans.Bound = v
			}
		}
	}
	if sol == nil {
		if l := lineWith(string(log), "Model status"); l != "" {
			if _, st, ok := strings.Cut(l, ":"); ok {
				if s, ok := highsStatus[strings.TrimSpace(st)]; ok {
					ans.Status = s
				}
			}
		}
		return ans, nil
	}
	sc := bufio.NewScanner(bytes.NewReader(sol))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return ans, fmt.Errorf("solution file: %w", err)
	}
	i := 0
	for i < len(lines) && strings.TrimSpace(lines[i]) != "Model status" {
		i++
	}
	if i+1 >= len(lines) {
		return ans, fmt.Errorf("solution file: no \"Model status\" line")
	}
	st, ok := highsStatus[strings.TrimSpace(lines[i+1])]
	if !ok {
		st = backends.Other
	}
	ans.Status = st
	for i < len(lines) && strings.TrimSpace(lines[i]) != "# Primal solution values" {
		i++
	}
	if i+1 >= len(lines) {
		return ans, nil // no primal section
	}
	i++
	if strings.TrimSpace(lines[i]) == "None" {
		return ans, nil
	}
	i++
	for ; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		switch {
		case strings.HasPrefix(l, "Objective "):
			v, ok := number(strings.TrimPrefix(l, "Objective "))
			if !ok {
				return ans, fmt.Errorf("solution file: bad objective line %q", l)
			}
			ans.Objective = v
		case strings.HasPrefix(l, "# Columns "):
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(l, "# Columns ")))
			if err != nil || n < 0 || n > len(lines)-i-1 {
				return ans, fmt.Errorf("solution file: bad column count %q", l)
			}
			ans.Values = make(map[string]float64, n)
			for k := 1; k <= n; k++ {
				f := strings.Fields(lines[i+k])
				if len(f) != 2 {
					return ans, fmt.Errorf("solution file: bad column line %q", lines[i+k])
				}
				v, ok := number(f[1])
				if !ok {
					return ans, fmt.Errorf("solution file: bad value in %q", lines[i+k])
				}
				ans.Values[f[0]] = v
			}
			return ans, nil
		}
	}
	return ans, nil
}

// ---- CBC ----

// cbcAdapter runs CBC's command line:
//
//	cbc FILE timeMode elapsed [sec T] ratio GAP allow 0 [threads N] printingOptions all solve solu OUT
//
// (timeMode elapsed makes sec a wall-clock limit). CBC reads .gz itself. The
// solution file's first line is its status ("Optimal - objective value X",
// "Stopped on time - ...", ...), then rows and columns as "index name value
// reduced-cost" (rows first, their index restarting at 0 for the columns). The
// bound is the log's "Lower bound:" line when CBC prints one.
func cbcAdapter() *Adapter {
	return &Adapter{
		Name:        "cbc",
		Program:     "cbc",
		ReadsGzip:   true,
		NeedsModel:  true,
		VersionArgs: []string{"-quit"},
		Version: func(out string) string {
			return strings.TrimSpace(strings.TrimPrefix(lineWith(out, "Version:"), "Version:"))
		},
		Command: func(inv Invocation) []string {
			args := []string{inv.File, "timeMode", "elapsed"}
			if inv.TimeLimit > 0 {
				args = append(args, "sec", seconds(inv.TimeLimit))
			}
			args = append(args, "ratio", strconv.FormatFloat(inv.Gap, 'g', -1, 64), "allow", "0")
			if inv.Threads > 0 {
				args = append(args, "threads", strconv.Itoa(inv.Threads))
			}
			return append(args, "printingOptions", "all", "solve", "solu", inv.Solution)
		},
		Parse: ParseCBC,
	}
}

// ParseCBC reads a CBC solution file written with printingOptions all, and the
// log's "Lower bound:" line. CBC 2.10's LP reader drops the objective's constant
// (an MPS file's RHS on the objective row it reads as schedopt does): for LP files
// the constant is added back to the objective and the bound. Statuses: "Optimal" (also "within gap tolerance") and
// "Stopped on gap" are Optimal (within the requested gap); "Infeasible" and
// "Integer infeasible" are Infeasible; "Unbounded" is InfeasibleOrUnbounded, because
// CBC says so when the LP relaxation is unbounded, without a feasible point;
// "Stopped on time" is TimeLimit (with the incumbent, unless CBC adds "no integer
// solution"); "Stopped on ctrl-c" is Interrupted; "Stopped on difficulties" is
// NumericalError; other stops are Other.
func ParseCBC(sol, log []byte, info ModelInfo) (Answer, error) {
	ans, err := parseCBC(sol, log)
	if info.Format == "lp" {
		ans.Objective += info.ObjConst
		ans.Bound += info.ObjConst
	}
	return ans, err
}

func parseCBC(sol, log []byte) (Answer, error) {
	ans := Answer{Status: backends.Other, Objective: math.NaN(), Bound: math.NaN()}
	if l := lineWith(string(log), "Lower bound:"); l != "" {
		if v, ok := number(strings.TrimSpace(strings.TrimPrefix(l, "Lower bound:"))); ok && !math.IsInf(v, 0) {
			ans.Bound = v
		}
	}
	if sol == nil {
		return ans, nil
	}
	lines := strings.Split(string(sol), "\n")
	head := strings.TrimSpace(lines[0])
	withValues := false
	switch {
	case strings.HasPrefix(head, "Optimal"), strings.HasPrefix(head, "Stopped on gap"):
		ans.Status, withValues = backends.Optimal, true
	case strings.HasPrefix(head, "Infeasible"), strings.HasPrefix(head, "Integer infeasible"):
		ans.Status = backends.Infeasible
	case strings.HasPrefix(head, "Unbounded"):
		ans.Status = backends.InfeasibleOrUnbounded
	case strings.HasPrefix(head, "Stopped on time"):
		ans.Status = backends.TimeLimit
		withValues = !strings.Contains(head, "no integer solution")
	case strings.HasPrefix(head, "Stopped on ctrl-c"):
		ans.Status = backends.Interrupted
		withValues = !strings.Contains(head, "no integer solution")
	case strings.HasPrefix(head, "Stopped on difficulties"):
		ans.Status = backends.NumericalError
	case strings.HasPrefix(head, "Stopped"):
		ans.Status = backends.Other
		withValues = !strings.Contains(head, "no integer solution")
	default:
		return ans, fmt.Errorf("solution file: unknown status line %q", head)
	}
	if !withValues {
		return ans, nil
	}
	if _, v, ok := strings.Cut(head, "objective value"); ok {
		if x, ok := number(v); ok {
			ans.Objective = x
		}
	}
	type entry struct {
		name string
		v    float64
	}
	var all []entry
	split := 0 // the index of the first column line in all
	prev := -1
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		if f[0] == "**" { // CBC marks infeasible rows and columns
			f = f[1:]
		}
		if len(f) < 3 {
			return ans, fmt.Errorf("solution file: bad line %q", l)
		}
		idx, err := strconv.Atoi(f[0])
		if err != nil || idx < 0 {
			return ans, fmt.Errorf("solution file: bad index in %q", l)
		}
		v, ok := number(f[2])
		if !ok {
			return ans, fmt.Errorf("solution file: bad value in %q", l)
		}
		if idx <= prev {
			if split != 0 {
				return ans, fmt.Errorf("solution file: a third index sequence at %q", l)
			}
			split = len(all)
		}
		prev = idx
		all = append(all, entry{f[1], v})
	}
	ans.Values = make(map[string]float64, len(all)-split)
	for _, e := range all[split:] {
		ans.Values[e.name] = e.v
	}
	return ans, nil
}

// ---- GLPK ----

// glpsolAdapter runs GLPK's command line:
//
//	glpsol --freemps|--lp FILE [--tmlim T] --mipgap GAP -w OUT
//
// (--tmlim takes whole seconds: the limit is rounded up). glpsol is single-threaded
// and has no absolute gap, so Threads is not passed. GLPK reads .gz itself. Its -w
// file numbers the columns, so the parser gets the column names from schedopt's
// reader (the order of first appearance, which GLPK keeps). MPS files are read as
// free MPS (fixed-format files whose names have no spaces read the same). GLPK 5.0
// reads an RHS entry v on the objective row as the constant +v where schedopt, HiGHS
// and CBC read −v, so for MPS files 2·constant is added to its objective and bound;
// its LP reader refuses a constant in the objective (the run ends as Other).
func glpsolAdapter() *Adapter {
	return &Adapter{
		Name:        "glpsol",
		Program:     "glpsol",
		ReadsGzip:   true,
		NeedsModel:  true,
		VersionArgs: []string{"--version"},
		Version: func(out string) string {
			l := firstLine(out)
			if i := strings.LastIndex(l, " "); i >= 0 {
				return l[i+1:]
			}
			return l
		},
		Command: func(inv Invocation) []string {
			flag := "--freemps"
			if inv.Format == "lp" {
				flag = "--lp"
			}
			args := []string{flag, inv.File}
			if inv.TimeLimit > 0 {
				args = append(args, "--tmlim", strconv.Itoa(int(math.Ceil(inv.TimeLimit.Seconds()))))
			}
			return append(args, "--mipgap", strconv.FormatFloat(inv.Gap, 'g', -1, 64), "-w", inv.Solution)
		},
		Parse: ParseGLPK,
	}
}

// glpkMessages maps glpsol's terminal messages to statuses; the last one in the log
// decides (the root LP's "OPTIMAL LP SOLUTION FOUND" precedes the MIP's message).
var glpkMessages = []struct {
	text   string
	status backends.Status
}{
	{"INTEGER OPTIMAL SOLUTION FOUND", backends.Optimal},
	{"RELATIVE MIP GAP TOLERANCE REACHED", backends.Optimal},
	{"OPTIMAL LP SOLUTION FOUND", backends.Optimal},
	{"OPTIMAL SOLUTION FOUND", backends.Optimal},
	{"PROBLEM HAS NO PRIMAL FEASIBLE SOLUTION", backends.Infeasible},
	{"PROBLEM HAS NO INTEGER FEASIBLE SOLUTION", backends.Infeasible},
	{"LP RELAXATION HAS NO PRIMAL FEASIBLE SOLUTION", backends.Infeasible},
	{"PROBLEM HAS UNBOUNDED SOLUTION", backends.Unbounded},
	{"PROBLEM HAS NO DUAL FEASIBLE SOLUTION", backends.InfeasibleOrUnbounded},
	{"LP RELAXATION HAS NO DUAL FEASIBLE SOLUTION", backends.InfeasibleOrUnbounded},
	{"LP HAS NO PRIMAL FEASIBLE SOLUTION", backends.Infeasible},
	// The MIP's root LP is unbounded: the MILP is unbounded if it is feasible at all.
	{"LP HAS UNBOUNDED PRIMAL SOLUTION", backends.InfeasibleOrUnbounded},
	{"TIME LIMIT EXCEEDED", backends.TimeLimit},
	{"SEARCH TERMINATED BY APPLICATION", backends.Interrupted},
	{"NUMERICAL INSTABILITY", backends.NumericalError},
}

// ParseGLPK reads a glpsol -w solution file ("s mip ROWS COLS STATUS OBJ" or "s bas
// ROWS COLS PRIMAL DUAL OBJ", then "j INDEX ..." per column) with the column names
// of the model, and the status and bound from the log: the last of glpkMessages, and
// the last "mip = X >= Y" progress line (Y is the bound; "tree is empty" means the
// search is complete and the bound is the objective).
func ParseGLPK(sol, log []byte, info ModelInfo) (Answer, error) {
	ans, err := parseGLPK(sol, log, info.Names)
	if info.Format == "mps" {
		ans.Objective += 2 * info.ObjConst
		ans.Bound += 2 * info.ObjConst
	}
	return ans, err
}

func parseGLPK(sol, log []byte, names []string) (Answer, error) {
	ans := Answer{Status: backends.Other, Objective: math.NaN(), Bound: math.NaN()}
	text := string(log)
	best := -1
	for _, m := range glpkMessages {
		if i := strings.LastIndex(text, m.text); i > best {
			best, ans.Status = i, m.status
		}
	}
	complete := false
	if l := lineWith(text, "mip ="); l != "" {
		_, rest, _ := strings.Cut(l, "mip =")
		for _, op := range []string{">=", "<="} {
			if _, b, ok := strings.Cut(rest, op); ok {
				b = strings.TrimSpace(b)
				if strings.HasPrefix(b, "tree is empty") {
					complete = true
				} else if f := strings.Fields(b); len(f) > 0 {
					if v, ok := number(f[0]); ok && !math.IsInf(v, 0) {
						ans.Bound = v
					}
				}
				break
			}
		}
	}
	if sol == nil {
		return ans, nil
	}
	var mip, has bool
	for _, l := range strings.Split(string(sol), "\n") {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "s":
			if len(f) < 6 {
				return ans, fmt.Errorf("solution file: bad status line %q", l)
			}
			mip = f[1] == "mip"
			ncols, err := strconv.Atoi(f[3])
			if err != nil || ncols != len(names) {
				return ans, fmt.Errorf("solution file: %s columns, the model has %d", f[3], len(names))
			}
			if mip {
				has = f[4] == "o" || f[4] == "f"
			} else {
				has = f[4] == "f"
			}
			if has {
				v, ok := number(f[len(f)-1])
				if !ok {
					return ans, fmt.Errorf("solution file: bad objective in %q", l)
				}
				ans.Objective = v
				ans.Values = make(map[string]float64, len(names))
			}
		case "j":
			if !has {
				continue
			}
			// mip: "j INDEX VALUE"; bas: "j INDEX STATUS VALUE DUAL"; ipt: "j INDEX VALUE DUAL"
			k := 2
			if !mip && len(f) >= 5 {
				k = 3
			}
			if len(f) <= k {
				return ans, fmt.Errorf("solution file: bad column line %q", l)
			}
			j, err := strconv.Atoi(f[1])
			if err != nil || j < 1 || j > len(names) {
				return ans, fmt.Errorf("solution file: bad column index in %q", l)
			}
			v, ok := number(f[k])
			if !ok {
				return ans, fmt.Errorf("solution file: bad value in %q", l)
			}
			ans.Values[names[j-1]] = v
		}
	}
	if complete && ans.Status == backends.Optimal {
		ans.Bound = ans.Objective
	}
	return ans, nil
}
