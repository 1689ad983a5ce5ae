package rules

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/terraform-linters/tflint-plugin-sdk/helper"

	"github.com/prerel/prerel/terraform/installer/installertest"
)

func TestTerraformOpenTofuDifference(t *testing.T) {
	call := func(version string) string {
		return "module \"db\" {\n  source  = \"example/db/aws\"\n  version = \"" + version + "\"\n}\n"
	}
	// The rule reads as today's releases, which TestMain names.
	tf, tofu := installertest.Releases()
	today := tf.Display() + " and " + tofu.Display()
	at := func(file string, line, from, to int) hcl.Range {
		return hcl.Range{Filename: file, Start: hcl.Pos{Line: line, Column: from}, End: hcl.Pos{Line: line, Column: to}}
	}
	tests := []struct {
		name  string
		files map[string]string
		want  func(r *TerraformOpenTofuDifference) helper.Issues
	}{
		{
			name:  "no .tofu file",
			files: map[string]string{"main.tf": call("v2.0.0-beta.1")},
			want:  func(*TerraformOpenTofuDifference) helper.Issues { return helper.Issues{} },
		},
		{
			name: "the same call in both",
			files: map[string]string{
				"main.tf":   call("1.0.0"),
				"main.tofu": call("1.0.0"),
			},
			want: func(*TerraformOpenTofuDifference) helper.Issues { return helper.Issues{} },
		},
		{
			name: "a .tofu file in place of a .tf file",
			files: map[string]string{
				"main.tf":   call("1.0.0"),
				"main.tofu": call("2.0.0-beta.1"),
			},
			want: func(r *TerraformOpenTofuDifference) helper.Issues {
				return helper.Issues{{Rule: r, Range: at("main.tf", 3, 13, 20),
					Message: today + ` read this differently: module "db": source "example/db/aws", version "1.0.0" for Terraform; source "example/db/aws", version "2.0.0-beta.1" for OpenTofu (main.tofu:3)`}}
			},
		},
		{
			name: "a call in a .tofu file only",
			files: map[string]string{
				"main.tf":  call("1.0.0"),
				"net.tofu": "module \"net\" {\n  source = \"./net\"\n}\n",
				"net/x.tf": "",
			},
			want: func(r *TerraformOpenTofuDifference) helper.Issues {
				return helper.Issues{{Rule: r, Range: at("net.tofu", 1, 1, 13),
					Message: today + ` read this differently: module "net" is in OpenTofu's files only (net.tofu:1)`}}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runner := tree(t, tt.files)
			rule := &TerraformOpenTofuDifference{}
			if err := rule.Check(runner); err != nil {
				t.Fatal(err)
			}
			helper.AssertIssues(t, tt.want(rule), runner.Issues)
		})
	}
}
