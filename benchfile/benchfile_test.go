package benchfile

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/model"
)

const tinyMPS = "NAME tiny\nROWS\n N obj\n G c1\nCOLUMNS\n    m 'MARKER' 'INTORG'\n    x obj 1 c1 1\n    m 'MARKER' 'INTEND'\nRHS\n    RHS c1 2.5\nBOUNDS\n UP BND x 10\n SC BND x 8\nENDATA\n"

const tinyLP = "Minimize\n obj: x + y\nSubject To\n c1: x + y >= 2\nEnd\n"

func write(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func gz(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestNamesAndFormats(t *testing.T) {
	for _, tc := range []struct{ path, name, format string }{
		{"sets/p0033.mps.gz", "p0033", FormatMPS},
		{"p0033.MPS", "p0033", FormatMPS},
		{"a/b.c.lp", "b.c", FormatLP},
		{"x.lp.gz", "x", FormatLP},
		{"x.json", "x.json", ""},
		{"x.gz", "x", ""},
	} {
		if got := Name(tc.path); got != tc.name {
			t.Errorf("Name(%q) = %q, want %q", tc.path, got, tc.name)
		}
		if got := Format(tc.path); got != tc.format {
			t.Errorf("Format(%q) = %q, want %q", tc.path, got, tc.format)
		}
	}
}

func TestReadPlainAndGzip(t *testing.T) {
	dir := t.TempDir()
	files := []string{
		write(t, dir, "a.mps", []byte(tinyMPS)),
		write(t, dir, "b.mps.gz", gz(t, tinyMPS)),
		write(t, dir, "c.lp", []byte(tinyLP)),
		write(t, dir, "d.lp.gz", gz(t, tinyLP)),
	}
	write(t, dir, "notes.txt", []byte("not a model"))
	got, err := ModelFiles(dir)
	if err != nil || !slices.Equal(got, files) {
		t.Fatalf("ModelFiles = %v, %v; want %v", got, err, files)
	}
	for _, f := range files {
		m, err := Read(f, Options{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if m.NumVars() < 1 || m.NumRows() != 1 {
			t.Errorf("%s: %d columns, %d rows", f, m.NumVars(), m.NumRows())
		}
	}
}

func TestReadSCInInteger(t *testing.T) {
	p := write(t, t.TempDir(), "sc.mps", []byte(tinyMPS))
	for _, tc := range []struct {
		o    Options
		want model.Kind
	}{{Options{}, model.SemiContinuous}, {Options{SCInInteger: model.SCSemiInteger}, model.SemiInteger}} {
		m, err := Read(p, tc.o)
		if err != nil {
			t.Fatal(err)
		}
		if k := m.VarKind(0); k != tc.want {
			t.Errorf("reading %v: x is %v, want %v", tc.o.SCInInteger, k, tc.want)
		}
	}
}

func TestReadErrorsNameFileAndLine(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, file string
		data       []byte
		want       string
	}{
		{"malformed MPS", "bad.mps", []byte("NAME x\nROWS\n N obj\nCOLUMNS\n x obj 1 y\nENDATA\n"), "bad.mps: line 5:"},
		{"malformed gzipped MPS", "bad2.mps.gz", gz(t, "NAME x\nROWS\n Q obj\nENDATA\n"), "bad2.mps.gz: line 3:"},
		{"damaged gzip", "cut.mps.gz", gz(t, tinyMPS)[:20], "cut.mps.gz: damaged gzip data"},
		{"not gzip", "plain.mps.gz", []byte(tinyMPS), "plain.mps.gz: not a gzip file"},
		{"malformed LP", "bad.lp", []byte("Minimize\n obj: x +\nSubject To\n c: x >= @\nEnd\n"), "bad.lp: line"},
		{"missing", "none.mps", nil, "none.mps: no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.file)
			if tc.data != nil {
				write(t, dir, tc.file, tc.data)
			}
			_, err := Read(p, Options{})
			var fe *domain.FieldError
			if !errors.As(err, &fe) || fe.File != p || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want a FieldError of %s containing %q", err, p, tc.want)
			}
		})
	}
}
