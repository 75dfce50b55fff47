package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/schedopt/schedopt/backends/registry"
)

// The examples test runs every example the user is shown, so that what the docs
// promise is what the program does:
//
//   - the command lines in the code blocks of README.md and docs/cli.md, and
//   - the lines of every command's Example field (schedopt CMD --help), generators'
//     included,
//
// found automatically, so that a command another branch adds is covered too. A line
// with placeholders (INSTANCE.json, [--flag], ...) is a synopsis: its command and every
// flag it names must exist. Every other line runs in-process, in order within its
// source (README.md, docs/cli.md, one --help), in a scratch directory that holds
// instances/ (the repository's) and bench/specs/ (the repository's specs, shrunk),
// and must exit 0.
//
// Long examples run smaller, so the whole test stays within about a minute on 2
// cores: see shrinkRules for the command lines and shrinkSpec for the sweep specs.
// SCHEDOPT_EXAMPLES_FULL=1 runs every example as written (hours: the paper sweeps).
// An example that cannot run here at all is listed in unrunnable with the reason.

// fullExamplesEnv runs the examples as written, without shrinking.
const fullExamplesEnv = "SCHEDOPT_EXAMPLES_FULL"

// unrunnable lists the examples that cannot run in a test, with the reason. The key is
// the example's command line as extracted (comment removed, spaces collapsed).
var unrunnable = map[string]string{
	"schedopt bench status bench/specs/dltmulti-6.4.json --slurm-dir /scratch/me/64.slurm": "names the Slurm directory of a submission on a cluster; make slurm-test runs bench status against a real one",
}

// shrinkRule rewrites an example's command line to run in seconds. Each says why the
// smaller run still checks what the example shows.
type shrinkRule struct {
	why  string
	re   *regexp.Regexp
	repl func(match []string) string
}

// exampleTimeout stops an example that runs away (its exit status is then 1).
const exampleTimeout = 90 * time.Second

// maxExampleLimit caps --time-limit: a limit that stops a solve is itself a documented
// outcome (status feasible or time_limit, exit 0).
const maxExampleLimit = 2 * time.Second

var shrinkRules = []shrinkRule{
	{"time limits above 2 s become 2 s: the stopped solve is a documented outcome", regexp.MustCompile(`--time-limit[ =](\S+)`), func(m []string) string {
		if d, err := time.ParseDuration(m[1]); err == nil && d > 0 && d <= maxExampleLimit {
			return m[0]
		}
		return "--time-limit " + maxExampleLimit.String()
	}},
	{"Task Movement runs 1 s and 20 iterations", regexp.MustCompile(`--tm-time[ =](\S+)`), func([]string) string { return "--tm-time 1s --iterations 20" }},
	{"multinode on an 8×4×4 grid instead of the thesis's 32×16×16 (the lower bound takes 15 s there)", regexp.MustCompile(`^schedopt multinode\b.*$`), func(m []string) string {
		return regexp.MustCompile(` --grid[ =]\S+`).ReplaceAllString(m[0], "") + " --grid 8x4x4"
	}},
	{"the wrong-claims suite on 3 models instead of thousands", regexp.MustCompile(`--models[ =](\d+)`), func(m []string) string {
		if n, _ := strconv.Atoi(m[1]); n <= 3 {
			return m[0]
		}
		return "--models 3"
	}},
	{"solves, fronts and the wrong-claims suite without a time limit get one of 2 s (1 s per claims solve)", regexp.MustCompile(`^schedopt (solve|solve-mps|solve-lp|front|claims)\b.*$`), func(m []string) string {
		switch {
		case strings.Contains(m[0], "--time-limit"), strings.Contains(m[0], " --help"):
			return m[0]
		case m[1] == "claims":
			return m[0] + " --time-limit 1s"
		}
		return m[0] + " --time-limit " + maxExampleLimit.String()
	}},
	{"dlt fronts on 2 deadlines instead of 10", regexp.MustCompile(`^schedopt front .*$`), func(m []string) string {
		return regexp.MustCompile(` --steps?[ =]\S+`).ReplaceAllString(m[0], "") + " --steps 2"
	}},
	{"isoefficiency maps at m = 2, n = 2 and one level", regexp.MustCompile(`^schedopt map isoefficiency .*$`), func(m []string) string {
		l := regexp.MustCompile(` --(m-range|n|levels)[ =]\S+`).ReplaceAllString(m[0], "")
		return l + " --m-range 2,2 --n 2 --levels 5"
	}},
	{"identical-processor workloads on 16 processors instead of 256 (gen's size limit has its own test)", regexp.MustCompile(`--p[ =]256\b`), func([]string) string { return "--p 16" }},
	{"Slurm submissions print their scripts (--dry-run) instead of submitting: no cluster here; make slurm-test submits to a real one", regexp.MustCompile(`--slurm\b(.*)$`), func(m []string) string {
		if strings.Contains(m[0], "--dry-run") {
			return m[0]
		}
		return m[0] + " --dry-run"
	}},
	{"isoenergy maps with fewer samples, 2 default levels, a coarse heat map and a 4×4 --grid", regexp.MustCompile(`^schedopt map isoenergy .*$`), func(m []string) string {
		l := m[0]
		if strings.Contains(l, "--grid") {
			l = regexp.MustCompile(` --grid[ =]\S+`).ReplaceAllString(l, "") + " --grid 4"
		}
		return l + " --samples 40 --nlevels 2 --plot-grid 40"
	}},
	{"soak runs 4 children instead of thousands", regexp.MustCompile(`--runs[ =](\d+)`), func(m []string) string { return "--runs 4" }},
	{"files under /tmp go to the scratch directory", regexp.MustCompile(`(\s)/tmp/(\S+)`), func(m []string) string { return m[1] + "tmp-" + m[2] }},
}

