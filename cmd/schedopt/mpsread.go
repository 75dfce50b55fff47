package main

import (
	"errors"
	"io"

	"github.com/schedopt/schedopt/model"
)

// readMPS parses free MPS with the model package's reader.
func readMPS(r io.Reader) (*model.Model, error) {
	return nil, errors.New("the MPS reader is not available in this build")
}
