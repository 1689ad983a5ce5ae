package browsertest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/prerel/prerel/impact"
	"github.com/prerel/prerel/report"
)

// pageMark is one mark of a timeline.
type pageMark struct {
	Policy   string `json:"policy"`
	Version  string `json:"version"`
	Verdict  string `json:"verdict"`
	Selected string `json:"selected"`
}

// marksJS reads the marks of the timelines under root.
const marksJS = `Array.from(%s.querySelectorAll('svg.timeline [data-verdict]')).map(m => ({policy: m.dataset.policy, version: m.dataset.version, verdict: m.dataset.verdict, selected: m.dataset.selected}))`

// openReport opens the file URL u and waits for its timelines.
func openReport(t *testing.T, ctx context.Context, u string) {
	t.Helper()
	err := chromedp.Do(ctx,
		chromedp.Navigate(u),
		chromedp.WaitReady(chromedp.CSS(`body`)),
		chromedp.Sleep(300*time.Millisecond), // time for an injected handler to fire
	)
	if err != nil {
		t.Fatal(err)
	}
}

// checkShownAsText checks that the page has no element an input made,
// and that its text holds every one of texts.
func checkShownAsText(t *testing.T, ctx context.Context, texts ...string) {
	t.Helper()
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.textContent`))
	var elems int
	if err == nil {
		elems, err = chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('img, script, iframe, object, embed').length`))
	}
	if err != nil {
		t.Fatal(err)
	}
	if elems != 0 {
		t.Errorf("the page has %d img, script, iframe, object or embed elements: hostile text became markup", elems)
	}
	for _, s := range texts {
		if !strings.Contains(text, s) {
			t.Errorf("the page's text lacks %q", s)
		}
	}
}

// TestSelectPageMatchesJSON opens prerel select --format html and checks
// each mark of its timeline: its verdict against prerel check --format
// json and whether it is selected against prerel select --format json,
// for the same inputs, hostile versions among them.
func TestSelectPageMatchesJSON(t *testing.T) {
	ctx := browser(t)
	const constraint = ">= 1.0.0-alpha, < 2.0.0, != 1.2.0"
	vf := writeVersions(t, strings.Join([]string{
		"0.9.0", "1.0.0-alpha", "1.0.0-rc.1", "1.0.0", "1.1.0-beta.2", "1.2.0", "1.5.0", "1.9.9-rc.1", "2.0.0-beta", "2.0.0",
		hostile, "<script>alert(2)</script>",
	}, "\n"))
	args := []string{"--versions-file", vf, "--", constraint}

	var check report.CheckReport
	if err := json.Unmarshal(run(t, "", append([]string{"check", "--format", "json"}, args...)...), &check); err != nil {
		t.Fatal(err)
	}
	var sel report.SelectReport
	if err := json.Unmarshal(run(t, "", append([]string{"select", "--format", "json"}, args...)...), &sel); err != nil {
		t.Fatal(err)
	}
	verdict := map[[2]string]string{}
	for _, row := range check.Versions {
		for _, r := range row.Results {
			verdict[[2]string{r.Policy, row.Version}] = r.Verdict.String()
		}
	}
	selected := map[string]string{}
	for _, r := range sel.Policies {
		if r.Selected != nil {
			selected[r.Policy] = *r.Selected
		}
	}

	u := writeReport(t, "select.html", append([]string{"select", "--format", "html"}, args...)...)
	openReport(t, ctx, u)
	marks, err := chromedp.Run(ctx, chromedp.Evaluate[[]pageMark](fmt.Sprintf(marksJS, "document")))
	if err != nil {
		t.Fatal(err)
	}
	if len(marks) != len(verdict) {
		t.Errorf("the timeline has %d marks, want %d (%d policies x %d versions)", len(marks), len(verdict), len(check.Policies), len(check.Versions))
	}
	seen := map[[2]string]bool{}
	rings := 0
	for _, m := range marks {
		if m.Selected == "true" {
			rings++
		}
	}
	if rings != len(selected) || rings == 0 {
		t.Errorf("%d marks are selected, and prerel select has %d policies select a version", rings, len(selected))
	}
	for _, m := range marks {
		k := [2]string{m.Policy, m.Version}
		if seen[k] {
			t.Errorf("mark %s %q appears twice", m.Policy, m.Version)
		}
		seen[k] = true
		w, ok := verdict[k]
		switch {
		case !ok:
			t.Errorf("mark %s %q: no such policy and version in prerel check's JSON", m.Policy, m.Version)
		case m.Verdict != w:
			t.Errorf("mark %s %q: verdict %s, prerel check says %s", m.Policy, m.Version, m.Verdict, w)
		}
		wantSel := fmt.Sprint(ok && selected[m.Policy] == m.Version && selected[m.Policy] != "")
		if m.Selected != wantSel {
			t.Errorf("mark %s %q: selected %s, prerel select selects %q", m.Policy, m.Version, m.Selected, selected[m.Policy])
		}
	}
	checkShownAsText(t, ctx, constraint, hostile, "<script>alert(2)</script>")
}

