package energy

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// Meter is a user's meter command: a shell command (run with /bin/sh -c) that prints
// the meter's cumulative energy counter in joules, as a number alone on its last
// non-empty line, and exits 0. It is run before the region and after it, and the
// energy of the region is the difference (a counter that goes down is an error). This
// is the contract of a wall meter's "energy so far" reading; a meter that can only
// wrap a command is used by making it print its running total to a file that the
// meter command prints.
type Meter struct {
	Command string
}

// Name is "meter".
func (m *Meter) Name() string { return "meter" }

// Start reads the counter.
func (m *Meter) Start(ctx context.Context) (Reading, error) {
	v, err := m.read(ctx)
	if err != nil {
		return nil, err
	}
	return &meterReading{m: m, before: v}, nil
}

type meterReading struct {
	m      *Meter
	before float64
}

// Stop reads the counter again and returns the difference.
func (mr *meterReading) Stop(ctx context.Context) (float64, error) {
	v, err := mr.m.read(ctx)
	if err != nil {
		return 0, err
	}
	if v < mr.before {
		return 0, fmt.Errorf("meter %q: counter went down from %v to %v J", mr.m.Command, mr.before, v)
	}
	return v - mr.before, nil
}

func (m *Meter) read(ctx context.Context) (float64, error) {
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", m.Command)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("meter %q: %w: %s", m.Command, err, firstLine(errb.String()))
	}
	return ParseMeter(out.Bytes())
}

// ParseMeter reads the joules from a meter command's output: the last non-empty line,
// which must be one finite, non-negative number.
func ParseMeter(out []byte) (float64, error) {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if last == "" {
		return 0, fmt.Errorf("meter: printed nothing, want the energy counter in joules")
	}
	v, err := strconv.ParseFloat(last, 64)
	if err != nil || v < 0 || v != v || v > 1e300 {
		return 0, fmt.Errorf("meter: last line %q is not a number of joules >= 0", last)
	}
	return v, nil
}
