package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/domain/workload"
	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/measure"
)

// busy is a kernel whose work grows with its size: a shell loop.
const busy = `i=0; while [ $i -lt {size}00 ]; do i=$((i+1)); done`

func readInstance(t *testing.T, path string) *workload.Instance {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	in, err := workload.Parse(b)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return in
}

func readSamples(t *testing.T, path string) []measure.Sample {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := measure.ReadSamples(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The done-when: measure turns a real command into a workload instance whose
// front `schedopt front` draws (time-only here: no RAPL).
func TestMeasureThenFront(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "busy.json")
	code, _, errs := schedopt(t, "measure", "--cmd", "fast="+busy, "--cmd", "slow="+strings.ReplaceAll(busy, "00 ]", "000 ]"),
		"--sizes", "1..3", "--n", "4", "--min-reps", "0", "--max-reps", "3", "--energy", "auto",
		"--powercap-root", filepath.Join(dir, "no-powercap"), "-o", out)
	if code != 0 {
		t.Fatalf("measure: exit %d\n%s", code, errs)
	}
	for _, want := range []string{"time-only profile", "[6/6] size 3, slow:", "point(s) reached eps 0.025", "wrote " + out} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	in := readInstance(t, out)
	if in.Objective != "pareto" || in.N != 4 || len(in.Processors) != 2 || len(in.Processors[0].Points) != 3 ||
		!strings.Contains(in.Name, "time-only") {
		t.Fatalf("instance %+v", in)
	}
	samples := readSamples(t, filepath.Join(dir, "busy.samples.csv"))
	if len(samples) < 2*3*2 || len(samples) > 2*3*3 {
		t.Fatalf("%d samples, want 2 to 3 per point", len(samples))
	}
	for i, p := range in.Processors {
		for _, q := range p.Points {
			if !(q.Time > 0) || q.Energy != 0 {
				t.Errorf("processor %d point %+v", i, q)
			}
		}
	}
	svg := filepath.Join(dir, "busy.svg")
	code, stdout, errs := schedopt(t, "front", out, "--json", "--plot", svg)
	if code != 0 {
		t.Fatalf("front: exit %d\n%s", code, errs)
	}
	pts := oneObject(t, stdout)["points"].([]any)
	if len(pts) == 0 || pts[0].(map[string]any)["status"] != "optimal" {
		t.Fatalf("front points %v", pts)
	}
	if st, err := os.Stat(svg); err != nil || st.Size() == 0 {
		t.Fatalf("front drew no plot: %v", err)
	}
}

// A fake powercap tree whose counter the kernel advances by size J per run (wrapping
// at 2.5 J), with the static power measured idle (the counter stands still: 0 W).
func TestMeasureFakePowercap(t *testing.T) {
	dir := t.TempDir()
	zone := filepath.Join(dir, "powercap", "intel-rapl:0")
	if err := os.MkdirAll(zone, 0o755); err != nil {
		t.Fatal(err)
	}
	for f, v := range map[string]string{"name": "package-0", "energy_uj": "2400000", "max_energy_range_uj": "2500000"} {
		writeFile(t, zone, f, v+"\n")
	}
	counter := filepath.Join(zone, "energy_uj")
	burn := fmt.Sprintf(`v=$(cat %s); echo $(( (v + {size}000000) %% 2500000 )) > %s`, counter, counter)
	out := filepath.Join(dir, "rapl.json")
	code, _, errs := schedopt(t, "measure", "--cmd", "cpu="+burn, "--sizes", "1,2", "--n", "2", "--min-reps", "0",
		"--max-reps", "3", "--idle", "10ms", "--powercap-root", filepath.Join(dir, "powercap"), "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	for _, want := range []string{"energy from RAPL: " + zone, "static power 0 W (idle", "point(s) reached eps"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	in := readInstance(t, out)
	for _, q := range in.Processors[0].Points {
		if q.Energy != float64(q.Size) {
			t.Errorf("point %+v: want %d J", q, q.Size)
		}
	}
	if in.StaticPower != 0 || strings.Contains(in.Name, "time-only") {
		t.Errorf("instance %+v", in)
	}
}

// A meter command that prints a cumulative counter; dynamic energy is the counter's
// growth less static power × wall time.
func TestMeasureFakeMeter(t *testing.T) {
	dir := t.TempDir()
	counter := writeFile(t, dir, "meter.J", "100\n")
	kern := fmt.Sprintf(`v=$(cat %s); echo $((v + 50*{size})) > %s`, counter, counter)
	out := filepath.Join(dir, "m.json")
	code, _, errs := schedopt(t, "measure", "--cmd", "cpu="+kern, "--sizes", "1..2", "--n", "2", "--min-reps", "0",
		"--max-reps", "3", "--energy", "cat "+counter, "--static-power", "2", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if !strings.Contains(errs, `energy from meter command "cat `+counter+`"`) {
		t.Errorf("stderr:\n%s", errs)
	}
	samples := readSamples(t, filepath.Join(dir, "m.samples.csv"))
	for _, s := range samples {
		want := float64(50*s.Size) - 2*s.Time
		if s.TotalEnergy != float64(50*s.Size) || s.Energy != want {
			t.Errorf("sample %+v: want total %d J, dynamic %v J", s, 50*s.Size, want)
		}
	}
	in := readInstance(t, out)
	if in.StaticPower != 2 || in.Processors[0].Points[1].Energy > 100 || in.Processors[0].Points[1].Energy < 99 {
		t.Errorf("instance %+v", in)
	}
}

func TestMeasureBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.json")
	ok := []string{"--cmd", "a=: {size}", "--sizes", "1..2", "--n", "2", "-o", out}
	with := func(extra ...string) []string { return append(append([]string{"measure"}, ok...), extra...) }
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no --cmd", []string{"measure", "--sizes", "1", "--n", "1", "-o", out}, "give at least one --cmd"},
		{"no -o", []string{"measure", "--cmd", "a=: {size}", "--sizes", "1", "--n", "1"}, "-o INSTANCE.json is required"},
		{"command without {size}", []string{"measure", "--cmd", "a=true", "--sizes", "1", "--n", "1", "-o", out}, "--cmd: a: command \"true\" has no {size}"},
		{"processor twice", with("--cmd", "a=: {size}"), "--cmd: processor \"a\" given twice"},
		{"bad sizes", []string{"measure", "--cmd", "a=: {size}", "--sizes", "3..1", "--n", "1", "-o", out}, "--sizes: \"3..1\""},
		{"n not formable", []string{"measure", "--cmd", "a=: {size}", "--sizes", "1,2", "--n", "5", "-o", out}, "--n: 5 with sizes [1 2] on 1 processor(s)"},
		{"eps 0", with("--eps", "0"), "--eps: must be > 0"},
		{"confidence 1", with("--confidence", "1"), "--confidence: must be in (0, 1)"},
		{"negative static power", with("--static-power", "-1"), "--static-power: must be finite and >= 0"},
		{"rapl absent", with("--energy", "rapl", "--powercap-root", dir), "--energy: energy: source not available"},
		{"output directory absent", []string{"measure", "--cmd", "a=: {size}", "--sizes", "1", "--n", "1", "-o", filepath.Join(dir, "no", "x.json")}, "-o: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errs := schedopt(t, c.args...)
			if code != exitBadInput || !strings.Contains(errs, c.want) {
				t.Fatalf("exit %d, stderr %q; want 2 and %q", code, errs, c.want)
			}
		})
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Error("bad input wrote an instance")
	}
}

func TestMeasureKernelFailure(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x.json")
	code, _, errs := schedopt(t, "measure", "--cmd", "a=echo no such tool {size} >&2; exit 127", "--sizes", "1", "--n", "1", "--energy", "none", "-o", out)
	if code != exitFailure || !strings.Contains(errs, "a at size 1") || !strings.Contains(errs, "no such tool 1") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

func TestImportProfile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "imp.json")
	csv := filepath.Join(repo, "measure", "testdata", "profile.csv")
	code, _, errs := schedopt(t, "import", "profile", csv, "--n", "6", "--static-power", "58", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	in := readInstance(t, out)
	if in.Name != "profile" || in.N != 6 || in.StaticPower != 58 || len(in.Processors) != 2 || len(in.Processors[1].Points) != 4 {
		t.Fatalf("instance %+v", in)
	}
	// The same statistics as measure: the mean of the six runs of gpu at size 2.
	var sum float64
	for _, s := range readSamples(t, csv) {
		if s.Processor == "gpu" && s.Size == 2 {
			sum += s.Time
		}
	}
	if got := in.Processors[1].Points[1].Time; got != sum/6 {
		t.Errorf("gpu size 2 time %v, want the mean %v", got, sum/6)
	}
	if !strings.Contains(errs, "8 of 8 point(s) reached eps 0.025") {
		t.Errorf("stderr:\n%s", errs)
	}
	// --n defaults to the largest size; stdout without -o.
	code, stdout, errs := schedopt(t, "import", "profile", csv)
	if code != 0 || readJSONInstance(t, stdout).N != 4 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
}

func readJSONInstance(t *testing.T, s string) *workload.Instance {
	t.Helper()
	in, err := workload.Parse([]byte(s))
	if err != nil {
		t.Fatalf("%v\n%s", err, s)
	}
	return in
}

func TestImportProfileBadInput(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, csv string
		args      []string
		want      string
	}{
		{"bad time", "processor,size,repetition,time\ncpu,1,1,0.5\ncpu,2,1,slow\n", nil, "bad.csv: line 3, time: \"slow\" is not a finite number"},
		{"missing column", "processor,size,time\ncpu,1,0.5\n", nil, "bad.csv: line 1: no column \"repetition\""},
		{"n not formable", "processor,size,repetition,time\ncpu,2,1,0.5\n", []string{"--n", "3"}, "bad.csv: n: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := writeFile(t, dir, "bad.csv", c.csv)
			code, _, errs := schedopt(t, append([]string{"import", "profile", p}, c.args...)...)
			if code != exitBadInput || !strings.Contains(errs, strings.Replace(c.want, "bad.csv", p, 1)) {
				t.Fatalf("exit %d, stderr %q; want 2 and %q", code, errs, c.want)
			}
		})
	}
	if code, _, errs := schedopt(t, "import", "profile", filepath.Join(dir, "none.csv")); code != exitBadInput {
		t.Errorf("missing file: exit %d %s", code, errs)
	}
}

