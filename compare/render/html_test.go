package render_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/compare/render"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/report"
)

// htmlPage is what the HTML tests read from a page.
type htmlPage struct {
	ids   map[string]bool
	hrefs []string
	rects []map[string]string // the attributes of each heatmap cell
	text  string              // the character data, unescaped
}

// parseHTMLPage reads a page with encoding/xml in its HTML mode, which
// fails on an end tag that closes the wrong element.
func parseHTMLPage(t *testing.T, page string) htmlPage {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(strings.TrimPrefix(page, "<!DOCTYPE html>")))
	d.Strict = false
	d.AutoClose = xml.HTMLAutoClose
	d.Entity = xml.HTMLEntity
	p := htmlPage{ids: map[string]bool{}}
	var text strings.Builder
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the page does not parse: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			attrs := map[string]string{}
			for _, a := range tok.Attr {
				attrs[a.Name.Local] = a.Value
			}
			if id, ok := attrs["id"]; ok {
				if p.ids[id] {
					t.Errorf("id %q is used twice", id)
				}
				p.ids[id] = true
			}
			if h, ok := attrs["href"]; ok {
				p.hrefs = append(p.hrefs, h)
			}
			if _, cell := attrs["data-a"]; cell && tok.Name.Local == "rect" {
				p.rects = append(p.rects, attrs)
			}
		case xml.CharData:
			text.Write(tok)
		}
	}
	p.text = text.String()
	return p
}

