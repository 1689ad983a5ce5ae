package compare_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/golden"
)

var demoHistory = []string{"0.9.0", "1.0.0", "1.1.0", "1.2.0-beta", "v1.3.0-rc.1"}

// goldenDomain is small and shows every kind of entry: classes of several
// causes, a constraint the engine refuses, and selection over a history.
var goldenDomain = listDomain{groups: []compare.Group{
	{Constraint: ">= 1.0.0-beta, < 1.0.0", Versions: []string{"1.0.0-rc.1", "1.0.0-alpha", "1.0.0"}},
	{Constraint: "~> 1.2", Versions: []string{"1.2.0", "1.5.0", "2.0.0-beta"}},
	{Constraint: ">= v1.0.0", Versions: []string{"1.0.0", "v1.1.0-beta"}},
	{Constraint: "main", Versions: []string{"1.0.0"}},
	{Constraint: ">= 1.0.0", Versions: demoHistory, History: "demo"},
	{Constraint: "~> 1.0", Versions: demoHistory, History: "demo"},
}}

var goldenPolicies = []engine.Policy{linear, sameBase, tilde, noV}

// goldenRelevance stands for the real constraints: "~> N.N" is half of
// them.
var goldenRelevance = compare.NewRelevanceTable("test constraints", []string{"~> 1.0", "~> 2.3", ">= 1.0.0", "= 1.2.3"})

func goldenReport(t *testing.T) *compare.Report {
	t.Helper()
	r, err := compare.Run(context.Background(), goldenDomain, goldenPolicies, compare.Options{Relevance: goldenRelevance})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRenderGolden(t *testing.T) {
	r := goldenReport(t)
	for _, f := range compare.Formats {
		if f == compare.FormatHTML {
			continue // checked by the HTML tests, which read the page rather than compare its bytes
		}
		t.Run(string(f), func(t *testing.T) {
			var buf bytes.Buffer
			if err := compare.Render(&buf, f, r, compare.RenderOptions{}); err != nil {
				t.Fatal(err)
			}
			ext := map[compare.Format]string{compare.FormatText: "txt", compare.FormatMarkdown: "md", compare.FormatJSON: "json"}[f]
			golden.Check(t, filepath.Join("testdata", "report."+ext), buf.Bytes())
		})
	}
}

// The JSON report reads back into the same report.
func TestJSONRoundTrip(t *testing.T) {
	r := goldenReport(t)
	var buf bytes.Buffer
	if err := compare.RenderJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	back, err := compare.DecodeReport(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if d := compare.Diff(r, back); len(d) != 0 {
		t.Errorf("the report changed on the way through JSON: %v", d)
	}
}

func TestParseFormat(t *testing.T) {
	for in, want := range map[string]compare.Format{"text": compare.FormatText, "markdown": compare.FormatMarkdown, "json": compare.FormatJSON} {
		if got, err := compare.ParseFormat(in); err != nil || got != want {
			t.Errorf("ParseFormat(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := compare.ParseFormat("yaml"); err == nil {
		t.Error("ParseFormat(yaml): no error")
	}
}

// TestMarkdownStaysWithinBudget builds a report with many diverging pairs
// and checks that the Markdown fits a pull-request comment and names the
// pairs it leaves out.
func TestMarkdownStaysWithinBudget(t *testing.T) {
	r := &compare.Report{Schema: compare.SchemaVersion, Domain: compare.DomainInfo{Name: "synthetic", Description: "many pairs", Cases: 1000}}
	for i := 0; i < 20; i++ {
		r.Policies = append(r.Policies, fmt.Sprintf("policy-%02d", i))
	}
	for i, a := range r.Policies {
		for _, b := range r.Policies[i+1:] {
			r.Pairs = append(r.Pairs, compare.Pair{A: a, B: b, Agree: 900, Diverge: 100})
			for k := 0; k < 30; k++ {
				r.Classes = append(r.Classes, compare.Class{A: a, B: b, Cause: compare.CausePrerelease, Count: int64(100 - k),
					Signature: fmt.Sprintf(">= V-pre [=], < V [<], != V [>]; version V-pre; shape %d; a reject, b allow", k),
					Witness:   compare.Witness{Constraint: ">= 1.0.0-beta, < 2.0.0, != 1.5.0", Version: "1.0.0-beta", AVerdict: engine.Reject, BVerdict: engine.Allow}})
			}
		}
	}
	var buf bytes.Buffer
	if err := compare.RenderMarkdown(&buf, r); err != nil {
		t.Fatal(err)
	}
	if buf.Len() > 65536 {
		t.Errorf("Markdown report is %d bytes, more than a comment holds", buf.Len())
	}
	if !strings.Contains(buf.String(), "more pairs are left out") || !strings.Contains(buf.String(), "`policy-18` vs `policy-19`") {
		t.Errorf("the report does not name the pairs it leaves out")
	}
	if !strings.Contains(buf.String(), "<summary>policy-00 vs policy-01") {
		t.Errorf("the first pair's classes are missing")
	}
}