// runExample runs one example line of a help text or a document: the shell splits
// its words (quotes, $ and all, as a user's shell would) and pipes between schedopt
// commands are honoured. It runs in-process, in the current directory.
func runExample(t *testing.T, line string) (int, string, string) {
	t.Helper()
	var stdin []byte
	var code int
	var stdout, stderr bytes.Buffer
	for _, part := range strings.Split(line, " | ") {
		part = strings.TrimSpace(part)
		if !strings.HasPrefix(part, "schedopt ") {
			t.Fatalf("example %q: %q does not run schedopt", line, part)
		}
		split, err := exec.Command("/bin/sh", "-c", "set -- "+part[len("schedopt "):]+`; for a; do printf '%s\0' "$a"; done`).Output()
		if err != nil {
			t.Fatalf("example %q: the shell cannot split it: %v", line, err)
		}
		args := strings.Split(strings.TrimSuffix(string(split), "\x00"), "\x00")
		stdout.Reset()
		e := &env{stdin: bytes.NewReader(stdin), stdout: &stdout, stderr: &stderr, limits: kinds.DefaultLimits()}
		root := newRoot(e)
		root.SetArgs(args)
		root.SetOut(&stdout)
		root.SetErr(&stderr)
		code = exitOK
		if err := root.ExecuteContext(context.Background()); err != nil {
			code = exitCode(err)
			fmt.Fprintln(&stderr, "schedopt: "+oneLine(err.Error()))
			return code, stdout.String(), stderr.String()
		}
		stdin = append([]byte(nil), stdout.Bytes()...)
	}
	return code, stdout.String(), stderr.String()
}

