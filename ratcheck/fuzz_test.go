package ratcheck

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedopt/schedopt/model"
)

// seed adds the model package's test files matching pattern to f's corpus.
func seed(f *testing.F, pattern string) {
	paths, _ := filepath.Glob(pattern)
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// readersAgree is the body of the fuzz targets: whatever the float reader accepts,
// the exact reader accepts and reads as the same model, and refuses what it refuses;
// a check of the zero point never panics.
func readersAgree(float func(io.Reader) (*model.Model, error), exact func([]byte) (*Model, error)) func(*testing.T, []byte) {
	return func(t *testing.T, data []byte) {
		fm, ferr := float(bytes.NewReader(data))
		m, err := exact(data)
		if (err != nil) != (ferr != nil) {
			t.Fatalf("exact reader error %v, float reader error %v", err, ferr)
		}
		if err != nil {
			return
		}
		agree(t, "fuzz", m, fm)
		m.Check(m.Names(), make([]float64, len(m.Cols)), Tolerances{})
	}
}

// FuzzReadMPS: whatever the float reader accepts, the exact reader accepts and reads
// as the same model; a check of the zero point never panics.
func FuzzReadMPS(f *testing.F) {
	seed(f, "../model/testdata/*.mps")
	f.Add(mps([]string{"E r", "L s"}, []string{"x obj 0.1 r 1e-5", "y s 1.5D3"}, []string{"r 1", "s 1e30"}, []string{"SC bnd x 4", "MI bnd y"}))
	f.Fuzz(readersAgree(model.ReadMPS, ReadMPS))
}

// FuzzReadLP is FuzzReadMPS for CPLEX LP files.
func FuzzReadLP(f *testing.F) {
	seed(f, "../model/testdata/*.lp")
	f.Add([]byte("Maximize\n obj: 0.1 x + 0.2 x + 1.5\nSubject To\n c: -1 <= x - y <= 2.5\nBounds\n y free\nGeneral\n y\nEnd\n"))
	f.Fuzz(readersAgree(model.ReadLP, ReadLP))
}
