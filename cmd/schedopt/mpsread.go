package main

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/model"
)

// readMPS parses free or fixed MPS with the model package's reader, reading an SC
// bound inside integer markers as sc says and passing its warnings to warn. A
// malformed file is bad input: its *model.ParseError becomes a FieldError whose field
// is the line.
func readMPS(r io.Reader, sc model.SCReading, warn func(line int, msg string)) (*model.Model, error) {
	m, err := model.ReadMPSOptions(r, model.MPSOptions{SCInInteger: sc, Warn: warn})
	return m, badFile(err)
}

// withoutGz returns path without a final .gz (any case).
func withoutGz(path string) string {
	if strings.EqualFold(filepath.Ext(path), ".gz") {
		return path[:len(path)-3]
	}
	return path
}

// gunzipped returns a buffered reader of fh, gunzipped when path ends in .gz; a file
// that is not gzip data is bad input naming it.
func gunzipped(path string, fh io.Reader) (io.Reader, error) {
	r := bufio.NewReaderSize(fh, 1<<20)
	if !strings.EqualFold(filepath.Ext(path), ".gz") {
		return r, nil
	}
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, &domain.FieldError{File: path, Reason: "not a gzip file: " + err.Error()}
	}
	return bufio.NewReaderSize(zr, 1<<20), nil
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
