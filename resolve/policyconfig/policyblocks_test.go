package policyconfig_test

import (
	"strings"
	"testing"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/resolve/policyconfig"
)

// TestPolicyBlocks checks that prerel.hcl may declare policies in HCL and
// use them as any registered policy, without changing the registry it
// was given.
func TestPolicyBlocks(t *testing.T) {
	reg := testRegistry(t)
	src := `
default_policy = "named-pre"
module "vpc" { policy = "cargo" }
module "eks" { policy = "named-pre" }

policy "named-pre" {
  rule  = "a prerelease only when the constraint names one"
  admit = satisfies(constraint, version) && (!version.is_prerelease || constraint.names_prerelease)
}
`
	cfg, diags := policyconfig.Parse(reg, []byte(src), "prerel.hcl")
	if diags.HasErrors() {
		t.Fatalf("Parse: %v", diags)
	}
	if got := cfg.Default().Policy.Name(); got != "named-pre" {
		t.Errorf("default policy %q, want named-pre", got)
	}
	eks := cfg.Module("eks").Policy
	if eks == nil || eks.Name() != "named-pre" {
		t.Fatalf("module eks: %v", eks)
	}
	for _, tt := range []struct {
		constraint, version string
		want                engine.Verdict
	}{
		{">= 1.0.0-beta", "1.1.0-rc.1", engine.Allow},
		{">= 1.0.0", "1.1.0-rc.1", engine.Reject},
		{">= 1.0.0", "1.1.0", engine.Allow},
	} {
		if got := engine.Evaluate(eks, tt.constraint, tt.version).Verdict; got != tt.want {
			t.Errorf("named-pre %q %q = %v, want %v", tt.constraint, tt.version, got, tt.want)
		}
	}
	if _, ok := cfg.Registry().Lookup("named-pre"); !ok {
		t.Error("the config's registry lacks named-pre")
	}
	if _, ok := reg.Lookup("named-pre"); ok {
		t.Error("the registry given to Parse was changed")
	}
}

func TestPolicyBlockErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"command", "policy \"x\" {\n  command = [\"sh\", \"-c\", \"true\"]\n}\n",
			`prerel.hcl:2:13: Command policy not allowed here; The policy "x" runs a command`},
		{"name of a registered policy", "policy \"cargo\" {\n  admit = true\n}\n",
			`prerel.hcl:1:8: Policy name already registered; "cargo" is the name of a registered policy`},
		{"admit not a bool", "policy \"x\" {\n  admit = \"yes\"\n}\n", "prerel.hcl:2:"},
		{"unknown variable", "policy \"x\" {\n  admit = verison.is_prerelease\n}\n", "prerel.hcl:2:11"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, diags := policyconfig.Parse(testRegistry(t), []byte(tt.src), "prerel.hcl")
			if cfg != nil || !diags.HasErrors() {
				t.Fatalf("Parse accepted it: %v", diags)
			}
			var got []string
			for _, d := range diags {
				got = append(got, diag.Format(d))
			}
			if !strings.Contains(strings.Join(got, "\n"), tt.want) {
				t.Errorf("diagnostics:\n%s\nwant %q", strings.Join(got, "\n"), tt.want)
			}
		})
	}
}
