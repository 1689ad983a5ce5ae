package report_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/golden"
	"github.com/prerel/prerel/report"
)

// groupPolicies are the policies of the reports these tests build, two
// of them today's rule.
var groupPolicies = []string{"strict", "linear", "terraform-module", "apparentlymart", "terraform-module-versions"}

func groupToday(p string) string {
	switch p {
	case "terraform-module":
		return "module calls"
	case "apparentlymart":
		return "providers"
	}
	return ""
}

// checkReport builds a check report of groupPolicies from rows written
// "VERSION a r i ...": one verdict a policy (a allow, r reject, i
// invalid).
func checkReport(rows ...string) report.CheckReport {
	rep := report.CheckReport{Schema: report.CheckSchema, Constraint: "~> 1.2", Policies: groupPolicies}
	for _, line := range rows {
		f := strings.Fields(line)
		row := report.CheckRow{Version: f[0]}
		for j, c := range f[1:] {
			v := map[string]engine.Verdict{"a": engine.Allow, "r": engine.Reject, "i": engine.Invalid}[c]
			row.Results = append(row.Results, report.PolicyResult{Policy: groupPolicies[j], Verdict: v, Reason: "because"})
		}
		rep.Versions = append(rep.Versions, row)
	}
	return rep
}

// groupsRows are the shape of the issue that asked for groups: releases
// on which only terraform-module-versions dissents, given before the
// prereleases, and a version that would be markup.
var groupsRows = []string{
	"0.9.0 r r r r r",
	"1.2.0 a a a a a",
	"1.3.0 a a a a r",
	"1.4.0 a a a a r",
	"1.5.0 a a a a r",
	"1.6.0 a a a a r",
	"<b>1.7.0</b>\u202e a a a a r",
	"1.8.0-rc.1 r a r r r",
	"2.0.0-beta.1 r a r r r",
	"2.0.0 r r r r r",
	"v1.9.0 a a a i r",
}

// groupsSection is the part of an HTML check page that shows the groups.
func groupsSection(t *testing.T, page string) string {
	t.Helper()
	i := strings.Index(page, "<h2>The versions by their verdicts</h2>")
	j := strings.Index(page, `<p class="legend">`)
	if i < 0 || j < i {
		t.Fatalf("the page has no groups before the timeline:\n%s", page)
	}
	return page[i:j]
}

func checkHTML(t *testing.T, rep report.CheckReport, opts report.Options) string {
	t.Helper()
	var b strings.Builder
	if err := report.Check(&b, report.HTML, rep, opts); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestCheckHTMLGroupsGolden checks the groups of an HTML check page
// against testdata/check-groups.html.
func TestCheckHTMLGroupsGolden(t *testing.T) {
	page := checkHTML(t, checkReport(groupsRows...), report.Options{Today: groupToday, Hints: report.Hints{ShowAll: "--show-all"}})
	golden.Check(t, filepath.Join("testdata", "check-groups.html"), []byte(groupsSection(t, page)))
}

// pageGroupRow is one row of the groups table, as a browser reads it.
type pageGroupRow struct {
	class, size, which, says string
}

// parseGroups parses page and returns, in document order, the headings,
// the answer, the rows of the groups table and the first SVG element's
// position among them; and fails on markup an input made.
func parseGroups(t *testing.T, page string) (order []string, rows []pageGroupRow) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var text func(n *html.Node) string
	text = func(n *html.Node) string {
		if n.Type == html.TextNode {
			return n.Data
		}
		var b strings.Builder
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			b.WriteString(text(c))
		}
		return b.String()
	}
	attr := func(n *html.Node, k string) string {
		for _, a := range n.Attr {
			if a.Key == k {
				return a.Val
			}
		}
		return ""
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch {
			case n.Data == "b":
				t.Errorf("a version became markup: <b>%s</b>", text(n))
			case n.Data == "p" && attr(n, "class") == "answer":
				order = append(order, "answer")
			case n.Data == "h2":
				order = append(order, text(n))
			case n.Data == "svg":
				order = append(order, "svg")
				return
			case n.Data == "tr" && attr(n, "class") != "":
				var cells []string
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					if c.Type == html.ElementNode && c.Data == "td" {
						cells = append(cells, text(c))
					}
				}
				if len(cells) != 3 {
					t.Fatalf("a row of %d cells: %q", len(cells), cells)
				}
				rows = append(rows, pageGroupRow{attr(n, "class"), cells[0], cells[1], cells[2]})
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return order, rows
}

