package config

import (
	"path/filepath"
	"strings"
	"testing"

	inspect "github.com/hashicorp/terraform-config-inspect/tfconfig"
)

// TestOverride reads override files as Terraform merges them: a module
// call's arguments one by one, a required_providers entry whole,
// required_version replaced.
func TestOverride(t *testing.T) {
	tests := []struct {
		dir     string
		want    string // summary, then one line per required_version and aliases
		diags   []string
		inspect string // what terraform-config-inspect alone reads, when it differs
	}{
		{
			dir: "module-version",
			want: `module net source="corp/net/aws" expr=false version="2.0.0-beta.2" has=true expr=false at testdata/override/module-version/main.tf:1:1 version at testdata/override/module-version/prerel_override.tf:2:13
`,
		},
		{
			// An override that does not set version keeps the call's;
			// terraform-config-inspect alone loses it.
			dir: "module-other",
			want: `module net source="corp/net/aws" expr=false version="~> 1.0" has=true expr=false at testdata/override/module-other/main.tf:1:1 version at testdata/override/module-other/main.tf:3:13
`,
			inspect: `module net source="corp/net/aws" version=""`,
		},
		{
			dir:   "missing-call",
			diags: []string{`testdata/override/missing-call/override.tf:1:1: Missing module call to override; There is no module call named "nett".`},
		},
		{
			// The entry is replaced whole: without a source it stands for
			// hashicorp/aws again, and the constraint is the override's
			// alone; terraform-config-inspect alone keeps the source and
			// appends the constraint.
			dir: "provider-nosource",
			want: `provider aws source="" constraint="6.0.0-beta1" expr="" implied=false at testdata/override/provider-nosource/pin_override.tf:3:5
`,
			inspect: `provider aws source="corp/aws" constraint="~> 5.0, 6.0.0-beta1"`,
		},
		{
			dir: "provider-whole",
			want: `provider aws source="hashicorp/aws" constraint="6.0.0-beta1" expr="" implied=false at testdata/override/provider-whole/prerel_override.tf:3:5
aliases aws: aws.east aws.west
`,
			inspect: `provider aws source="hashicorp/aws" constraint="~> 5.0, 6.0.0-beta1"`,
		},
		{
			dir: "core",
			want: `required_version ">= 1.11"
`,
			inspect: `required_version ">= 1.5" ">= 1.11"`,
		},
		{
			// Override files are merged in name order: the last one wins.
			dir: "two-files",
			want: `module net source="corp/net/aws" expr=false version="=2.0.0-beta.2" has=true expr=false at testdata/override/two-files/main.tf:1:1 version at testdata/override/two-files/b_override.tf.json:2:33
provider aws source="hashicorp/aws" constraint="6.0.0-beta1" expr="" implied=false at testdata/override/two-files/b_override.tf.json:3:40
`,
			inspect: `provider aws source="hashicorp/aws" constraint="~> 5.0, 5.1.0, 6.0.0-beta1"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			dir := filepath.Join("testdata", "override", tt.dir)
			m, diags := Load(dir)
			if tt.diags != nil {
				got := formatAll(diags)
				for _, d := range tt.diags {
					if !strings.Contains(got, d) {
						t.Errorf("diagnostics:\n%s\nwant one containing %q", got, d)
					}
				}
				return
			}
			if len(diags) > 0 {
				t.Fatalf("diagnostics:\n%s", formatAll(diags))
			}
			got := summary(m)
			for _, p := range m.Providers {
				if len(p.ConfigurationAliases) > 0 {
					got += "aliases " + p.LocalName + ": " + strings.Join(p.ConfigurationAliases, " ") + "\n"
				}
			}
			for _, c := range m.RequiredCore {
				got += "required_version " + quote(c) + "\n"
			}
			if got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
			if tt.inspect != "" {
				if got := inspectSummary(t, dir); !strings.Contains(got, tt.inspect) {
					t.Errorf("terraform-config-inspect alone read:\n%s\nwant it to contain %q (its merge differs from Terraform's)", got, tt.inspect)
				}
			}
		})
	}
}

func quote(s string) string { return `"` + s + `"` }

// inspectSummary is what terraform-config-inspect's LoadModule reads of
// dir, overrides merged its own way.
func inspectSummary(t *testing.T, dir string) string {
	t.Helper()
	mod, diags := inspect.LoadModule(dir)
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	var b strings.Builder
	for name, c := range mod.ModuleCalls {
		b.WriteString("module " + name + " source=" + quote(c.Source) + " version=" + quote(c.Version) + "\n")
	}
	for name, p := range mod.RequiredProviders {
		b.WriteString("provider " + name + " source=" + quote(p.Source) + " constraint=" + quote(strings.Join(p.VersionConstraints, ", ")) + "\n")
	}
	if len(mod.RequiredCore) > 0 {
		b.WriteString("required_version")
		for _, c := range mod.RequiredCore {
			b.WriteString(" " + quote(c))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestSkipFile leaves a file out of the tree as if it did not exist.
func TestSkipFile(t *testing.T) {
	dir := filepath.Join("testdata", "override", "module-version")
	tree, diags := LoadTree(dir, TreeOptions{SkipFile: func(p string) bool {
		return filepath.Base(p) == "prerel_override.tf"
	}})
	if len(diags) > 0 {
		t.Fatalf("diagnostics:\n%s", formatAll(diags))
	}
	if c := tree.Root.Module.ModuleCalls[0]; c.Version != "~> 1.0" {
		t.Errorf("version %q, want the primary file's %q", c.Version, "~> 1.0")
	}
}
