package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/prerel/prerel/report"
)

// htmlMark is one timeline mark of a page.
type htmlMark struct {
	policy, version, verdict, selected string
}

// htmlTimeline is one SVG timeline of a page: its constraint and marks.
type htmlTimeline struct {
	constraint string
	marks      []htmlMark
}

// parseHTMLPage parses page, checks that it is self-contained (no script,
// no element or attribute that loads anything) and returns its timelines.
func parseHTMLPage(t *testing.T, page string) []htmlTimeline {
	t.Helper()
	for _, bad := range []string{"http://", "https://", "<script", "src=", "<link", "url("} {
		if strings.Contains(strings.ToLower(page), bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatalf("page does not parse: %v", err)
	}
	var tls []htmlTimeline
	var walk func(n *html.Node, tl *htmlTimeline)
	walk = func(n *html.Node, tl *htmlTimeline) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "script", "link", "img", "iframe", "object", "embed", "image", "use", "foreignObject":
				t.Errorf("page has a <%s> element", n.Data)
			}
			attr := map[string]string{}
			for _, a := range n.Attr {
				attr[a.Key] = a.Val
				if a.Key == "src" || a.Key == "href" || strings.HasPrefix(a.Key, "on") {
					t.Errorf("<%s> has a %s attribute", n.Data, a.Key)
				}
			}
			switch {
			case n.Data == "svg":
				tls = append(tls, htmlTimeline{})
				tl = &tls[len(tls)-1]
			case tl != nil && n.Data == "text" && attr["class"] == "constraint":
				tl.constraint = textOf(n)
			case tl != nil && attr["data-policy"] != "":
				tl.marks = append(tl.marks, htmlMark{attr["data-policy"], attr["data-version"], attr["data-verdict"], attr["data-selected"]})
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, tl)
		}
	}
	walk(doc, nil)
	checkSVGsAreXML(t, page)
	return tls
}

// textOf is the text directly inside n.
func textOf(n *html.Node) string {
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}

// checkSVGsAreXML checks that every <svg>...</svg> of page parses as XML.
func checkSVGsAreXML(t *testing.T, page string) {
	t.Helper()
	for rest := page; ; {
		i := strings.Index(rest, "<svg")
		if i < 0 {
			return
		}
		j := strings.Index(rest[i:], "</svg>")
		if j < 0 {
			t.Fatal("unterminated <svg>")
		}
		svg := rest[i : i+j+len("</svg>")]
		dec := xml.NewDecoder(strings.NewReader(svg))
		for {
			_, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("SVG does not parse as XML: %v", err)
			}
		}
		rest = rest[i+j:]
	}
}

// checkMarksAgainstEval checks that tl's marks are what prerel eval
// answers for its constraint, versions and policies, and that every
// policy has a mark for every drawn version.
func checkMarksAgainstEval(t *testing.T, tl htmlTimeline) {
	t.Helper()
	if len(tl.marks) == 0 {
		t.Fatal("timeline without marks")
	}
	var policies, versions []string
	for _, m := range tl.marks {
		if !slices.Contains(policies, m.policy) {
			policies = append(policies, m.policy)
		}
		if !slices.Contains(versions, m.version) {
			versions = append(versions, m.version)
		}
	}
	if len(tl.marks) != len(policies)*len(versions) {
		t.Errorf("%d marks for %d policies and %d versions", len(tl.marks), len(policies), len(versions))
	}
	var stdin strings.Builder
	for _, v := range versions {
		fmt.Fprintf(&stdin, "%s\t%s\n", tl.constraint, v)
	}
	code, stdout, stderr := runCLI(t, stdin.String(), "eval", "--policies", strings.Join(policies, ","))
	if code != exitOK {
		t.Fatalf("eval: exit %d: %s", code, stderr)
	}
	want := map[[2]string]string{}
	for _, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		f := strings.Split(line, "\t")
		for k, p := range policies {
			want[[2]string{p, f[1]}] = f[2+k]
		}
	}
	for _, m := range tl.marks {
		if w := want[[2]string{m.policy, m.version}]; m.verdict != w {
			t.Errorf("constraint %q, %s on %s: mark says %s, eval %s", tl.constraint, m.policy, m.version, m.verdict, w)
		}
	}
}

