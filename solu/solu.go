package solu

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/schedopt/schedopt/domain"
)

// Expected is what a .solu file says about an instance.
type Expected string

// The kinds of .solu lines, by their tag without the '=' signs.
const (
	Opt  Expected = "opt"  // the optimum is Value
	Best Expected = "best" // the best known value is Value
	Inf  Expected = "inf"  // the instance is infeasible
	Feas Expected = "feas" // a solution exists; its value is unknown
	Unbd Expected = "unbd" // the instance is unbounded
	Unkn Expected = "unkn" // nothing is known
)

// Entry is one line of a .solu file.
type Entry struct {
	Name     string
	Expected Expected
	Value    float64 // for Opt and Best; 0 otherwise
	Line     int     // the line of the file, for messages
}

// HasValue reports whether the entry carries a value (=opt= and =best=).
func (e Entry) HasValue() bool { return e.Expected == Opt || e.Expected == Best }

// File is a parsed .solu file: its entries by instance name.
type File struct {
	Path    string
	Entries map[string]Entry
}

// Lookup returns the entry of the instance called name.
func (f *File) Lookup(name string) (Entry, bool) {
	if f == nil {
		return Entry{}, false
	}
	e, ok := f.Entries[name]
	return e, ok
}

// ReadFile reads a .solu file. A malformed line is a *domain.FieldError naming the
// file and the line.
func ReadFile(path string) (*File, error) {
	fh, err := domain.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	f, err := Parse(fh)
	if err != nil {
		return nil, domain.InFile(path, err)
	}
	f.Path = path
	return f, nil
}

// maxLine bounds a .solu line; real lines are short.
const maxLine = 1 << 16

// Parse reads .solu lines from r. A malformed line (an unknown tag, a missing name, a
// missing or extra value, a number that does not parse or is not finite, a name given
// twice) is a *domain.FieldError whose field is the line.
func Parse(r io.Reader) (*File, error) {
	f := &File{Entries: map[string]Entry{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		e, err := parseLine(s)
		if err != nil {
			return nil, lineError(line, err.Error())
		}
		e.Line = line
		if old, ok := f.Entries[e.Name]; ok {
			return nil, lineError(line, fmt.Sprintf("instance %q already given on line %d", e.Name, old.Line))
		}
		f.Entries[e.Name] = e
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, lineError(line+1, fmt.Sprintf("line longer than %d bytes", maxLine))
		}
		return nil, fmt.Errorf("solu: read: %w", err)
	}
	return f, nil
}

func lineError(line int, reason string) error {
	return &domain.FieldError{Field: fmt.Sprintf("line %d", line), Reason: reason}
}

func parseLine(s string) (Entry, error) {
	f := strings.Fields(s)
	tag := f[0]
	if len(tag) < 3 || tag[0] != '=' || tag[len(tag)-1] != '=' {
		return Entry{}, fmt.Errorf("want a tag =opt=, =best=, =inf=, =feas=, =unbd= or =unkn=, got %q", tag)
	}
	e := Entry{Expected: Expected(tag[1 : len(tag)-1])}
	switch e.Expected {
	case Opt, Best, Inf, Feas, Unbd, Unkn:
	default:
		return Entry{}, fmt.Errorf("unknown tag %q (want =opt=, =best=, =inf=, =feas=, =unbd= or =unkn=)", tag)
	}
	if len(f) < 2 {
		return Entry{}, fmt.Errorf("%s without an instance name", tag)
	}
	e.Name = f[1]
	want := 2
	if e.HasValue() {
		want = 3
		if len(f) < 3 {
			return Entry{}, fmt.Errorf("%s %s without a value", tag, e.Name)
		}
		v, err := strconv.ParseFloat(f[2], 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return Entry{}, fmt.Errorf("%s %s: value %q is not a finite number", tag, e.Name, f[2])
		}
		e.Value = v
	}
	if len(f) > want {
		return Entry{}, fmt.Errorf("%s %s: unexpected text %q after the entry", tag, e.Name, strings.Join(f[want:], " "))
	}
	return e, nil
}
