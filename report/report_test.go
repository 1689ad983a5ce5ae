package report_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/prerel/prerel/catalogue"
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
		if err := report.Check(&b, report.Text, rep, report.Options{ShowAllHint: tt.hint}); err != nil {
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
	if f, err := report.ParseFormat("markdown"); f != report.Markdown || err != nil {
		t.Errorf("ParseFormat(markdown) = %q, %v", f, err)
	}
	if _, err := report.ParseFormat("xml"); err == nil || !strings.Contains(err.Error(), `unknown format "xml"`) {
		t.Errorf("ParseFormat(xml): %v", err)
	}
}
