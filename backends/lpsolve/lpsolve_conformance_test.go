package lpsolve_test

import (
	"testing"

	"github.com/schedopt/schedopt/backends/backendtest"
	"github.com/schedopt/schedopt/backends/lpsolve"
)

func TestConformance(t *testing.T) { backendtest.Run(t, lpsolve.New()) }
