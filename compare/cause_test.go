package compare_test

import (
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
)

func TestCauseOf(t *testing.T) {
	tests := []struct {
		name                string
		a, b                engine.Policy
		constraint, version string
		want                compare.Cause
	}{
		{"agree", linear, sameBase, ">= 1.0.0", "1.2.0", ""},
		{"one side invalid", linear, noV, ">= v1.0.0", "1.2.0", compare.CauseSyntax},
		{"invalid version", linear, noV, ">= 1.0.0", "v1.2.0", compare.CauseSyntax},
		{"layout alone", linear, tight, ">=1.0.0-alpha", "1.0.0-beta", compare.CauseSyntax},
		{"a v before the version", linear, vReleaseOnly, ">= 1.0.0", "v1.2.0", compare.CauseVPrefix},
		{"a v in the constraint", linear, vReleaseOnly, ">= v1.0.0", "1.2.0", compare.CauseVPrefix},
		{"a partial version read as a wildcard", linear, partialWildcard, "= 1.2", "1.2.5", compare.CausePartial},
		{"build metadata on the version", linear, buildEq, "= 1.0.0", "1.0.0+b", compare.CauseMetadata},
		{"build metadata in the constraint", linear, buildEq, "= 1.0.0+b", "1.0.0", compare.CauseMetadata},
		{"tilde reads ~> N.N as the next minor", linear, tilde, "~> 1.2", "1.5.0", compare.CausePessimistic},
		{"tilde with a second comparator", linear, tilde, "~> 1.2, != 1.4.0", "1.5.0", compare.CausePessimistic},
		{"count-first orders beta below alpha.1", linear, countFirst, "< 1.0.0-beta", "1.0.0-alpha.1", compare.CausePrecedence},
		{"same base rule", linear, sameBase, ">= 1.0.0-alpha", "2.0.0-beta", compare.CausePrerelease},
		{"exact rule", exact, sameBase, ">= 1.0.0-alpha", "1.0.0-beta", compare.CausePrerelease},
		{"range refuses a prerelease of its upper bound", linear, sameBase, "< 2.0.0", "2.0.0-beta", compare.CausePrerelease},
		{"release numbers read differently", linear, zeroNever, ">= 0.0.0", "0.0.0", compare.CauseUnknown},
		{"release analog disagrees", linear, zeroNever, ">= 0.0.0-alpha", "0.0.0", compare.CauseUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := compare.CauseOf(tt.a, tt.b, tt.constraint, tt.version); got != tt.want {
				t.Errorf("CauseOf(%s, %s, %q, %q) = %q, want %q", tt.a.Name(), tt.b.Name(), tt.constraint, tt.version, got, tt.want)
			}
			// The cause does not depend on which side is a.
			if got := compare.CauseOf(tt.b, tt.a, tt.constraint, tt.version); got != tt.want {
				t.Errorf("CauseOf(%s, %s, %q, %q) = %q, want %q", tt.b.Name(), tt.a.Name(), tt.constraint, tt.version, got, tt.want)
			}
		})
	}
}

func TestCauseKind(t *testing.T) {
	for c, want := range map[compare.Cause]string{
		compare.CausePrerelease:  "rule",
		compare.CauseSyntax:      "reading",
		compare.CauseVPrefix:     "reading",
		compare.CausePartial:     "reading",
		compare.CauseMetadata:    "reading",
		compare.CausePessimistic: "reading",
		compare.CausePrecedence:  "reading",
		compare.CauseUnknown:     "unknown",
	} {
		if got := c.Kind(); got != want {
			t.Errorf("%q.Kind() = %q, want %q", c, got, want)
		}
	}
}
