package kinds

import (
	"fmt"
	"os"

	"github.com/schedopt/schedopt/domain"
)

// Size is the estimated size of a problem's model, computed from the instance's
// dimensions alone (before anything is allocated). Estimates are float64 so that
// absurd dimensions (m = 10^18) do not overflow.
type Size struct {
	Variables float64
	Nonzeros  float64
}

// Sizer is a Problem that can estimate its model's size up front.
type Sizer interface {
	// EstimateSize returns an upper estimate of the model's variables and nonzeros.
	EstimateSize() Size
}

// BytesPerNonzero is the memory a nonzero costs from instance to solver: our sparse
// rows, the backend's copy and the solver's factorisation and search (a generous
// average measured on HiGHS).
const BytesPerNonzero = 300

// NoLimitsEnv is the environment variable that lifts the size limits on purpose:
// SCHEDOPT_NO_LIMITS=1 (docs/spec.md, "Ranges and limits").
const NoLimitsEnv = "SCHEDOPT_NO_LIMITS"

// Limits are the hard size limits checked before an instance is read or its model
// built. A zero field means no limit.
type Limits struct {
	MaxInputBytes int64   // size of an input file
	MaxNonzeros   float64 // estimated nonzeros of a model
	MaxCount      int     // any count given to a generator (machines, tasks, points, ...)
}

// DefaultLimits are the limits of the command line: 16 MiB of input, 2·10^6 nonzeros
// (about 600 MB at BytesPerNonzero) and counts up to 10^5.
func DefaultLimits() Limits {
	return Limits{MaxInputBytes: 16 << 20, MaxNonzeros: 2e6, MaxCount: 100_000}
}

// LimitsFromEnv returns DefaultLimits, or no limits when getenv(NoLimitsEnv) is set
// to a non-empty value other than "0".
func LimitsFromEnv(getenv func(string) string) Limits {
	if v := getenv(NoLimitsEnv); v != "" && v != "0" {
		return Limits{}
	}
	return DefaultLimits()
}

// override is the sentence every limit error ends with.
const override = "set " + NoLimitsEnv + "=1 to lift the limit on purpose"

// CheckInput refuses an input file larger than MaxInputBytes, before it is read.
func (l Limits) CheckInput(path string) error {
	if l.MaxInputBytes <= 0 {
		return nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return &domain.FieldError{File: path, Reason: domain.ReadReason(err)}
	}
	if st.Size() > l.MaxInputBytes {
		return &domain.FieldError{File: path, Reason: fmt.Sprintf("the file has %d bytes, more than the limit of %d (%s)", st.Size(), l.MaxInputBytes, override)}
	}
	return nil
}

// CheckReadSize refuses n bytes read from file above MaxInputBytes: for standard
// input, whose size is known only as it is read (read at most MaxInputBytes+1).
func (l Limits) CheckReadSize(file string, n int64) error {
	if l.MaxInputBytes > 0 && n > l.MaxInputBytes {
		return &domain.FieldError{File: file, Reason: fmt.Sprintf("the input has more than %d bytes, the limit (%s)", l.MaxInputBytes, override)}
	}
	return nil
}

// CheckSize refuses a problem whose estimated model exceeds MaxNonzeros, with the
// estimate and its memory in the message. Problems without an estimate pass.
func (l Limits) CheckSize(p Problem) error {
	s, ok := p.(Sizer)
	if !ok || l.MaxNonzeros <= 0 {
		return nil
	}
	est := s.EstimateSize()
	if est.Nonzeros <= l.MaxNonzeros {
		return nil
	}
	return domain.Errorf("", "the %s model would have about %.3g variables and %.3g nonzeros (about %s of memory), more than the limit of %.3g nonzeros (%s)",
		p.Kind(), est.Variables, est.Nonzeros, humanBytes(est.Nonzeros*BytesPerNonzero), l.MaxNonzeros, override)
}

// CheckCount refuses a generator count above MaxCount, naming the flag.
func (l Limits) CheckCount(flag string, v int64) error {
	if l.MaxCount > 0 && v > int64(l.MaxCount) {
		return domain.Errorf(flag, "%d is more than the limit of %d (%s)", v, l.MaxCount, override)
	}
	return nil
}

// humanBytes formats a byte count as "1.2 GB".
func humanBytes(b float64) string {
	for _, u := range []string{"B", "kB", "MB", "GB", "TB", "PB"} {
		if b < 1000 {
			return fmt.Sprintf("%.3g %s", b, u)
		}
		b /= 1000
	}
	return fmt.Sprintf("%.3g EB", b)
}
