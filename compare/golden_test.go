package compare_test

import (
	"bytes"
	"context"
	"path/filepath"
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

// TestJSONGolden checks the JSON form of the golden report; the render
// package's golden tests read it back and render it.
func TestJSONGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := goldenReport(t).WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "report.json"), buf.Bytes())
}

// The JSON report reads back into the same report.
func TestJSONRoundTrip(t *testing.T) {
	r := goldenReport(t)
	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
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
