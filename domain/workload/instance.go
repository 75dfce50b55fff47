package workload

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/schedopt/schedopt/domain"
)

// Objectives of a workload instance. ObjMinTotal is beyond the spec: it minimises
// static_power × makespan + dynamic energy as a single objective.
const (
	ObjMinTime     = "min-time"         // HPOPT: minimise the makespan
	ObjMinEnergy   = "min-energy"       // EOPT: minimise the dynamic energy
	ObjMinTotal    = "min-total-energy" // minimise static_power·T + dynamic energy
	ObjPareto      = "pareto"           // HEPOPT front (makespan, dynamic energy)
	ObjParetoTotal = "pareto-total"     // HTPOPT front (makespan, total energy)
)

// Objectives lists the accepted objective names.
func Objectives() []string {
	return []string{ObjMinTime, ObjMinEnergy, ObjMinTotal, ObjPareto, ObjParetoTotal}
}

// IsFront reports whether objective asks for a Pareto front.
func IsFront(objective string) bool { return objective == ObjPareto || objective == ObjParetoTotal }

// MaxGranules bounds n once sizes are expressed in granules: the exact algorithms keep
// arrays indexed by the remaining workload, so a larger n is rejected as bad input.
const MaxGranules = 1 << 24

// Point is one measured point of a processor's discrete profile.
type Point struct {
	Size   int     `json:"size"`   // workload size, > 0
	Time   float64 `json:"time"`   // execution time, >= 0
	Energy float64 `json:"energy"` // dynamic energy, >= 0
}

// Processor is an abstract processor with its discrete time and energy functions.
type Processor struct {
	Name   string  `json:"name"`
	Points []Point `json:"points"`
}

// Instance is a workload instance as the spec defines it. Algorithm and Neighbourhood
// are optional fields beyond the spec that choose the exact algorithm of
// `--backend exact` and ADAPTALEPH's neighbourhood T.
type Instance struct {
	Kind          string      `json:"kind"`
	Name          string      `json:"name,omitempty"`
	N             int         `json:"n"`
	StaticPower   float64     `json:"static_power"`
	Processors    []Processor `json:"processors"`
	Objective     string      `json:"objective"`
	Algorithm     string      `json:"algorithm,omitempty"`
	Neighbourhood int         `json:"neighbourhood,omitempty"`
}

// raw mirrors Instance with float sizes so that non-integers are reported by field.
type raw struct {
	Kind        string   `json:"kind"`
	Name        string   `json:"name"`
	N           *float64 `json:"n"`
	StaticPower *float64 `json:"static_power"`
	Processors  []struct {
		Name   string `json:"name"`
		Points []struct {
			Size   *float64 `json:"size"`
			Time   *float64 `json:"time"`
			Energy *float64 `json:"energy"`
		} `json:"points"`
	} `json:"processors"`
	Objective     *string  `json:"objective"`
	Algorithm     string   `json:"algorithm"`
	Neighbourhood *float64 `json:"neighbourhood"`
}

