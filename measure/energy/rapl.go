package energy

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// DefaultPowercapRoot is where Linux exposes the powercap zones.
const DefaultPowercapRoot = "/sys/class/powercap"

// topZone matches a top-level RAPL zone directory ("intel-rapl:0"), not a subzone
// ("intel-rapl:0:1", counted in its package) nor the MMIO copy of a package zone.
var topZone = regexp.MustCompile(`^[a-z-]*rapl:[0-9]+$`)

// RAPL reads the Linux powercap RAPL counters: energy_uj of every top-level package
// zone (named "package-N"; when no zone has such a name, every top-level zone), read
// before and after the region. A counter that went down wrapped at its
// max_energy_range_uj, which is added back (one wrap per reading at most: at 250 W a
// 32-bit-range counter wraps every 17 minutes or more).
type RAPL struct {
	Root  string
	zones []raplZone
}

type raplZone struct {
	dir      string
	maxRange float64 // microjoules
}

// NewRAPL finds the RAPL zones under root and checks that their counters can be read
// (energy_uj is readable by root only on recent kernels).
func NewRAPL(root string) (*RAPL, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("rapl: %w", err)
	}
	var all, pkg []raplZone
	for _, e := range entries {
		if !topZone.MatchString(e.Name()) || strings.Contains(e.Name(), "mmio") {
			continue
		}
		dir := filepath.Join(root, e.Name())
		if _, err := readMicrojoules(filepath.Join(dir, "energy_uj")); err != nil {
			return nil, fmt.Errorf("rapl: %w", err)
		}
		max, err := readMicrojoules(filepath.Join(dir, "max_energy_range_uj"))
		if err != nil {
			return nil, fmt.Errorf("rapl: %w", err)
		}
		z := raplZone{dir: dir, maxRange: max}
		all = append(all, z)
		if name, err := os.ReadFile(filepath.Join(dir, "name")); err == nil && strings.HasPrefix(strings.TrimSpace(string(name)), "package") {
			pkg = append(pkg, z)
		}
	}
	zones := pkg
	if len(zones) == 0 {
		zones = all
	}
	if len(zones) == 0 {
		return nil, fmt.Errorf("rapl: no RAPL zone under %s", root)
	}
	sort.Slice(zones, func(i, j int) bool { return zones[i].dir < zones[j].dir })
	return &RAPL{Root: root, zones: zones}, nil
}

// Name is "rapl".
func (r *RAPL) Name() string { return RAPLName }

// Zones lists the zone directories read, for messages.
func (r *RAPL) Zones() []string {
	var d []string
	for _, z := range r.zones {
		d = append(d, z.dir)
	}
	return d
}

// Start reads every counter.
func (r *RAPL) Start(ctx context.Context) (Reading, error) {
	v, err := r.read()
	if err != nil {
		return nil, err
	}
	return &raplReading{r: r, before: v}, nil
}

func (r *RAPL) read() ([]float64, error) {
	v := make([]float64, len(r.zones))
	for i, z := range r.zones {
		x, err := readMicrojoules(filepath.Join(z.dir, "energy_uj"))
		if err != nil {
			return nil, fmt.Errorf("rapl: %w", err)
		}
		v[i] = x
	}
	return v, nil
}

type raplReading struct {
	r      *RAPL
	before []float64
}

// Stop reads the counters again and returns the joules, wrap-around included.
func (rr *raplReading) Stop(ctx context.Context) (float64, error) {
	after, err := rr.r.read()
	if err != nil {
		return 0, err
	}
	return Delta(rr.before, after, rr.r.maxRanges()) / 1e6, nil
}

func (r *RAPL) maxRanges() []float64 {
	m := make([]float64, len(r.zones))
	for i, z := range r.zones {
		m[i] = z.maxRange
	}
	return m
}

// Delta sums after[i] − before[i] over the counters, adding maxRange[i] where a
// counter wrapped (after < before). Units are those of the counters.
func Delta(before, after, maxRange []float64) float64 {
	sum := 0.0
	for i := range before {
		d := after[i] - before[i]
		if d < 0 {
			d += maxRange[i]
		}
		sum += d
	}
	return sum
}

func readMicrojoules(path string) (float64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return float64(v), nil
}