func TestCheckHTML(t *testing.T) {
	const constraint = ">= 1.0.0-beta, < 2.0.0"
	code, stdout, stderr := runCLI(t, "", "check", "--format", "html", constraint,
		"2.0.0-rc.1", "1.0.0-beta", "1.0.0", "1.1.0-rc.1", "v1.1.0", "2.0.0")
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	tls := parseHTMLPage(t, stdout)
	if len(tls) != 1 {
		t.Fatalf("%d timelines, want 1", len(tls))
	}
	if tls[0].constraint != constraint {
		t.Errorf("constraint %q, want %q", tls[0].constraint, constraint)
	}
	checkMarksAgainstEval(t, tls[0])
	for _, m := range tls[0].marks {
		if m.selected != "false" {
			t.Errorf("check selects %v", m)
		}
	}
	// Versions in precedence order.
	var order []string
	for _, m := range tls[0].marks {
		if !slices.Contains(order, m.version) {
			order = append(order, m.version)
		}
	}
	if w := "[1.0.0-beta 1.0.0 1.1.0-rc.1 v1.1.0 2.0.0-rc.1 2.0.0]"; fmt.Sprint(order) != w {
		t.Errorf("versions %v, want %s", order, w)
	}
	for _, want := range []string{"policies disagree on ", "&gt;= 1.0.0-beta, &lt; 2.0.0", "<pre>constraint: "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if a, p := strings.Index(stdout, "policies disagree"), strings.Index(stdout, "<svg"); a > p {
		t.Error("the answer comes after the timeline")
	}
}

func TestSelectHTML(t *testing.T) {
	const constraint = "~> 1.1"
	versions := []string{"1.1.0", "1.2.0-beta.1", "1.1.5", "2.0.0-rc.1", "0.9.0"}
	code, stdout, stderr := runCLI(t, "", append([]string{"select", "--format", "html", constraint}, versions...)...)
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	tls := parseHTMLPage(t, stdout)
	if len(tls) != 1 {
		t.Fatalf("%d timelines, want 1", len(tls))
	}
	checkMarksAgainstEval(t, tls[0])
	// The outlined marks are what select --format json answers.
	_, js, _ := runCLI(t, "", append([]string{"select", "--format", "json", constraint}, versions...)...)
	var rep report.SelectReport
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatal(err)
	}
	selects := map[string]string{}
	for _, r := range rep.Policies {
		if r.Selected != nil {
			selects[r.Policy] = *r.Selected
		}
	}
	for _, m := range tls[0].marks {
		if got, want := m.selected == "true", selects[m.policy] == m.version; got != want {
			t.Errorf("%s on %s: outlined %v, selected %v", m.policy, m.version, got, want)
		}
	}
	if !strings.Contains(stdout, `data-selected="true"`) {
		t.Error("no selection outlined")
	}
	if !strings.Contains(stdout, "POLICY") {
		t.Error("page lacks the table")
	}
}

func TestImpactHTML(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "impact", "--policy", "linear", "--format", "html")
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	tls := parseHTMLPage(t, stdout)
	if len(tls) == 0 || len(tls) > 10 { // an HTML impact report draws at most 10
		t.Fatalf("%d timelines, want 1 to 10", len(tls))
	}
	for _, tl := range tls {
		checkMarksAgainstEval(t, tl)
		selected := map[string]int{}
		for _, m := range tl.marks {
			if m.selected == "true" {
				selected[m.policy]++
			}
		}
		if selected["linear"] != 1 || len(tl.marks) > 2*60 {
			t.Errorf("constraint %q: selections %v, %d marks", tl.constraint, selected, len(tl.marks))
		}
	}
	for _, want := range []string{"linear changes what ", "versions not shown", "<pre>"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

func TestHTMLEscapesInput(t *testing.T) {
	const evil = "<script>alert(1)</script>"
	file := filepath.Join(t.TempDir(), "versions")
	if err := os.WriteFile(file, []byte("1.0.0\n"+evil+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"check", "select"} {
		t.Run(cmd, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "", cmd, "--format", "html", "--versions-file", file, ">= 1.0, < 2")
			if code != exitOK {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			tls := parseHTMLPage(t, stdout)
			for _, want := range []string{"&lt;script&gt;alert(1)&lt;/script&gt;", "&gt;= 1.0, &lt; 2"} {
				if !strings.Contains(stdout, want) {
					t.Errorf("page lacks %q", want)
				}
			}
			found := false
			for _, m := range tls[0].marks {
				found = found || m.version == evil
			}
			if !found {
				t.Error("hostile version has no mark")
			}
			checkMarksAgainstEval(t, tls[0])
		})
	}
}
