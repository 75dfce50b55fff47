package schedlib

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/ratcheck"
)

// entry is one line of schedlib.solu.
type entry struct {
	tag, name string
	value     float64
}

// readSolu reads schedlib.solu: "=opt= NAME VALUE" and "=best= NAME VALUE" lines,
// blank lines and # comments.
func readSolu(t *testing.T) []entry {
	t.Helper()
	f, err := os.Open("schedlib.solu")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []entry
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) != 3 || (fs[0] != "=opt=" && fs[0] != "=best=") {
			t.Fatalf("schedlib.solu:%d: want =opt=|=best= NAME VALUE, got %q", n, line)
		}
		v, err := strconv.ParseFloat(fs[2], 64)
		if err != nil {
			t.Fatalf("schedlib.solu:%d: %v", n, err)
		}
		out = append(out, entry{fs[0], fs[1], v})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSetIsComplete: every .solu name has its file, every file its .solu line (once),
// and every file reads with the exact reader (which runs the float reader first).
func TestSetIsComplete(t *testing.T) {
	entries := readSolu(t)
	if len(entries) < 20 || len(entries) > 40 {
		t.Errorf("%d instances, want 20 to 40", len(entries))
	}
	files, err := filepath.Glob("*.mps.gz")
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, f := range files {
		have[strings.TrimSuffix(f, ".mps.gz")] = true
	}
	seen := map[string]bool{}
	opt := 0
	for _, e := range entries {
		if seen[e.name] {
			t.Errorf("%s appears twice in schedlib.solu", e.name)
		}
		seen[e.name] = true
		if !have[e.name] {
			t.Errorf("%s: no file %s.mps.gz", e.name, e.name)
		}
		if e.tag == "=opt=" {
			opt++
		}
	}
	for name := range have {
		if !seen[name] {
			t.Errorf("%s.mps.gz has no line in schedlib.solu", name)
		}
	}
	if opt < len(entries)/2 {
		t.Errorf("only %d of %d values proven", opt, len(entries))
	}
	var size int64
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		size += st.Size()
		m, err := ratcheck.ReadFile(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if len(m.Cols) == 0 || len(m.Rows) == 0 {
			t.Errorf("%s: %d columns, %d rows", f, len(m.Cols), len(m.Rows))
		}
	}
	if size > 3<<20 {
		t.Errorf("the set takes %d bytes, want at most 3 MB", size)
	}
}
