package backends

import (
	"context"
	"sync"
	"time"
)

// Reasons a Watch stops a solve, passed to its stop function.
const (
	StopContext  = 1 // ctx was cancelled or its deadline passed
	StopDeadline = 2 // Options.TimeLimit elapsed
)

// Watch starts a goroutine that calls stop once, with StopContext when ctx is done or
// StopDeadline when limit has passed since begin (no deadline when limit is 0). Solvers
// whose own time limits are not hard stops use it to raise an interrupt flag that
// their C callback polls. The returned function ends the watch and waits for the
// goroutine, so stop is never called after it returns.
func Watch(ctx context.Context, begin time.Time, limit time.Duration, stop func(reason int)) (end func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	var deadline <-chan time.Time
	var timer *time.Timer
	if limit > 0 {
		timer = time.NewTimer(limit - time.Since(begin))
		deadline = timer.C
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		select {
		case <-ctx.Done():
			stop(StopContext)
		case <-deadline:
			stop(StopDeadline)
		case <-done:
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(done)
			wg.Wait()
			if timer != nil {
				timer.Stop()
			}
		})
	}
}
