package policyconfig_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/prerel/prerel/resolve/policyconfig"
)

// TestApply checks the command line's settings over the file's: each
// lands where its name says, with its flag as origin, and every mistake
// is reported at once.
func TestApply(t *testing.T) {
	day := 24 * time.Hour
	tests := []struct {
		name string
		o    policyconfig.Overrides
		// want are "WHAT: POLICY WANT MINAGE UNDATED from ORIGIN" for the
		// default, vpc and hashicorp/aws, then the flag of the cooldown.
		want []string
		errs []string
	}{
		{name: "none", want: []string{
			"default: cargo  168h0m0s false from prerel.hcl:3:18",
			"vpc: lexical  168h0m0s false from prerel.hcl:6:12",
			"aws: strict  168h0m0s false from prerel.hcl:14:12"}},
		{name: "every kind", o: policyconfig.Overrides{
			Default:   policyconfig.Override{Value: "strict", Flag: "--policy strict"},
			Modules:   []policyconfig.Override{{"vpc", "cargo", "--module-policy vpc=cargo"}},
			Providers: []policyconfig.Override{{"hashicorp/aws", "mine", "--provider-policy hashicorp/aws=mine"}},
			Wants:     []policyconfig.Override{{"vpc", "1.0.0-beta", "--want vpc=1.0.0-beta"}, {"hashicorp/aws", "6.0.0", "--want hashicorp/aws=6.0.0"}},
			MinAge:    &day, MinAgeFlag: "--min-age 1d", AllowUndatedFlag: "--allow-undated",
		}, want: []string{
			"default: strict  24h0m0s true from --policy strict, age from --min-age 1d",
			"vpc: cargo 1.0.0-beta 24h0m0s true from --module-policy vpc=cargo, age from --min-age 1d",
			"aws: mine 6.0.0 24h0m0s true from --provider-policy hashicorp/aws=mine, age from --min-age 1d"}},
		{name: "allow undated alone", o: policyconfig.Overrides{AllowUndatedFlag: "--allow-undated"}, want: []string{
			"default: cargo  168h0m0s true from prerel.hcl:3:18",
			"vpc: lexical  168h0m0s true from prerel.hcl:6:12",
			"aws: strict  168h0m0s true from prerel.hcl:14:12"}},
		{name: "every mistake", o: policyconfig.Overrides{
			Default: policyconfig.Override{Value: "nope", Flag: "--policy nope"},
			Modules: []policyconfig.Override{{"", "cargo", "--module-policy =cargo"}},
			Wants:   []policyconfig.Override{{"a/b/c/d", "1.0.0", "--want a/b/c/d=1.0.0"}, {"vpc", "not a version", "--want vpc=not a version"}},
		}, errs: []string{`--policy nope: Unknown policy "nope"`, `--module-policy =cargo: Invalid module ""`,
			`--want a/b/c/d=1.0.0: Invalid provider "a/b/c/d"`, "--want vpc=not a version: "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, diags := policyconfig.Parse(testRegistry(t), []byte("min_age = \"7d\"\n"+good), "prerel.hcl")
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			got := lines(cfg.Apply(tt.o))
			if len(got) != len(tt.errs) {
				t.Fatalf("diagnostics %q, want %q", got, tt.errs)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.errs[i]) {
					t.Errorf("diagnostic %q, want %q", got[i], tt.errs[i])
				}
			}
			if len(tt.errs) > 0 {
				return
			}
			choices := map[string]policyconfig.Choice{"default": cfg.Default(), "vpc": cfg.Module("vpc"), "aws": cfg.Provider(mustProvider(t, "aws"))}
			for i, what := range []string{"default", "vpc", "aws"} {
				c := choices[what]
				line := fmt.Sprintf("%s: %s %s %s %v from %s", what, c.Policy.Name(), c.Want, c.MinAge, c.AllowUndated, c.Origin)
				if c.CooldownOrigin.Flag != "" {
					line += ", age from " + c.CooldownOrigin.Flag
				}
				if line != tt.want[i] {
					t.Errorf("%s\nwant %s", line, tt.want[i])
				}
			}
		})
	}
}
