package figure

import (
	"github.com/schedopt/schedopt/figure/figuretest"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

func TestDLTMultiRowsFollowTheMIPSemantics(t *testing.T) {
	inst := []byte(`{"kind":"dlt-multi","machines":[
	  {"a1":0.1,"a2":1,"rho":50,"C":0.01,"O":0.5,"S":10},
	  {"a1":0.1,"a2":1,"rho":50,"C":0.01,"O":0.5,"S":10}]}`)
	sol := map[string]any{"T": 70.0, "used": []bool{true, false},
		"messages": []map[string]any{{"machine": 0, "size": 100.0, "start": 12.0}}}
	rows, T, err := DLTMultiRows(inst, sol)
	if err != nil {
		t.Fatal(err)
	}
	// Machine 1: idle 0–2, startup 2–12 (just in time), receive 12–13.5 (O + C·α),
	// compute τ = max(0.1·100, 1·100 + 50·(0.1 − 1)) = 55 s: 13.5–68.5, busy-wait to T.
	want := []Span{{0, 2, Idle}, {2, 12, Startup}, {12, 13.5, Comm}, {13.5, 68.5, Compute}, {68.5, 70, Wait}}
	if T != 70 || len(rows) != 2 || len(rows[0].Spans) != len(want) {
		t.Fatalf("T %v, rows %+v", T, rows)
	}
	for i, w := range want {
		g := rows[0].Spans[i]
		if g.Phase != w.Phase || math.Abs(g.Start-w.Start) > 1e-9 || math.Abs(g.End-w.End) > 1e-9 {
			t.Errorf("span %d = %+v, want %+v", i, g, w)
		}
	}
	if r := rows[1].Spans; len(r) != 1 || r[0] != (Span{0, 70, Idle}) {
		t.Errorf("unused machine spans %+v, want idle for the whole schedule", r)
	}
	if _, _, err := DLTMultiRows(inst, map[string]any{"T": 1.0, "messages": []map[string]any{{"machine": 5, "size": 1.0, "start": 0.0}}}); err == nil {
		t.Error("a message to a machine that does not exist was accepted")
	}
}

func TestFiguresAreWrittenAsSVGAndPNG(t *testing.T) {
	dir := t.TempDir()
	files, err := TradeOff([]Curve{{Label: "a", X: []float64{1, 2, 3}, Y: []float64{9, 5, 4}}, {Label: "front", X: []float64{1, 3}, Y: []float64{5, 2}, Steps: true}},
		"t", "schedule length T [s]", "energy E [J]", filepath.Join(dir, "curve"))
	if err != nil {
		t.Fatal(err)
	}
	figuretest.AssertImages(t, files, 2)
	files, err = Gantt([]Row{{Label: "M1", Spans: []Span{{0, 1, Startup}, {1, 2, Compute}}}}, "g", filepath.Join(dir, "g.png"))
	if err != nil {
		t.Fatal(err)
	}
	figuretest.AssertImages(t, files, 1)
	if _, err := TradeOff(nil, "t", "x", "y", filepath.Join(dir, "none")); err != ErrNoData {
		t.Errorf("empty plot: %v, want ErrNoData", err)
	}
	if _, err := Gantt([]Row{{Label: "M1"}}, "g", filepath.Join(dir, "g.gif")); err == nil {
		t.Error("unknown image format accepted")
	}
}

func TestLogTicksLabelShortRanges(t *testing.T) {
	labels := func(min, max float64) []string {
		var out []string
		for _, tk := range (LogTicks{}).Ticks(min, max) {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return out
	}
	if got := labels(2, 16); strings.Join(got, " ") != "2 5 10" {
		t.Errorf("m from 2 to 16 labelled %v, want [2 5 10]", got)
	}
	if got := labels(2, 4); strings.Join(got, " ") != "2 3 4" {
		t.Errorf("m from 2 to 4 labelled %v, want [2 3 4]", got)
	}
	if got := labels(0.0001, 10); len(got) < 4 || got[len(got)-1] != "10" || strings.Contains(strings.Join(got, " "), "5") {
		t.Errorf("five decades labelled %v, want the powers of ten", got)
	}
}
