package benchfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedopt/schedopt/domain"
)

// FuzzRead: any bytes, as a plain or gzipped MPS or LP file, either read into a valid
// model or give a *domain.FieldError naming the file.
func FuzzRead(f *testing.F) {
	f.Add([]byte(tinyMPS), uint8(0))
	f.Add([]byte(tinyLP), uint8(2))
	f.Add([]byte("NAME x\nROWS\n N obj\nENDATA\n"), uint8(1))
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0}, uint8(1))
	dir := f.TempDir()
	names := []string{"f.mps", "f.mps.gz", "f.lp", "f.lp.gz"}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		p := filepath.Join(dir, names[int(which)%len(names)])
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := Read(p, Options{})
		if err != nil {
			var fe *domain.FieldError
			if !errors.As(err, &fe) || fe.File != p {
				t.Fatalf("error %v is not a FieldError naming %s", err, p)
			}
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("Read returned an invalid model: %v", err)
		}
	})
}
