package report_test

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/report"
)

// TestHints checks that a text report that cut something says how to
// list it with the hint it is given, and names no flag without one.
func TestHints(t *testing.T) {
	reg := catalogue.New()
	ps, err := reg.Resolve([]string{"strict", "cargo"})
	if err != nil {
		t.Fatal(err)
	}
	var versions []string
	for i := 0; i < 25; i++ {
		versions = append(versions, fmt.Sprintf("1.%d.0", i))
	}
	rep := report.NewCheckReport(ps, ">= 1.0.0", versions)
	for _, tt := range []struct {
		hint, want string
	}{
		{"--show-all", "\n5 versions (the policies agree on each) left out; --show-all lists them\n"},
		{"", "\n5 versions (the policies agree on each) left out\n"},
	} {
		var b strings.Builder
		if err := report.Check(&b, report.Text, rep, report.Options{Hints: report.Hints{ShowAll: tt.hint}}); err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(b.String(), tt.want) {
			t.Errorf("hint %q: the report ends\n%s\nwant it to end with %q", tt.hint, b.String(), tt.want)
		}
	}
}

// TestUnsupportedFormat checks that a format a report does not have is
// an error.
func TestUnsupportedFormat(t *testing.T) {
	p, _ := catalogue.New().Lookup("strict")
	err := report.Explain(&strings.Builder{}, report.HTML, report.NewExplainReport(p, ">= 1", "1.0.0"), report.Options{})
	var ue *report.UnsupportedError
	if !errors.As(err, &ue) || err.Error() != "the explain report has no html format" {
		t.Errorf("explain as HTML: %v, want an UnsupportedError", err)
	}
	if f, err := report.CheckFormats.Parse("html"); f != report.HTML || err != nil {
		t.Errorf("Parse(html) = %q, %v", f, err)
	}
	if _, err := report.ExplainFormats.Parse("html"); err == nil || err.Error() != `unknown format "html" (expected text, json)` {
		t.Errorf("explain: Parse(html): %v", err)
	}
}

// TestDeclaredFormats checks that each renderer of the package writes
// every format it declares, and refuses every other.
func TestDeclaredFormats(t *testing.T) {
	p, _ := catalogue.New().Lookup("strict")
	ps := []engine.Policy{p}
	renderers := []struct {
		name    string
		formats report.Formats
		render  func(w io.Writer, f report.Format) error
	}{
		{"policies", report.PoliciesFormats, func(w io.Writer, f report.Format) error {
			return report.Policies(w, f, ps, report.Options{})
		}},
		{"check", report.CheckFormats, func(w io.Writer, f report.Format) error {
			return report.Check(w, f, report.NewCheckReport(ps, ">= 1", []string{"1.0.0"}), report.Options{})
		}},
		{"select", report.SelectFormats, func(w io.Writer, f report.Format) error {
			s := report.Selection{Report: report.NewSelectReport(ps, ">= 1", []string{"1.0.0"}), Verdicts: report.NewCheckReport(ps, ">= 1", []string{"1.0.0"})}
			return report.Select(w, f, s, report.Options{})
		}},
		{"explain", report.ExplainFormats, func(w io.Writer, f report.Format) error {
			return report.Explain(w, f, report.NewExplainReport(p, ">= 1", "1.0.0"), report.Options{})
		}},
	}
	all := []report.Format{report.Text, report.Markdown, report.JSON, report.HTML, report.SARIF, report.TSV}
	for _, r := range renderers {
		for _, f := range all {
			err := r.render(io.Discard, f)
			var ue *report.UnsupportedError
			switch {
			case r.formats.Has(f) && err != nil:
				t.Errorf("%s as %s: %v", r.name, f, err)
			case !r.formats.Has(f) && !errors.As(err, &ue):
				t.Errorf("%s as %s: %v, want an UnsupportedError", r.name, f, err)
			}
		}
	}
}