func renderHTML(t *testing.T, r *compare.Report, opt render.Options) string {
	t.Helper()
	var buf bytes.Buffer
	if err := render.Render(&buf, render.FormatHTML, r, opt); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestHTMLReport renders a real run and checks that the page parses,
// needs nothing from outside, has one heatmap cell per ordered pair of
// two policies with the pair's counts, and links only to its own ids.
func TestHTMLReport(t *testing.T) {
	r := goldenReport(t)
	page := renderHTML(t, r, render.Options{Options: report.Options{ShowAll: true}})
	if !strings.HasPrefix(page, "<!DOCTYPE html>") {
		t.Errorf("the page does not start with a doctype: %.40q", page)
	}
	for _, bad := range []string{`src="http`, `href="http`, `<script`, `<link`, `@import`, `url(`} {
		if strings.Contains(page, bad) {
			t.Errorf("the page is not self-contained: it has %s", bad)
		}
	}
	p := parseHTMLPage(t, page)

	n := len(r.Policies)
	if len(p.rects) != n*(n-1) {
		t.Fatalf("the heatmap has %d cells, want %d: one per ordered pair of two policies", len(p.rects), n*(n-1))
	}
	seen := map[[2]string]bool{}
	for _, rect := range p.rects {
		a, b := rect["data-a"], rect["data-b"]
		if a == b || seen[[2]string{a, b}] {
			t.Errorf("cell %s, %s: a diagonal or repeated cell", a, b)
		}
		seen[[2]string{a, b}] = true
		pair, ok := r.PairOf(a, b)
		if !ok {
			t.Errorf("cell %s, %s: no such pair", a, b)
			continue
		}
		if rect["data-agree"] != strconv.FormatInt(pair.Agree, 10) || rect["data-diverge"] != strconv.FormatInt(pair.Diverge, 10) {
			t.Errorf("cell %s, %s: agree %s, diverge %s; the report says %d, %d", a, b, rect["data-agree"], rect["data-diverge"], pair.Agree, pair.Diverge)
		}
	}
	links := 0
	for _, h := range p.hrefs {
		if !strings.HasPrefix(h, "#") {
			t.Errorf("link %q leaves the page", h)
			continue
		}
		if !p.ids[h[1:]] {
			t.Errorf("link %q goes to no id of the page", h)
		}
		if strings.HasPrefix(h, "#pair-") {
			links++
		}
	}
	if links != n*(n-1) {
		t.Errorf("%d links to pairs, want one per heatmap cell (%d)", links, n*(n-1))
	}
	for _, c := range r.Classes {
		if !strings.Contains(p.text, c.Witness.Constraint) || !strings.Contains(p.text, c.Signature) {
			t.Errorf("class %s of %s vs %s is missing", c.Signature, c.A, c.B)
		}
	}
	if got := strings.Count(page, `<svg class="timeline"`); got != len(r.Classes) {
		t.Errorf("%d witness timelines, want one per class (%d)", got, len(r.Classes))
	}
	for _, want := range []string{"How each policy differs from", "Agreement", "Divergence classes", "Selection"} {
		if !strings.Contains(p.text, want) {
			t.Errorf("the page has no %q", want)
		}
	}
}

// htmlReportOf builds a report of two policies with the given classes.
func htmlReportOf(constraint string, classes int) *compare.Report {
	r := &compare.Report{Schema: compare.SchemaVersion, Reference: "a", Policies: []string{"a", "b"},
		Domain: compare.DomainInfo{Name: "file", Description: "cases from <b>evil</b>.tsv", Cases: 1000},
		Pairs:  []compare.Pair{{A: "a", B: "b", Agree: 1000 - int64(classes), Diverge: int64(classes)}}}
	for i := range classes {
		r.Classes = append(r.Classes, compare.Class{A: "a", B: "b", Cause: compare.CauseSyntax, Count: 1,
			Signature: fmt.Sprintf("shape %d", i),
			Witness: compare.Witness{Constraint: constraint, Version: "1.0.0", AVerdict: engine.Allow, BVerdict: engine.Invalid,
				AReason: "<i>reason</i>", BReason: "cannot read " + constraint}})
	}
	r.Summary = []compare.SummaryRow{{Policies: []string{"b"}, Agree: r.Pairs[0].Agree, Diverge: r.Pairs[0].Diverge,
		Witnesses: []compare.SummaryWitness{{Constraint: constraint, Version: "1.0.0", What: "refuses the constraint"}}}}
	r.Splits = []compare.Split{{Shape: "shape 0", Allow: []string{"a"}, Invalid: []string{"b"}, Count: 1,
		Witness: compare.SplitWitness{Constraint: constraint, Version: "1.0.0"}}}
	return r
}

// TestHTMLEscapesInput checks that text from the input, such as a
// constraint of a domain file, is shown as text and never runs.
func TestHTMLEscapesInput(t *testing.T) {
	hostile := `<script>alert(1)</script>"'><img src=x onerror=alert(2)>`
	page := renderHTML(t, htmlReportOf(hostile, 3), render.Options{})
	for _, bad := range []string{"<script", "<img", "<b>evil", "<i>reason"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page has %s unescaped", bad)
		}
	}
	p := parseHTMLPage(t, page)
	if got := strings.Count(p.text, hostile); got < 3*2+2 {
		t.Errorf("the hostile constraint shows %d times as text, want it in every class, the summary and the split", got)
	}
	if !strings.Contains(p.text, "cases from <b>evil</b>.tsv") {
		t.Error("the domain's description is not shown as text")
	}
}

// TestHTMLCapsClasses checks that a pair with more classes than the page
// lists says how many it leaves out.
func TestHTMLCapsClasses(t *testing.T) {
	r := htmlReportOf(">= 1.0.0", render.HTMLClassesPerPair+7)
	p := parseHTMLPage(t, renderHTML(t, r, render.Options{Options: report.Options{ShowAll: true, Hints: cliHints}}))
	if !strings.Contains(p.text, "7 more classes with 7 cases are left out.") ||
		!strings.Contains(p.text, fmt.Sprintf("Each pair lists at most its first %d classes", render.HTMLClassesPerPair)) ||
		!strings.Contains(p.text, "the rest are counted; see --format json") {
		t.Errorf("the page does not say what it left out")
	}
	if strings.Contains(p.text, fmt.Sprintf("shape %d", render.HTMLClassesPerPair)) {
		t.Errorf("the page lists a class past the first %d", render.HTMLClassesPerPair)
	}
	if !strings.Contains(p.text, fmt.Sprintf("shape %d", render.HTMLClassesPerPair-1)) {
		t.Errorf("the page leaves out one of the first %d classes", render.HTMLClassesPerPair)
	}
}

