package measure

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/domain/workload"
)

// Phases of a sample. A kernel measured alone gives its time and its dynamic energy;
// with --concurrent, the kernels' times come from runs in which all of them share the
// node (seed 000 §8: times "measured simultaneously", contention included), and their
// energies from runs alone (the seed's individual dynamic energy profiles), since a
// node meter cannot tell the kernels of one run apart.
const (
	PhaseAlone      = "alone"
	PhaseConcurrent = "concurrent"
)

// Sample is one row of a samples file: one run of one kernel at one size.
type Sample struct {
	Processor  string
	Size       int     // granules, > 0
	Repetition int     // 1-based run number within (processor, size, phase)
	Time       float64 // seconds; NaN when the row has none (energy runs of --concurrent)
	Energy     float64 // dynamic energy, joules; NaN when the row has none (time-only)
	// The columns below are written by `schedopt measure` and optional on import.
	TotalEnergy float64 // node energy of the run before static power is taken off; NaN if none
	Phase       string  // PhaseAlone (also when empty) or PhaseConcurrent
	Reached     string  // "true" or "false": whether Alg. 5 reached ε for this point; "" if unknown
}

// Columns of a samples file, in the order WriteSamples writes them. ReadSamples needs
// the header row; it requires processor, size, repetition and time, takes energy,
// total_energy, phase and reached when present, ignores other columns, and accepts
// them in any order.
var Columns = []string{"processor", "size", "repetition", "time", "energy", "total_energy", "phase", "reached"}

var requiredColumns = []string{"processor", "size", "repetition", "time"}

// WriteSamples writes samples as CSV with the Columns header. Missing values (NaN)
// are empty cells.
func WriteSamples(w io.Writer, samples []Sample) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(Columns); err != nil {
		return fmt.Errorf("measure: samples: %w", err)
	}
	for _, s := range samples {
		rec := []string{s.Processor, strconv.Itoa(s.Size), strconv.Itoa(s.Repetition),
			formatValue(s.Time), formatValue(s.Energy), formatValue(s.TotalEnergy), s.Phase, s.Reached}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("measure: samples: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("measure: samples: %w", err)
	}
	return nil
}

func formatValue(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// maxCSVField bounds one cell of a samples file; longer cells are bad input.
const maxCSVField = 4096

// ReadSamples parses a samples file (see Columns). file names it in errors, which are
// *domain.FieldError with the field "line L, COLUMN": a processor must be named, size
// and repetition are positive integers (size at most workload.MaxGranules), time and
// energy finite (time >= 0; energy may be below 0, a single run's dynamic energy can
// be), a row must have a time or an energy, phase is "alone", "concurrent" or empty,
// reached "true", "false" or empty, and no (processor, size, phase, repetition) occurs
// twice. Blank lines and lines starting with # are skipped.
func ReadSamples(r io.Reader, file string) ([]Sample, error) {
	cr := csv.NewReader(r)
	cr.Comment = '#'
	cr.TrimLeadingSpace = true
	cr.ReuseRecord = false
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, &domain.FieldError{File: file, Reason: "empty: want a header line " + strings.Join(Columns, ",")}
	}
	if err != nil {
		return nil, csvError(file, err)
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(h))
		if _, dup := col[h]; dup && h != "" {
			return nil, &domain.FieldError{File: file, Field: "line 1", Reason: fmt.Sprintf("column %q appears twice", h)}
		}
		col[h] = i
	}
	for _, c := range requiredColumns {
		if _, ok := col[c]; !ok {
			return nil, &domain.FieldError{File: file, Field: "line 1", Reason: fmt.Sprintf("no column %q (the header needs %s)", c, strings.Join(requiredColumns, ", "))}
		}
	}
	type key struct {
		proc      string
		size, rep int
		phase     string
	}
	seen := map[key]int{}
	var out []Sample
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvError(file, err)
		}
		line, _ := cr.FieldPos(0)
		cell := func(name string) string {
			if i, ok := col[name]; ok && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		bad := func(name, format string, args ...any) error {
			return &domain.FieldError{File: file, Field: fmt.Sprintf("line %d, %s", line, name), Reason: fmt.Sprintf(format, args...)}
		}
		for _, v := range rec {
			if len(v) > maxCSVField {
				return nil, bad("row", "a cell is longer than %d bytes", maxCSVField)
			}
		}
		s := Sample{Processor: cell("processor"), Phase: cell("phase"), Reached: cell("reached")}
		if s.Processor == "" {
			return nil, bad("processor", "empty: name the processor")
		}
		if strings.HasPrefix(s.Processor, "#") {
			return nil, bad("processor", "%q starts with #, which marks a comment line", s.Processor)
		}
		if s.Size, err = positiveInt(cell("size"), workload.MaxGranules); err != nil {
			return nil, bad("size", "%v", err)
		}
		if s.Repetition, err = positiveInt(cell("repetition"), math.MaxInt32); err != nil {
			return nil, bad("repetition", "%v", err)
		}
		if s.Time, err = optionalFloat(cell("time")); err != nil {
			return nil, bad("time", "%v", err)
		}
		if s.Time < 0 {
			return nil, bad("time", "must be >= 0, got %v", s.Time)
		}
		if s.Energy, err = optionalFloat(cell("energy")); err != nil {
			return nil, bad("energy", "%v", err)
		}
		if s.TotalEnergy, err = optionalFloat(cell("total_energy")); err != nil {
			return nil, bad("total_energy", "%v", err)
		}
		if math.IsNaN(s.Time) && math.IsNaN(s.Energy) {
			return nil, bad("time", "empty, and so is energy: a row needs a time or an energy")
		}
		switch s.Phase {
		case "", PhaseAlone, PhaseConcurrent:
		default:
			return nil, bad("phase", "is %q, want %q, %q or empty", s.Phase, PhaseAlone, PhaseConcurrent)
		}
		switch s.Reached {
		case "", "true", "false":
		default:
			return nil, bad("reached", "is %q, want true, false or empty", s.Reached)
		}
		k := key{s.Processor, s.Size, s.Repetition, phaseOf(s.Phase)}
		if first, dup := seen[k]; dup {
			return nil, bad("repetition", "repetition %d of %s at size %d again (first on line %d)", s.Repetition, s.Processor, s.Size, first)
		}
		seen[k] = line
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, &domain.FieldError{File: file, Reason: "no samples after the header"}
	}
	return out, nil
}

func phaseOf(p string) string {
	if p == "" {
		return PhaseAlone
	}
	return p
}

func csvError(file string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &domain.FieldError{File: file, Field: fmt.Sprintf("line %d", pe.Line), Reason: pe.Err.Error()}
	}
	return &domain.FieldError{File: file, Reason: err.Error()}
}

func positiveInt(s string, max int) (int, error) {
	if s == "" {
		return 0, errors.New("empty: want a positive integer")
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 1 {
		return 0, fmt.Errorf("%q is not a positive integer", s)
	}
	if v > max {
		return 0, fmt.Errorf("%d is larger than %d", v, max)
	}
	return v, nil
}

// optionalFloat parses a finite number; an empty cell is NaN (no value).
func optionalFloat(s string) (float64, error) {
	if s == "" {
		return math.NaN(), nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a finite number", s)
	}
	return v, nil
}
