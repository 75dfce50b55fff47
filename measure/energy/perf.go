package energy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// PerfEvent is the perf event Perf counts: the package energy of every socket.
const PerfEvent = "power/energy-pkg/"

// Perf counts PerfEvent system-wide with `perf stat -a -x, -e power/energy-pkg/`
// started before the region and interrupted (SIGINT, on which perf prints its
// counts) after it; ParsePerf reads the joules from perf's CSV output.
type Perf struct {
	Path string // the perf program
}

// Name is "perf".
func (p *Perf) Name() string { return PerfName }

// perfSettle is how long Start waits for perf to open its counters before the region
// begins; the energy of that wait is not in the region.
const perfSettle = 50 * time.Millisecond

// Probe checks that perf counts the event, with `perf stat` around `true`.
func (p *Perf) Probe(ctx context.Context) error {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, p.Path, "stat", "-a", "-x,", "-e", PerfEvent, "--", "true")
	cmd.Stderr = &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("perf: %s: %w", firstLine(out.String()), err)
	}
	_, err := ParsePerf(out.Bytes())
	return err
}

// Start launches perf stat.
func (p *Perf) Start(ctx context.Context) (Reading, error) {
	cmd := exec.Command(p.Path, "stat", "-a", "-x,", "-e", PerfEvent)
	var out bytes.Buffer
	cmd.Stderr = &out
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("perf: %w", err)
	}
	select {
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, ctx.Err()
	case <-time.After(perfSettle):
	}
	return &perfReading{cmd: cmd, out: &out}, nil
}

type perfReading struct {
	cmd *exec.Cmd
	out *bytes.Buffer
}

// Stop interrupts perf and parses its counts.
func (pr *perfReading) Stop(ctx context.Context) (float64, error) {
	if err := pr.cmd.Process.Signal(os.Interrupt); err != nil {
		return 0, fmt.Errorf("perf: %w", err)
	}
	err := pr.cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && interrupted(ee)) {
		return 0, fmt.Errorf("perf: %s: %w", firstLine(pr.out.String()), err)
	}
	return ParsePerf(pr.out.Bytes())
}

// interrupted reports whether perf ended because of our SIGINT (it usually exits 0,
// some versions report the signal).
func interrupted(ee *exec.ExitError) bool {
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGINT {
		return true
	}
	return ee.ExitCode() == 130
}

// ParsePerf reads `perf stat -x,` output and returns the joules of every line whose
// event is PerfEvent (summed, for per-socket output). The lines are
// "VALUE,UNIT,EVENT,..."; a value of "<not counted>" or "<not supported>" is an error,
// as is output without the event. Other lines (comments, other events) are skipped.
func ParsePerf(out []byte) (float64, error) {
	sum, found := 0.0, false
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Split(strings.TrimSpace(line), ",")
		if len(f) < 3 || strings.TrimSpace(f[2]) != PerfEvent {
			continue
		}
		v := strings.TrimSpace(f[0])
		if strings.HasPrefix(v, "<") {
			return 0, fmt.Errorf("perf: %s %s", PerfEvent, v)
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return 0, fmt.Errorf("perf: bad value %q for %s", v, PerfEvent)
		}
		if unit := strings.TrimSpace(f[1]); unit != "" && unit != "Joules" {
			return 0, fmt.Errorf("perf: unit %q for %s, want Joules", unit, PerfEvent)
		}
		sum += x
		found = true
	}
	if !found {
		return 0, fmt.Errorf("perf: no %s count in its output: %s", PerfEvent, firstLine(string(out)))
	}
	return sum, nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
