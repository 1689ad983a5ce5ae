package rules

import (
	"os"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/terraform-linters/tflint-plugin-sdk/helper"

	"github.com/prerel/prerel/pin"
	"github.com/prerel/prerel/terraform/config"
	"github.com/prerel/prerel/terraform/registry"
)

const (
	dbCall      = "module \"db\" {\n  source  = \"example/db/aws\"\n  version = \"%s\"\n}\n"
	cargoConfig = "module \"db\" {\n  policy = \"cargo\"\n}\n"
	dbIndex     = `{"modules": {"example/db/aws": {"modules": [{"versions": [{"version": "1.0.0"}, {"version": "2.0.0-beta.1"}%s]}]}}}`
)

func sprintf(format string, args ...any) string { return fmtSprintf(format, args...) }

// writePins runs prerel pin in the working directory, with the versions of
// the index file index.json, as a user did before the change under test.
func writePins(t *testing.T) {
	t.Helper()
	rt := &root{wd: ".", dir: ".", rel: "."}
	wd, _ := os.Getwd()
	rt.wd, rt.dir = wd, wd
	x, err := registry.LoadIndex("index.json")
	if err != nil {
		t.Fatal(err)
	}
	rep, cfg, err := resolveRoot(rt, x, pin.Skip)
	if err != nil {
		t.Fatal(err)
	}
	tr, diags := config.LoadTree(wd, config.TreeOptions{SkipFile: pin.Skip})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	plan, err := pin.Build(rep, tr, pin.Options{Policies: cfg.Registry()})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Pins) == 0 {
		t.Fatal("prerel pin pins nothing: the test's premise is wrong")
	}
	if err := pin.Write(plan, pin.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestOverrideStale(t *testing.T) {
	pinLine := func(line int) hcl.Range {
		return hcl.Range{Filename: "prerel_override.tf", Start: hcl.Pos{Line: line, Column: 1}, End: hcl.Pos{Line: line, Column: 1}}
	}
	tests := []struct {
		name string
		// after changes files once prerel pin has written its file.
		after map[string]string
		// tflint is the .tflint.hcl.
		tflint string
		want   func(rule *OverrideStale) helper.Issues
	}{
		{
			name:  "up to date offline",
			after: map[string]string{},
			want:  func(*OverrideStale) helper.Issues { return helper.Issues{} },
		},
		{
			name:  "the constraint changed",
			after: map[string]string{"main.tf": sprintf(dbCall, "~> 1.0")},
			want: func(r *OverrideStale) helper.Issues {
				return helper.Issues{{Rule: r, Range: pinLine(9),
					Message: `module db is pinned to 2.0.0-beta.1, but prerel pin would remove the pin: the chosen policy cargo selects no version: cargo refuses 2.0.0-beta.1, the newest version: "~> 1.0" names no prerelease, and its release 2.0.0 is not below 2.0.0, where "~> 1.0" ends; no release is listed`}}
			},
		},
		{
			name:  "the policy changed",
			after: map[string]string{"prerel.hcl": "module \"db\" {\n  policy = \"terraform-module\"\n}\n"},
			want: func(r *OverrideStale) helper.Issues {
				return helper.Issues{{Rule: r, Range: pinLine(9),
					Message: `module db is pinned to 2.0.0-beta.1, but prerel pin would remove the pin: the chosen policy terraform-module selects no version: terraform-module refuses 2.0.0-beta.1, the newest version: prerelease excluded: the npm-style parser (go-versions MeetingConstraintsString) refused ">= 2.0.0-beta.1": no spaces allowed after operator ">="; no release is listed`}}
			},
		},
		{
			name:   "a newer prerelease in the index",
			after:  map[string]string{"index.json": sprintf(dbIndex, `, {"version": "2.0.0-beta.2"}`)},
			tflint: "rule \"prerel_override_stale\" {\n  enabled = true\n  index   = \"index.json\"\n}\n",
			want: func(r *OverrideStale) helper.Issues {
				return helper.Issues{{Rule: r, Range: pinLine(9),
					Message: `module db is pinned to 2.0.0-beta.1, but policy cargo (prerel.hcl:2) selects 2.0.0-beta.2 for ">= 2.0.0-beta.1" now: run prerel pin`}}
			},
		},
		{
			name:  "the same newer prerelease, offline",
			after: map[string]string{"index.json": sprintf(dbIndex, `, {"version": "2.0.0-beta.2"}`)},
			want:  func(*OverrideStale) helper.Issues { return helper.Issues{} },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{
				"main.tf":    sprintf(dbCall, ">= 2.0.0-beta.1"),
				"prerel.hcl": cargoConfig,
				"index.json": sprintf(dbIndex, ""),
			}
			tree(t, files)
			writePins(t)
			for name, src := range tt.after {
				if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
				files[name] = src
			}
			if tt.tflint != "" {
				files[".tflint.hcl"] = tt.tflint
			}
			pinned, err := os.ReadFile(pin.FileName)
			if err != nil {
				t.Fatal(err)
			}
			files[pin.FileName] = string(pinned)
			runner := helper.TestRunner(t, rootOnly(files))
			rule := &OverrideStale{}
			if err := rule.Check(runner); err != nil {
				t.Fatal(err)
			}
			helper.AssertIssues(t, tt.want(rule), runner.Issues)
		})
	}
}

// TestOverrideStaleQuiet checks that a root module that uses neither
// prerel.hcl nor prerel pin gets no issue, whatever its constraints.
func TestOverrideStaleQuiet(t *testing.T) {
	runner := tree(t, map[string]string{"main.tf": sprintf(dbCall, ">= 2.0.0-beta.1")})
	if err := (&OverrideStale{}).Check(runner); err != nil {
		t.Fatal(err)
	}
	helper.AssertIssues(t, helper.Issues{}, runner.Issues)
}
