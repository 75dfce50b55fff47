// Package figuretest checks figure files in tests: that the expected number was
// written and each is the image its extension names.
package figuretest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// AssertImages fails t unless files has want entries and every .png file starts
// with the PNG signature and every .svg file holds an <svg> element.
func AssertImages(t testing.TB, files []string, want int) {
	t.Helper()
	if len(files) != want {
		t.Fatalf("wrote %v, want %d files", files, want)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		switch filepath.Ext(f) {
		case ".png":
			if !bytes.HasPrefix(b, []byte("\x89PNG")) {
				t.Errorf("%s is not a PNG", f)
			}
		case ".svg":
			if !bytes.Contains(b, []byte("<svg")) {
				t.Errorf("%s is not an SVG", f)
			}
		}
	}
}
