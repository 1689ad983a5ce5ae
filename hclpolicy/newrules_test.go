package hclpolicy_test

import (
	"testing"

	"github.com/prerel/prerel/engine"
)

// TestNewRules checks the rules written only in HCL on hand-checked
// cases.
func TestNewRules(t *testing.T) {
	for _, tc := range []struct {
		policy, constraint, version string
		want                        engine.Verdict
	}{
		// Composer: the least stable prerelease named sets the flag.
		{"composer-stability", ">= 1.0.0-beta", "1.0.0-rc.1", engine.Allow},
		{"composer-stability", ">= 1.0.0-beta", "1.0.0-beta.2", engine.Allow},
		{"composer-stability", ">= 1.0.0-beta", "1.1.0-alpha.1", engine.Reject},
		{"composer-stability", ">= 1.0.0-beta", "2.0.0-beta.1", engine.Allow},
		{"composer-stability", ">= 1.0.0-beta", "1.2.0", engine.Allow},
		{"composer-stability", ">= 1.0.0-beta", "0.9.0", engine.Reject},
		{"composer-stability", ">= 1.0.0", "1.1.0-rc.1", engine.Reject},
		{"composer-stability", ">= 1.0.0-alpha, < 2.0.0", "1.5.0-beta", engine.Allow},
		{"composer-stability", "~> 1.2-RC1", "1.3.0-rc.2", engine.Allow},
		{"composer-stability", "~> 1.2-RC1", "1.3.0-beta.2", engine.Reject},
		{"composer-stability", ">= 1.0.0-beta, != 1.5.0-alpha", "1.5.0-alpha.2", engine.Allow},
		{"composer-stability", ">= 1.0.0-beta", "1.1.0-0", engine.Reject},
		{"composer-stability", ">= 1.0.0-dev", "1.1.0-0", engine.Allow},
		{"composer-stability", "", "1.0.0-rc.1", engine.Reject},
		{"composer-stability", ">= 1.0.0-beta", "1.0", engine.Invalid},
		{"composer-stability", ">= 1.0.0-", "1.0.0", engine.Invalid},

		// The ceiling: a < or <= naming a prerelease of the version's base.
		{"prerelease-ceiling", ">= 1.4.0, < 2.0.0-rc.1", "2.0.0-beta.3", engine.Allow},
		{"prerelease-ceiling", ">= 1.4.0, < 2.0.0-rc.1", "2.0.0-rc.1", engine.Reject},
		{"prerelease-ceiling", ">= 1.4.0, < 2.0.0-rc.1", "2.0.0-rc.2", engine.Reject},
		{"prerelease-ceiling", ">= 1.4.0, < 2.0.0-rc.1", "1.5.0-beta.1", engine.Reject},
		{"prerelease-ceiling", ">= 1.4.0, < 2.0.0-rc.1", "1.9.0", engine.Allow},
		{"prerelease-ceiling", ">= 1.4.0, < 2.0.0-rc.1", "2.0.0", engine.Reject},
		{"prerelease-ceiling", "<= 2.0.0-rc.1", "2.0.0-rc.1", engine.Allow},
		{"prerelease-ceiling", ">= 2.0.0-beta.1", "2.0.0-beta.2", engine.Reject},
		{"prerelease-ceiling", "~> 2.0.0-beta", "2.0.0-beta.2", engine.Reject},
		{"prerelease-ceiling", "< 2.0.0", "2.0.0-beta", engine.Reject},
		{"prerelease-ceiling", "< 2.0.0-0", "2.0.0-beta", engine.Reject},
		{"prerelease-ceiling", "!= 2.0.0-beta, < 2.0.0-rc", "2.0.0-beta.1", engine.Allow},
	} {
		p := design(t, tc.policy)
		got := engine.Evaluate(p, tc.constraint, tc.version)
		if got.Verdict != tc.want {
			t.Errorf("%s: %q with %s: %s (%s), want %s", tc.policy, tc.constraint, tc.version, got.Verdict, got.Reason, tc.want)
		}
		if x := engine.Explain(p, tc.constraint, tc.version); x.Result != got {
			t.Errorf("%s: %q with %s: Explain gives %+v, Evaluate %+v", tc.policy, tc.constraint, tc.version, x.Result, got)
		}
	}
}
