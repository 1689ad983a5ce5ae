package render_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/compare/render"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/golden"
	"github.com/prerel/prerel/report"
)

// cliHints are the hints prerel's CLI gives, which the golden reports
// show.
var cliHints = render.Hints{ShowAll: "--show-all", JSON: "--format json", TextShowAll: "--format text --show-all",
	WriteBaseline: "--write-baseline", Changes: "on stderr"}

// goldenReport is the golden report of the compare package's tests, read
// back from its JSON form.
func goldenReport(t *testing.T) *compare.Report {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := compare.DecodeReport(f)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRenderGolden(t *testing.T) {
	r := goldenReport(t)
	for _, f := range render.Formats {
		if f == render.FormatJSON {
			continue // the golden report's own JSON, checked by the compare package's tests
		}
		t.Run(string(f), func(t *testing.T) {
			var buf bytes.Buffer
			if err := render.Render(&buf, f, r, render.Options{Options: report.Options{Hints: cliHints}}); err != nil {
				t.Fatal(err)
			}
			ext := map[render.Format]string{render.FormatText: "txt", render.FormatMarkdown: "md", render.FormatJSON: "json", render.FormatHTML: "html"}[f]
			golden.Check(t, filepath.Join("testdata", "report."+ext), buf.Bytes())
		})
	}
}

// TestNoHintsNoFlags checks that a report given no hints names no way
// to see what it leaves out, and no command-line flag.
func TestNoHintsNoFlags(t *testing.T) {
	r := goldenReport(t)
	d := &compare.Drift{Changes: []compare.Change{{Text: "linear vs tilde: a class appeared"}}}
	for _, f := range render.Formats {
		var buf bytes.Buffer
		if err := render.Render(&buf, f, r, render.Options{Drift: d}); err != nil {
			t.Fatal(err)
		}
		for _, flag := range []string{"--show-all", "--format", "--write-baseline", "stderr", "lists them"} {
			if strings.Contains(buf.String(), flag) {
				t.Errorf("the %s report names %q", f, flag)
			}
		}
	}
}

// TestMarkdownStaysWithinBudget builds a report with many diverging pairs
// and checks that the Markdown fits a pull-request comment and names the
// pairs it leaves out.
func TestMarkdownStaysWithinBudget(t *testing.T) {
	r := &compare.Report{Schema: compare.SchemaVersion, Domain: compare.DomainInfo{Name: "synthetic", Description: "many pairs", Cases: 1000}}
	for i := 0; i < 20; i++ {
		r.Policies = append(r.Policies, fmt.Sprintf("policy-%02d", i))
	}
	for i, a := range r.Policies {
		for _, b := range r.Policies[i+1:] {
			r.Pairs = append(r.Pairs, compare.Pair{A: a, B: b, Agree: 900, Diverge: 100})
			for k := 0; k < 30; k++ {
				r.Classes = append(r.Classes, compare.Class{A: a, B: b, Cause: compare.CausePrerelease, Count: int64(100 - k),
					Signature: fmt.Sprintf(">= V-pre [=], < V [<], != V [>]; version V-pre; shape %d; a reject, b allow", k),
					Witness:   compare.Witness{Constraint: ">= 1.0.0-beta, < 2.0.0, != 1.5.0", Version: "1.0.0-beta", AVerdict: engine.Reject, BVerdict: engine.Allow}})
			}
		}
	}
	var buf bytes.Buffer
	if err := render.Render(&buf, render.FormatMarkdown, r, render.Options{}); err != nil {
		t.Fatal(err)
	}
	if buf.Len() > 65536 {
		t.Errorf("Markdown report is %d bytes, more than a comment holds", buf.Len())
	}
	if !strings.Contains(buf.String(), "more pairs are left out") || !strings.Contains(buf.String(), "`policy-18` vs `policy-19`") {
		t.Errorf("the report does not name the pairs it leaves out")
	}
	if !strings.Contains(buf.String(), "<summary>policy-00 vs policy-01") {
		t.Errorf("the first pair's classes are missing")
	}
}
