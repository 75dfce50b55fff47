package htmlreport

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// FileName is the name of the page in a report directory.
const FileName = "report.html"

// MarkdownName is the report's Markdown file that FromDir reads.
const MarkdownName = "report.md"

// ErrUnsafeSVG is returned for an SVG file that holds a script or an event handler:
// the page promises to run no code, so such a file is refused rather than inlined.
var ErrUnsafeSVG = errors.New("htmlreport: SVG holds a script or an event handler")

// ErrNotSVG is returned for a file that has no <svg> element.
var ErrNotSVG = errors.New("htmlreport: no <svg> element")

// Figure is one plot of the report.
type Figure struct {
	// Name is the file name, e.g. "runtime_vs_m.svg"; the page shows it as the
	// figure's caption and uses it to order the figures.
	Name string
	// SVG is the file's content, an SVG document.
	SVG []byte
}

// Page is what a report page shows.
type Page struct {
	// Title is the page's <title>; empty means the first heading of the Markdown.
	Title string
	// Markdown is the report's text and tables (GitHub-flavoured Markdown).
	Markdown []byte
	// Figures are inlined after the text, in the order of SortFigures.
	Figures []Figure
}

// figureRank orders the known plots: the performance profile first and the
// solved-within-t curves (the summaries of file benchmarks), then run time against
// size, then quality against run time; unknown figures follow by name.
var figureRank = []string{"performance_profile", "solved_within", "runtime_vs_m", "quality_vs_runtime"}

func rank(name string) int {
	base := strings.TrimSuffix(name, filepath.Ext(name))
	for i, p := range figureRank {
		if base == p || strings.HasPrefix(base, p+"_") {
			return i
		}
	}
	return len(figureRank)
}

// SortFigures orders figures in place: the known plots first (performance profile,
// solved within t, run time vs m, quality vs run time, each followed by its per-kind
// variants), then the others by name.
func SortFigures(figs []Figure) {
	sort.SliceStable(figs, func(i, j int) bool {
		ri, rj := rank(figs[i].Name), rank(figs[j].Name)
		if ri != rj {
			return ri < rj
		}
		return figs[i].Name < figs[j].Name
	})
}

// FromDir reads a report directory: report.md and every *.svg file in it (PNG twins
// are left out: the SVG is the same figure, sharper and smaller).
func FromDir(dir string) (*Page, error) {
	md, err := os.ReadFile(filepath.Join(dir, MarkdownName))
	if err != nil {
		return nil, fmt.Errorf("htmlreport: %w", err)
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.svg"))
	if err != nil {
		return nil, fmt.Errorf("htmlreport: %w", err)
	}
	p := &Page{Markdown: md}
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			return nil, fmt.Errorf("htmlreport: %w", err)
		}
		p.Figures = append(p.Figures, Figure{Name: filepath.Base(n), SVG: data})
	}
	return p, nil
}

