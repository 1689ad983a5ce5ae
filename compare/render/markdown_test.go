package render_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/compare/render"
	"github.com/prerel/prerel/engine"
)

// markdownReport is a report of two policies with the given names, one
// class and one selection witness, made of the given outside text.
func markdownReport(a, b, text string, cause compare.Cause) *compare.Report {
	return &compare.Report{
		Schema:   compare.SchemaVersion,
		Domain:   compare.DomainInfo{Name: "synthetic", Description: text, Cases: 2},
		Policies: []string{a, b},
		Pairs:    []compare.Pair{{A: a, B: b, Agree: 1, Diverge: 1}},
		Classes: []compare.Class{{A: a, B: b, Signature: text, Cause: cause, Count: 1,
			Witness: compare.Witness{Constraint: text, Version: text, AVerdict: engine.Allow, BVerdict: engine.Reject}}},
		Selection: &compare.SelectionReport{Groups: 1, Pairs: []compare.SelectionPair{{A: a, B: b, Diverge: 1,
			Witness: &compare.SelectionWitness{Constraint: text, History: text, ASelected: text, BSelected: ""}}}},
	}
}

// TestMarkdownOutsideText renders reports whose names and texts hold
// Markdown and checks that every table row keeps its cells, and that
// what should show escaped does.
func TestMarkdownOutsideText(t *testing.T) {
	tests := []struct {
		name, a, b, text string
		cause            compare.Cause
		want             []string // lines, or parts of lines, the report holds
	}{
		{name: "plain", a: "linear", b: "tilde", text: "~> 1.0", cause: compare.CausePessimistic,
			want: []string{"**Domain:** \\~\\> 1.0\n", "| 1 | - | ~> quirk | `~> 1.0` |", "Causes: ~> quirk: 1 class, 1 case."}},
		{name: "pipes", a: "a|b", b: "c||d", text: "x | y", cause: compare.CauseSyntax,
			want: []string{"**Policies:** `a|b`, `c||d`", "| | `a\\|b` | `c\\|\\|d` |", "| 1 | - | syntax | `x \\| y` |"}},
		{name: "html", a: "<b>", b: "<script>", text: "<script>alert(1)</script>", cause: compare.CauseSyntax,
			want: []string{"<summary>&lt;b&gt; vs &lt;script&gt;:", "**Domain:** \\<script\\>alert(1)\\</script\\>\n"}},
		{name: "backticks", a: "`a", b: "b``c", text: "x`y", cause: compare.CauseSyntax,
			want: []string{"**Policies:** `` `a ``, ```b``c```", "| 1 | - | syntax | ``x`y`` |"}},
		{name: "links", a: "p", b: "q", text: "![i](u) [x](y)", cause: compare.CauseSyntax,
			want: []string{"**Domain:** \\!\\[i\\](u) \\[x\\](y)\n"}},
		{name: "newlines", a: "p", b: "q", text: "a\n| b |\n# c", cause: compare.CauseSyntax,
			want: []string{"**Domain:** a \\| b \\| \\# c\n", "| 1 | - | syntax | `a \\| b \\| # c` |"}},
		{name: "empty", a: "p", b: "q", text: "", cause: compare.CauseSyntax,
			want: []string{"| 1 | - | syntax | `\"\"` | `\"\"` | `\"\"` | allow | reject |", "| `\"\"` | `\"\"` |"}},
		{name: "cause of a file", a: "p", b: "q", text: "t", cause: compare.Cause("*bold* | cell"),
			want: []string{"| 1 | - | \\*bold\\* \\| cell |", "Causes: \\*bold\\* \\| cell: 1 class, 1 case."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := render.Render(&buf, render.FormatMarkdown, markdownReport(tt.a, tt.b, tt.text, tt.cause), render.Options{}); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("the report has no %q:\n%s", w, out)
				}
			}
			// The agreement table has 3 columns, the class table 8 and
			// the selection table 8.
			cells := map[string]int{"| |": 3, "| count |": 8, "| a |": 8}
			columns := 0
			for _, line := range strings.Split(out, "\n") {
				if !strings.HasPrefix(line, "|") {
					columns = 0
					continue
				}
				for head, n := range cells {
					if strings.HasPrefix(line, head) {
						columns = n
					}
				}
				if got := unescapedPipes(line) - 1; got != columns {
					t.Errorf("row %q has %d cells, want %d", line, got, columns)
				}
			}
		})
	}
}

// unescapedPipes counts the "|" of line that no backslash precedes.
func unescapedPipes(line string) int {
	n := 0
	for i := 0; i < len(line); i++ {
		if line[i] == '|' && (i == 0 || line[i-1] != '\\') {
			n++
		}
	}
	return n
}
