package render_test

import (
	"strings"
	"testing"

	"github.com/prerel/prerel/compare/render"
)

// TestFormatsParse checks that the declared formats read every name they
// hold and nothing else, and that SARIF is a format of a report with a
// drift only.
func TestFormatsParse(t *testing.T) {
	for _, f := range render.DriftFormats {
		if got, err := render.DriftFormats.Parse(string(f)); err != nil || got != f {
			t.Errorf("Parse(%q) = %q, %v", f, got, err)
		}
	}
	tests := []string{"md", "Markdown", "JSON", "txt", "", " text", "sarif"}
	for _, in := range tests {
		_, err := render.Formats.Parse(in)
		if err == nil || !strings.Contains(err.Error(), "(expected text, markdown, json, html)") {
			t.Errorf("Parse(%q): error %v, want one naming every format", in, err)
		}
	}
	if got := render.DriftFormats.String(); got != "text, markdown, json, html or sarif" {
		t.Errorf("DriftFormats = %s", got)
	}
}
