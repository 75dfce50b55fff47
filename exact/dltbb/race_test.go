//go:build race

package dltbb

import "time"

// stopLatency is how soon a cancelled search must return; the race detector slows
// the LPs about tenfold.
const stopLatency = 5 * time.Second
