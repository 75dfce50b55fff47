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
	var pe *model.ParseError
	if errors.As(err, &pe) {
		reason := pe.Reason
		if pe.Section != "" {
			reason = pe.Section + ": " + reason
		}
		return nil, &domain.FieldError{Field: fmt.Sprintf("line %d", pe.Line), Reason: reason}
	}
	if err != nil {
		return nil, &domain.FieldError{Reason: err.Error()}
	}
	return m, nil
}
