package energy

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUnknownParam is returned by Index for a name the model does not have.
var ErrUnknownParam = errors.New("energy: unknown parameter")

// Param describes one parameter of a model: its symbol in the seed, its unit, the
// values it may take and the axis the thesis draws it on.
type Param struct {
	Name     string     // symbol as in seed 004 ch. 4: m, a, C, S, V, k, PC, PN (f for the laws)
	Unit     string     // SI unit, or "" for dimensionless numbers
	Desc     string     // what it is, for labels and help
	Discrete bool       // integer-valued (the processor number m)
	Min      float64    // smallest admissible value
	MinOpen  bool       // Min itself is not admissible
	Max      float64    // largest admissible value (+Inf when unbounded)
	Range    [2]float64 // default axis range of a map
	Log      bool       // the default axis is logarithmic
}

// Admits reports whether v is an admissible value of the parameter.
func (p Param) Admits(v float64) bool {
	if v != v || v > p.Max || v < p.Min || (p.MinOpen && v == p.Min) {
		return false
	}
	if p.Discrete && v != float64(int64(v)) {
		return false
	}
	return true
}

// Label is the axis label of the parameter: "PC [W]".
func (p Param) Label() string {
	if p.Unit == "" {
		return p.Desc + " " + p.Name
	}
	return fmt.Sprintf("%s %s [%s]", p.Desc, p.Name, p.Unit)
}

// Point is the value of a model at one parameter vector.
type Point struct {
	E        float64 // energy (J for the divisible-load model, relative units for the laws)
	T        float64 // schedule length (s, or relative units)
	Feasible bool    // false when the configuration cannot be scheduled (α_m < 0) or a parameter is not admissible
}

// Model is an energy model whose isolines can be traced.
type Model interface {
	// Name is the model's name on the command line: "dlt", "amdahl", "gustafson".
	Name() string
	// Params lists the parameters, in the order of the vectors Eval takes.
	Params() []Param
	// Reference is the parameter vector maps use unless told otherwise.
	Reference() []float64
	// EnergyUnit is the unit of E: "J" or "" for relative units.
	EnergyUnit() string
	// Eval evaluates energy and schedule length at p.
	Eval(p []float64) Point
	// Solve returns the value of parameter i at which the energy equals level, the
	// other parameters as in p, by a closed form; ok is false when the model has none
	// for i. The caller checks the value's admissibility and feasibility with Eval.
	Solve(i int, level float64, p []float64) (v float64, ok bool)
}

// Index returns the position of the parameter called name in m.Params().
func Index(m Model, name string) (int, error) {
	ps := m.Params()
	for i, p := range ps {
		if p.Name == name {
			return i, nil
		}
	}
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name
	}
	return -1, fmt.Errorf("%w %q of model %s (want one of %s)", ErrUnknownParam, name, m.Name(), strings.Join(names, ", "))
}

// Models returns the closed-form models by name.
func Models() map[string]Model {
	return map[string]Model{"dlt": DLT{}, "amdahl": Amdahl{}, "gustafson": Gustafson{}}
}
