package adapters

import (
	"testing"

	"github.com/prerel/prerel/engine"
)

// TestMultipart pins what the adapters answer for versions and
// constraints of more than three numeric parts: go-version (hashicorp
// and the module installers) reads them, go-versions and Masterminds
// refuse them. Terraform's module installer installs 1.2.3.4 for
// ">= 1.2.3"; its provider installer cannot read it; required_version
// "~> 1.15.9.0" refuses Terraform 1.15.9.
func TestMultipart(t *testing.T) {
	const (
		A = engine.Allow
		R = engine.Reject
		I = engine.Invalid
	)
	cases := []struct {
		constraint, version string
		hashicorp, module   engine.Verdict
		apparentlymart      engine.Verdict
		masterminds         engine.Verdict
	}{
		{">= 1.2.3", "1.2.3.4", A, A, I, I},
		{"= 1.15.9.0", "1.15.9", A, A, I, I},
		{"~> 1.15.9.0", "1.15.9", R, R, I, I},
		{"~> 1.15.9.0", "1.15.9.1", A, A, I, I},
		{">= 1.2.3.1", "1.2.4", A, A, I, I},
		// A four-part prerelease: go-versions' npm-style parser cannot
		// read it, so the module installers exclude it.
		{">= 1.2.3", "1.2.3.4-beta", R, R, I, I},
		{"1.2.3.4-beta", "1.2.3.4-beta", A, R, I, I},
	}
	for _, c := range cases {
		for _, p := range []struct {
			policy engine.Policy
			want   engine.Verdict
		}{
			{HashiCorp{}, c.hashicorp},
			{ModuleInstaller{}, c.module},
			{ModuleInstaller{OpenTofu: true}, c.module},
			{ApparentlyMart{}, c.apparentlymart},
			{Masterminds{}, c.masterminds},
		} {
			got := engine.Evaluate(p.policy, c.constraint, c.version)
			if got.Verdict != p.want {
				t.Errorf("%s: %q | %q = %v (%s), want %v", p.policy.Name(), c.constraint, c.version, got.Verdict, got.Reason, p.want)
			}
			if fast := engine.ReadVersions(p.policy, []string{c.version}); fast != nil {
				m, err := fast.Compile(c.constraint)
				var r engine.Result
				if err != nil {
					r = engine.InvalidResult(err)
				} else {
					r = m.Judge(0)
				}
				if r != got {
					t.Errorf("%s: %q | %q: table %+v, Evaluate %+v", p.policy.Name(), c.constraint, c.version, r, got)
				}
			}
		}
	}
}