// TestCheckHTMLGroups checks how an HTML check page shows the groups:
// after the answer and before the timeline; the prerelease groups first,
// then those the policies disagree on, then those they agree on; today's
// rule named as such only with Options.Today; a version that would be
// markup shown as text; and at most 20 groups unless Options.ShowAll,
// the page saying what it left out.
func TestCheckHTMLGroups(t *testing.T) {
	order, rows := parseGroups(t, checkHTML(t, checkReport(groupsRows...), report.Options{Today: groupToday}))
	if want := []string{"answer", "The versions by their verdicts", "svg"}; !slices.Equal(order[:3], want) {
		t.Errorf("the page shows %q first, want %q", order, want)
	}
	want := []pageGroupRow{
		{"prerelease", "2 prereleases", "1.8.0-rc.1, 2.0.0-beta.1", "only linear dissents: it allows, the other 4 reject"},
		{"disagree", "5 versions", `1.3.0, …, <b>1.7.0</b>\u202e1.3.0 1.4.0 1.5.0 1.6.0 <b>1.7.0</b>\u202e`, "only terraform-module-versions dissents: it rejects, the other 4 allow"},
		{"disagree", "1 version", "v1.9.0", "admitted by terraform-module (today's rule), strict, linear; rejected by terraform-module-versions; invalid for apparentlymart (today's rule)"},
		{"agree", "1 version", "1.2.0", "every policy agrees: allow"},
		{"agree", "2 versions", "0.9.0, 2.0.0", "every policy agrees: reject"},
	}
	if !slices.Equal(rows, want) {
		t.Errorf("the groups are\n%q\nwant\n%q", rows, want)
	}

	// Without Options.Today, no policy is named today's rule.
	_, rows = parseGroups(t, checkHTML(t, checkReport(groupsRows...), report.Options{}))
	if got := rows[2].says; got != "admitted by strict, linear, terraform-module; rejected by terraform-module-versions; invalid for apparentlymart" {
		t.Errorf("without today's rule, the third group says %q", got)
	}

	// 25 patterns: 20 groups and a note, or every one.
	var many []string
	for k := range 25 {
		line := fmt.Sprintf("1.%d.0", k)
		for j, n := 0, k; j < len(groupPolicies); j, n = j+1, n/3 {
			line += " " + []string{"a", "r", "i"}[n%3]
		}
		many = append(many, line)
	}
	for _, tt := range []struct {
		opts report.Options
		rows int
		note string
	}{
		{report.Options{Hints: report.Hints{ShowAll: "--show-all"}}, 20, "5 groups of 5 versions (4 where the policies disagree) left out; --show-all lists them."},
		{report.Options{ShowAll: true, Hints: report.Hints{ShowAll: "--show-all"}}, 25, "25 versions in 25 groups: "},
	} {
		page := checkHTML(t, checkReport(many...), tt.opts)
		if _, rows := parseGroups(t, page); len(rows) != tt.rows {
			t.Errorf("show all %v: %d groups, want %d", tt.opts.ShowAll, len(rows), tt.rows)
		}
		if !strings.Contains(page, tt.note) {
			t.Errorf("show all %v: the page does not say %q:\n%s", tt.opts.ShowAll, tt.note, groupsSection(t, page))
		}
	}

	// No version, no groups.
	if page := checkHTML(t, checkReport(), report.Options{}); strings.Contains(page, "by their verdicts") {
		t.Error("a report of no version shows groups")
	}
}
