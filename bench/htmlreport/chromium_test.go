package htmlreport_test

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schedopt/schedopt/bench/htmlreport"
)

// The browser test renders report.html in headless Chromium, as a user's browser
// would, and checks what it shows: the screenshot's plot areas are not blank, and
// the DOM holds every cell of the report's tables. Chromium is a Debian package that
// scripts/setup.sh installs; its absence is a setup bug, so the test fails.

// chromiumFlags start a headless Chromium as root on a machine without a display or
// network: no sandbox (root), no GPU, and none of the background connections (updates,
// sync, QUIC probes) that a closed network refuses and that would slow the start.
var chromiumFlags = []string{
	"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync",
	"--disable-dev-shm-usage", "--hide-scrollbars", "--force-device-scale-factor=1",
}

// Window size of the screenshot: tall enough for the fixture's whole page.
const winW, winH = 1280, 3200

func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("no chromium on PATH: scripts/setup.sh installs Debian's chromium (run make setup)")
	return ""
}

// probe is added to the test's copy of the page: it writes each figure's rectangle
// (CSS pixels, page coordinates) into an attribute that --dump-dom shows. The page
// itself runs no script; its Content-Security-Policy is widened only for this one.
const probe = `<script>
for (const [i, s] of document.querySelectorAll("figure svg").entries()) {
  const r = s.getBoundingClientRect();
  s.setAttribute("data-rect", [r.left + scrollX, r.top + scrollY, r.width, r.height].map(Math.round).join(","));
}
</script>`

var rectRe = regexp.MustCompile(`data-rect="(\d+),(\d+),(\d+),(\d+)"`)

func TestReportRendersInHeadlessChromium(t *testing.T) {
	bin := chromium(t)
	p, err := htmlreport.FromDir("testdata/report")
	if err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	if err := htmlreport.Write(&page, p); err != nil {
		t.Fatal(err)
	}
	doc := page.String()
	const csp = "default-src 'none';"
	if !strings.Contains(doc, csp) {
		t.Fatalf("the page has no Content-Security-Policy %q", csp)
	}
	doc = strings.Replace(doc, csp, csp+" script-src 'unsafe-inline';", 1)
	doc = strings.Replace(doc, "</body>", probe+"\n</body>", 1)
	dir := t.TempDir()
	file := filepath.Join(dir, htmlreport.FileName)
	if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "shot.png")

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append(append([]string{}, chromiumFlags...),
		"--user-data-dir="+filepath.Join(dir, "profile"),
		fmt.Sprintf("--window-size=%d,%d", winW, winH),
		"--screenshot="+shot, "--dump-dom", "file://"+file)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), "HOME="+dir) // no dot-files in the user's home
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, lastLines(stderr.String(), 10))
	}
	dom := stdout.String()

	// Every cell of every table of report.md is a cell of the rendered DOM.
	cells := markdownCells(string(p.Markdown))
	if len(cells) < 20 {
		t.Fatalf("the fixture's report.md has %d table cells; want a real report", len(cells))
	}
	for _, c := range cells {
		re := regexp.MustCompile(`<t[hd][^>]*>\s*` + regexp.QuoteMeta(html.EscapeString(c)) + `\s*</t[hd]>`)
		if !re.MatchString(dom) {
			t.Errorf("table cell %q not in the DOM", c)
		}
	}

	// Every figure was laid out with a size, and its area of the screenshot is drawn.
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v\n%s", err, lastLines(stderr.String(), 10))
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	rects := rectRe.FindAllStringSubmatch(dom, -1)
	if len(rects) != len(p.Figures) {
		t.Fatalf("%d figures laid out, want %d", len(rects), len(p.Figures))
	}
	for i, m := range rects {
		var v [4]int
		for k := range v {
			v[k], _ = strconv.Atoi(m[k+1])
		}
		r := image.Rect(v[0], v[1], v[0]+v[2], v[1]+v[3])
		if v[2] < 200 || v[3] < 150 {
			t.Errorf("figure %d laid out at %v: too small", i, r)
			continue
		}
		if !r.In(img.Bounds()) {
			t.Errorf("figure %d at %v lies outside the screenshot %v (raise winH)", i, r, img.Bounds())
			continue
		}
		// Inside the plot: the pixels vary (lines, marks, text on white), and a fair
		// share of them is not background.
		variance, ink := pixelStats(img, r.Inset(2))
		if variance < 100 || ink < 0.01 {
			t.Errorf("figure %d at %v looks blank: luminance variance %.1f, %.2f%% ink", i, r, variance, 100*ink)
		}
	}
	// And the page around the figures is not blank either: the tables are drawn.
	top := image.Rect(0, 0, winW, 400)
	if variance, _ := pixelStats(img, top); variance < 100 {
		t.Errorf("the top of the page looks blank (variance %.1f)", variance)
	}
}

// pixelStats returns the variance of the luminance (0-255) over r and the fraction
// of pixels darker than near-white.
func pixelStats(img image.Image, r image.Rectangle) (variance, ink float64) {
	var n, dark int
	var sum, sum2 float64
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			l := (0.299*float64(cr) + 0.587*float64(cg) + 0.114*float64(cb)) / 257
			sum += l
			sum2 += l * l
			n++
			if l < 230 {
				dark++
			}
		}
	}
	if n == 0 {
		return 0, 0
	}
	m := sum / float64(n)
	return sum2/float64(n) - m*m, float64(dark) / float64(n)
}

// markdownCells returns the cells of the Markdown tables in md, delimiter rows left
// out, with inline emphasis markers removed.
func markdownCells(md string) []string {
	var cells []string
	delim := regexp.MustCompile(`^\|[\s:|-]+\|$`)
	for _, line := range strings.Split(md, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") || delim.MatchString(line) {
			continue
		}
		for _, c := range strings.Split(strings.Trim(line, "|"), "|") {
			if c = strings.TrimSpace(c); c != "" && !strings.ContainsAny(c, "*`_[") {
				cells = append(cells, c)
			}
		}
	}
	return cells
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
