package policies

import (
	"strings"
	"testing"

	"github.com/prerel/prerel/engine"
)

// reasonCases are the exact reasons of cases of the verdict tables
// (verdictRows), which state the verdicts; a reason names the branch of
// the rule that decided, which a verdict table cannot say.
var reasonCases = []struct {
	p                   engine.Policy
	constraint, version string
	reason              string
}{
	// Strict
	{Strict{}, ">= 1.1.0-beta.2", "1.1.0-beta.3", reasonStrictNoEqual},
	{Strict{}, "= 2.0.0-beta.1", "2.0.0-beta.1", reasonStrictAllow},
	{Strict{}, ">= 1.0.0, = 2.0.0-beta", "2.0.0-beta", reasonStrictAllow},
	{Strict{}, "~> 1.0.0-beta", "1.0.1", reasonReleaseHolds},
	{Strict{}, ">= 1.0.0, < 2.0.0", "2.0.0-beta.1", reasonStrictNoEqual},
	{Strict{}, ">= 1.1.0-beta.2", "1.1.0-beta.1", "below a >= comparator's version"},
	{Strict{}, "~> 2.0.0", "2.0.0-beta", "below a ~> comparator's version"},
	{Strict{}, "< 2", "2.0.0", "not below a < comparator's version"},
	{Strict{}, "< 2", "2.0.0-beta", reasonStrictNoEqual},
	{Strict{}, "~> 1", "2.0.0", "not below a ~> comparator's upper bound"},
	{Strict{}, "~> 1.2.3-beta", "1.2.3-rc.1", reasonStrictNoEqual},
	{Strict{}, "~> 1.2.3-beta", "1.3.0-beta", reasonStrictNoEqual},
	{Strict{}, "!= 1.0.0", "1.0.0", "equal by precedence to a != comparator's version"},
	{Strict{}, "!= 1.0.0", "1.0.0-beta", reasonStrictNoEqual},
	{Strict{}, "!= 1.0.0-beta", "1.0.0-rc", reasonStrictNoEqual},
	{Strict{}, "= 1.0.0", "1.0.0-beta", "not equal by precedence to an = comparator's version"},
	{Strict{}, "= 1.0.0-beta+abc", "1.0.0-beta+def", reasonStrictAllow},
	{Strict{}, "", "1.0.0", reasonEmptyRelease},
	{Strict{}, "", "1.0.0-beta", reasonStrictNoEqual},
	// Lexical
	{Lexical{}, ">= 1.1.0-beta.2", "1.1.0-rc.1", reasonLexicalRanges},
	{Lexical{}, ">= 1.0.0-beta, < 1.0.0", "1.0.0-rc.1", "prerelease: a < comparator without a prerelease refuses every prerelease"},
	{Lexical{}, "~> 1.0.0-beta", "1.0.1", reasonLexicalTildePre},
	{Lexical{}, "= 2.0.0-beta.1", "2.0.0-beta.1", reasonLexicalOnlyEquals},
	{Lexical{}, ">= 1.0.0, = 2.0.0-beta", "2.0.0-beta", "prerelease: a >= comparator without a prerelease refuses every prerelease"},
	{Lexical{}, ">= 1.1.0-beta.2", "2.0.0-beta.1", "prerelease: a >= comparator names a prerelease of another base"},
	{Lexical{}, ">= 1.1.0-beta.2", "1.1.0-beta.1", "below a >= comparator's version"},
	{Lexical{}, "~> 1.2", "2.0.0-beta.1", "prerelease: a ~> comparator without a prerelease refuses every prerelease"},
	{Lexical{}, ">= 1.12.0-beta1", "1.12.0", reasonReleaseHolds},
	{Lexical{}, "~> 1", "2.0.0", "not below a ~> comparator's upper bound"},
	{Lexical{}, "~> 1", "0.9.9", "below a ~> comparator's version"},
	{Lexical{}, "~> 1.2.3-beta", "1.2.3-rc.1", reasonLexicalRanges},
	{Lexical{}, "~> 1.2.3-beta", "1.2.4", reasonLexicalTildePre},
	{Lexical{}, "~> 1.2.3-beta", "1.2.3", reasonLexicalTildePre},
	{Lexical{}, "~> 1.2.3-beta", "1.3.0-beta", "prerelease: a ~> comparator names a prerelease of another base"},
	{Lexical{}, "~> 1.2.3-beta", "1.2.3-alpha", "below a ~> comparator's version"},
	{Lexical{}, "!= 1.0.0", "1.0.0", "equal by precedence to a != comparator's version"},
	{Lexical{}, "!= 1.0.0", "1.0.0-beta", reasonLexicalOnlyEquals},
	{Lexical{}, "= 1.0.0", "1.0.0-beta", "not equal by precedence to an = comparator's version"},
	{Lexical{}, ">= 1.0.0-beta, < 2.0.0-beta", "2.0.0-alpha", "prerelease: a >= comparator names a prerelease of another base"},
	{Lexical{}, ">= 1.0.0-beta, < 2.0.0-beta", "1.0.0-rc", "prerelease: a < comparator names a prerelease of another base"},
	{Lexical{}, "> 1.0.0-beta", "1.0.0-beta", "not above a > comparator's version"},
	{Lexical{}, "<= 1.0.0-beta", "1.0.0-rc", "above a <= comparator's version"},
	{Lexical{}, "", "1.0.0", reasonEmptyRelease},
	{Lexical{}, "", "1.0.0-beta", reasonLexicalEmpty},
	// Cargo
	{Cargo{}, ">= 1.1.0-beta.2", "1.1.0-beta.3", reasonCargoAllow},
	{Cargo{}, ">= 1.1.0-beta.2", "2.0.0-beta.1", reasonCargoOtherBase},
	{Cargo{}, ">= 1.0.0-beta, < 1.0.0", "1.0.0-rc.1", reasonCargoAllow},
	{Cargo{}, "~> 1.0.0-beta", "1.0.1", reasonReleaseHolds},
	{Cargo{}, ">= 1.0.0, < 2.0.0", "2.0.0-beta.1", reasonCargoNone},
	{Cargo{}, ">= 1.1.0-beta.2", "1.1.0-beta.1", "below a >= comparator's version"},
	{Cargo{}, "~> 1.2", "2.0.0-beta.1", reasonCargoNone},
	{Cargo{}, "~> 2.0.0", "2.0.0-beta", "below a ~> comparator's version"},
	{Cargo{}, ">= 1.0.0, != 1.5.0-rc.1", "1.5.0-rc.2", reasonCargoNotEqual},
	{Cargo{}, ">= 1.0.0-0, < 2.0.0", "2.0.0-beta.1", reasonCargoOtherBase},
	{Cargo{}, "< 2", "2.0.0-beta", reasonCargoNone},
	{Cargo{}, "~> 1.2.3", "1.3.0", "not below a ~> comparator's upper bound"},
	{Cargo{}, "~> 1.2.3", "1.3.0-beta", reasonCargoNone},
	{Cargo{}, "~> 1.2.3-beta", "1.3.0-beta", reasonCargoOtherBase},
	{Cargo{}, "!= 1.0.0", "1.0.0-beta", reasonCargoNone},
	{Cargo{}, "!= 1.0.0-beta", "1.0.0-beta", "equal by precedence to a != comparator's version"},
	{Cargo{}, "!= 1.0.0-beta", "1.0.0-rc", reasonCargoNotEqual},
	{Cargo{}, ">= 1.0.0-beta, < 2.0.0-beta", "1.5.0-rc", reasonCargoOtherBase},
	{Cargo{}, "", "1.0.0", reasonEmptyRelease},
	{Cargo{}, "", "1.0.0-beta", reasonCargoEmpty},
	// Linear
	{Linear{}, ">= 1.0.0, < 2.0.0", "2.0.0-beta.1", reasonLinearAllow},
	{Linear{}, ">= 1.1.0-beta.2", "1.1.0-beta.1", "below a >= comparator's version"},
	{Linear{}, "~> 1.2", "2.0.0-beta.1", reasonLinearAllow},
	{Linear{}, "~> 1.0.0-beta", "1.0.1", reasonReleaseHolds},
	{Linear{}, "~> 2.0.0", "2.0.0-beta", "below a ~> comparator's version"},
	{Linear{}, "< 2", "2.0.0", "not below a < comparator's version"},
	{Linear{}, "<= 2", "2.0.1-beta", "above a <= comparator's version"},
	{Linear{}, "> 1", "1.0.0-rc", "not above a > comparator's version"},
	{Linear{}, "1.2", "1.2.0-beta", "not equal by precedence to an = comparator's version"},
	{Linear{}, "~> 1", "1.0.0-rc", "below a ~> comparator's version"},
	{Linear{}, "~> 1", "2.0.0", "not below a ~> comparator's upper bound"},
	{Linear{}, "!= 1.0.0-beta", "1.0.0-beta", "equal by precedence to a != comparator's version"},
	{Linear{}, "", "1.0.0", reasonEmptyRelease},
	{Linear{}, "", "1.0.0-beta", reasonLinearEmpty},
	// LinearTight
	{LinearTight{}, "~> 1.2", "2.0.0-beta.1", reasonTightExclude},
	{LinearTight{}, "~> 1.2", "1.9.0-rc.1", reasonTightAllow},
	{LinearTight{}, "< 2.0.0", "2.0.0-beta.1", reasonTightAllow},
	{LinearTight{}, "~> 1.0.0-beta", "1.0.1", reasonReleaseHolds},
	{LinearTight{}, ">= 1.1.0-beta.2", "1.1.0-beta.1", "below a >= comparator's version"},
	{LinearTight{}, "~> 2.0.0", "2.0.0-beta", "below a ~> comparator's version"},
	{LinearTight{}, "~> 1", "2.0.0-0", reasonTightExclude},
	{LinearTight{}, "~> 1", "1.0.0-rc", "below a ~> comparator's version"},
	{LinearTight{}, "~> 1", "2.0.0", "not below a ~> comparator's upper bound"},
	{LinearTight{}, "~> 1.2", "1.2.0-rc", "below a ~> comparator's version"},
	{LinearTight{}, "~> 1.2.3", "1.3.0-beta", reasonTightExclude},
	{LinearTight{}, "~> 1.2.3", "2.0.0-beta", "not below a ~> comparator's upper bound"},
	{LinearTight{}, "~> 0", "1.0.0-alpha", reasonTightExclude},
	{LinearTight{}, "~> 1.2.3-beta", "1.3.0-beta", reasonTightExclude},
	{LinearTight{}, "~> 1.2-beta", "2.0.0-beta", reasonTightExclude},
	{LinearTight{}, "< 2.0.0-0", "2.0.0-0", "not below a < comparator's version"},
	{LinearTight{}, "~> 1.2, < 2.0.0", "2.0.0-beta", reasonTightExclude},
	{LinearTight{}, ">= 1.0.0, < 2.0.0, ~> 1.2", "2.0.0-rc.1", reasonTightExclude},
	{LinearTight{}, "~> 1.2, ~> 1.9.0", "2.0.0-rc.1", "not below a ~> comparator's upper bound"},
	{LinearTight{}, "= 2.0.0-beta, ~> 1.0", "2.0.0-beta", reasonTightExclude},
	{LinearTight{}, "~> v1.2+build", "v2.0.0-rc+b", reasonTightExclude},
	{LinearTight{}, "", "1.0.0", reasonEmptyRelease},
	{LinearTight{}, "", "1.0.0-beta", reasonTightEmpty},
	// GABound
	{GABound{}, ">= 1.0.0, < 2.0.0", "2.0.0-beta", "prerelease: its GA release is not below a < comparator's version"},
	{GABound{}, "~> 2.0.0", "2.0.0-beta", reasonGABoundGA},
	{GABound{}, ">= 1.1.0-beta.2", "1.1.0-beta.1", "below a >= comparator's version"},
	{GABound{}, ">= 1.1.0-beta.2", "1.1.0-beta.3", reasonGABoundExact},
	{GABound{}, "= 2.0.0-beta.1", "2.0.0-beta.1", reasonGABoundExact},
	{GABound{}, ">= 1.0.0, = 2.0.0-beta", "2.0.0-beta", reasonGABoundGA},
	{GABound{}, ">= 1.0.0-beta, < 1.0.0", "1.0.0-rc.1", "prerelease: its GA release is not below a < comparator's version"},
	{GABound{}, "~> 1.0.0-beta", "1.0.1", reasonReleaseHolds},
	{GABound{}, "~> 1.2", "2.0.0-beta.1", "prerelease: its GA release is not below a ~> comparator's upper bound"},
	{GABound{}, ">= 3.0.0", "2.1.0-rc.1", "prerelease: its GA release is below a >= comparator's version"},
	{GABound{}, "> 2.0.0", "2.0.0-beta", "prerelease: its GA release is not above a > comparator's version"},
	{GABound{}, "<= 1.9.9", "2.0.0-beta", "prerelease: its GA release is above a <= comparator's version"},
	{GABound{}, "~> 2.0.0", "2.1.0-beta", "prerelease: its GA release is not below a ~> comparator's upper bound"},
	{GABound{}, "~> 2.0.1", "2.0.0-rc", "prerelease: its GA release is below a ~> comparator's version"},
	{GABound{}, "= 2.0.0", "2.0.0-beta", "not equal by precedence to an = comparator's version"},
	{GABound{}, "!= 2.0.0", "2.0.0-beta", reasonGABoundExact},
	{GABound{}, "!= 2.0.0-beta", "2.0.0-beta", "equal by precedence to a != comparator's version"},
	{GABound{}, "= 2.0.0-beta, < 2.0.0", "2.0.0-beta", "prerelease: its GA release is not below a < comparator's version"},
	{GABound{}, "< 2.0.0-beta", "2.0.0-rc", "not below a < comparator's version"},
	{GABound{}, "<= 1.0.0-rc", "2.0.0-beta", "above a <= comparator's version"},
	{GABound{}, "> 1.0.0-rc", "1.0.0-beta", "not above a > comparator's version"},
	{GABound{}, "~> 2.0.0-beta", "2.0.0-alpha", "below a ~> comparator's version"},
	{GABound{}, "~> 2.0.0-beta", "2.0.0-rc", reasonGABoundUpper},
	{GABound{}, "~> 2.0.0-beta", "2.1.0", "not below a ~> comparator's upper bound"},
	{GABound{}, "~> 3.2.0-beta.1", "3.2.0-beta.2", reasonGABoundUpper},
	{GABound{}, "~> 3.2.0-beta.1", "3.3.0-alpha.1", "prerelease: its GA release is not below a ~> comparator's upper bound"},
	{GABound{}, "~> 3.2.0-beta.1", "3.2.0", reasonReleaseHolds},
	{GABound{}, "~> 3.2.0-beta.1", "3.2.0-alpha", "below a ~> comparator's version"},
	{GABound{}, "~> 3.2.0-beta.1", "3.3.0", "not below a ~> comparator's upper bound"},
	{GABound{}, "~> 1.2.0-rc.1", "1.3.0-rc.1", "prerelease: its GA release is not below a ~> comparator's upper bound"},
	{GABound{}, "~> 2.0.0-beta", "2.1.0-rc", "prerelease: its GA release is not below a ~> comparator's upper bound"},
	{GABound{}, "~> 1.2-beta", "2.0.0-beta.1", "prerelease: its GA release is not below a ~> comparator's upper bound"},
	{GABound{}, ">= 1.0.0, ~> 3.2.0-beta.1", "3.2.1-beta", reasonGABoundGA},
	{GABound{}, "~> 3.2.0-beta.1, != 3.2.0-beta.2", "3.2.0-beta.2", "equal by precedence to a != comparator's version"},
	{GABound{}, "~> 1.18446744073709551615.0-beta", "1.18446744073709551615.9-rc", reasonGABoundExact},
	{GABound{}, ">= 1.0.0-beta, < 2.0.0", "1.5.0-rc", reasonGABoundGA},
	{GABound{}, ">= 2.0.0-beta, <= 2.0.0", "2.0.0-alpha", "below a >= comparator's version"},
	{GABound{}, "~> 2.0.0-beta", "2.0.5", reasonReleaseHolds},
	{GABound{}, "< 2.0.0", "2.0.0", "not below a < comparator's version"},
	{GABound{}, "", "1.0.0", reasonEmptyRelease},
	{GABound{}, "", "1.0.0-beta", reasonGABoundEmpty},
	// AnyPre
	{AnyPre{}, ">= 1.1.0-beta.2", "2.0.0-beta.1", reasonAnyPreAllow},
	{AnyPre{}, ">= 1.0.0, != 1.5.0-rc.1", "1.5.0-rc.2", reasonAnyPreNotEqual},
	{AnyPre{}, ">= 1.0.0-0, < 2.0.0", "2.0.0-beta.1", reasonAnyPreAllow},
	{AnyPre{}, "~> 1.0.0-beta", "1.0.1", reasonReleaseHolds},
	{AnyPre{}, ">= 1.0.0, < 2.0.0", "2.0.0-beta.1", reasonAnyPreNone},
	{AnyPre{}, ">= 1.1.0-beta.2", "1.1.0-beta.1", "below a >= comparator's version"},
	{AnyPre{}, "~> 1.2", "2.0.0-beta.1", reasonAnyPreNone},
	{AnyPre{}, "~> 2.0.0", "2.0.0-beta", "below a ~> comparator's version"},
	{AnyPre{}, ">= 1.0.0", "1.1.0-beta.1", reasonAnyPreNone},
	{AnyPre{}, "~> 1.2.3-beta", "1.2.3-alpha", "below a ~> comparator's version"},
	{AnyPre{}, "= 1.0.0-beta, >= 0.1.0", "1.0.0-rc", "not equal by precedence to an = comparator's version"},
	{AnyPre{}, "!= 1.0.0-beta", "1.0.0-rc", reasonAnyPreNotEqual},
	{AnyPre{}, "!= 1.0.0-beta", "1.0.0-beta", "equal by precedence to a != comparator's version"},
	{AnyPre{}, "!= 1.0.0", "1.0.0-beta", reasonAnyPreNone},
	{AnyPre{}, "!= 2.0.0-rc, >= 1.0.0-beta", "2.0.0-rc", "equal by precedence to a != comparator's version"},
	{AnyPre{}, "", "1.0.0", reasonEmptyRelease},
	{AnyPre{}, "", "1.0.0-beta", reasonAnyPreEmpty},
	// Fallback
	{Fallback{}, ">= 1.0.0", "1.0.0", reasonReleaseHolds},
	{Fallback{}, ">= 1.0.0", "1.1.0-beta.1", reasonFallbackAllow},
	{Fallback{}, ">= 1.0.0", "0.9.0", "below a >= comparator's version"},
	{Fallback{}, "~> 2.0.0", "2.0.0-beta", "below a ~> comparator's version"},
	{Fallback{}, "!= 1.0.0-beta", "1.0.0-beta", "equal by precedence to a != comparator's version"},
	{Fallback{}, "", "1.0.0", reasonEmptyRelease},
	{Fallback{}, "", "1.0.0-beta", reasonFallbackEmpty},
	// CoreOnly
	{CoreOnly{}, ">= 1.12.0", "1.12.0-beta1", reasonCoreAllow},
	{CoreOnly{}, "< 2.0.0", "2.0.0-beta.1", "prerelease: its version core is not below a < comparator's version"},
	{CoreOnly{}, ">= 1.12.0-beta1", "1.12.0", `prerelease version constraints are not supported: ">= 1.12.0-beta1" (comparator 1 of 1) names the prerelease 1.12.0-beta1; a prerelease version matches by its version core only`},
	{CoreOnly{}, ">= 1.0.0, = 2.0.0-beta", "2.0.0-beta", `prerelease version constraints are not supported: "= 2.0.0-beta" (comparator 2 of 2) names the prerelease 2.0.0-beta; a prerelease version matches by its version core only`},
	{CoreOnly{}, "~> 1.2", "2.0.0-beta.1", "prerelease: its version core is not below a ~> comparator's upper bound"},
	{CoreOnly{}, ">= 1.0.0", "1.0.0", reasonReleaseHolds},
	{CoreOnly{}, ">= 1.0.0", "0.9.0", "below a >= comparator's version"},
	{CoreOnly{}, ">= 3.0.0", "2.1.0-rc.1", "prerelease: its version core is below a >= comparator's version"},
	{CoreOnly{}, "= 2.0.0", "2.0.1-beta", "prerelease: its version core is not equal to an = comparator's version"},
	{CoreOnly{}, "!= 2.0.0", "2.0.0-beta", "prerelease: its version core is equal to a != comparator's version"},
	{CoreOnly{}, "> 2.0.0", "2.0.0-beta", "prerelease: its version core is not above a > comparator's version"},
	{CoreOnly{}, "<= 1.9.9", "2.0.0-beta", "prerelease: its version core is above a <= comparator's version"},
	{CoreOnly{}, "~> 2.0.1", "2.0.0-rc", "prerelease: its version core is below a ~> comparator's version"},
	{CoreOnly{}, "< 2.0.0", "2.0.0", "not below a < comparator's version"},
	{CoreOnly{}, "v1.0.0-rc.1+build", "1.0.0", `prerelease version constraints are not supported: "v1.0.0-rc.1+build" (comparator 1 of 1) names the prerelease 1.0.0-rc.1; a prerelease version matches by its version core only`},
	{CoreOnly{}, "", "1.0.0", reasonEmptyRelease},
	{CoreOnly{}, "", "1.0.0-beta", reasonCoreEmpty},
}

