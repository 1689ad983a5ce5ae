package render_test

import (
	"strings"
	"testing"

	"github.com/prerel/prerel/compare/render"
)

// TestParseFormatAcceptsExactlyFormats checks that ParseFormat reads every
// name of Formats and nothing else.
func TestParseFormatAcceptsExactlyFormats(t *testing.T) {
	for _, f := range render.Formats {
		if got, err := render.ParseFormat(string(f)); err != nil || got != f {
			t.Errorf("ParseFormat(%q) = %q, %v", f, got, err)
		}
	}
	tests := []string{"md", "Markdown", "JSON", "txt", "", " text"}
	for _, in := range tests {
		_, err := render.ParseFormat(in)
		if err == nil || !strings.Contains(err.Error(), "(expected text, markdown, json, html)") {
			t.Errorf("ParseFormat(%q): error %v, want one naming every format", in, err)
		}
	}
}
