package resolve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/prerel/prerel/internal/golden"
	"github.com/prerel/prerel/report"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/terraform/registry"
)

// eksDir is a tree modelled on terraform-aws-eks (see its README.md):
// seventeen modules require hashicorp/aws with different constraints.
const eksDir = "testdata/eks"

// eksReport resolves the eks tree with cargo as the default policy and
// linear and masterminds-pre as extra policies.
func eksReport(t *testing.T) *resolve.Report {
	t.Helper()
	cfg, err := policyconfig.New(testRegistry)
	if err != nil {
		t.Fatal(err)
	}
	if diags := cfg.SetDefault("cargo", policyconfig.FlagOrigin("--policy cargo")); diags.HasErrors() {
		t.Fatal(diags)
	}
	x, err := registry.LoadIndex(filepath.Join(eksDir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := runResolve(context.Background(), resolve.Options{
		Dir: filepath.Join(eksDir, "tests", "eks-managed-node-group"), ModulesDir: filepath.Join(eksDir, "installed"),
		Config: cfg, Versions: x, Policies: testRegistry, Extra: mustPolicies(t, "linear", "masterminds-pre"),
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestEKSGolden checks the reports of the eks tree against golden files,
// and that the text report fits 80 columns: one line per module call and
// provider, the providers' constraints in short, and the prereleases of
// a new major the extra policies select said in words.
func TestEKSGolden(t *testing.T) {
	r := eksReport(t)
	for _, tt := range []struct {
		name string
		f    report.Format
		opt  report.Options
	}{
		{"eks.txt", report.Text, cliOptions},
		{"eks-all.txt", report.Text, report.Options{ShowAll: true, Hints: report.Hints{ShowAll: "--show-all"}}},
		{"eks.md", report.Markdown, cliOptions},
		{"eks.json", report.JSON, cliOptions},
	} {
		var b bytes.Buffer
		if err := resolve.Render(&b, tt.f, r, tt.opt); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", "golden", tt.name), b.Bytes())
		if tt.name != "eks.txt" {
			continue
		}
		out := b.String()
		for i, l := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(l); n > 80 {
				t.Errorf("line %d is %d columns: %q", i+1, n, l)
			}
		}
		for _, want := range []string{
			"   aws        >= 6.28 (root; 17 modules)",
			"     linear: 7.0.0-beta1, a prerelease of a new major (today 6.28.0)",
		} {
			if !strings.Contains(out, want+"  ") && !strings.Contains(out, want+"\n") {
				t.Errorf("the report lacks %q:\n%s", want, out)
			}
		}
		if rows := strings.Count(out, "\n"); rows > 30 {
			t.Errorf("the report is %d lines, want at most 30:\n%s", rows, out)
		}
	}
}

// TestJSONSaysWhyNoneToday checks that the JSON report carries what the
// text report's "Why Terraform selects no version today" list says, and
// the policies that select a prerelease of a new major.
func TestJSONSaysWhyNoneToday(t *testing.T) {
	r, err := runResolve(context.Background(), resolve.Options{
		Dir: exampleDir, Config: exampleConfig(t), Versions: exampleIndex(t), Policies: testRegistry,
		Extra: mustPolicies(t, "masterminds-pre"),
	})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := resolve.Render(&b, report.JSON, r, cliOptions); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Items []struct {
			Name      string             `json:"name"`
			NoneToday *resolve.NoneToday `json:"none_today"`
			NewMajor  []string           `json:"new_major_prerelease"`
		} `json:"items"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	for i, it := range got.Items {
		want := r.Items[i].NoneToday()
		if (want == nil) != (it.NoneToday == nil) || want != nil && (it.NoneToday.Why != want.Why || it.NoneToday.Pin != want.Pin) {
			t.Errorf("%s: none_today %+v, want %+v", it.Name, it.NoneToday, want)
		}
		wantMajor := r.Items[i].NewMajorPrerelease("masterminds-pre") != ""
		if wantMajor != slices.Contains(it.NewMajor, "masterminds-pre") {
			t.Errorf("%s: new_major_prerelease %v", it.Name, it.NewMajor)
		}
	}
	for _, it := range got.Items {
		// helm: today 2.17.0, masterminds-pre 3.0.0-pre2.
		if it.Name == "helm" && !slices.Equal(it.NewMajor, []string{"masterminds-pre"}) {
			t.Errorf("helm: new_major_prerelease %v, want masterminds-pre", it.NewMajor)
		}
	}
	if got.Items[0].Name != "consul" || got.Items[0].NoneToday == nil || !strings.Contains(got.Items[0].NoneToday.Why, "names a prerelease") {
		t.Errorf("consul: none_today %+v", got.Items[0].NoneToday)
	}
}
