package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/schedopt/schedopt/domain"
)

// Kinds lists the instance kinds schedopt understands, in the order of the spec.
func Kinds() []string {
	return []string{"dlt-flat", "dlt-single", "dlt-multi", "stencil", "workload", "partition"}
}

// LoadFile reads and validates an instance file. Bad input gives a *domain.FieldError
// naming the file, the field and the reason.
func LoadFile(path string) (Problem, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	p, err := Load(data, DefaultName(path))
	if err != nil {
		return nil, domain.InFile(path, err)
	}
	return p, nil
}

// ReadFile reads an instance file; a read failure is a *domain.FieldError for the file.
func ReadFile(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &domain.FieldError{File: path, Reason: readReason(err)}
	}
	return data, nil
}

func readReason(err error) string {
	if os.IsNotExist(err) {
		return "no such file"
	}
	return err.Error()
}

// DefaultName is the name of an instance without a "name" field: the file's base name
// without its extension.
func DefaultName(path string) string {
	base := filepath.Base(path)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// Load parses and validates an instance from JSON. name is used when the instance has
// no "name" field.
func Load(data []byte, name string) (Problem, error) {
	var head struct {
		Kind *string `json:"kind"`
		Name string  `json:"name"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		// A syntax error such as a bare NaN: when the kind can still be read, let the
		// kind's own parser report it, naming the field.
		kind, ok := sniffKind(data)
		var se *json.SyntaxError
		if !ok || !errors.As(err, &se) {
			return nil, domain.Errorf("", "invalid JSON: %v", err)
		}
		head.Kind = &kind
	}
	if head.Kind == nil {
		return nil, domain.Errorf("kind", "missing (one of %s)", strings.Join(Kinds(), ", "))
	}
	if head.Name != "" {
		name = head.Name
	}
	switch *head.Kind {
	case "dlt-flat":
		return loadDLTFlat(data, name)
	case "dlt-single":
		return loadDLTSingle(data, name)
	case "dlt-multi":
		return loadDLTMulti(data, name)
	case "stencil":
		return loadStencil(data, name)
	case "workload":
		return loadWorkload(data, name)
	case "partition":
		return loadPartition(data, name)
	}
	return nil, domain.Errorf("kind", "unknown kind %q (one of %s)", *head.Kind, strings.Join(Kinds(), ", "))
}

var kindRE = regexp.MustCompile(`"kind"\s*:\s*"([A-Za-z0-9_-]+)"`)

// sniffKind finds the "kind" string of a document that does not parse as JSON.
func sniffKind(data []byte) (string, bool) {
	m := kindRE.FindSubmatch(data)
	if m == nil || !slices.Contains(Kinds(), string(m[1])) {
		return "", false
	}
	return string(m[1]), true
}

// errNotYet marks a kind whose adapter is not written yet.
func errNotYet(kind string) error {
	return fmt.Errorf("kind %s is not implemented yet", kind)
}
