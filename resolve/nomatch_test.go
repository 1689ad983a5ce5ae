package resolve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/golden"
	"github.com/prerel/prerel/report"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/terraform/registry"
)

// nomatchDir is the tree of the wish in the project's issue 36: db's
// "~> 2.0" under cargo, with 2.0.0-beta.1 the newest version.
const nomatchDir = "testdata/nomatch"

// editedConstraint is the whole constraint an edit stands for: a module
// call's new constraint, or a provider's requirements with the edited
// module's replaced.
func editedConstraint(t *testing.T, it *resolve.Item, e resolve.Edit) string {
	t.Helper()
	if it.Kind != resolve.KindProvider {
		return e.Constraint
	}
	var parts []string
	found := false
	for _, r := range it.Requirements {
		c := r.Constraint
		if r.Module == e.Module && !found {
			c, found = e.Constraint, true
		}
		if c != "" {
			parts = append(parts, c)
		}
	}
	if !found {
		t.Errorf("%s: the edit %+v names a module that requires nothing", it.Name, e)
	}
	return strings.Join(parts, ", ")
}

// checkVerified runs the chosen policy over the listed versions for
// every edit NoMatch suggests, and every registered policy it names, and
// checks that each selects what NoMatch says.
func checkVerified(t *testing.T, it *resolve.Item) {
	t.Helper()
	chosen, ok := testRegistry.Lookup(it.Policy)
	if !ok {
		t.Fatalf("%s: policy %q is not registered", it.Name, it.Policy)
	}
	n := it.NoMatch
	for _, e := range append(slices.Clone(n.Constraints), n.DidYouMean...) {
		c := editedConstraint(t, it, e)
		sel, err := engine.Select(chosen, c, it.Listed())
		if err != nil || !sel.Found || sel.Version != e.Selects {
			t.Errorf("%s: %s with %q selects %v (%v), not %s as suggested", it.Name, it.Policy, c, sel, err, e.Selects)
		}
		if e.Note == "" && !slices.Contains(n.Wanted, e.Selects) {
			t.Errorf("%s: the edit %q selects %s, which is not wanted (%v)", it.Name, e.Constraint, e.Selects, n.Wanted)
		}
	}
	for p, v := range n.Policies {
		pol, _ := testRegistry.Lookup(p)
		sel, err := engine.Select(pol, it.Constraint, it.Listed())
		if err != nil || sel.Version != v {
			t.Errorf("%s: %s selects %v (%v), not %s", it.Name, p, sel, err, v)
		}
	}
}