// exampleLines returns the example commands of a help text: its lines that start
// with "schedopt ".
func exampleLines(text string) []string {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "schedopt ") {
			lines = append(lines, l)
		}
	}
	return lines
}

// Every example of measure's and import's --help runs, in order, in a scratch
// directory (so later examples see the files earlier ones wrote).
func TestMeasureAndImportHelpExamplesRun(t *testing.T) {
	root := newRoot(&env{})
	var lines []string
	for _, path := range [][]string{{"measure"}, {"import"}, {"import", "profile"}} {
		c, _, err := root.Find(path)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, exampleLines(c.Example)...)
	}
	if len(lines) < 6 {
		t.Fatalf("%d examples", len(lines))
	}
	runInMeasureScratch(t, lines, "0\n", t.Errorf)
}

// runInMeasureScratch runs the example lines in order in a scratch directory that
// holds a meter file meter.J reading meter and a link to the repository's measure/;
// an example that does not exit 0 is reported with fail (t.Errorf goes on to the next
// example, t.Fatalf stops).
func runInMeasureScratch(t *testing.T, lines []string, meter string, fail func(format string, args ...any)) {
	t.Helper()
	repoAbs, err := filepath.Abs(repo)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	if err := os.WriteFile("meter.J", []byte(meter), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(repoAbs, "measure"), "measure"); err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		code, _, errs := runExample(t, l)
		if code != 0 {
			fail("%s\nexit %d\n%s", l, code, errs)
		}
	}
}