// TestHTMLDrift checks that a drift from a baseline opens the page.
func TestHTMLDrift(t *testing.T) {
	r := htmlReportOf(">= 1.0.0", 1)
	d := &compare.Drift{Exact: true, Policies: []compare.PolicyDrift{{Policy: "b", Changed: 4,
		Moves: []compare.Move{{From: engine.Reject, To: engine.Allow, Count: 4}}}},
		Changes: []compare.Change{{Text: "b: 4 verdicts changed"}}}
	p := parseHTMLPage(t, renderHTML(t, r, render.Options{Drift: d, BaselinePath: "base.json"}))
	drift, summary := strings.Index(p.text, "Drift from the baseline base.json"), strings.Index(p.text, "How each policy differs")
	if drift < 0 || summary < drift {
		t.Errorf("the drift is missing or not first")
	}
	if !strings.Contains(p.text, d.Policies[0].MovesText()) {
		t.Errorf("the drift does not say what moved")
	}
}

// TestHTMLStructure checks the layout of the page of a whole run: a
// table of contents whose links resolve, the summary as the first
// section and the splits after it, the classes of each pair and the
// long tables folded under <details>, and each note about what the page
// leaves out said once.
func TestHTMLStructure(t *testing.T) {
	longtest.SkipShort(t)
	d, err := compare.Exhaustive(1)
	if err != nil {
		t.Fatal(err)
	}
	r, err := compare.Run(context.Background(), d, catalogue.New().All(), compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	page := renderHTML(t, r, render.Options{Options: report.Options{Hints: cliHints}})
	p := parseHTMLPage(t, page)
	for _, h := range p.hrefs {
		if !strings.HasPrefix(h, "#") || !p.ids[h[1:]] {
			t.Errorf("link %q goes to no id of the page", h)
		}
	}
	for _, id := range []string{"contents", "summary", "splits", "agreement", "classes"} {
		if !strings.Contains(page, `href="#`+id+`"`) && id != "contents" {
			t.Errorf("the contents do not link to #%s", id)
		}
		if !p.ids[id] {
			t.Errorf("no id %q", id)
		}
	}
	sections := regexp.MustCompile(`<section id="([^"]+)"`).FindAllStringSubmatch(page, -1)
	if len(sections) < 2 || sections[0][1] != "summary" || sections[1][1] != "splits" {
		t.Errorf("sections %v, want the summary first, then the splits", sections)
	}
	if !strings.HasPrefix(strings.SplitN(page, `<section id="summary">`, 2)[1], "\n<h2>How each policy differs") {
		t.Errorf("the summary section does not start with its heading")
	}
	pairs := 0
	for _, pr := range r.Pairs {
		if pr.Diverge > 0 && (pr.A == r.Reference || pr.B == r.Reference) {
			pairs++
			if !strings.Contains(page, `<details id="pair-`) {
				t.Errorf("pair %s vs %s is not folded", pr.A, pr.B)
			}
		}
	}
	if got := strings.Count(page, `<details id="pair-`); got != pairs {
		t.Errorf("%d folded pairs, want %d", got, pairs)
	}
	for _, note := range []string{"without <code>terraform-module</code> are left out", "see <code>--format json</code>"} {
		if n := strings.Count(page, note); n != 1 {
			t.Errorf("the note %q is on the page %d times, want once", note, n)
		}
	}

	// Grouped as the catalogue groups them, the page keeps its layout,
	// lists every policy once under its group, the groups in order, and
	// marks today's rule and the reference.
	grouped := renderHTML(t, r, render.Options{Options: report.Options{Hints: cliHints, Group: catalogue.Group, Groups: catalogue.Groups(), Today: catalogue.Today}})
	gp := parseHTMLPage(t, grouped)
	for _, h := range gp.hrefs {
		if !strings.HasPrefix(h, "#") || !gp.ids[h[1:]] {
			t.Errorf("grouped: link %q goes to no id of the page", h)
		}
	}
	if got := regexp.MustCompile(`<section id="([^"]+)"`).FindAllStringSubmatch(grouped, -1); len(got) != len(sections) {
		t.Errorf("grouped: sections %v, want %v", got, sections)
	}
	if len(gp.rects) != len(p.rects) {
		t.Errorf("grouped: %d heatmap cells, want %d", len(gp.rects), len(p.rects))
	}
	header := strings.SplitN(strings.SplitN(grouped, "Policies by group:", 2)[1], "</p>", 2)[0]
	lines := strings.Split(strings.TrimPrefix(header, "<br>\n"), "<br>\n")
	if len(lines) != len(catalogue.Groups())-1 { // no policy of the catalogue is "your own"
		t.Fatalf("grouped: the policies are in %d groups, want %d:\n%s", len(lines), len(catalogue.Groups())-1, header)
	}
	listed := 0
	for i, line := range lines {
		g := catalogue.Groups()[i]
		if !strings.HasPrefix(line, "<strong>"+g+"</strong>: ") {
			t.Errorf("grouped: group %d is %q, want %s", i, line, g)
		}
		for _, name := range regexp.MustCompile(`<code>([^<]+)</code>`).FindAllStringSubmatch(line, -1) {
			listed++
			if catalogue.Group(name[1]) != g {
				t.Errorf("grouped: %s is listed under %s, not %s", name[1], g, catalogue.Group(name[1]))
			}
		}
	}
	if listed != len(r.Policies) {
		t.Errorf("grouped: %d policies listed by group, want %d", listed, len(r.Policies))
	}
	for _, want := range []string{
		"<code>terraform-module</code> <em>(today&#39;s rule, reference)</em>",
		"<code>opentofu-module</code> <em>(today&#39;s rule)</em>",
		"<th>policies</th><th>group</th>",
		"</code></td><td>updaters</td>",
		`font-weight="bold">updaters</text>`,
		">terraform-module (today&#39;s rule, reference) ",
		"the policies grouped (installers, updaters, readers, libraries, proposals)",
	} {
		if !strings.Contains(grouped, want) {
			t.Errorf("grouped: the page has no %q", want)
		}
	}
	if strings.Contains(grouped, "<code>strict</code> <em>") {
		t.Error("grouped: strict, the documented rule, is marked")
	}
	// The heatmap's rows go group after group, in order, and each group
	// is named once, bold.
	rank := map[string]int{}
	for i, g := range catalogue.Groups() {
		rank[g] = i
	}
	rows := regexp.MustCompile(`text-anchor="end">([^ <]+)[^<]* [0-9]+</text>`).FindAllStringSubmatch(grouped, -1)
	if len(rows) != len(r.Policies) {
		t.Fatalf("grouped: %d rows in the heatmap, want %d", len(rows), len(r.Policies))
	}
	for i := 1; i < len(rows); i++ {
		if a, b := catalogue.Group(rows[i-1][1]), catalogue.Group(rows[i][1]); rank[a] > rank[b] {
			t.Errorf("grouped: heatmap row %s (%s) comes after %s (%s)", rows[i][1], b, rows[i-1][1], a)
		}
	}
	for _, g := range catalogue.Groups()[:len(catalogue.Groups())-1] { // every group but your own
		if n := strings.Count(grouped, `font-weight="bold">`+g+`</text>`); n != 1 {
			t.Errorf("grouped: the heatmap names %s %d times, want once", g, n)
		}
	}
}