// example is one command line shown to users.
type example struct {
	where string // file:line, or "schedopt CMD --help"
	group string // examples of one group run in order in one directory
	line  string
}

// docFiles are the documents whose code blocks are examples.
var docFiles = []string{"README.md", "docs/cli.md"}

// docExamples returns the schedopt command lines in the code blocks (fenced, or
// indented by four spaces) of a Markdown file; continuation lines (a trailing \) are
// joined.
func docExamples(t *testing.T, rel string) []example {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repo, rel))
	if err != nil {
		t.Fatal(err)
	}
	var out []example
	fenced := false
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
			continue
		}
		if !fenced && !strings.HasPrefix(l, "    ") && !strings.HasPrefix(l, "\t") {
			continue
		}
		cmd := strings.TrimSpace(l)
		cmd = strings.TrimPrefix(cmd, "$ ")
		cmd = strings.TrimPrefix(cmd, "bin/")
		if !strings.HasPrefix(cmd, "schedopt ") {
			continue
		}
		start := i
		for strings.HasSuffix(cmd, `\`) && i+1 < len(lines) {
			i++
			cmd = strings.TrimSuffix(cmd, `\`) + " " + strings.TrimSpace(lines[i])
		}
		out = append(out, example{where: fmt.Sprintf("%s:%d", rel, start+1), group: rel, line: cmd})
	}
	return out
}

// helpExamples returns the lines of every command's Example field.
func helpExamples() []example {
	var out []example
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, l := range strings.Split(c.Example, "\n") {
			if l = strings.TrimSpace(l); strings.HasPrefix(l, "schedopt ") {
				// One session: the examples of all commands, in the order of the
				// command tree, share a directory (a report reads a sweep's results).
				out = append(out, example{where: c.CommandPath() + " --help", group: "--help", line: l})
			}
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(newRoot(&env{stdout: io.Discard, stderr: io.Discard}))
	return out
}

// stripComment removes a trailing shell comment (a # after a space, outside quotes)
// and collapses runs of spaces.
func stripComment(s string) string {
	var q rune
	for i, r := range s {
		switch {
		case q != 0:
			if r == q {
				q = 0
			}
		case r == '\'' || r == '"':
			q = r
		case r == '#' && i > 0 && (s[i-1] == ' ' || s[i-1] == '\t'):
			s = s[:i]
			return strings.Join(strings.Fields(s), " ")
		}
	}
	return strings.Join(strings.Fields(s), " ")
}

// shellWords splits a command line like a shell: quotes group, | separates the stages
// of a pipe (returned as separate slices).
func shellWords(s string) [][]string {
	var stages [][]string
	var words []string
	var cur strings.Builder
	inWord := false
	var q rune
	flush := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	for _, r := range s {
		switch {
		case q != 0:
			if r == q {
				q = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			q, inWord = r, true
		case r == ' ' || r == '\t':
			flush()
		case r == '|':
			flush()
			stages = append(stages, words)
			words = nil
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	flush()
	return append(stages, words)
}

// synopsisRe recognises a usage synopsis: optional parts in brackets, an ellipsis, or
// a placeholder in capitals (INSTANCE.json, SPEC, FILE, KIND).
var synopsisRe = regexp.MustCompile(`\[|\.\.\.|(^|[\s=/])[A-Z][A-Z0-9_]{2,}(\.[a-z]+)?\b`)

// isSynopsis reports whether a line is a synopsis; quoted text (a shell command given
// to measure) does not count.
func isSynopsis(line string) bool {
	return synopsisRe.MatchString(regexp.MustCompile(`'[^']*'|"[^"]*"`).ReplaceAllString(line, "''"))
}

