package model

import (
	"bufio"
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// highsBinary finds the HiGHS command-line solver that scripts/setup.sh installs.
func highsBinary(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("highs"); err == nil {
		return p
	}
	const p = "/usr/local/bin/highs"
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("the highs command is missing (scripts/setup.sh installs it): %v", err)
	}
	return p
}

// highsSolve runs the highs CLI on file with gaps 0 and returns "optimal" with the
// objective, or the model status in lower case ("infeasible", ...).
func highsSolve(t *testing.T, bin, file string) (string, float64) {
	t.Helper()
	dir := filepath.Dir(file)
	opts := filepath.Join(dir, "highs.opt")
	if err := os.WriteFile(opts, []byte("mip_rel_gap = 0\nmip_abs_gap = 0\nthreads = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--model_file", file, "--options_file", opts, "--solution_file", filepath.Join(dir, "sol.txt"))
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("highs %s: %v\n%s", file, err, out)
	}
	if bytes.Contains(out, []byte("ERROR")) {
		t.Fatalf("highs could not read %s:\n%s", file, out)
	}
	status, obj := "", math.NaN()
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) >= 2 && f[0] == "Status":
			status = strings.ToLower(f[1])
		case len(f) >= 4 && f[0] == "Model" && f[1] == "status":
			status = strings.ToLower(f[3])
		case len(f) >= 3 && f[0] == "Primal" && f[1] == "bound":
			obj, _ = strconv.ParseFloat(f[2], 64)
		case len(f) >= 4 && f[0] == "Objective" && f[1] == "value":
			obj, _ = strconv.ParseFloat(f[3], 64)
		}
	}
	if status == "" {
		t.Fatalf("no status in the highs output:\n%s", out)
	}
	return status, obj
}

// lpSolveSolve runs the lp_solve command on an MPS file, with our sign convention for
// the objective constant (-mps_negobjconst), and returns "optimal" with the objective or
// "infeasible".
func lpSolveSolve(t *testing.T, file string) (string, float64) {
	t.Helper()
	bin, err := exec.LookPath("lp_solve")
	if err != nil {
		t.Fatalf("the lp_solve command is missing (scripts/setup.sh installs it): %v", err)
	}
	out, _ := exec.Command(bin, "-fmps", file, "-S3", "-mps_negobjconst", "-e", "1e-7").CombinedOutput()
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if strings.Contains(line, "This problem is infeasible") {
			return "infeasible", math.NaN()
		}
		if v, ok := strings.CutPrefix(line, "Value of objective function:"); ok {
			obj, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				t.Fatalf("lp_solve output %q: %v", line, err)
			}
			return "optimal", obj
		}
	}
	t.Fatalf("no result in the lp_solve output for %s:\n%s", file, out)
	return "", 0
}

// randomIntegerModel builds a small bounded pure-integer model with rows of every type
// and an objective constant, so that brute force can find its optimum.
func randomIntegerModel(rng *rand.Rand, contradict bool) *Model {
	m := New("rand")
	n := 2 + rng.IntN(3)
	vars := make([]Var, n)
	for j := range vars {
		if rng.IntN(3) == 0 {
			vars[j] = m.AddBinary("")
			if rng.IntN(4) == 0 {
				m.Fix(vars[j], float64(rng.IntN(2)))
			}
			continue
		}
		lo := float64(rng.IntN(5) - 2)
		vars[j] = m.AddInteger(lo, lo+float64(rng.IntN(4)), "")
	}
	// Right-hand sides are set around the activity at a random integer point x0, so
	// the model is feasible unless contradict asks for a contradictory pair of rows.
	x0 := make([]float64, n)
	for j, v := range vars {
		lo, hi := m.Bounds(v)
		x0[j] = lo + float64(rng.IntN(int(hi-lo)+1))
	}
	rows := 1 + rng.IntN(4)
	for i := range rows {
		var e Expr
		for _, v := range vars {
			if rng.IntN(3) > 0 {
				e.Add(v, float64(rng.IntN(9)-4)/2)
			}
		}
		act := e.Value(x0)
		slack := float64(rng.IntN(3))
		switch rng.IntN(5) {
		case 0:
			m.AddConstr(e, LE, act+slack, "")
		case 1:
			m.AddConstr(e, GE, act-slack, "")
		case 2:
			m.AddConstr(e, EQ, act, "")
		case 3:
			m.AddRange(e, act-slack-0.5, act+0.25, "r"+strconv.Itoa(i))
		default:
			m.AddRange(e, math.Inf(-1), math.Inf(1), "")
		}
	}
	if contradict {
		e := Sum(vars...)
		m.AddConstr(e, GE, 0.5, "")
		m.AddConstr(e, LE, 0.25, "")
	}
	var obj Expr
	for _, v := range vars {
		obj.Add(v, float64(rng.IntN(11)-5))
	}
	obj.AddConst(float64(rng.IntN(7) - 3))
	sense := Minimize
	if rng.IntN(2) == 0 {
		sense = Maximize
	}
	m.SetObjective(sense, obj)
	return m
}

// bruteForce enumerates every integer point in the bounds and returns the optimum, or
// ok = false when no point is feasible.
func bruteForce(m *Model) (best float64, ok bool) {
	n := m.NumVars()
	x := make([]float64, n)
	var rec func(j int)
	rec = func(j int) {
		if j == n {
			rep, err := m.Verify(x)
			if err != nil || !rep.Feasible() {
				return
			}
			if !ok || float64(m.Sense())*(rep.Objective-best) < 0 {
				best, ok = rep.Objective, true
			}
			return
		}
		lo, hi := m.Bounds(Var(j))
		for v := lo; v <= hi; v++ {
			x[j] = v
			rec(j + 1)
		}
	}
	rec(0)
	return best, ok
}

// TestSolversReadWrittenFiles solves random models written as MPS and LP with the highs
// command, and as MPS with the lp_solve command, and compares with brute force. It fails
// when either command is missing (scripts/setup.sh installs both).
func TestSolversReadWrittenFiles(t *testing.T) {
	bin := highsBinary(t)
	rng := rand.New(rand.NewPCG(7, 8))
	dir := t.TempDir()
	for trial := range 20 {
		m := randomIntegerModel(rng, trial%5 == 4)
		want, feasible := bruteForce(m)
		for _, format := range []string{"mps", "lp", "lp_solve"} {
			file := filepath.Join(dir, "m."+format)
			if format == "lp_solve" {
				file = filepath.Join(dir, "m.mps")
			}
			var buf bytes.Buffer
			var err error
			if format != "lp" {
				err = m.WriteMPS(&buf)
			} else {
				err = m.WriteLP(&buf)
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			var status string
			var got float64
			if format == "lp_solve" {
				status, got = lpSolveSolve(t, file)
			} else {
				status, got = highsSolve(t, bin, file)
			}
			switch {
			case !feasible && status != "infeasible":
				t.Errorf("trial %d %s: highs says %s %g, brute force finds no feasible point\n%s", trial, format, status, got, buf.String())
			case feasible && (status != "optimal" || math.Abs(got-want) > 1e-6):
				t.Errorf("trial %d %s: highs says %s %g, brute force optimum %g\n%s", trial, format, status, got, want, buf.String())
			}
		}
	}
}