// Parse decodes and validates an instance. Every error for bad input is a
// *domain.FieldError naming the JSON path.
func Parse(data []byte) (*Instance, error) {
	var r raw
	if err := domain.Decode(data, &r); err != nil {
		return nil, err
	}
	in := &Instance{Kind: r.Kind, Name: r.Name, Algorithm: r.Algorithm}
	if r.Kind != "" && r.Kind != "workload" {
		return nil, domain.Errorf("kind", "is %q, want \"workload\"", r.Kind)
	}
	in.Kind = "workload"
	n, err := wholeNumber("n", r.N, 1, true)
	if err != nil {
		return nil, err
	}
	in.N = n
	if r.StaticPower != nil {
		in.StaticPower = *r.StaticPower
	}
	if r.Objective == nil {
		return nil, domain.Errorf("objective", "missing (one of %s)", strings.Join(Objectives(), ", "))
	}
	in.Objective = *r.Objective
	if r.Neighbourhood != nil {
		k, err := wholeNumber("neighbourhood", r.Neighbourhood, 0, true)
		if err != nil {
			return nil, err
		}
		in.Neighbourhood = k
	}
	for i, rp := range r.Processors {
		p := Processor{Name: rp.Name, Points: make([]Point, len(rp.Points))}
		for j, rq := range rp.Points {
			f := fmt.Sprintf("processors[%d].points[%d]", i, j)
			s, err := wholeNumber(f+".size", rq.Size, 1, true)
			if err != nil {
				return nil, err
			}
			if rq.Time == nil {
				return nil, domain.Errorf(f+".time", "missing")
			}
			if rq.Energy == nil {
				return nil, domain.Errorf(f+".energy", "missing")
			}
			p.Points[j] = Point{Size: s, Time: *rq.Time, Energy: *rq.Energy}
		}
		in.Processors = append(in.Processors, p)
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	return in, nil
}

// wholeNumber checks that *v is present, an integer and at least min.
func wholeNumber(field string, v *float64, min int, required bool) (int, error) {
	if v == nil {
		if required {
			return 0, domain.Errorf(field, "missing")
		}
		return 0, nil
	}
	x := *v
	if x != math.Trunc(x) || math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, domain.Errorf(field, "must be an integer, got %v", x)
	}
	if x < float64(min) {
		if min == 1 {
			return 0, domain.Errorf(field, "must be a positive integer, got %v", x)
		}
		return 0, domain.Errorf(field, "must be >= %d, got %v", min, x)
	}
	if x > math.MaxInt32 {
		return 0, domain.Errorf(field, "is too large (%v > %d)", x, math.MaxInt32)
	}
	return int(x), nil
}

// Validate checks an instance built in Go (Parse calls it too): the objective is
// known, n and every size are positive, no processor lists a size twice, times and
// energies are finite and non-negative, static power is finite and non-negative, and n
// can be formed by giving each processor one of its sizes or nothing.
func (in *Instance) Validate() error {
	if !known(in.Objective) {
		return domain.Errorf("objective", "unknown objective %q (one of %s)", in.Objective, strings.Join(Objectives(), ", "))
	}
	if in.N < 1 {
		return domain.Errorf("n", "must be a positive integer, got %d", in.N)
	}
	if math.IsNaN(in.StaticPower) || math.IsInf(in.StaticPower, 0) || in.StaticPower < 0 {
		return domain.Errorf("static_power", "must be finite and >= 0, got %v", in.StaticPower)
	}
	if len(in.Processors) == 0 {
		return domain.Errorf("processors", "must list at least one processor")
	}
	if in.Neighbourhood < 0 {
		return domain.Errorf("neighbourhood", "must be >= 0, got %d", in.Neighbourhood)
	}
	for i, p := range in.Processors {
		seen := make(map[int]int, len(p.Points))
		for j, q := range p.Points {
			f := fmt.Sprintf("processors[%d].points[%d]", i, j)
			if q.Size < 1 {
				return domain.Errorf(f+".size", "must be a positive integer, got %d", q.Size)
			}
			if k, dup := seen[q.Size]; dup {
				return domain.Errorf(f+".size", "duplicate size %d in processor %d (also at points[%d])", q.Size, i, k)
			}
			seen[q.Size] = j
			if math.IsNaN(q.Time) || math.IsInf(q.Time, 0) || q.Time < 0 {
				return domain.Errorf(f+".time", "must be finite and >= 0, got %v", q.Time)
			}
			if math.IsNaN(q.Energy) || math.IsInf(q.Energy, 0) || q.Energy < 0 {
				return domain.Errorf(f+".energy", "must be finite and >= 0, got %v", q.Energy)
			}
		}
	}
	g := in.granule()
	if g == 0 {
		return domain.Errorf("processors", "no processor has any point, so n = %d cannot be formed", in.N)
	}
	if in.N%g != 0 {
		return domain.Errorf("n", "%d cannot be formed: every size is a multiple of %d", in.N, g)
	}
	if in.N/g > MaxGranules {
		return domain.Errorf("n", "%d is %d granules of %d, more than the %d the exact algorithms support", in.N, in.N/g, g, MaxGranules)
	}
	if !Reachable(in.Tables()) {
		return domain.Errorf("n", "%d cannot be formed by giving each processor one of its sizes or nothing", in.N)
	}
	return nil
}