// TestImpactPageMatchesJSON opens prerel impact --format html on the
// corpus and checks each timeline against prerel impact --format json:
// one section per drawn case, in the report's order, the two policies
// B and P, each one's selection as the case says, and every verdict as
// prerel eval gives it.
func TestImpactPageMatchesJSON(t *testing.T) {
	ctx := browser(t)
	args := []string{"impact", "--policy", "linear"}
	var rep impact.Report
	if err := json.Unmarshal(run(t, "", append(args, "--format", "json")...), &rep); err != nil {
		t.Fatal(err)
	}
	u := writeReport(t, "impact.html", append(args, "--format", "html")...)
	openReport(t, ctx, u)
	n := checkImpactSections(t, ctx, &rep)
	if n == 0 {
		t.Fatal("the corpus report draws no timeline")
	}
	answer, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`.answer`)))
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("changes what %d of", rep.Changed.Calls); !strings.Contains(answer, want) {
		t.Errorf("the answer %q does not say %q", answer, want)
	}
	if *screenshots {
		saveScreenshot(t, ctx, `section`, "impact-timeline.png")
	}
}

// TestImpactPageHostileText runs prerel impact --format html on a
// directory whose name, and whose module's versions in the index, would
// run script if they became markup.
func TestImpactPageHostileText(t *testing.T) {
	ctx := browser(t)
	dir := filepath.Join(t.TempDir(), hostile)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	tf := "module \"m\" {\n  source  = \"acme/hostile/aws\"\n  version = \">= 1.0.0-beta\"\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(tf), 0o644); err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(t.TempDir(), "index.json")
	body := `{"modules": {"acme/hostile/aws": {"modules": [{"versions": [{"version": "1.0.0"}, {"version": "1.1.0-beta.1"}, {"version": "<script>alert(2)</script>"}]}]}}}`
	if err := os.WriteFile(index, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"impact", "--policy", "linear", "--index", index, "--domain", dir}
	var rep impact.Report
	if err := json.Unmarshal(run(t, "", append(args, "--format", "json")...), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Changed.Calls != 1 {
		t.Fatalf("the directory has %d changed calls, want 1", rep.Changed.Calls)
	}
	u := writeReport(t, "impact-hostile.html", append(args, "--format", "html")...)
	openReport(t, ctx, u)
	// A directory domain keys its histories by kind and address; the
	// page must find the history and draw the changed case.
	if n := checkImpactSections(t, ctx, &rep); n != 1 {
		t.Errorf("the page draws %d timelines, want 1", n)
	}
	checkShownAsText(t, ctx, hostile, "<script>alert(2)</script>")
}

// impactSection is one drawn case of an impact page.
type impactSection struct {
	Heading    string     `json:"heading"`
	Constraint string     `json:"constraint"`
	Marks      []pageMark `json:"marks"`
}

// checkImpactSections checks the timelines of the impact page open in
// ctx against rep and returns how many there are. The page must draw
// every changed case, up to 10.
func checkImpactSections(t *testing.T, ctx context.Context, rep *impact.Report) int {
	t.Helper()
	sections, err := chromedp.Run(ctx, chromedp.Evaluate[[]impactSection](`Array.from(document.querySelectorAll('section')).filter(s => s.querySelector('svg.timeline')).map(s => ({
		heading: s.querySelector('h2') ? s.querySelector('h2').textContent : '',
		constraint: s.querySelector('svg.timeline text.constraint').textContent,
		marks: `+fmt.Sprintf(marksJS, "s")+`,
	}))`))
	if err != nil {
		t.Fatal(err)
	}
	// The cases drawn, as the page orders them: the first case of each
	// changed class, then the second of each, and so on.
	var cases []impact.Case
	for k := 0; ; k++ {
		more := false
		for _, c := range rep.Classes {
			if c.Changed && k < len(c.Cases) {
				cases = append(cases, c.Cases[k])
				more = true
			}
		}
		if !more {
			break
		}
	}
	if want := min(len(cases), 10); len(sections) != want {
		// Each changed case has a history; the page draws the first 10.
		t.Errorf("the page draws %d cases, want %d of the %d changed cases", len(sections), want, len(cases))
	}
	// Every verdict, as prerel eval gives it with B and P.
	type judged struct {
		constraint string
		mark       pageMark
	}
	byB := map[string][]judged{}
	for i, s := range sections {
		if i >= len(cases) {
			break
		}
		c := cases[i]
		if want := fmt.Sprintf("%s: %s %s", c.Cause, c.SourceKey, c.Constraint); s.Heading != want {
			t.Errorf("section %d is %q, want %q", i, s.Heading, want)
			continue
		}
		if s.Constraint != c.Constraint {
			t.Errorf("section %q: the timeline's constraint is %q", s.Heading, s.Constraint)
		}
		b := rep.Against.Module
		if c.Kind == impact.KindProvider {
			b = rep.Against.Provider
		}
		want := map[string]string{b: selects(c.Against), rep.Policy: selects(c.Policy)}
		rows := map[string]int{}
		for _, m := range s.Marks {
			rows[m.Policy]++
			w, ok := want[m.Policy]
			if !ok {
				t.Errorf("section %q: a mark of %s, which is neither B (%s) nor P (%s)", s.Heading, m.Policy, b, rep.Policy)
				continue
			}
			if got := m.Selected == "true"; got != (w != "" && w == m.Version) {
				t.Errorf("section %q: %s %q selected %v, the JSON says %s selects %q", s.Heading, m.Policy, m.Version, got, m.Policy, w)
			}
			byB[b] = append(byB[b], judged{c.Constraint, m})
		}
		if len(rows) != 2 || rows[b] != rows[rep.Policy] {
			t.Errorf("section %q: marks per policy %v, want as many of %s and %s", s.Heading, rows, b, rep.Policy)
		}
		for p, w := range want {
			found := w == ""
			for _, m := range s.Marks {
				found = found || m.Policy == p && m.Version == w && m.Selected == "true"
			}
			if !found {
				t.Errorf("section %q: no mark of %s selects %q", s.Heading, p, w)
			}
		}
	}
	for b, js := range byB {
		var in strings.Builder
		for _, j := range js {
			fmt.Fprintf(&in, "%s\t%s\n", j.constraint, j.mark.Version)
		}
		out := bytes.Split(bytes.TrimSpace(run(t, in.String(), "eval", "--format", "json", "--policies", b+","+rep.Policy)), []byte("\n"))
		if len(out) != len(js) {
			t.Fatalf("prerel eval answered %d lines for %d", len(out), len(js))
		}
		for k, line := range out {
			var e evalLine
			if err := json.Unmarshal(line, &e); err != nil {
				t.Fatal(err)
			}
			m := js[k].mark
			for _, r := range e.Results {
				if r.Policy == m.Policy && r.Verdict != m.Verdict {
					t.Errorf("constraint %q: the mark of %s on %q says %s, prerel eval %s", e.Constraint, m.Policy, m.Version, m.Verdict, r.Verdict)
				}
			}
		}
	}
	return len(sections)
}

// selects is the version an outcome installs, "" for none.
func selects(o impact.Outcome) string {
	if o.Selects == nil {
		return ""
	}
	return *o.Selects
}
