package render

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/internal/plural"
	"github.com/prerel/prerel/internal/safefile"
	"github.com/prerel/prerel/report"
)

// Format is a report format: the formats of package report, which every
// renderer of prerel shares.
type Format = report.Format

// The report formats.
const (
	FormatText     = report.Text     // a terminal: aligned tables
	FormatMarkdown = report.Markdown // a pull-request comment or CI step summary
	FormatJSON     = report.JSON     // machines; see compare.Report for the fields
	FormatHTML     = report.HTML     // a browser: one self-contained page with a heatmap
)

// Formats are the formats of the report: what Render writes for a run
// without a baseline, the default first.
var Formats = report.Formats{FormatText, FormatMarkdown, FormatJSON, FormatHTML}

// DriftFormats are the formats of a report with a drift from a baseline
// (Options.Drift): Formats, and FormatSARIF, the drift alone.
var DriftFormats = append(slices.Clip(Formats), FormatSARIF)

// Render writes r to w in format f; opts tunes the text, Markdown and HTML
// reports. FormatSARIF writes the drift of opts alone, and fails without
// one. It fails when w or r is nil.
func Render(w io.Writer, f Format, r *compare.Report, opts Options) error {
	if w == nil || r == nil {
		return errors.New("compare: render needs a writer and a report")
	}
	switch f {
	case FormatText:
		return renderText(w, r, opts)
	case FormatMarkdown:
		return renderMarkdown(w, r, opts)
	case FormatJSON:
		return r.WriteJSON(w)
	case FormatHTML:
		return renderHTML(w, r, opts)
	case FormatSARIF:
		return renderSARIF(w, opts)
	}
	return fmt.Errorf("unknown format %q", f)
}

// errWriter keeps the first write error so that renderers can write
// freely and check once.
type errWriter struct {
	w   io.Writer
	err error
	n   int // bytes written
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		var n int
		n, e.err = fmt.Fprintf(e.w, format, args...)
		e.n += n
	}
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	e.n += n
	return n, err
}

// percent formats part of whole with two decimals.
func percent(part, whole int64) string {
	if whole == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f%%", 100*float64(part)/float64(whole))
}

// divergeMatrix returns, for the agreement matrix, the diverged count of
// each pair, both ways round.
func divergeMatrix(r *compare.Report) map[[2]string]int64 {
	return pairMatrix(r, func(p compare.Pair) int64 { return p.Diverge })
}

// agreeMatrix returns the agreed count of each pair, both ways round.
func agreeMatrix(r *compare.Report) map[[2]string]int64 {
	return pairMatrix(r, func(p compare.Pair) int64 { return p.Agree })
}

func pairMatrix(r *compare.Report, count func(compare.Pair) int64) map[[2]string]int64 {
	m := make(map[[2]string]int64, 2*len(r.Pairs))
	for _, p := range r.Pairs {
		m[[2]string{p.A, p.B}] = count(p)
		m[[2]string{p.B, p.A}] = count(p)
	}
	return m
}

// causeSummary says how many classes and cases of one pair each cause
// has, the cause with the most cases first: "prerelease rule: 3 classes,
// 40 cases; syntax: 1 class, 2 cases".
func causeSummary(classes []compare.Class) string {
	type tally struct {
		cause          compare.Cause
		classes, cases int64
	}
	var ts []*tally
	by := map[compare.Cause]*tally{}
	for _, c := range classes {
		t := by[c.Cause]
		if t == nil {
			t = &tally{cause: c.Cause}
			by[c.Cause] = t
			ts = append(ts, t)
		}
		t.classes++
		t.cases += c.Count
	}
	sort.Slice(ts, func(i, j int) bool {
		if ts[i].cases != ts[j].cases {
			return ts[i].cases > ts[j].cases
		}
		return ts[i].cause < ts[j].cause
	})
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = fmt.Sprintf("%s: %s, %s", t.cause, plural.Of(t.classes, "class", "classes"), plural.Of(t.cases, "case", "cases"))
	}
	return strings.Join(parts, "; ")
}

// AppendMarkdown appends r in Markdown to the file at path, as a CI step
// summary (GITHUB_STEP_SUMMARY) is written to: a regular file, created
// when it does not exist (safefile.Append). Nothing is written when the
// report cannot be rendered.
func AppendMarkdown(path string, r *compare.Report, opts Options) error {
	var buf bytes.Buffer
	if err := Render(&buf, FormatMarkdown, r, opts); err != nil {
		return err
	}
	return safefile.Append(path, buf.Bytes())
}
