package mapplot

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/maps/isoline"
)

func TestLevelLabel(t *testing.T) {
	for v, want := range map[float64]string{2.34e10: "2.34E10 J", 1e-3: "0.001 J", 5: "5 J", 2.01e13: "2.01E13 J"} {
		if got := LevelLabel(v, "J"); got != want {
			t.Errorf("LevelLabel(%g) = %q, want %q", v, got, want)
		}
	}
}

func TestSaveWritesBothFormats(t *testing.T) {
	g := isoline.Grid{X: []float64{1, 10, 100}, Y: []float64{1, 2, 3}}
	for range g.Y {
		g.E = append(g.E, []float64{1e3, 1e4, math.NaN()})
		g.T = append(g.T, []float64{1, 1, math.NaN()})
	}
	f := Figure{Title: "t", XLabel: "x", YLabel: "y", XLog: true, Grid: g, EnergyUnit: "J", Infeasible: "infeasible",
		Lines: []isoline.Line{{Level: 5e3, Points: []isoline.Point{{Level: 5e3, X: 3, Y: 1}, {Level: 5e3, X: 4, Y: 3}}}}}
	base := filepath.Join(t.TempDir(), "map")
	files, err := Save(f, base)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 {
		t.Fatalf("files %v", files)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil || len(b) < 500 {
			t.Errorf("%s: %d bytes, %v", name, len(b), err)
		}
		if strings.HasSuffix(name, ".svg") && !strings.Contains(string(b), "5E3 J") {
			t.Errorf("%s has no level label 5E3 J", name)
		}
	}
	if _, err := Save(f, base+".gif"); err == nil {
		t.Error("a .gif name was accepted")
	}
	if _, err := Save(Figure{}, base); !errors.Is(err, ErrNoData) {
		t.Errorf("empty figure: %v, want ErrNoData", err)
	}
}
