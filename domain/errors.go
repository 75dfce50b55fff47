package domain

import (
	"errors"
	"fmt"
	"os"
)

// ErrBadInput is wrapped by every FieldError, so callers can map bad input to exit
// status 2 with errors.Is.
var ErrBadInput = errors.New("bad input")

// FieldError reports bad input: the file it came from, the JSON path of the field (for
// example "machines[3].rho") and the reason. Its message is the one line the command
// line prints: "instance.json: machines[3].rho: must be > 0".
type FieldError struct {
	File   string // file name; may be empty when the input did not come from a file
	Field  string // JSON path of the field; may be empty for whole-document problems
	Reason string
}

// Error formats the error as "file: field: reason", leaving out empty parts.
func (e *FieldError) Error() string {
	s := e.Reason
	if e.Field != "" {
		s = e.Field + ": " + s
	}
	if e.File != "" {
		s = e.File + ": " + s
	}
	return s
}

// Unwrap makes errors.Is(err, ErrBadInput) true.
func (e *FieldError) Unwrap() error { return ErrBadInput }

// Errorf returns a FieldError for field with a formatted reason and no file; the loader
// that knows the file sets it with InFile.
func Errorf(field, format string, args ...any) error {
	return &FieldError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// InFile sets the file of the first FieldError in err's chain, when it has none, and
// returns err. Loaders return FieldErrors unwrapped, so the file then leads the message;
// errors without a FieldError are wrapped as a FieldError for the whole file.
func InFile(file string, err error) error {
	if err == nil {
		return nil
	}
	var fe *FieldError
	if errors.As(err, &fe) {
		if fe.File == "" {
			fe.File = file
		}
		return err
	}
	return &FieldError{File: file, Reason: err.Error()}
}

// ReadReason is the reason a FieldError gives for a file that cannot be read: "no
// such file", or the error itself.
func ReadReason(err error) string {
	if errors.Is(err, os.ErrNotExist) {
		return "no such file"
	}
	return err.Error()
}

// Open opens the file at path for reading; a failure is a *FieldError for the file,
// with ReadReason's reason.
func Open(path string) (*os.File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, &FieldError{File: path, Reason: ReadReason(err)}
	}
	return fh, nil
}
