package rules

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/terraform-linters/tflint-plugin-sdk/helper"
)

func TestProviderPinRefused(t *testing.T) {
	const eks = "terraform {\n  required_providers {\n    aws = {\n      source  = \"hashicorp/aws\"\n      version = \"~> 5.1.0\"\n    }\n  }\n}\n"
	root := func(version string) string {
		return "terraform {\n  required_providers {\n    aws = {\n      source  = \"hashicorp/aws\"\n      version = \"" + version + "\"\n    }\n  }\n}\n\nmodule \"eks\" {\n  source = \"./modules/eks\"\n}\n"
	}
	const override = "terraform {\n  required_providers {\n    aws = {\n      source  = \"hashicorp/aws\"\n      version = \"6.0.0-beta1\"\n    }\n  }\n}\n"
	at := func(file string) hcl.Range {
		return hcl.Range{Filename: file, Start: hcl.Pos{Line: 3, Column: 5}, End: hcl.Pos{Line: 3, Column: 8}}
	}
	refused := func(pin string) string {
		return `provider hashicorp/aws is pinned to ` + pin + `, which module.eks refuses with "~> 5.1.0" (modules/eks/versions.tf:3): init finds no version that meets every module's constraint (go-versions MeetingConstraints: not in set)`
	}
	tests := []struct {
		name  string
		files map[string]string
		want  helper.Issues
	}{
		{
			name:  "root pin a child refuses",
			files: map[string]string{"main.tf": root("6.0.0-beta1"), "modules/eks/versions.tf": eks},
			want:  helper.Issues{{Rule: &ProviderPinRefused{}, Message: refused("6.0.0-beta1"), Range: at("main.tf")}},
		},
		{
			name:  "pin in an override file",
			files: map[string]string{"main.tf": root(">= 5.0"), "prerel_override.tf": override, "modules/eks/versions.tf": eks},
			want:  helper.Issues{{Rule: &ProviderPinRefused{}, Message: refused("6.0.0-beta1"), Range: at("prerel_override.tf")}},
		},
		{
			name:  "pin the child admits",
			files: map[string]string{"main.tf": root("= 5.1.3"), "modules/eks/versions.tf": eks},
			want:  helper.Issues{},
		},
		{
			name: "a prerelease pin passes a child's lower bound",
			files: map[string]string{"main.tf": root("6.0.0-beta1"),
				"modules/eks/versions.tf": "terraform {\n  required_providers {\n    aws = {\n      source  = \"hashicorp/aws\"\n      version = \">= 5.0\"\n    }\n  }\n}\n"},
			want: helper.Issues{},
		},
		{
			name:  "a range is no pin",
			files: map[string]string{"main.tf": root(">= 6.0.0-beta1"), "modules/eks/versions.tf": eks},
			want:  helper.Issues{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runner := tree(t, tt.files)
			if err := (&ProviderPinRefused{}).Check(runner); err != nil {
				t.Fatal(err)
			}
			helper.AssertIssues(t, tt.want, runner.Issues)
		})
	}
}