// TestNoMatch resolves items whose chosen policy selects no version and
// checks what NoMatch says of each: the versions wanted, the policies
// that select them, and the edits and near misses, each verified by
// running the chosen policy again.
func TestNoMatch(t *testing.T) {
	type edit struct{ constraint, module, selects string }
	tests := []struct {
		name     string
		tf       string // main.tf; "child/main.tf" follows a line "--- child"
		cfg      string
		versions []string // of corp/db/aws or hashicorp/aws
		// The item is the first; nil wants no NoMatch.
		wanted   []string
		why      []string // parts of Why
		policies []string // some of the policies that select a wanted version
		edits    []edit   // exactly, in order
		dym      []edit
	}{
		{
			name:     "cargo ~> 2.0 with 2.0.0-beta.1 newest",
			tf:       moduleCall("~> 2.0"),
			cfg:      `module "db" { policy = "cargo" }`,
			versions: []string{"1.0.0", "1.5.0", "2.0.0-beta.1"},
			wanted:   []string{"2.0.0-beta.1"},
			why: []string{`cargo refuses 2.0.0-beta.1, the newest version`, `"~> 2.0" names no prerelease`,
				`2.0.0-beta.1 sorts below 2.0.0, where "~> 2.0" starts`, `so does the newest release, 1.5.0`},
			policies: []string{"ga-bound", "core-only"},
			edits:    []edit{{"~> 2.0.0-beta.1", "", "2.0.0-beta.1"}, {">= 2.0.0-beta.1, < 3.0.0", "", "2.0.0-beta.1"}},
		},
		{
			// strict admits a prerelease by "=" alone: every range edit
			// fails when run, and only the pin is left.
			name:     "strict ~> 2.0",
			tf:       moduleCall("~> 2.0"),
			versions: []string{"1.0.0", "1.5.0", "2.0.0-beta.1"},
			wanted:   []string{"2.0.0-beta.1"},
			why:      []string{`strict refuses 2.0.0-beta.1`},
			policies: []string{"ga-bound"},
			edits:    []edit{{"= 2.0.0-beta.1", "", "2.0.0-beta.1"}},
		},
		{
			name:     "ga-bound refuses a prerelease whose release is outside",
			tf:       moduleCall(">= 1.0, < 2.0"),
			cfg:      `module "db" { policy = "ga-bound" }`,
			versions: []string{"0.9.0", "2.0.0-beta.1"},
			wanted:   []string{"2.0.0-beta.1"},
			why: []string{`no comparator of ">= 1.0, < 2.0" names a prerelease`,
				`its release 2.0.0 is not below 2.0.0, where "< 2.0" ends`},
			policies: []string{"linear", "masterminds-pre"},
			edits: []edit{{">= 1.0, < 3.0.0", "", "2.0.0-beta.1"}, {">= 1.0", "", "2.0.0-beta.1"},
				{"~> 2.0.0-beta.1", "", "2.0.0-beta.1"}, {">= 2.0.0-beta.1, < 3.0.0", "", "2.0.0-beta.1"}},
		},
		{
			name: "a provider two modules require",
			tf: `terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = ">= 5.0" }
  }
}
module "child" { source = "./child" }
--- child
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "~> 6.0" }
  }
}`,
			cfg:      `default_policy = "cargo"`,
			versions: []string{"5.9.0", "6.0.0-beta.3"},
			wanted:   []string{"6.0.0-beta.3"},
			why:      []string{`"~> 6.0" (module.child)`, `no comparator of ">= 5.0, ~> 6.0" names a prerelease`},
			policies: []string{"ga-bound"},
			edits:    []edit{{"~> 6.0.0-beta.3", "module.child", "6.0.0-beta.3"}, {">= 6.0.0-beta.3, < 7.0.0", "module.child", "6.0.0-beta.3"}},
		},
		{
			name:     "the chosen policy selects a version",
			tf:       moduleCall(">= 1.0"),
			cfg:      `module "db" { policy = "cargo" }`,
			versions: []string{"1.0.0", "1.5.0", "2.0.0-beta.1"},
		},
		{
			name:     "a prerelease spelled otherwise",
			tf:       moduleCall(">= 6.0.0-beta3"),
			cfg:      `module "db" { policy = "cargo" }`,
			versions: []string{"5.0.0", "6.0.0-beta.3"},
			wanted:   []string{"6.0.0-beta.3"},
			why:      []string{`6.0.0-beta.3 sorts below 6.0.0-beta3, where ">= 6.0.0-beta3" starts`},
			// They order 6.0.0-beta.3 above 6.0.0-beta3, as RubyGems does.
			policies: []string{"dependabot", "apparentlymart-exact"},
			dym:      []edit{{">= 6.0.0-beta.3", "", "6.0.0-beta.3"}},
			edits:    []edit{{"~> 6.0.0-beta.3", "", "6.0.0-beta.3"}, {">= 6.0.0-beta.3, < 7.0.0", "", "6.0.0-beta.3"}},
		},
		{
			name: "a v prefix today's provider installer refuses",
			tf: `terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = ">= v5.0.0" }
  }
}`,
			cfg:      `provider "hashicorp/aws" { policy = "apparentlymart" }`,
			versions: []string{"5.0.0", "5.1.0"},
			wanted:   []string{"5.1.0"},
			why:      []string{`apparentlymart refuses ">= v5.0.0": `, `a "v" prefix`},
			policies: []string{"cargo", "strict"},
			dym:      []edit{{">= 5.0.0", "root", "5.1.0"}},
			edits:    []edit{{">= 5.1.0", "root", "5.1.0"}, {"~> 5.1", "root", "5.1.0"}, {">= 5.1.0, < 6.0.0", "root", "5.1.0"}},
		},
		{
			name:     "an exact prerelease next to a release bound",
			tf:       moduleCall("2.0.0-rc1, >= 1.0.0"),
			cfg:      `module "db" { policy = "terraform-module" }`,
			versions: []string{"1.0.0", "2.0.0-rc1", "2.0.3"},
			wanted:   []string{"2.0.0-rc1", "2.0.3"},
			policies: []string{"strict", "cargo"},
			edits: []edit{{"2.0.0-rc1", "", "2.0.0-rc1"}, {"2.0.3, >= 1.0.0", "", "2.0.3"}, {">= 1.0.0", "", "2.0.3"},
				{"~> 2.0", "", "2.0.3"}, {">= 2.0.3, < 3.0.0", "", "2.0.3"}},
		},
	}
	// The text report's section of each case, for review.
	var texts strings.Builder
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := moduleBody(tt.versions...)
			kind := "modules"
			key := "corp/db/aws"
			if strings.Contains(tt.tf, "required_providers") {
				body, kind, key = providerBody(tt.versions...), "providers", "hashicorp/aws"
			}
			main, child, _ := strings.Cut(tt.tf, "--- child\n")
			files := map[string]string{"main.tf": main, "index.json": fmt.Sprintf(`{%q: {%q: %s}}`, kind, key, body)}
			if child != "" {
				files["child/main.tf"] = child
			}
			if tt.cfg != "" {
				files["prerel.hcl"] = tt.cfg
			}
			dir := writeDir(t, files)
			x, err := registry.LoadIndex(filepath.Join(dir, "index.json"))
			if err != nil {
				t.Fatal(err)
			}
			r, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: loadConfig(t, dir), Versions: x, Policies: testRegistry})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := resolve.Render(&b, report.Text, r, cliOptions); err != nil {
				t.Fatal(err)
			}
			title := "\nWhy the chosen policy selects no version, and what would:\n"
			text := ""
			if _, rest, ok := strings.Cut(b.String(), title); ok {
				text, _, _ = strings.Cut(rest, "\n\n")
			}
			fmt.Fprintf(&texts, "%s:\n%s\n\n", tt.name, text)
			it := &r.Items[0]
			n := it.NoMatch
			if tt.wanted == nil {
				if text != "" {
					t.Errorf("the text report says why no version is selected:\n%s", b.String())
				}
				if n != nil {
					t.Fatalf("%s selects %v, and NoMatch = %+v", it.Policy, it.Selected, n)
				}
				return
			}
			if n == nil {
				t.Fatalf("no NoMatch; %s selects %v", it.Policy, it.Selected)
			}
			if !slices.Equal(n.Wanted, tt.wanted) {
				t.Errorf("Wanted = %q, want %q", n.Wanted, tt.wanted)
			}
			for _, w := range tt.why {
				if !strings.Contains(n.Why, w) {
					t.Errorf("Why = %q, want it to say %q", n.Why, w)
				}
			}
			for _, p := range tt.policies {
				if !slices.Contains(n.Wanted, n.Policies[p]) {
					t.Errorf("Policies = %v, want %s among them", n.Policies, p)
				}
			}
			if _, ok := n.Policies[it.Policy]; ok {
				t.Errorf("Policies = %v names the chosen policy", n.Policies)
			}
			got := func(es []resolve.Edit) []edit {
				var out []edit
				for _, e := range es {
					out = append(out, edit{e.Constraint, e.Module, e.Selects})
				}
				return out
			}
			if g := got(n.Constraints); !slices.Equal(g, tt.edits) {
				t.Errorf("Constraints = %q\nwant          %q", g, tt.edits)
			}
			if g := got(n.DidYouMean); !slices.Equal(g, tt.dym) {
				t.Errorf("DidYouMean = %q, want %q", g, tt.dym)
			}
			for _, e := range n.DidYouMean {
				if e.Note == "" {
					t.Errorf("did you mean %q says nothing of what it corrects", e.Constraint)
				}
			}
			checkVerified(t, it)
		})
	}
	golden.Check(t, filepath.Join("testdata", "golden", "nomatch-cases.txt"), []byte(texts.String()))
}

