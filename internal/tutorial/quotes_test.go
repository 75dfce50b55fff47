package tutorial

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the documents' quoted code blocks from the files")

// repo is the repository root, seen from this package.
const repo = "../.."

// quotingDocs are the documents whose Go code is quoted from compiled files.
var quotingDocs = []string{"docs/tutorial-kind.md", "README.md"}

// quote is a marker line followed by a fenced block: the block must equal the file.
var quote = regexp.MustCompile("(?s)<!-- code: ([^ ]+) -->\n```go\n(.*?)```\n")

// TestTutorialQuotesTheCode checks that every block marked <!-- code: PATH --> in the
// documents is PATH's content exactly, so that the tutorial and the README's library
// example are code that compiles and whose tests pass. With -update it rewrites the
// blocks from the files instead.
func TestTutorialQuotesTheCode(t *testing.T) {
	for _, doc := range quotingDocs {
		path := filepath.Join(repo, doc)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		n := 0
		var failed bool
		out := quote.ReplaceAllStringFunc(text, func(block string) string {
			n++
			m := quote.FindStringSubmatch(block)
			code, err := os.ReadFile(filepath.Join(repo, m[1]))
			if err != nil {
				t.Errorf("%s quotes %s: %v", doc, m[1], err)
				failed = true
				return block
			}
			if string(code) != m[2] {
				if !*update {
					t.Errorf("%s: the block quoting %s differs from the file (go test ./internal/tutorial -update rewrites it)", doc, m[1])
				}
				failed = true
			}
			return fmt.Sprintf("<!-- code: %s -->\n```go\n%s```\n", m[1], code)
		})
		if n == 0 {
			t.Errorf("%s quotes no code", doc)
		}
		if *update && failed {
			if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
