package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/schedopt/schedopt/bench"
)

// Without a terminal a sweep prints a progress line on every tick of its clock, also
// when no job has finished since the last one (a long job must not silence it).
func TestProgressPrintsALineOnEveryTickWithoutATerminal(t *testing.T) {
	cases := []struct {
		name  string
		ticks int
		jobs  int // finished before the ticks
		want  []string
	}{
		{"no job finished", 2, 0, []string{"0/3 done", "0/3 done"}},
		{"one job finished", 1, 1, []string{"1/3 done"}},
		{"no ticks, no lines", 0, 1, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			ticks := make(chan time.Time)
			stopped := false
			p := newProgress(&out, false)
			p.ticker = func() (<-chan time.Time, func()) { return ticks, func() { stopped = true } }
			p.Start(3, 0)
			for i := 0; i < c.jobs; i++ {
				p.Done(&bench.Record{Status: "optimal"})
			}
			for i := 0; i < c.ticks; i++ {
				ticks <- time.Now() // unbuffered: received before the next send or Finish
			}
			// Finish waits for the ticker's goroutine; the first line is "3 job(s) to run".
			p.Finish()
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")[1:]
			if len(lines) != len(c.want) {
				t.Fatalf("%d progress lines, want %d:\n%s", len(lines), len(c.want), out.String())
			}
			for i, w := range c.want {
				if !strings.HasPrefix(lines[i], w) {
					t.Errorf("line %d = %q, want it to start with %q", i, lines[i], w)
				}
			}
			if !stopped {
				t.Errorf("Finish did not stop the ticker")
			}
		})
	}
}

// On a terminal the bar shows the progress: no ticker runs.
func TestProgressRunsNoTickerOnATerminal(t *testing.T) {
	p := newProgress(&bytes.Buffer{}, true)
	started := false
	p.ticker = func() (<-chan time.Time, func()) { started = true; return nil, func() {} }
	p.Start(2, 0)
	p.Finish()
	if started {
		t.Errorf("a ticker started with a terminal")
	}
}