// TestReasons checks each exact reason through Compile and Match and
// through the policy's version table; each case must be a row of the
// verdict tables.
func TestReasons(t *testing.T) {
	rows := map[[2]string]bool{}
	for _, r := range verdictRows(t) {
		rows[[2]string{r.constraint, r.version}] = true
	}
	seen := map[string]bool{}
	for _, tc := range reasonCases {
		name := tc.p.Name()
		if key := name + "\x00" + tc.constraint + "\x00" + tc.version; seen[key] {
			t.Errorf("%s: %q | %q twice", name, tc.constraint, tc.version)
		} else {
			seen[key] = true
		}
		if !rows[[2]string{tc.constraint, tc.version}] {
			t.Errorf("%s: %q | %q is no row of the verdict tables", name, tc.constraint, tc.version)
		}
		got := engine.Evaluate(tc.p, tc.constraint, tc.version)
		if got.Reason != tc.reason {
			t.Errorf("%s: %q | %q: reason %q, want %q", name, tc.constraint, tc.version, got.Reason, tc.reason)
		}
		if fast := judgeByTable(tc.p, tc.constraint, tc.version); fast != got {
			t.Errorf("%s: %q | %q: the version table gives %+v, the text %+v", name, tc.constraint, tc.version, fast, got)
		}
	}
}

// TestMultipartReason checks that every native policy but core-only says
// why it refuses a version or constraint of more than three numeric
// parts, and that every explanation of one ends in Evaluate's result.
func TestMultipartReason(t *testing.T) {
	multipart := [][2]string{
		{"1.0.0.0", "1.0.0"},
		{"= 1.15.9.0", "1.15.9"},
		{"~> 1.15.9.0", "1.15.9"},
		{">= 1.2.3", "1.2.3.4"},
		{">= 1.2.3", "1.2.3.4-beta"},
		{">= 1.2.3.1", "1.2.4"},
	}
	for _, p := range All() {
		for _, c := range multipart {
			r := engine.Evaluate(p, c[0], c[1])
			if got := p.(engine.Explainer).Explain(c[0], c[1]).Result; got != r {
				t.Errorf("%s: Explain(%q, %q).Result = %+v, Evaluate %+v", p.Name(), c[0], c[1], got, r)
			}
			if p.Name() != "core-only" && !strings.Contains(r.Reason, "too many numeric parts: at most three (MAJOR.MINOR.PATCH)") {
				t.Errorf("%s: %q | %q: reason %q does not say why", p.Name(), c[0], c[1], r.Reason)
			}
		}
	}
}