// checkSynopsis checks that a synopsis names an existing command and only flags that
// command (or, for gen KIND, one of its generators) has, and returns what is wrong.
func checkSynopsis(root *cobra.Command, ex example) []string {
	var problems []string
	for _, stage := range shellWords(ex.line) {
		if len(stage) == 0 || stage[0] != "schedopt" {
			continue
		}
		var path []string
		for _, w := range stage[1:] {
			if strings.HasPrefix(w, "-") || strings.HasPrefix(w, "[") || synopsisRe.MatchString(w) || strings.Contains(w, ".") {
				break
			}
			path = append(path, w)
		}
		c, _, err := root.Find(path)
		if err != nil || c == nil {
			problems = append(problems, fmt.Sprintf("%s: %q: no command %q", ex.where, ex.line, strings.Join(path, " ")))
			continue
		}
		for _, w := range stage[1:] {
			w = strings.TrimLeft(w, "[")
			if !strings.HasPrefix(w, "--") {
				continue
			}
			name := strings.TrimRight(strings.SplitN(strings.TrimPrefix(w, "--"), "=", 2)[0], "],")
			if name == "" || hasFlag(c, name) {
				continue
			}
			problems = append(problems, fmt.Sprintf("%s: %q: %s has no flag --%s", ex.where, ex.line, c.CommandPath(), name))
		}
	}
	return problems
}

func hasFlag(c *cobra.Command, name string) bool {
	if c.Flags().Lookup(name) != nil || c.InheritedFlags().Lookup(name) != nil || name == "help" {
		return true
	}
	for _, s := range c.Commands() { // gen KIND: the generators' flags
		if s.Flags().Lookup(name) != nil {
			return true
		}
	}
	return false
}

// separatorRe splits a command line into its commands: pipes and &&.
var separatorRe = regexp.MustCompile(` (\||&&) `)

// shrink applies shrinkRules to each command of a command line.
func shrink(line string) string {
	seps := separatorRe.FindAllString(line, -1)
	parts := separatorRe.Split(line, -1)
	var b strings.Builder
	for i, st := range parts {
		for _, r := range shrinkRules {
			st = r.re.ReplaceAllStringFunc(st, func(s string) string {
				return r.repl(r.re.FindStringSubmatch(s))
			})
		}
		b.WriteString(st)
		if i < len(seps) {
			b.WriteString(seps[i])
		}
	}
	return b.String()
}

