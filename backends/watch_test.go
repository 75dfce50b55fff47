package backends

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

func TestWatch(t *testing.T) {
	t.Run("deadline stops with StopDeadline", func(t *testing.T) {
		got := make(chan int, 1)
		end := Watch(context.Background(), time.Now(), time.Millisecond, func(r int) { got <- r })
		defer end()
		if r := <-got; r != StopDeadline {
			t.Errorf("reason %d, want StopDeadline", r)
		}
	})
	t.Run("cancelled context stops with StopContext", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		got := make(chan int, 1)
		end := Watch(ctx, time.Now(), time.Hour, func(r int) { got <- r })
		defer end()
		cancel()
		if r := <-got; r != StopContext {
			t.Errorf("reason %d, want StopContext", r)
		}
	})
	t.Run("no stop after end returns", func(t *testing.T) {
		var calls atomic.Int32
		ctx, cancel := context.WithCancel(context.Background())
		end := Watch(ctx, time.Now(), 0, func(int) { calls.Add(1) })
		end()
		end() // idempotent
		cancel()
		time.Sleep(5 * time.Millisecond)
		if n := calls.Load(); n != 0 {
			t.Errorf("stop called %d times after end", n)
		}
	})
}
