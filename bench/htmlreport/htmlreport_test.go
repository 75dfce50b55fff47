package htmlreport_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/bench/htmlreport"
)

func names(figs []htmlreport.Figure) string {
	var s []string
	for _, f := range figs {
		s = append(s, f.Name)
	}
	return strings.Join(s, " ")
}

func TestSortFiguresPutsTheKnownPlotsFirst(t *testing.T) {
	cases := []struct {
		name string
		in   []string
		want string
	}{
		{"sweep plots", []string{"quality_vs_runtime.svg", "runtime_vs_m.svg"}, "runtime_vs_m.svg quality_vs_runtime.svg"},
		{"per-kind variants follow their plot", []string{"quality_vs_runtime.svg", "runtime_vs_m_workload.svg", "runtime_vs_m_dlt-multi.svg"},
			"runtime_vs_m_dlt-multi.svg runtime_vs_m_workload.svg quality_vs_runtime.svg"},
		{"performance profile first, unknown figures last by name", []string{"zeta.svg", "alpha.svg", "runtime_vs_m.svg", "performance_profile.svg"},
			"performance_profile.svg runtime_vs_m.svg alpha.svg zeta.svg"},
		{"file benchmarks: profile, then solved within t", []string{"solved_within.svg", "quality_vs_runtime.svg", "performance_profile.svg"},
			"performance_profile.svg solved_within.svg quality_vs_runtime.svg"},
		{"a prefix alone is not the plot", []string{"runtime_vs_mx.svg", "quality_vs_runtime.svg"}, "quality_vs_runtime.svg runtime_vs_mx.svg"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var figs []htmlreport.Figure
			for _, n := range c.in {
				figs = append(figs, htmlreport.Figure{Name: n})
			}
			htmlreport.SortFigures(figs)
			if got := names(figs); got != c.want {
				t.Errorf("order %q, want %q", got, c.want)
			}
		})
	}
}

const svgDoc = `<?xml version="1.0"?>
<!-- a comment -->
<svg width="10pt" height="10pt" xmlns="http://www.w3.org/2000/svg"><defs><clipPath id="c"><rect width="5" height="5"/></clipPath></defs>
<path d="M0,0L10,10" clip-path="url(#c)" style="stroke:#000"/></svg>`

func TestWriteRendersTablesAndInlinesEverySVG(t *testing.T) {
	md := "# Title here\n\n| backend | jobs |\n|---|---:|\n| highs | 6 |\n\n<script>alert(1)</script>\n"
	var b bytes.Buffer
	err := htmlreport.Write(&b, &htmlreport.Page{Markdown: []byte(md), Figures: []htmlreport.Figure{
		{Name: "b.svg", SVG: []byte(svgDoc)}, {Name: "a.svg", SVG: []byte(svgDoc)},
	}})
	if err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		"<title>Title here</title>", "<th>backend</th>", ">highs</td>", ">6</td>",
		`id="f0-c"`, `url(#f0-c)`, `id="f1-c"`, `url(#f1-c)`, "<figcaption>a.svg</figcaption>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, bad := range []string{"<script", "<?xml", "<!-- a comment", "http://", "https://"} {
		// The SVG namespace is an identifier, not a load; nothing else may name a URL.
		if strings.Contains(strings.ReplaceAll(page, `xmlns="http://www.w3.org/2000/svg"`, ""), bad) {
			t.Errorf("page holds %q", bad)
		}
	}
	if strings.Index(page, "a.svg") > strings.Index(page, "b.svg") {
		t.Errorf("figures not in name order")
	}
	if n := strings.Count(page, "<svg"); n != 2 {
		t.Errorf("%d <svg> elements, want 2", n)
	}
}

func TestWriteRefusesUnsafeOrMissingSVG(t *testing.T) {
	cases := []struct {
		name, svg string
		want      error
	}{
		{"script", `<svg><script>alert(1)</script></svg>`, htmlreport.ErrUnsafeSVG},
		{"event handler", `<svg onload="x()"></svg>`, htmlreport.ErrUnsafeSVG},
		{"javascript URL", `<svg><a href="javascript:x()"/></svg>`, htmlreport.ErrUnsafeSVG},
		{"foreign HTML", `<svg><foreignObject/></svg>`, htmlreport.ErrUnsafeSVG},
		{"not an SVG", `<html></html>`, htmlreport.ErrNotSVG},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := htmlreport.Write(&bytes.Buffer{}, &htmlreport.Page{Figures: []htmlreport.Figure{{Name: "x.svg", SVG: []byte(c.svg)}}})
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), "x.svg") {
				t.Errorf("error %v, want %v naming x.svg", err, c.want)
			}
		})
	}
}

func TestFromDirReadsTheMarkdownAndEverySVG(t *testing.T) {
	p, err := htmlreport.FromDir("testdata/report")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(p.Markdown, []byte("## Per backend")) {
		t.Errorf("markdown not read")
	}
	if got := names(p.Figures); got != "quality_vs_runtime.svg runtime_vs_m.svg" {
		t.Errorf("figures %q", got)
	}
	if _, err := htmlreport.FromDir(t.TempDir()); err == nil || !strings.Contains(err.Error(), "report.md") {
		t.Errorf("a directory without report.md: %v", err)
	}
}

func TestWriteInlinesALinkedFigureWhereTheMarkdownShowsIt(t *testing.T) {
	md := "# R\n\n## Profile\n\n![performance profile](performance_profile.svg)\n\nafter the plot\n\n![elsewhere](missing.svg)\n"
	var b bytes.Buffer
	err := htmlreport.Write(&b, &htmlreport.Page{Markdown: []byte(md), Figures: []htmlreport.Figure{
		{Name: "performance_profile.svg", SVG: []byte(svgDoc)}, {Name: "other.svg", SVG: []byte(svgDoc)},
	}})
	if err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if strings.Contains(page, `<img src="performance_profile.svg"`) {
		t.Errorf("the linked figure is still an <img> that loads a file")
	}
	prof, after, figs := strings.Index(page, "<figcaption>performance_profile.svg"), strings.Index(page, "after the plot"), strings.Index(page, `id="figures"`)
	if prof < 0 || after < 0 || prof > after {
		t.Errorf("the linked figure is not in its place (figure at %d, text after it at %d)", prof, after)
	}
	if figs < after || !strings.Contains(page[figs:], "<figcaption>other.svg") {
		t.Errorf("the unlinked figure is not in the Figures section")
	}
	if n := strings.Count(page, "<svg"); n != 2 {
		t.Errorf("%d <svg> elements, want 2 (each figure once)", n)
	}
}
