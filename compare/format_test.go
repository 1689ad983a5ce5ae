package compare_test

import (
	"strings"
	"testing"

	"github.com/prerel/prerel/compare"
)

// TestParseFormatAcceptsExactlyFormats checks that ParseFormat reads every
// name of Formats and nothing else.
func TestParseFormatAcceptsExactlyFormats(t *testing.T) {
	for _, f := range compare.Formats {
		if got, err := compare.ParseFormat(string(f)); err != nil || got != f {
			t.Errorf("ParseFormat(%q) = %q, %v", f, got, err)
		}
	}
	tests := []string{"md", "Markdown", "JSON", "txt", "", " text"}
	for _, in := range tests {
		_, err := compare.ParseFormat(in)
		if err == nil || !strings.Contains(err.Error(), "(expected text, markdown, json, html)") {
			t.Errorf("ParseFormat(%q): error %v, want one naming every format", in, err)
		}
	}
}
