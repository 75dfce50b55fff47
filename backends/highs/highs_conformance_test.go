package highs_test

import (
	"testing"

	"github.com/schedopt/schedopt/backends/backendtest"
	"github.com/schedopt/schedopt/backends/highs"
)

func TestConformance(t *testing.T) { backendtest.Run(t, highs.New()) }