// moduleCall is a main.tf that calls corp/db/aws as "db" with the
// constraint.
func moduleCall(constraint string) string {
	return fmt.Sprintf("module \"db\" {\n  source  = \"corp/db/aws\"\n  version = %q\n}\n", constraint)
}

// TestNoMatchGolden checks the reports of the tree in testdata/nomatch
// against golden files: the text report's first 24 lines say why cargo
// selects no version of db and what would, in 80 columns; the JSON report
// holds the same in the item's no_match, and nothing for app, whose
// policy selects a version.
func TestNoMatchGolden(t *testing.T) {
	x, err := registry.LoadIndex(filepath.Join(nomatchDir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := runResolve(context.Background(), resolve.Options{Dir: nomatchDir, Config: loadConfig(t, nomatchDir), Versions: x, Policies: testRegistry})
	if err != nil {
		t.Fatal(err)
	}
	out := map[report.Format]string{}
	for _, f := range []struct {
		f    report.Format
		name string
	}{{report.Text, "nomatch.txt"}, {report.Markdown, "nomatch.md"}, {report.JSON, "nomatch.json"}} {
		var b bytes.Buffer
		if err := resolve.Render(&b, f.f, r, cliOptions); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", "golden", f.name), b.Bytes())
		out[f.f] = b.String()
	}
	lines := strings.Split(out[report.Text], "\n")
	for i, l := range lines {
		if n := utf8.RuneCountInString(l); n > 80 {
			t.Errorf("line %d is %d columns: %q", i+1, n, l)
		}
	}
	first := strings.Join(lines[:min(24, len(lines))], "\n")
	for _, want := range []string{"cargo refuses 2.0.0-beta.1", `names no prerelease`, `"~> 2.0.0-beta.1"`, "ga-bound"} {
		if !strings.Contains(strings.Join(strings.Fields(first), " "), want) {
			t.Errorf("the first 24 lines do not say %q:\n%s", want, first)
		}
	}
	var got struct {
		Items []struct {
			Name    string           `json:"name"`
			NoMatch *json.RawMessage `json:"no_match"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(out[report.JSON]), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Items) != 2 || got.Items[0].NoMatch != nil || got.Items[1].NoMatch == nil {
		t.Fatalf("items %+v: want no_match for db alone", got.Items)
	}
	var n resolve.NoMatch
	if err := json.Unmarshal(*got.Items[1].NoMatch, &n); err != nil {
		t.Fatal(err)
	}
	if n.Policies["ga-bound"] != "2.0.0-beta.1" || len(n.Constraints) == 0 || n.Constraints[0] != (resolve.Edit{Constraint: "~> 2.0.0-beta.1", Selects: "2.0.0-beta.1"}) {
		t.Errorf("no_match = %+v", n)
	}
}

// TestNoMatchOutsideText checks that what NoMatch says of a module call
// whose label carries an escape sequence and Markdown reaches no terminal
// as a control character and renders as no link in Markdown.
func TestNoMatchOutsideText(t *testing.T) {
	label := escLabel + `[click me](https://evil.example/phish)`
	dir := outsideDir(t)
	tf := "module \"" + label + "\" {\n  source  = \"reg.example/ns/app/aws\"\n  version = \"~> 2.0\"\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(tf), 0o644); err != nil {
		t.Fatal(err)
	}
	src := &fakeSource{name: "fake", listings: map[string]*registry.Listing{
		"reg.example/ns/app/aws": {Versions: []string{"1.0.0", "2.0.0-beta", "2.0.0-rc\x1b[0m"}},
	}}
	cfg := loadConfig(t, t.TempDir())
	if diags := cfg.SetDefault("cargo", policyconfig.FlagOrigin("--policy cargo")); diags.HasErrors() {
		t.Fatal(diags)
	}
	r, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: cfg, Versions: src, Policies: testRegistry})
	if err != nil {
		t.Fatal(err)
	}
	if r.Items[0].NoMatch == nil {
		t.Fatalf("no NoMatch: %+v", r.Items[0])
	}
	out := renderAll(t, r)
	for ext, s := range out {
		if i := strings.IndexFunc(s, func(r rune) bool { return r < 0x20 && r != '\n' || r == 0x7f }); i >= 0 {
			t.Errorf("%s output has a control character at byte %d: %q", ext, i, s[max(0, i-40):min(len(s), i+40)])
		}
	}
	if want := `module \x1b[31mRED\x1b[0m[click me](https://evil.example/phish) (main.tf:3:13): cargo refuses 2.0.0-beta`; !strings.Contains(strings.ReplaceAll(out["txt"], "\n    ", " "), want) {
		t.Errorf("text output lacks %q:\n%s", want, out["txt"])
	}
	_, md, _ := strings.Cut(out["md"], "#### Why the chosen policy selects no version, and what would\n")
	md, _, _ = strings.Cut(md, "\n#### ")
	if m := linkMarkup.FindString(codeSpans.ReplaceAllString(md, "")); m != "" || !strings.Contains(md, "2.0.0-beta") {
		t.Errorf("the Markdown section has %q unescaped outside code spans:\n%s", m, md)
	}
}
