// Package htmlreport renders a sweep report as one self-contained HTML page: the
// tables of report.md (rendered from its Markdown) followed by every plot of the
// report directory inlined as SVG. The page loads nothing: no network, no scripts,
// no external style sheet, so it opens the same from a laptop's file browser, a
// mail attachment or a web server.
//
// The package knows no sweep: it takes the Markdown and the SVG files, so any
// figure a report directory gains (performance profiles of file benchmarks, say)
// lands in the page without a change here. FromDir reads both from a report
// directory; Write renders them.
package htmlreport