// The measure and import profile examples of docs/cli.md run as written (in a
// scratch directory, in order), and the instance they make has the promised front.
func TestCLIDocMeasureExamples(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(repo, "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	start, end := strings.Index(text, "\n## measure\n"), strings.Index(text, "\n## version\n")
	if start < 0 || end < start {
		t.Fatal("docs/cli.md has no measure section before version")
	}
	var lines []string
	for _, l := range exampleLines(text[start:end]) {
		if !strings.Contains(l, "[--") { // the synopses
			lines = append(lines, l)
		}
	}
	if len(lines) < 6 {
		t.Fatalf("%d examples", len(lines))
	}
	runInMeasureScratch(t, lines, "12.5\n", t.Fatalf)
	if st, err := os.Stat("busy.svg"); err != nil || st.Size() == 0 {
		t.Errorf("no front plot: %v", err)
	}
	a, b := readInstance(t, "busy.json"), readInstance(t, "again.json")
	if a.Processors[1].Points[3].Time != b.Processors[1].Points[3].Time {
		t.Errorf("import of the samples gives %v, measure %v", b.Processors[1].Points[3], a.Processors[1].Points[3])
	}
}

// On a terminal the progress is a bar that names the size, the runs and the precision.
func TestMeasureProgressBar(t *testing.T) {
	var b bytes.Buffer
	p := newMeasureProgress(&b, true, 0.025)
	p.throttle = 0
	p.update(measure.Status{Phase: measure.PhaseAlone, Processor: "cpu", Size: 7, Step: 1, Steps: 2, Reps: 3, MaxReps: 50, Precision: 0.125})
	p.update(measure.Status{Phase: measure.PhaseConcurrent, Size: 8, Step: 2, Steps: 2, Reps: 4, MaxReps: 50, Precision: 0.01,
		Done: &measure.Outcome{Reached: true, Stop: measure.StopPrecision}})
	p.finish()
	for _, want := range []string{"size 7, cpu: run 3/50, precision 12.50% (eps 0.025)", "size 8, all kernels at once: run 4/50"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("bar lacks %q:\n%q", want, b.String())
		}
	}
}
