package measure

import (
	"strconv"
	"strings"

	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/domain/workload"
)

// SizePlaceholder is replaced by the size in granules in a kernel's command.
const SizePlaceholder = "{size}"

// Kernel is one processor's command template, from --cmd NAME='COMMAND {size}'. The
// command is run with /bin/sh -c after SizePlaceholder is replaced.
type Kernel struct {
	Name     string
	Template string
}

// ParseKernel parses NAME=COMMAND. The name must be non-empty and free of '=' and
// commas (it becomes a CSV cell and a processor name); the command must contain
// SizePlaceholder, or every size would run the same work.
func ParseKernel(s string) (Kernel, error) {
	name, cmd, ok := strings.Cut(s, "=")
	name, cmd = strings.TrimSpace(name), strings.TrimSpace(cmd)
	switch {
	case !ok || name == "":
		return Kernel{}, domain.Errorf("--cmd", "%q: want NAME='COMMAND {size}'", s)
	case strings.ContainsAny(name, ",\"\r\n") || strings.HasPrefix(name, "#"):
		return Kernel{}, domain.Errorf("--cmd", "name %q: must not start with # nor contain commas, quotes or newlines", name)
	case cmd == "":
		return Kernel{}, domain.Errorf("--cmd", "%s: empty command", name)
	case !strings.Contains(cmd, SizePlaceholder):
		return Kernel{}, domain.Errorf("--cmd", "%s: command %q has no %s", name, cmd, SizePlaceholder)
	}
	return Kernel{Name: name, Template: cmd}, nil
}

// Command is the kernel's command at size granules.
func (k Kernel) Command(size int) string {
	return strings.ReplaceAll(k.Template, SizePlaceholder, strconv.Itoa(size))
}

// ParseSizes parses --sizes: a range "A..B" (every size from A to B) or a list
// "1,2,4". Sizes are positive, at most workload.MaxGranules, and distinct; the result
// is in the order given.
func ParseSizes(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	if a, b, ok := strings.Cut(s, ".."); ok {
		lo, err1 := strconv.Atoi(strings.TrimSpace(a))
		hi, err2 := strconv.Atoi(strings.TrimSpace(b))
		if err1 != nil || err2 != nil || lo < 1 || hi < lo {
			return nil, domain.Errorf("--sizes", "%q: want A..B with 1 <= A <= B", s)
		}
		if hi > workload.MaxGranules {
			return nil, domain.Errorf("--sizes", "%q: sizes above %d granules", s, workload.MaxGranules)
		}
		if hi-lo >= maxSizes {
			return nil, domain.Errorf("--sizes", "%q: more than %d sizes", s, maxSizes)
		}
		var out []int
		for v := lo; v <= hi; v++ {
			out = append(out, v)
		}
		return out, nil
	}
	var out []int
	seen := map[int]bool{}
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 1 || v > workload.MaxGranules {
			return nil, domain.Errorf("--sizes", "%q: %q is not a size in granules (1..%d)", s, strings.TrimSpace(f), workload.MaxGranules)
		}
		if seen[v] {
			return nil, domain.Errorf("--sizes", "%q: size %d twice", s, v)
		}
		seen[v] = true
		out = append(out, v)
	}
	if len(out) > maxSizes {
		return nil, domain.Errorf("--sizes", "more than %d sizes", maxSizes)
	}
	return out, nil
}

// maxSizes bounds the number of sizes: each is measured, and a profile of more points
// than this would take days (seed 003's largest has 1500).
const maxSizes = 100000
