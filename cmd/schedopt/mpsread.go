package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/model"
)

// readMPS parses free or fixed MPS with the model package's reader, passing its
// warnings to warn. A malformed file is bad input: its *model.ParseError becomes a
// FieldError whose field is the line.
func readMPS(r io.Reader, warn func(line int, msg string)) (*model.Model, error) {
	m, err := model.ReadMPSWarn(r, warn)
	return m, badFile(err)
}

// readLP parses a CPLEX LP file with the model package's reader; errors become
// FieldErrors as in readMPS.
func readLP(r io.Reader) (*model.Model, error) {
	m, err := model.ReadLP(r)
	return m, badFile(err)
}

// badFile turns a reader's error into bad input: a *model.ParseError becomes a
// FieldError whose field is the line, anything else a FieldError with its text. nil
// stays nil.
func badFile(err error) error {
	if err == nil {
		return nil
	}
	var pe *model.ParseError
	if errors.As(err, &pe) {
		reason := pe.Reason
		if pe.Section != "" {
			reason = pe.Section + ": " + reason
		}
		return &domain.FieldError{Field: fmt.Sprintf("line %d", pe.Line), Reason: reason}
	}
	return &domain.FieldError{Reason: err.Error()}
}
