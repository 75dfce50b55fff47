package cbc_test

import (
	"testing"

	"github.com/schedopt/schedopt/backends/backendtest"
	"github.com/schedopt/schedopt/backends/cbc"
)

func TestConformance(t *testing.T) { backendtest.Run(t, cbc.New()) }
