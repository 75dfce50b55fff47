package bench_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedopt/schedopt/bench"
)

func TestShardStatesCountDoneAndMissingJobsPerShard(t *testing.T) {
	dir := t.TempDir()
	writeInstances(t, dir, 6, nil)
	p := plan(t, writeSpec(t, dir, threeBackends), nil)
	const n = 3
	path := func(s bench.Shard) string { return filepath.Join(dir, fmt.Sprintf("part-%d.jsonl", s.Index)) }

	states, err := bench.ShardStates(p, n, path)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, st := range states {
		if st.Done != 0 || len(st.Missing) != st.Jobs {
			t.Errorf("shard %s before any run: done %d, missing %d of %d", st.Shard, st.Done, len(st.Missing), st.Jobs)
		}
		for _, j := range st.Missing {
			if !st.Shard.Owns(j.Key) {
				t.Errorf("shard %s lists job %s of another shard", st.Shard, j.Key)
			}
		}
		total += st.Jobs
	}
	if total != len(p.Jobs) {
		t.Fatalf("the shards hold %d jobs, the plan %d", total, len(p.Jobs))
	}

	// Run shard 2 completely: only it is done.
	s2 := bench.Shard{Index: 2, Count: n}
	if _, err := bench.RunSweep(context.Background(), p, bench.SweepOptions{Output: path(s2), Shard: s2, Workers: 2,
		NewSolver: fakeSolver, Load: fakeLoader(nil)}); err != nil {
		t.Fatal(err)
	}
	states, err = bench.ShardStates(p, n, path)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range states {
		wantDone := 0
		if st.Shard.Index == 2 {
			wantDone = st.Jobs
		}
		if st.Done != wantDone || st.Done+len(st.Missing) != st.Jobs {
			t.Errorf("shard %s: done %d, missing %d of %d; want %d done", st.Shard, st.Done, len(st.Missing), st.Jobs, wantDone)
		}
	}
}

func TestASecondSweepOnTheSameResultsFileFailsAtOnce(t *testing.T) {
	dir := t.TempDir()
	writeInstances(t, dir, 2, nil)
	p := plan(t, writeSpec(t, dir, threeBackends), nil)
	out := filepath.Join(dir, "r.jsonl")
	// Hold the results file as a running sweep does, with a job that waits.
	started := make(chan struct{})
	release := make(chan struct{})
	errc := make(chan error, 1)
	go func() {
		first := true
		_, err := bench.RunSweep(context.Background(), p, bench.SweepOptions{Output: out, Workers: 1,
			NewSolver: fakeSolver, Load: fakeLoader(nil),
			OnDone: func(*bench.Record) {
				if first {
					first = false
					close(started)
					<-release
				}
			}})
		errc <- err
	}()
	<-started
	_, err := bench.RunSweep(context.Background(), p, bench.SweepOptions{Output: out, Workers: 1, NewSolver: fakeSolver, Load: fakeLoader(nil)})
	close(release)
	if !errors.Is(err, bench.ErrResultsBusy) {
		t.Errorf("second sweep on a busy results file: %v, want ErrResultsBusy", err)
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(out); err != nil {
		t.Fatal(err)
	}
}
