//go:build !race

package dltbb

import "time"

// stopLatency is how soon a cancelled search must return (the node being expanded
// is finished first).
const stopLatency = time.Second
