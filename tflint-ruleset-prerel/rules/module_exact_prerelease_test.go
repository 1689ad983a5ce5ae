package rules

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/terraform-linters/tflint-plugin-sdk/helper"
)

func TestModuleExactPrerelease(t *testing.T) {
	call := func(version string) string {
		return "module \"db\" {\n  source  = \"example/db/aws\"\n  version = " + version + "\n}\n"
	}
	at := func(from, to int) hcl.Range {
		return hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 3, Column: from}, End: hcl.Pos{Line: 3, Column: to}}
	}
	const npm = "the npm-style parser (go-versions MeetingConstraintsString) refused "
	tests := []struct {
		name, version string
		// want is the issue's message, "" for none; fixed the version
		// the fix writes.
		want, fixed string
	}{
		{
			name: "space after the operator", version: `"= 2.0.0-beta.2"`,
			want:  `module "db": version "= 2.0.0-beta.2" installs no 2.0.0-beta.2: Terraform's and OpenTofu's module installers exclude it (` + npm + `"= 2.0.0-beta.2": no spaces allowed after operator "="); write "2.0.0-beta.2"`,
			fixed: `"2.0.0-beta.2"`,
		},
		{
			name: "v prefix", version: `"v2.0.0-beta.2"`,
			want:  `module "db": version "v2.0.0-beta.2" installs no 2.0.0-beta.2: Terraform's module installer excludes it (` + npm + `"v2.0.0-beta.2": a "v" prefix should not be used when specifying versions); write "2.0.0-beta.2"`,
			fixed: `"2.0.0-beta.2"`,
		},
		{
			name: "exact version in a list", version: `"2.0.0-rc1, >= 1.0.0"`,
			want:  `module "db": version "2.0.0-rc1, >= 1.0.0" installs no 2.0.0-rc1: Terraform's and OpenTofu's module installers exclude it (` + npm + `"2.0.0-rc1, >= 1.0.0": commas are not needed to separate version selections; separate with spaces instead); write "2.0.0-rc1"`,
			fixed: `"2.0.0-rc1"`,
		},
		{
			name: "a range of one prerelease", version: `">= 2.0.0-beta.2, <= 2.0.0-beta.2"`,
			want:  `module "db": version ">= 2.0.0-beta.2, <= 2.0.0-beta.2" installs no 2.0.0-beta.2: Terraform's and OpenTofu's module installers exclude it (` + npm + `">= 2.0.0-beta.2, <= 2.0.0-beta.2": no spaces allowed after operator ">="); write "2.0.0-beta.2"`,
			fixed: `"2.0.0-beta.2"`,
		},
		{name: "bare prerelease", version: `"2.0.0-beta.2"`},
		{name: "no space after the operator", version: `"=2.0.0-beta.2"`},
		{name: "release with a space", version: `"= 2.0.0"`},
		{name: "a range, not an exact version", version: `">= 2.0.0-beta.2"`},
		{name: "pessimistic", version: `"~> 2.0.0-beta.2"`},
		{name: "an expression", version: `var.db_version`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := call(tt.version)
			if tt.version == `var.db_version` {
				src += "variable \"db_version\" {\n  default = \"= 2.0.0-beta.2\"\n}\n"
			}
			runner := helper.TestRunner(t, map[string]string{"main.tf": src})
			rule := &ModuleExactPrerelease{}
			if err := rule.Check(runner); err != nil {
				t.Fatal(err)
			}
			want := helper.Issues{}
			changes := map[string]string{}
			if tt.want != "" {
				want = helper.Issues{{Rule: rule, Message: tt.want, Range: at(13, 13+len(tt.version))}}
				changes["main.tf"] = call(tt.fixed)
			}
			helper.AssertIssues(t, want, runner.Issues)
			helper.AssertChanges(t, changes, runner.Changes())
		})
	}
}

// TestModuleExactPrereleaseJSON checks a .tf.json file: the issue is at
// the string, and the fix keeps the file JSON.
func TestModuleExactPrereleaseJSON(t *testing.T) {
	src := `{"module": {"db": {"source": "example/db/aws", "version": "= 2.0.0-beta.2"}}}`
	runner := helper.TestRunner(t, map[string]string{"main.tf.json": src})
	if err := (&ModuleExactPrerelease{}).Check(runner); err != nil {
		t.Fatal(err)
	}
	if len(runner.Issues) != 1 {
		t.Fatalf("got %d issues, want 1: %v", len(runner.Issues), runner.Issues)
	}
	helper.AssertChanges(t, map[string]string{
		"main.tf.json": `{"module": {"db": {"source": "example/db/aws", "version": "2.0.0-beta.2"}}}`,
	}, runner.Changes())
}