// WriteDir renders the report of dir (FromDir) into dir/report.html and returns the
// file's path. The file is written to a temporary name first and renamed, so a
// reader never sees half a page.
func WriteDir(dir string) (string, error) {
	p, err := FromDir(dir)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if err := Write(&buf, p); err != nil {
		return "", err
	}
	path := filepath.Join(dir, FileName)
	tmp, err := os.CreateTemp(dir, ".report-*.html")
	if err != nil {
		return "", fmt.Errorf("htmlreport: %w", err)
	}
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return "", fmt.Errorf("htmlreport: write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("htmlreport: write %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("htmlreport: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("htmlreport: %w", err)
	}
	return path, nil
}

// style is the page's whole style sheet: readable tables, figures that shrink to the
// window, nothing loaded from elsewhere.
const style = `body{font-family:sans-serif;margin:2em auto;max-width:75em;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:.9em}
th,td{border:1px solid #bbb;padding:.25em .6em}
th{background:#eee}
tr:nth-child(even) td{background:#f7f7f7}
td[style*="right"]{font-variant-numeric:tabular-nums}
code{background:#f2f2f2;padding:0 .2em}
figure{margin:2em 0}
figure svg{max-width:100%;height:auto;border:1px solid #ddd}
figcaption{font-size:.85em;color:#555}
`

// Write renders p as one HTML document: the Markdown (raw HTML in it is dropped, not
// passed through), where an image that names one of the figures becomes that figure,
// followed by the other figures, sorted by SortFigures, each inlined as an <svg>
// element. An SVG with a script or an event handler is refused (ErrUnsafeSVG).
func Write(w io.Writer, p *Page) error {
	var body bytes.Buffer
	md := goldmark.New(goldmark.WithExtensions(extension.Table))
	if err := md.Convert(p.Markdown, &body); err != nil {
		return fmt.Errorf("htmlreport: markdown: %w", err)
	}
	figs := append([]Figure(nil), p.Figures...)
	SortFigures(figs)
	inlined := make([]string, len(figs))
	for i, f := range figs {
		s, err := inlineSVG(f.SVG, fmt.Sprintf("f%d-", i))
		if err != nil {
			return fmt.Errorf("%s: %w", f.Name, err)
		}
		inlined[i] = s
	}
	title := p.Title
	if title == "" {
		title = firstHeading(p.Markdown)
	}
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	// No network: a page that asks for nothing from elsewhere, and says so to the browser.
	b.WriteString("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n")
	fmt.Fprintf(&b, "<title>%s</title>\n<style>\n%s</style>\n</head>\n<body>\n", html.EscapeString(title), style)
	figure := func(i int) string {
		f := figs[i]
		return fmt.Sprintf("<figure id=\"%s\">\n%s\n<figcaption>%s</figcaption>\n</figure>\n",
			html.EscapeString(strings.TrimSuffix(f.Name, filepath.Ext(f.Name))), inlined[i], html.EscapeString(f.Name))
	}
	// An image the Markdown links to (report.md shows the performance profile where it
	// discusses it) becomes that figure, inline in its place: the page loads no file.
	placed := make([]bool, len(figs))
	text := imgRe.ReplaceAllStringFunc(body.String(), func(tag string) string {
		src := html.UnescapeString(imgRe.FindStringSubmatch(tag)[1])
		for i, f := range figs {
			if f.Name == src && !placed[i] {
				placed[i] = true
				return figure(i)
			}
		}
		return tag
	})
	b.WriteString(text)
	heading := false
	for i := range figs {
		if placed[i] {
			continue
		}
		if !heading {
			b.WriteString("<h2 id=\"figures\">Figures</h2>\n")
			heading = true
		}
		b.WriteString(figure(i))
	}
	b.WriteString("</body>\n</html>\n")
	_, err := w.Write(b.Bytes())
	return err
}

var (
	headingRe = regexp.MustCompile(`(?m)^#{1,6}[ \t]+(.+?)[ \t#]*$`)
	// imgRe finds the <img> elements goldmark renders for Markdown images (an image
	// alone in its paragraph included), with the file name they load.
	imgRe = regexp.MustCompile(`(?:<p>)?<img src="([^"]*)"[^>]*>(?:</p>)?`)
	// unsafeRe finds what could run code in an SVG: script elements, event handler
	// attributes, javascript: URLs, and foreignObject (HTML inside the SVG).
	unsafeRe = regexp.MustCompile(`(?i)<\s*script|\son[a-z]+\s*=|javascript:|<\s*foreignObject`)
	// idRe and refRe find the SVG's ids and the references to them.
	idRe  = regexp.MustCompile(`\bid="([^"]*)"`)
	refRe = regexp.MustCompile(`(url\(#|href="#)([^)"]*)`)
)

func firstHeading(md []byte) string {
	if m := headingRe.FindSubmatch(md); m != nil {
		return string(m[1])
	}
	return "schedopt report"
}

// inlineSVG returns the <svg> element of an SVG document, without the XML prolog,
// comments before it and the doctype, with its ids prefixed so that the figures of
// one page cannot capture each other's references.
func inlineSVG(doc []byte, prefix string) (string, error) {
	s := string(doc)
	i := strings.Index(s, "<svg")
	if i < 0 {
		return "", ErrNotSVG
	}
	s = strings.TrimSpace(s[i:])
	if unsafeRe.MatchString(s) {
		return "", ErrUnsafeSVG
	}
	s = idRe.ReplaceAllString(s, `id="`+prefix+`$1"`)
	s = refRe.ReplaceAllString(s, `${1}`+prefix+`$2`)
	return s, nil
}
