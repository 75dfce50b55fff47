package benchproc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/bench"
	"github.com/schedopt/schedopt/model"
	"github.com/schedopt/schedopt/solve"
)

// stub answers a job from its fields; a job named "big" first touches 64 MiB, a job
// named "bad" fails.
type stub struct{}

var sink []byte

func (stub) RunFile(ctx context.Context, j bench.FileJob) (bench.FileOutcome, error) {
	if j.Name == "bad" {
		return bench.FileOutcome{}, errors.New("stub: cannot")
	}
	if j.Name == "big" {
		sink = make([]byte, 64<<20)
		for i := range sink {
			sink[i] = byte(i)
		}
	}
	v := float64(j.Permutation) + j.Options.RelGap + float64(j.Options.Threads) + j.Options.TimeLimit.Seconds()
	if j.Read.SCInInteger == model.SCSemiInteger {
		v += 1000
	}
	return bench.FileOutcome{Result: &solve.Result{Name: j.Name, Backend: j.Backend, Status: solve.StatusOptimal, Objective: &v}}, nil
}

// TestMain lets the test binary act as the child.
func TestMain(m *testing.M) {
	if os.Getenv("BENCHPROC_TEST_CHILD") == "1" {
		if err := Serve(context.Background(), os.Stdin, os.Stdout, stub{}); err != nil {
			os.Stderr.WriteString(err.Error())
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func job(name string) bench.FileJob {
	return bench.FileJob{Path: "x.mps", Name: name, Backend: "highs", Permutation: 2,
		Options: backends.Options{TimeLimit: 3 * time.Second, RelGap: 0.5, Threads: 1}}
}

func TestServeRoundTrip(t *testing.T) {
	j := job("a")
	j.Read.SCInInteger = model.SCSemiInteger
	req, _ := json.Marshal(requestOf(j))
	var out bytes.Buffer
	if err := Serve(context.Background(), bytes.NewReader(req), &out, stub{}); err != nil {
		t.Fatal(err)
	}
	var resp Response
	if err := json.Unmarshal(out.Bytes(), &resp); err != nil || resp.Result == nil {
		t.Fatalf("response %s: %v", out.String(), err)
	}
	if got := *resp.Result.Objective; got != 1006.5 {
		t.Errorf("objective %g, want 1006.5: the job's fields did not cross intact", got)
	}
	if err := Serve(context.Background(), strings.NewReader(`{"nope": 1}`), &out, stub{}); err == nil {
		t.Error("a malformed request was served")
	}
}

func TestRunnerMeasuresTheChild(t *testing.T) {
	r := Runner{Command: []string{os.Args[0]}, Env: append(os.Environ(), "BENCHPROC_TEST_CHILD=1")}
	small, err := r.RunFile(context.Background(), job("a"))
	if err != nil {
		t.Fatal(err)
	}
	if small.Result == nil || small.Result.Name != "a" || *small.Result.Objective != 6.5 {
		t.Fatalf("result %+v", small.Result)
	}
	big, err := r.RunFile(context.Background(), job("big"))
	if err != nil {
		t.Fatal(err)
	}
	if big.PeakRSS < 64<<20 || big.Memory != MemoryMeasure {
		t.Errorf("peak memory %d bytes (%q), want at least the 64 MiB the child touched", big.PeakRSS, big.Memory)
	}
	if !(small.PeakRSS > 0 && small.PeakRSS < big.PeakRSS) {
		t.Errorf("peak memory of the small job %d, the big one %d", small.PeakRSS, big.PeakRSS)
	}
	if _, err := r.RunFile(context.Background(), job("bad")); err == nil || !strings.Contains(err.Error(), "stub: cannot") {
		t.Errorf("failing job: %v", err)
	}
	if _, err := (Runner{Command: []string{"/bin/false"}}).RunFile(context.Background(), job("a")); err == nil {
		t.Error("a child that answers nothing is not an error")
	}
}
