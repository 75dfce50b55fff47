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
// a line at most every progressLineEvery (and one per failure).
type progress struct {
	w        io.Writer
	tty      bool
	bar      *progressbar.ProgressBar
	mu       sync.Mutex
	total    int
	done     int
	failed   int
	start    time.Time
	lastLine time.Time
}

func newProgress(w io.Writer, tty bool) *progress { return &progress{w: w, tty: tty} }

func (p *progress) Start(todo, skipped int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total, p.start, p.lastLine = todo, time.Now(), time.Now()
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
	if time.Since(p.lastLine) >= progressLineEvery || p.done == p.total {
		p.lastLine = time.Now()
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

func (p *progress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		p.bar.Finish()
		fmt.Fprintf(p.w, "%s\n", p.line())
	}
}
