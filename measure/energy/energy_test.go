package energy

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakePowercap writes a powercap tree: one package zone with a subzone, an MMIO copy
// and a psys zone that must all be ignored. It returns the root and the package
// zone's energy_uj file.
func fakePowercap(t *testing.T, energyUJ, maxUJ string) (string, string) {
	t.Helper()
	root := t.TempDir()
	zone := func(dir, name, e string) string {
		d := filepath.Join(root, dir)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for f, v := range map[string]string{"name": name, "energy_uj": e, "max_energy_range_uj": maxUJ} {
			if err := os.WriteFile(filepath.Join(d, f), []byte(v+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return filepath.Join(d, "energy_uj")
	}
	pkg := zone("intel-rapl:0", "package-0", energyUJ)
	zone("intel-rapl:0:0", "core", "5")
	zone("intel-rapl-mmio:0", "package-0", "7")
	zone("intel-rapl:1", "psys", "11")
	return root, pkg
}

func setCounter(t *testing.T, file string, v string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(v+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRAPL(t *testing.T) {
	cases := []struct {
		name          string
		before, after string
		want          float64 // joules
	}{
		{"counter goes up", "1000000", "3500000", 2.5},
		{"counter wraps at max_energy_range_uj", "9000000", "500000", 1.5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root, pkg := fakePowercap(t, c.before, "10000000")
			src, err := Detect(context.Background(), Auto, Env{PowercapRoot: root, Perf: "/no/such/perf"})
			if err != nil {
				t.Fatal(err)
			}
			r, ok := src.(*RAPL)
			if !ok {
				t.Fatalf("auto picked %T, want RAPL", src)
			}
			if z := r.Zones(); len(z) != 1 || filepath.Base(z[0]) != "intel-rapl:0" {
				t.Fatalf("zones %v, want the package zone only", z)
			}
			rd, err := r.Start(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			setCounter(t, pkg, c.after)
			j, err := rd.Stop(context.Background())
			if err != nil || math.Abs(j-c.want) > 1e-12 {
				t.Fatalf("Stop = %v, %v; want %v J", j, err, c.want)
			}
		})
	}
}

func TestDetect(t *testing.T) {
	ctx := context.Background()
	empty := Env{PowercapRoot: t.TempDir(), Perf: "/no/such/perf"}
	if s, err := Detect(ctx, Auto, empty); s != nil || err != nil {
		t.Errorf("auto without sources: %v, %v; want none", s, err)
	}
	if s, err := Detect(ctx, None, Env{}); s != nil || err != nil {
		t.Errorf("none: %v, %v", s, err)
	}
	if _, err := Detect(ctx, RAPLName, empty); !errors.Is(err, ErrUnavailable) {
		t.Errorf("rapl without zones: %v", err)
	}
	if _, err := Detect(ctx, PerfName, empty); !errors.Is(err, ErrUnavailable) {
		t.Errorf("perf without perf: %v", err)
	}
	s, err := Detect(ctx, "cat /tmp/meter", empty)
	if m, ok := s.(*Meter); err != nil || !ok || m.Command != "cat /tmp/meter" {
		t.Errorf("meter: %v, %v", s, err)
	}
	root, _ := fakePowercap(t, "x", "10")
	if _, err := Detect(ctx, RAPLName, Env{PowercapRoot: root}); !errors.Is(err, ErrUnavailable) {
		t.Errorf("unreadable counter accepted: %v", err)
	}
}

func TestParsePerf(t *testing.T) {
	cases := []struct {
		name, out string
		want      float64
		err       string
	}{
		{"one line", "12.34,Joules,power/energy-pkg/,1001234567,100.00,,\n", 12.34, ""},
		{"per socket lines are summed", "# started\n1.5,Joules,power/energy-pkg/,1,100.00\n2.25,Joules,power/energy-pkg/,1,100.00\n", 3.75, ""},
		{"other events skipped", "3,,cycles,1,100\n4,Joules,power/energy-pkg/,1,100\n", 4, ""},
		{"not counted", "<not counted>,Joules,power/energy-pkg/,0,0.00\n", 0, "not counted"},
		{"not supported", "<not supported>,,power/energy-pkg/,0,0.00\n", 0, "not supported"},
		{"no event", "event syntax error: 'power/energy-pkg/'\n", 0, "no power/energy-pkg/ count"},
		{"wrong unit", "4,mJ,power/energy-pkg/,1,100\n", 0, "unit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParsePerf([]byte(c.out))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err %v, want %q", err, c.err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("%v, %v; want %v", got, err, c.want)
			}
		})
	}
}

// A fake perf that behaves as perf stat -a does: counts until SIGINT, then prints.
func TestPerfStartStop(t *testing.T) {
	dir := t.TempDir()
	perf := filepath.Join(dir, "perf")
	script := `#!/bin/sh
case "$*" in *"-- true"*) echo "0.5,Joules,power/energy-pkg/,1,100.00,," >&2; exit 0;; esac
trap 'echo "7.25,Joules,power/energy-pkg/,1,100.00,," >&2; exit 0' INT
touch "$0.ready"
while :; do sleep 0.01; done
`
	if err := os.WriteFile(perf, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := Detect(context.Background(), PerfName, Env{PowercapRoot: dir, Perf: perf})
	if err != nil {
		t.Fatal(err)
	}
	r, err := src.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// The trap must be set before the interrupt (real perf opens its counters as
	// fast as perfSettle allows; a loaded test machine may be slower).
	for {
		if _, err := os.Stat(perf + ".ready"); err == nil {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	j, err := r.Stop(context.Background())
	if err != nil || j != 7.25 {
		t.Fatalf("Stop = %v, %v; want 7.25", j, err)
	}
}

func TestMeter(t *testing.T) {
	dir := t.TempDir()
	counter := filepath.Join(dir, "joules")
	setCounter(t, counter, "100.5")
	m := &Meter{Command: "echo reading; cat " + counter}
	r, err := m.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	setCounter(t, counter, "103")
	if j, err := r.Stop(context.Background()); err != nil || j != 2.5 {
		t.Fatalf("Stop = %v, %v; want 2.5", j, err)
	}
	r, _ = m.Start(context.Background())
	setCounter(t, counter, "1")
	if _, err := r.Stop(context.Background()); err == nil || !strings.Contains(err.Error(), "went down") {
		t.Errorf("a counter that goes down: %v", err)
	}
	for _, bad := range []string{"", "12 J", "-3", "NaN"} {
		if _, err := ParseMeter([]byte(bad)); err == nil {
			t.Errorf("ParseMeter(%q) accepted", bad)
		}
	}
	if _, err := (&Meter{Command: "exit 3"}).Start(context.Background()); err == nil {
		t.Error("a failing meter command accepted")
	}
}
