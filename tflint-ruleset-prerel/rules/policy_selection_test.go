package rules

import (
	"errors"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/terraform-linters/tflint-plugin-sdk/helper"

	"github.com/prerel/prerel/terraform/installer/installertest"
)

func TestPolicySelection(t *testing.T) {
	const config = "rule \"prerel_policy_selection\" {\n  enabled = true\n  index   = \"index.json\"\n}\n"
	const aws = "terraform {\n  required_providers {\n    aws = {\n      source  = \"hashicorp/aws\"\n      version = \">= 1.0.0\"\n    }\n  }\n}\n"
	const awsIndex = `{"providers": {"hashicorp/aws": {"versions": [{"version": "1.0.0"}, {"version": "1.2.3.4"}]}}}`
	at := func(file string, line, col int) hcl.Range {
		return hcl.Range{Filename: file, Start: hcl.Pos{Line: line, Column: col}, End: hcl.Pos{Line: line, Column: col}}
	}
	tests := []struct {
		name  string
		files map[string]string
		pins  bool // prerel pin was run first
		want  func(r *PolicySelection) helper.Issues
	}{
		{
			name:  "the policy selects what init does not",
			files: map[string]string{"main.tf": sprintf(dbCall, ">= 2.0.0-beta.1"), "prerel.hcl": cargoConfig, "index.json": sprintf(dbIndex, "")},
			want: func(r *PolicySelection) helper.Issues {
				return helper.Issues{{Rule: r, Range: at("main.tf", 3, 1),
					Message: `module db: policy cargo (prerel.hcl:2) selects 2.0.0-beta.1 for ">= 2.0.0-beta.1"; terraform init selects none, tofu init none`}}
			},
		},
		{
			name:  "prerel pin installs it",
			files: map[string]string{"main.tf": sprintf(dbCall, ">= 2.0.0-beta.1"), "prerel.hcl": cargoConfig, "index.json": sprintf(dbIndex, "")},
			pins:  true,
			want:  func(*PolicySelection) helper.Issues { return helper.Issues{} },
		},
		{
			name:  "the policy agrees with init",
			files: map[string]string{"main.tf": sprintf(dbCall, "~> 1.0"), "prerel.hcl": cargoConfig, "index.json": sprintf(dbIndex, "")},
			want:  func(*PolicySelection) helper.Issues { return helper.Issues{} },
		},
		{
			name:  "a four-part provider version listed",
			files: map[string]string{"main.tf": aws, "index.json": awsIndex},
			want: func(r *PolicySelection) helper.Issues {
				return helper.Issues{{Rule: r, Range: at("main.tf", 3, 1),
					Message: `provider aws: init stops on the registry's answer: ` + installertest.OpenTofu + `: could not query provider registry for registry.opentofu.org/hashicorp/aws: registry response includes invalid version string "1.2.3.4": too many numbered portions; only three are allowed (major, minor, patch)`}}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tree(t, tt.files)
			if tt.pins {
				writePins(t)
			}
			files := map[string]string{".tflint.hcl": config}
			for k, v := range tt.files {
				files[k] = v
			}
			runner := helper.TestRunner(t, rootOnly(files))
			rule := &PolicySelection{}
			if err := rule.Check(runner); err != nil {
				t.Fatal(err)
			}
			helper.AssertIssues(t, tt.want(rule), runner.Issues)
		})
	}
}

// TestPolicySelectionNeedsSource checks that the rule, enabled without an
// index or a registry, says what it needs.
func TestPolicySelectionNeedsSource(t *testing.T) {
	runner := tree(t, map[string]string{
		"main.tf":     sprintf(dbCall, ">= 2.0.0-beta.1"),
		".tflint.hcl": "rule \"prerel_policy_selection\" {\n  enabled = true\n}\n",
	})
	if err := (&PolicySelection{}).Check(runner); !errors.Is(err, errNoSource) {
		t.Fatalf("got %v, want %v", err, errNoSource)
	}
}
