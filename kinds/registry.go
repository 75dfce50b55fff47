package kinds

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/schedopt/schedopt/domain"
)

// Registry is the set of instance kinds a program understands: the CLI, sweeps and
// library users load instances and find generators through it. Build one with
// NewRegistry (kinds/builtin has the registry of every built-in kind).
type Registry struct {
	kinds []Kind
}

// NewRegistry returns a registry of the given kinds, in the order they are listed
// (the order of Names and Generators). A kind whose name is already listed is ignored.
func NewRegistry(ks ...Kind) *Registry {
	r := &Registry{}
	for _, k := range ks {
		if _, dup := r.Kind(k.Name()); !dup {
			r.kinds = append(r.kinds, k)
		}
	}
	return r
}

// Names lists the kinds' names in registry order.
func (r *Registry) Names() []string {
	ns := make([]string, len(r.kinds))
	for i, k := range r.kinds {
		ns[i] = k.Name()
	}
	return ns
}

// Kind returns the kind called name.
func (r *Registry) Kind(name string) (Kind, bool) {
	for _, k := range r.kinds {
		if k.Name() == name {
			return k, true
		}
	}
	return nil, false
}

// Generators lists the instance generators of every kind.
func (r *Registry) Generators() []Generator {
	var gs []Generator
	for _, k := range r.kinds {
		gs = append(gs, k.Generators()...)
	}
	return gs
}

// LoadFile reads and validates an instance file. Bad input gives a *domain.FieldError
// naming the file, the field and the reason.
func (r *Registry) LoadFile(path string) (Problem, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	p, err := r.Load(data, DefaultName(path))
	if err != nil {
		return nil, domain.InFile(path, err)
	}
	return p, nil
}

// ReadFile reads an instance file; a read failure is a *domain.FieldError for the file.
func ReadFile(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &domain.FieldError{File: path, Reason: domain.ReadReason(err)}
	}
	return data, nil
}

// DefaultName is the name of an instance without a "name" field: the file's base name
// without its extension.
func DefaultName(path string) string {
	base := filepath.Base(path)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// Load parses and validates an instance from JSON. name is used when the instance has
// no "name" field.
func (r *Registry) Load(data []byte, name string) (Problem, error) {
	var head struct {
		Kind *string `json:"kind"`
		Name string  `json:"name"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		// A syntax error such as a bare NaN: when the kind can still be read, let the
		// kind's own parser report it, naming the field.
		kind, ok := r.sniffKind(data)
		var se *json.SyntaxError
		if !ok || !errors.As(err, &se) {
			return nil, domain.JSONError(data, err)
		}
		head.Kind = &kind
	}
	if head.Kind == nil {
		return nil, domain.Errorf("kind", "missing (one of %s)", strings.Join(r.Names(), ", "))
	}
	if head.Name != "" {
		name = head.Name
	}
	if k, ok := r.Kind(*head.Kind); ok {
		return k.Load(data, name)
	}
	return nil, domain.Errorf("kind", "unknown kind %q (one of %s)", *head.Kind, strings.Join(r.Names(), ", "))
}

var kindRE = regexp.MustCompile(`"kind"\s*:\s*"([A-Za-z0-9_-]+)"`)

// sniffKind finds the "kind" string of a document that does not parse as JSON.
func (r *Registry) sniffKind(data []byte) (string, bool) {
	m := kindRE.FindSubmatch(data)
	if m == nil || !slices.Contains(r.Names(), string(m[1])) {
		return "", false
	}
	return string(m[1]), true
}
