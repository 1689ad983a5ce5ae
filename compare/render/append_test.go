package render_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/compare/render"
)

// TestAppendMarkdown checks that the Markdown report is appended to a
// step summary, created when missing, and that what is not a regular
// file is refused untouched.
func TestAppendMarkdown(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "summary.md")
	if err := os.WriteFile(existing, []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, before, err string
		report                  *compare.Report
	}{
		{name: "appended", path: existing, before: "before\n", report: markdownReport("strict", "cargo", ">= 1.0", compare.CauseSyntax)},
		{name: "created", path: filepath.Join(dir, "new.md"), report: markdownReport("strict", "cargo", ">= 1.0", compare.CauseSyntax)},
		{name: "a directory", path: dir, err: "not a regular file", report: markdownReport("strict", "cargo", ">= 1.0", compare.CauseSyntax)},
		{name: "no report", path: filepath.Join(dir, "none.md"), err: "needs a writer and a report"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := render.AppendMarkdown(tt.path, tt.report, render.Options{})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				if _, serr := os.Stat(tt.path); tt.report == nil && serr == nil {
					t.Errorf("%s was created", tt.path)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var want strings.Builder
			if err := render.Render(&want, render.FormatMarkdown, tt.report, render.Options{}); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(tt.path)
			if string(got) != tt.before+want.String() || want.Len() == 0 {
				t.Errorf("%s holds %q, want %q", tt.path, got, tt.before+want.String())
			}
		})
	}
}
