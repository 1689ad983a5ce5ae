package resolve_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/prerel/prerel/internal/golden"
	"github.com/prerel/prerel/internal/sarif/sarifschema"
	"github.com/prerel/prerel/internal/sarif/sariftest"
	"github.com/prerel/prerel/pin"
	"github.com/prerel/prerel/report"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/terraform/registry"
)

// sarifExample resolves testdata/sarif of the repository, from the
// repository's root (so that the log names files as a CI job run there
// does), without the files prerel pin wrote, as prerel resolve does.
func sarifExample(t *testing.T) *resolve.Report {
	t.Helper()
	t.Chdir("..")
	dir := filepath.Join("testdata", "sarif")
	cfg, diags := policyconfig.LoadDir(testRegistry, dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	x, err := registry.LoadIndex(filepath.Join(dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: cfg, Versions: x, Policies: testRegistry, SkipFile: pin.Skip})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Every finding of the example is a result of its rule at the constraint
// (or lock entry, or pin) it is about, with the other modules'
// constraints as related locations, and the log is valid SARIF 2.1.0.
func TestSARIFLocatesEachFindingAtItsConstraint(t *testing.T) {
	r := sarifExample(t)
	var b bytes.Buffer
	if err := resolve.Render(&b, report.SARIF, r, cliOptions); err != nil {
		t.Fatal(err)
	}
	log := sarifschema.Check(t, b.Bytes())
	golden.Check(t, "resolve/testdata/golden/sarif-example.sarif", b.Bytes())

	type located struct{ rule, at, text string }
	want := []located{
		{"installer-ignores-version", "main.tf:8:13", `">= 2.0.0-beta.1"`},
		{"stale-pin", "prerel_override.tf:7:13", `"2.0.0-beta.1"`},
		{"installer-ignores-version", "main.tf:21:13", `"v1.1.0-alpha.1"`},
		{"read-differently", "main.tf:21:13", `"v1.1.0-alpha.1"`},
		{"installer-ignores-version", "main.tf:15:13", `"= 2.0.0-beta.1"`},
		{"no-admissible-version", "main.tf:27:13", `">= 9.0.0"`},
		{"locked-version-refused", ".terraform.lock.hcl:4:1", `provider "registry.terraform.io/corp/thing" {`},
		{"read-differently", "network.tofu:4:13", `"1.3.0"`},
	}
	var got []located
	for _, res := range log.Results() {
		if len(res.Locations) == 0 {
			t.Fatalf("%s: %q has no location", res.RuleID, res.Message.Text)
		}
		got = append(got, locatedAt(t, res.RuleID, res.Locations[0]))
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("results at\n%v\nwant\n%v", got, want)
	}
	// The related locations: the pin's constraint, each module's
	// constraint on the locked provider, Terraform's reading.
	related := map[string][]located{
		"stale-pin":              {{"", "main.tf:8:13", `">= 2.0.0-beta.1"`}},
		"locked-version-refused": {{"", "main.tf:38:17", `">= 1.0.0"`}, {"", "modules/child/main.tf:6:17", `"~> 1.0.0"`}},
		"read-differently":       {{"", "network.tf:4:13", `"1.2.0"`}},
	}
	for _, res := range log.Results() {
		var rel []located
		for _, l := range res.RelatedLocations {
			rel = append(rel, locatedAt(t, "", l))
		}
		if w, ok := related[res.RuleID]; ok && len(rel) > 0 && fmt.Sprint(rel) != fmt.Sprint(w) {
			t.Errorf("%s: related %v, want %v", res.RuleID, rel, w)
		}
	}
	for _, rule := range []string{"stale-pin", "locked-version-refused"} {
		for _, res := range log.Results() {
			if res.RuleID == rule && len(res.RelatedLocations) == 0 {
				t.Errorf("%s: no related locations", rule)
			}
		}
	}
}

// locatedAt names a location by its file under testdata/sarif, line and
// column, and the text of its line from that column on.
func locatedAt(t *testing.T, rule string, l sariftest.Location) struct{ rule, at, text string } {
	t.Helper()
	p := l.PhysicalLocation
	if p.ArtifactLocation.URIBaseID != "%SRCROOT%" {
		t.Errorf("%s: uriBaseId %q", p.ArtifactLocation.URI, p.ArtifactLocation.URIBaseID)
	}
	src, err := os.ReadFile(filepath.FromSlash(p.ArtifactLocation.URI))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	line := []rune(lines[p.Region.StartLine-1])
	name := strings.TrimPrefix(p.ArtifactLocation.URI, "testdata/sarif/")
	return struct{ rule, at, text string }{rule, fmt.Sprintf("%s:%d:%d", name, p.Region.StartLine, p.Region.StartColumn),
		strings.TrimSpace(string(line[p.Region.StartColumn-1:]))}
}

// Code scanning refuses a log with a result at no place: every result
// has one, the report's first file or its directory.
func TestSARIFPlacesEveryResult(t *testing.T) {
	r := &resolve.Report{Dir: "infra", Warnings: []string{"the CLI configuration: a warning"},
		Items: []resolve.Item{{Kind: resolve.KindProvider, Name: "x", Status: resolve.StatusError, Problem: "no registry", Implied: true}}}
	for _, res := range r.SARIF() {
		if res.Location.File != "infra" {
			t.Errorf("%s at %q, want infra", res.Rule, res.Location.File)
		}
	}
	r.Items = append(r.Items, resolve.Item{Kind: resolve.KindModule, Name: "m", Status: resolve.StatusError, Problem: "down",
		Range: hcl.Range{Filename: "infra/main.tf", Start: hcl.Pos{Line: 3, Column: 13}}})
	results := r.SARIF()
	if len(results) != 3 {
		t.Fatalf("%d results, want 3", len(results))
	}
	for _, res := range results {
		if res.Location.File != "infra/main.tf" {
			t.Errorf("%s at %q, want infra/main.tf", res.Rule, res.Location.File)
		}
	}
}
