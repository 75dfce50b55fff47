package kinds

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/solve"
)

// sized is a Problem with a given size estimate.
type sized struct {
	Base
	size Size
}

func (sized) Formulate() (*solve.Formulated, error) { return nil, errors.New("not built") }
func (s sized) EstimateSize() Size                  { return s.size }
func (sized) Solve(context.Context, solve.Request) (*solve.Result, error) {
	return nil, errors.New("not solved")
}

func TestLimits(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, make([]byte, 2048), 0o644); err != nil {
		t.Fatal(err)
	}
	lim := Limits{MaxInputBytes: 1024, MaxNonzeros: 1e6, MaxCount: 10}
	p := sized{Base{KindName: "dlt-multi", InstName: "x"}, Size{Variables: 1e7, Nonzeros: 2e8}}
	for _, tc := range []struct {
		name string
		err  error
		want string // "" for no error
	}{
		{"a file above the byte limit", lim.CheckInput(big), "more than the limit of 1024"},
		{"a model above the nonzero limit", lim.CheckSize(p), "2e+08 nonzeros (about 60 GB of memory)"},
		{"a model within the limit", lim.CheckSize(sized{p.Base, Size{1, 10}}), ""},
		{"a count above the limit", lim.CheckCount("--m", 11), "--m: 11 is more than the limit of 10"},
		{"lifted limits pass everything", LimitsFromEnv(func(string) string { return "1" }).CheckSize(p), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.want == "" {
				if tc.err != nil {
					t.Fatalf("got %v, want no error", tc.err)
				}
				return
			}
			if !errors.Is(tc.err, domain.ErrBadInput) || !strings.Contains(tc.err.Error(), tc.want) || !strings.Contains(tc.err.Error(), NoLimitsEnv) {
				t.Errorf("got %v, want bad input with %q and the override %s", tc.err, tc.want, NoLimitsEnv)
			}
		})
	}
	if LimitsFromEnv(func(string) string { return "" }) != DefaultLimits() {
		t.Error("without the variable the limits are not the defaults")
	}
}