// shrinkSpec writes a smaller copy of a sweep spec: of each file list the smallest
// file of each instance kind (made absolute), the first value of each varied flag,
// the first seed, one repetition, and time limits of 2 s. The backends, gaps and
// flags stay, so the sweep's jobs are of the same kinds, only fewer and shorter.
func shrinkSpec(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var spec map[string]any
	if err := json.Unmarshal(data, &spec); err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	limits := []any{maxExampleLimit.String()}
	if _, ok := spec["time_limits"]; ok {
		spec["time_limits"] = limits
	}
	if _, ok := spec["repetitions"]; ok {
		spec["repetitions"] = 1
	}
	if bs, ok := spec["backends"].([]any); ok {
		for _, b := range bs {
			if m, ok := b.(map[string]any); ok {
				if _, ok := m["time_limits"]; ok {
					m["time_limits"] = limits
				}
			}
		}
	}
	if solu, ok := spec["solu"].(string); ok && !filepath.IsAbs(solu) {
		spec["solu"], _ = filepath.Abs(filepath.Join(filepath.Dir(src), solu))
	}
	insts, _ := spec["instances"].([]any)
	for _, in := range insts {
		m, ok := in.(map[string]any)
		if !ok {
			continue
		}
		if files, ok := m["files"].([]any); ok {
			var matched []string
			for _, f := range files {
				p, _ := f.(string)
				if !filepath.IsAbs(p) {
					p = filepath.Join(filepath.Dir(src), p)
				}
				ms, _ := filepath.Glob(p)
				if len(ms) == 0 {
					if copyDir, ok := fileSetCopies[filepath.Base(p)]; ok {
						ms = []string{filepath.Join(repo, copyDir)}
						delete(spec, "solu") // the copy has none; verdicts are then "unknown"
					}
				}
				for _, f := range ms {
					if fi, err := os.Stat(f); err == nil && fi.IsDir() {
						models, _ := filepath.Glob(filepath.Join(f, "*.*"))
						for _, mf := range models {
							if modelFileRe.MatchString(mf) {
								matched = append(matched, mf)
							}
						}
						continue
					}
					matched = append(matched, f)
				}
			}
			m["files"] = smallestPerKind(t, matched)
		}
		if vary, ok := m["vary"].(map[string]any); ok {
			for k, v := range vary {
				if l, ok := v.([]any); ok && len(l) > 1 {
					vary[k] = l[:1]
				}
			}
		}
		switch s := m["seeds"].(type) {
		case string:
			m["seeds"] = strings.SplitN(s, "..", 2)[0]
		case []any:
			if len(s) > 1 {
				m["seeds"] = s[:1]
			}
		}
	}
	out, err := json.MarshalIndent(spec, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// modelFileRe matches the model files of a benchmark set.
var modelFileRe = regexp.MustCompile(`\.(mps|lp)(\.gz)?$`)

// fileSetCopies names, for a benchmark set that lives outside the repository (in
// shared/, beside the clone in CI), the repository's copy of some of its files, used
// when the set is not there (a developer's worktree).
var fileSetCopies = map[string]string{"miplib3-dev": "bench/testdata/miplib3"}

// smallestPerKind returns, of the instance files, the smallest of each kind (absolute
// paths, sorted); model files (MPS, LP) count as one kind.
func smallestPerKind(t *testing.T, files []string) []any {
	t.Helper()
	type pick struct {
		path string
		size int64
	}
	best := map[string]pick{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var head struct{ Kind string }
		_ = json.Unmarshal(data, &head) // a file that is not an instance keeps kind ""
		abs, _ := filepath.Abs(f)
		if b, ok := best[head.Kind]; !ok || int64(len(data)) < b.size || int64(len(data)) == b.size && abs < b.path {
			best[head.Kind] = pick{abs, int64(len(data))}
		}
	}
	var out []string
	for _, b := range best {
		out = append(out, b.path)
	}
	sort.Strings(out)
	anys := make([]any, len(out))
	for i, p := range out {
		anys[i] = p
	}
	return anys
}

// exampleFixtures are files the examples read that a user makes: the reading of a
// power meter (docs/cli.md's measure --energy 'cat meter.J').
var exampleFixtures = map[string]string{"meter.J": "12.5\n"}

// workDir makes the scratch directory an example group runs in: the repository's
// top-level entries (instances/, measure/, ...) linked, bench/specs/ holding the specs
// (shrunk unless full), out/ and docs/ empty (an example writing docs/claims-10k.md
// must not touch the repository's), and exampleFixtures.
func workDir(t *testing.T, full bool) string {
	t.Helper()
	dir := t.TempDir()
	absRepo, err := filepath.Abs(repo)
	if err != nil {
		t.Fatal(err)
	}
	// The repository's top level, as the examples expect to run from its root; bench/
	// as well, but for its specs, which are shrunk copies.
	for _, sub := range []string{"", "bench"} {
		entries, err := os.ReadDir(filepath.Join(absRepo, sub))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, en := range entries {
			name := en.Name()
			if strings.HasPrefix(name, ".") || sub == "" && (name == "bench" || name == "out" || name == "docs") || sub == "bench" && name == "specs" {
				continue
			}
			if err := os.Symlink(filepath.Join(absRepo, sub, name), filepath.Join(dir, sub, name)); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, body := range exampleFixtures {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"bench/specs", "out", "docs"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	specs, _ := filepath.Glob(filepath.Join(absRepo, "bench", "specs", "*.json"))
	for _, s := range specs {
		dst := filepath.Join(dir, "bench", "specs", filepath.Base(s))
		if full {
			if err := os.Symlink(s, dst); err != nil {
				t.Fatal(err)
			}
			continue
		}
		shrinkSpec(t, s, dst)
	}
	return dir
}

// expandGlobs expands the shell patterns among the words, relative to the working
// directory; a pattern without a match stays as written (as in bash).
func expandGlobs(words []string) []string {
	var out []string
	for _, w := range words {
		if strings.ContainsAny(w, "*?") {
			if ms, _ := filepath.Glob(w); len(ms) > 0 {
				out = append(out, ms...)
				continue
			}
		}
		out = append(out, w)
	}
	return out
}

// runDocExample runs the schedopt stages of a command line, piping each one's stdout into
// the next; a stage that is another program (| jq ...) is not run. It returns the exit
// status of the last schedopt stage and its stderr.
func runDocExample(ctx context.Context, t *testing.T, line string) (int, string) {
	code, errs := 0, ""
	for _, cmd := range strings.Split(line, " && ") {
		if code, errs = runDocPipe(ctx, t, cmd); code != 0 {
			break
		}
	}
	return code, errs
}

// runDocPipe runs one pipeline of runDocExample.
func runDocPipe(ctx context.Context, t *testing.T, line string) (int, string) {
	var in io.Reader = strings.NewReader("")
	code, errs := 0, ""
	for _, stage := range shellWords(line) {
		if len(stage) == 0 || stage[0] != "schedopt" {
			break
		}
		args := expandGlobs(stage[1:])
		for i, a := range args {
			// The stage runs in-process: /dev/stdin would be the test's own. Hand it
			// the piped data through a file instead.
			if a == "/dev/stdin" {
				data, _ := io.ReadAll(in)
				f := filepath.Join(t.TempDir(), "stdin")
				if err := os.WriteFile(f, data, 0o644); err != nil {
					t.Fatal(err)
				}
				args[i], in = f, strings.NewReader("")
			}
		}
		var out, errb bytes.Buffer
		code = runWithStdin(ctx, args, in, &out, &errb)
		errs = errb.String()
		if code != 0 {
			return code, errs
		}
		in = &out
	}
	return code, errs
}

func TestEveryDocumentedExampleRuns(t *testing.T) {
	full := os.Getenv(fullExamplesEnv) == "1"
	// Commands that start schedopt as a child (soak) start this test binary, which
	// then acts as the command line (TestMain).
	t.Setenv("SCHEDOPT_TEST_AS_CLI", "1")
	var all []example
	for _, f := range docFiles {
		all = append(all, docExamples(t, f)...)
	}
	all = append(all, helpExamples()...)
	if len(all) < 50 {
		t.Fatalf("found %d examples; the extraction is broken", len(all))
	}
	root := newRoot(&env{stdout: io.Discard, stderr: io.Discard})
	seen := map[string]bool{}
	used := map[string]bool{}
	groups := map[string][]example{}
	var order []string
	var synopses, runs int
	for _, ex := range all {
		ex.line = stripComment(ex.line)
		if isSynopsis(ex.line) {
			for _, p := range checkSynopsis(root, ex) {
				t.Error(p)
			}
			synopses++
			continue
		}
		if _, ok := unrunnable[ex.line]; ok {
			used[ex.line] = true
			continue
		}
		if _, ok := groups[ex.group]; !ok {
			order = append(order, ex.group)
		}
		groups[ex.group] = append(groups[ex.group], ex)
	}
	for k, why := range unrunnable {
		if !used[k] {
			t.Errorf("unrunnable lists %q (%s), which no document or --help shows any more", k, why)
		}
	}
	for _, g := range order {
		t.Run(strings.ReplaceAll(g, " ", "_"), func(t *testing.T) {
			t.Chdir(workDir(t, full))
			for _, ex := range groups[g] {
				line := ex.line
				if !full {
					line = shrink(line)
				}
				key := g + "\x00" + line
				if seen[key] {
					continue // the same line twice in one source
				}
				seen[key] = true
				ctx, cancel := context.WithTimeout(context.Background(), exampleTimeout)
				t0 := time.Now()
				code, errs := runDocExample(ctx, t, line)
				cancel()
				runs++
				if code != 0 {
					t.Errorf("%s: %q (run as %q): exit %d\n%s", ex.where, ex.line, line, code, lastLinesOf(errs, 5))
					continue
				}
				t.Logf("%5.1fs  %s", time.Since(t0).Seconds(), line)
			}
		})
	}
	t.Logf("%d examples: %d run, %d synopses checked, %d not runnable here", len(all), runs, synopses, len(unrunnable))
}

func lastLinesOf(s string, n int) string {
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// The help texts that list the MILP backends name every registered one (they once
// said "HiGHS or lp_solve" after CBC had joined).
func TestHelpNamesEveryBackend(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"bench", "--help"}} {
		code, out, _ := schedopt(t, args...)
		if code != 0 {
			t.Fatalf("schedopt %v: exit %d", args, code)
		}
		low := strings.ToLower(strings.ReplaceAll(out, "_", ""))
		for _, b := range registry.Names() {
			if !strings.Contains(low, b) {
				t.Errorf("schedopt %s does not name the backend %s", strings.Join(args, " "), b)
			}
		}
	}
}

// The synopsis check catches what drifts: a flag or a command that is gone.
func TestCheckSynopsisFindsMissingCommandsAndFlags(t *testing.T) {
	root := newRoot(&env{stdout: io.Discard, stderr: io.Discard})
	cases := []struct {
		line string
		want string // "" for a good synopsis
	}{
		{"schedopt solve INSTANCE.json [--backend highs|lpsolve] [--time-limit 60s]", ""},
		{"schedopt gen KIND [generator flags] [--seed N] [-o FILE]", ""},
		{"schedopt bench report RESULTS.jsonl... [-o DIR] [--title T] [--no-plots]", ""},
		{"schedopt solve INSTANCE.json [--warp 9]", "has no flag --warp"},
		{"schedopt bench report RESULTS.jsonl... [--colour]", "schedopt bench report has no flag --colour"},
		{"schedopt teleport SPEC.json [--to X]", `no command "teleport"`},
	}
	for _, c := range cases {
		t.Run(c.line, func(t *testing.T) {
			if !isSynopsis(c.line) {
				t.Fatalf("not recognised as a synopsis")
			}
			got := strings.Join(checkSynopsis(root, example{where: "x", line: c.line}), "; ")
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("problems %q, want %q", got, c.want)
			}
		})
	}
}