func known(obj string) bool {
	for _, o := range Objectives() {
		if o == obj {
			return true
		}
	}
	return false
}

// granule returns the greatest common divisor of all sizes (0 when there are none).
func (in *Instance) granule() int {
	g := 0
	for _, p := range in.Processors {
		for _, q := range p.Points {
			g = gcd(g, q.Size)
		}
	}
	return g
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// Table is one processor's profile in granules, sorted by increasing size. The idle
// point (0, 0, 0) is implicit and not stored.
type Table struct {
	Size   []int
	Time   []float64
	Energy []float64
}

// Len returns the number of points.
func (t Table) Len() int { return len(t.Size) }

// Tables is an instance normalised for the algorithms: sizes and N in granules of
// Granule original units, each processor's points sorted by size.
type Tables struct {
	N       int
	Granule int
	Procs   []Table
}

// Tables normalises the instance. It assumes Validate passed (or at least that the
// sizes are positive).
func (in *Instance) Tables() *Tables {
	g := in.granule()
	if g == 0 {
		g = 1
	}
	ts := &Tables{N: in.N / g, Granule: g, Procs: make([]Table, len(in.Processors))}
	for i, p := range in.Processors {
		pts := append([]Point(nil), p.Points...)
		sort.Slice(pts, func(a, b int) bool { return pts[a].Size < pts[b].Size })
		t := Table{Size: make([]int, len(pts)), Time: make([]float64, len(pts)), Energy: make([]float64, len(pts))}
		for j, q := range pts {
			t.Size[j], t.Time[j], t.Energy[j] = q.Size/g, q.Time, q.Energy
		}
		ts.Procs[i] = t
	}
	return ts
}

// P returns the number of processors.
func (ts *Tables) P() int { return len(ts.Procs) }

// Identical reports whether every processor has exactly the same table.
func (ts *Tables) Identical() bool {
	a := ts.Procs[0]
	for _, b := range ts.Procs[1:] {
		if a.Len() != b.Len() {
			return false
		}
		for j := range a.Size {
			if a.Size[j] != b.Size[j] || a.Time[j] != b.Time[j] || a.Energy[j] != b.Energy[j] {
				return false
			}
		}
	}
	return true
}

// Index returns the index of size x (in granules) in processor i's table, or -1.
func (ts *Tables) Index(i, x int) int {
	s := ts.Procs[i].Size
	k := sort.SearchInts(s, x)
	if k < len(s) && s[k] == x {
		return k
	}
	return -1
}

// Reachable reports whether N granules can be formed by giving each processor one of
// its sizes or nothing (a subset-sum over bitsets, O(N·Σm/64)).
func Reachable(ts *Tables) bool { return ReachableWithin(ts, math.Inf(1)) }

// ReachableWithin reports whether N granules can be formed using only points whose
// time is at most tau: whether a distribution with makespan at most tau exists.
func ReachableWithin(ts *Tables, tau float64) bool {
	words := ts.N/64 + 1
	reach := make([]uint64, words)
	next := make([]uint64, words)
	reach[0] = 1
	for _, t := range ts.Procs {
		copy(next, reach)
		for j, x := range t.Size {
			if x > ts.N {
				break
			}
			if t.Time[j] <= tau {
				orShifted(next, reach, x)
			}
		}
		reach, next = next, reach
	}
	return reach[ts.N/64]>>(uint(ts.N)%64)&1 == 1
}

// orShifted sets dst |= src << s over bitsets of equal length.
func orShifted(dst, src []uint64, s int) {
	ws, bs := s/64, uint(s%64)
	for i := len(dst) - 1; i >= ws; i-- {
		v := src[i-ws] << bs
		if bs != 0 && i-ws-1 >= 0 {
			v |= src[i-ws-1] >> (64 - bs)
		}
		dst[i] |= v
	}
}
