package render_test

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/compare/render"
	"github.com/prerel/prerel/internal/golden"
	"github.com/prerel/prerel/report"
)

// groupedOptions group the golden report's policies over three of the
// catalogue's groups, "same-base" standing for today's rule.
func groupedOptions() render.Options {
	groups := map[string]string{"same-base": catalogue.GroupInstallers, "tilde": catalogue.GroupUpdaters, "linear": catalogue.GroupProposals}
	return render.Options{Options: report.Options{Hints: cliHints, Groups: catalogue.Groups(), Today: func(p string) string {
		if p == "same-base" {
			return "today's installer"
		}
		return ""
	},
		Group: func(p string) string {
			if g, ok := groups[p]; ok {
				return g
			}
			return catalogue.GroupOwn
		}}}
}

// TestRenderGroupedGolden renders the golden report with its policies
// grouped, in Markdown and HTML; the text report is never grouped.
func TestRenderGroupedGolden(t *testing.T) {
	r := goldenReport(t)
	for f, ext := range map[render.Format]string{render.FormatMarkdown: "md", render.FormatHTML: "html"} {
		t.Run(string(f), func(t *testing.T) {
			var buf bytes.Buffer
			if err := render.Render(&buf, f, r, groupedOptions()); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "report-groups."+ext), buf.Bytes())
		})
	}
	var plain, grouped bytes.Buffer
	if err := render.Render(&plain, render.FormatText, r, render.Options{Options: report.Options{Hints: cliHints}}); err != nil {
		t.Fatal(err)
	}
	if err := render.Render(&grouped, render.FormatText, r, groupedOptions()); err != nil {
		t.Fatal(err)
	}
	if plain.String() != grouped.String() {
		t.Error("the text report changes with groups")
	}
}

// TestMarkdownGroups checks that a grouped Markdown report lists the
// policies by group in the order given, marks today's rule and the
// reference, and keeps every table row's cells.
func TestMarkdownGroups(t *testing.T) {
	var buf bytes.Buffer
	if err := render.Render(&buf, render.FormatMarkdown, goldenReport(t), groupedOptions()); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"**Policies by group:**  \n**installers**: `same-base` *(today's rule)*  \n**updaters**: `tilde`  \n**proposals**: `linear` *(reference)*  \n**your own**: `no-v`\n\n",
		"| policies | group | agree |",
		"the policies grouped (installers, updaters, proposals, your own)",
		"| group | | `same-base` | `tilde` | `linear` | `no-v` |\n|---|---|---:|---:|---:|---:|\n",
		"| installers | `same-base` *(today's rule)* |",
		"| proposals | `linear` *(reference)* |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report has no %q:\n%s", want, out)
		}
	}
	// Every row of the agreement table has a group cell, a name and
	// one cell per policy.
	rows := regexp.MustCompile(`(?m)^\| (installers|updaters|proposals|your own|) \| .*$`).FindAllString(out, -1)
	if len(rows) != 4 {
		t.Fatalf("%d rows of the agreement table, want 4:\n%s", len(rows), out)
	}
	for _, row := range rows {
		if got := unescapedPipes(row) - 1; got != 6 {
			t.Errorf("row %q has %d cells, want 6", row, got)
		}
	}
}
