// Package benchfile finds and reads the model files of a benchmark set: MPS (free or
// fixed) and CPLEX LP files, plain or gzip-compressed (.mps, .mps.gz, .lp, .lp.gz),
// named by path, glob or directory, as MIPLIB distributes its sets.
//
// An instance is named by its file name without .mps/.lp and .gz (MIPLIB's names,
// the names a .solu file uses). A file that does not read is a *domain.FieldError
// naming the file and the line, so a sweep stops before its first job.
package benchfile

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/model"
)

// Formats of model files, as result lines spell them in "kind".
const (
	FormatMPS = "mps"
	FormatLP  = "lp"
)

// Format returns FormatMPS or FormatLP for a model file name (.mps, .mps.gz, .lp,
// .lp.gz, any case), or "" for any other file.
func Format(path string) string {
	base := strings.ToLower(filepath.Base(path))
	base = strings.TrimSuffix(base, ".gz")
	switch filepath.Ext(base) {
	case ".mps":
		return FormatMPS
	case ".lp":
		return FormatLP
	}
	return ""
}

// IsModelFile reports whether path names an MPS or LP file.
func IsModelFile(path string) bool { return Format(path) != "" }

// Name returns the instance name of a model file: its base name without .gz and
// .mps or .lp ("sets/p0033.mps.gz" → "p0033").
func Name(path string) string {
	base := filepath.Base(path)
	if strings.HasSuffix(strings.ToLower(base), ".gz") {
		base = base[:len(base)-3]
	}
	if ext := filepath.Ext(base); strings.EqualFold(ext, ".mps") || strings.EqualFold(ext, ".lp") {
		base = base[:len(base)-len(ext)]
	}
	return base
}

// ModelFiles returns the model files of a directory, sorted (not its subdirectories).
func ModelFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("benchfile: %w", err)
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() && IsModelFile(e.Name()) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}

// Options choose how model files are read.
type Options struct {
	// SCInInteger is the reading of an SC bound inside integer markers (the zero
	// value reads it as HiGHS does: semi-continuous).
	SCInInteger model.SCReading
	// Warn, when not nil, receives warnings about constructs read by a convention
	// other readers do not share, with the file's line.
	Warn func(path string, line int, msg string)
}

// Read reads the model file at path: MPS or LP by its name, gunzipped when it ends in
// .gz. The model is validated. Every problem is a *domain.FieldError naming the file
// (and the line, for a malformed file).
func Read(path string, o Options) (*model.Model, error) {
	format := Format(path)
	if format == "" {
		return nil, &domain.FieldError{File: path, Reason: "not a model file (want .mps, .mps.gz, .lp or .lp.gz)"}
	}
	fh, err := domain.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	var r io.Reader = bufio.NewReaderSize(fh, 1<<20)
	if strings.HasSuffix(strings.ToLower(path), ".gz") {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return nil, &domain.FieldError{File: path, Reason: "not a gzip file: " + err.Error()}
		}
		defer zr.Close()
		r = bufio.NewReaderSize(zr, 1<<20)
	}
	var m *model.Model
	if format == FormatLP {
		m, err = model.ReadLP(r)
	} else {
		mo := model.MPSOptions{SCInInteger: o.SCInInteger}
		if o.Warn != nil {
			mo.Warn = func(line int, msg string) { o.Warn(path, line, msg) }
		}
		m, err = model.ReadMPSOptions(r, mo)
	}
	if err != nil {
		return nil, fileError(path, err)
	}
	if err := m.Validate(); err != nil {
		return nil, fileError(path, err)
	}
	return m, nil
}

// fileError turns a reader's error into bad input naming the file: a
// *model.ParseError names its line (and section), a gzip error says the file is
// damaged, anything else keeps its text.
func fileError(path string, err error) error {
	var pe *model.ParseError
	if errors.As(err, &pe) {
		reason := pe.Reason
		if pe.Section != "" {
			reason = pe.Section + ": " + reason
		}
		return &domain.FieldError{File: path, Field: fmt.Sprintf("line %d", pe.Line), Reason: reason}
	}
	if errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &domain.FieldError{File: path, Reason: "damaged gzip data: " + err.Error()}
	}
	return &domain.FieldError{File: path, Reason: err.Error()}
}
