package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schedopt/schedopt/bench"
	"github.com/schollz/progressbar/v3"
)

// progressLineEvery is how often a sweep prints a progress line when stderr is not a
// terminal.
const progressLineEvery = 10 * time.Second

// progress reports a sweep's progress on stderr: a live bar on a terminal, otherwise
// a line every progressLineEvery, whether or not a job finished meanwhile (and one per
// failure, and one at the end).
type progress struct {
	w      io.Writer
	tty    bool
	bar    *progressbar.ProgressBar
	mu     sync.Mutex
	total  int
	done   int
	failed int
	start  time.Time
	// ticker makes the clock of the progress lines: a time.Ticker of
	// progressLineEvery, or the test's own channel.
	ticker func() (ticks <-chan time.Time, stop func())
	quit   chan struct{}
	wg     sync.WaitGroup
}

func newProgress(w io.Writer, tty bool) *progress {
	return &progress{w: w, tty: tty, ticker: func() (<-chan time.Time, func()) {
		t := time.NewTicker(progressLineEvery)
		return t.C, t.Stop
	}}
}

func (p *progress) Start(todo, skipped int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total, p.start = todo, time.Now()
	if skipped > 0 {
		fmt.Fprintf(p.w, "resuming: %d job(s) already done, %d to run\n", skipped, todo)
	} else {
		fmt.Fprintf(p.w, "%d job(s) to run\n", todo)
	}
	if p.tty && todo > 0 {
		p.bar = progressbar.NewOptions(todo,
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription("sweep"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionSetRenderBlankState(true),
		)
	}
	if !p.tty && todo > 0 && p.ticker != nil {
		ticks, stop := p.ticker()
		p.quit = make(chan struct{})
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			defer stop()
			for {
				select {
				case <-p.quit:
					return
				case <-ticks:
					p.mu.Lock()
					if p.done < p.total {
						fmt.Fprintf(p.w, "%s\n", p.line())
					}
					p.mu.Unlock()
				}
			}
		}()
	}
}

func (p *progress) Done(r *bench.Record) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if r.Failed() {
		p.failed++
	}
	if p.bar != nil {
		if r.Failed() {
			p.bar.Clear()
			fmt.Fprintf(p.w, "FAILED %s on %s: %s\n", r.Instance, r.Backend, oneLine(r.Error))
		}
		p.bar.Describe(fmt.Sprintf("sweep (%d failed)", p.failed))
		p.bar.Add(1)
		return
	}
	if r.Failed() {
		fmt.Fprintf(p.w, "FAILED %s on %s: %s\n", r.Instance, r.Backend, oneLine(r.Error))
	}
	if p.done == p.total {
		fmt.Fprintf(p.w, "%s\n", p.line())
	}
}

func (p *progress) line() string {
	el := time.Since(p.start)
	eta := "?"
	if p.done > 0 && p.done < p.total {
		eta = (time.Duration(float64(el) / float64(p.done) * float64(p.total-p.done))).Round(time.Second).String()
	} else if p.done == p.total {
		eta = "0s"
	}
	return fmt.Sprintf("%d/%d done, %d failed, elapsed %s, ETA %s", p.done, p.total, p.failed, el.Round(time.Second), eta)
}

// Finish stops the progress lines (and waits until the last one is written) and
// closes the bar.
func (p *progress) Finish() {
	if p.quit != nil {
		close(p.quit)
		p.wg.Wait()
		p.quit = nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		p.bar.Finish()
		fmt.Fprintf(p.w, "%s\n", p.line())
	}
}
