package policies

import "testing"

var gaBoundCases = []verdictCase{
	// docs/policies.md, ga-bound.
	{">= 1.0.0, < 2.0.0", "2.0.0-beta", reject, "prerelease: its GA release is not below a < comparator's version"},
	{"~> 2.0.0", "2.0.0-beta", allow, reasonGABoundGA},
	{">= 1.1.0-beta.2", "1.1.0-beta.1", reject, "below a >= comparator's version"},
	// The Terraform discussion's cases.
	{">= 1.0, < 2.0", "2.0.0-beta", reject, ""},
	{">= 1.0, < 3.0", "2.0.0-beta", allow, ""},
	// docs/policies.md, the other policies' examples: those its verdict table
	// does not state (TestDocVerdictTable checks the ones it does), or with
	// the exact reason.
	{">= 1.1.0-beta.2", "1.1.0-beta.3", allow, reasonGABoundExact},
	{"= 2.0.0-beta.1", "2.0.0-beta.1", allow, reasonGABoundExact},
	{">= 1.0.0, = 2.0.0-beta", "2.0.0-beta", allow, reasonGABoundGA},
	{">= 1.1.0-beta.2", "1.1.0-rc.1", allow, ""},
	{">= 1.0.0-beta, < 1.0.0", "1.0.0-rc.1", reject, "prerelease: its GA release is not below a < comparator's version"},
	{"~> 1.0.0-beta", "1.0.1", allow, reasonReleaseHolds},
	{"~> 1.2", "2.0.0-beta.1", reject, "prerelease: its GA release is not below a ~> comparator's upper bound"},
	{"< 2.0.0", "2.0.0-beta.1", reject, ""},
	{">= 1.0.0-0, < 2.0.0", "2.0.0-beta.1", reject, ""},
	{">= 1.12.0", "1.12.0-beta1", allow, ""},
	{">= 1.12.0-beta1", "1.12.0", allow, ""},
	{">= 1.0.0", "1.0.0", allow, ""},
	{">= 1.0.0", "1.1.0-beta.1", allow, ""},
	{">= 1.0.0", "0.9.0", reject, ""},
	{">= 3.0.0", "2.1.0-rc.1", reject, "prerelease: its GA release is below a >= comparator's version"},
	// Each operator without a prerelease judges GA(v).
	{"> 1.9.9", "2.0.0-beta", allow, ""},
	{"> 2.0.0", "2.0.0-beta", reject, "prerelease: its GA release is not above a > comparator's version"},
	{"> 2.0.0", "2.0.1-beta", allow, ""},
	{">= 2.0.0", "2.0.0-beta", allow, ""},
	{"<= 2.0.0", "2.0.0-beta", allow, ""},
	{"<= 1.9.9", "2.0.0-beta", reject, "prerelease: its GA release is above a <= comparator's version"},
	{"< 2.0.1", "2.0.0-beta", allow, ""},
	{"< 2", "1.9.9-beta", allow, ""},
	{"~> 2.0", "2.0.0-beta", allow, ""},
	{"~> 2", "2.0.0-beta", allow, ""},
	{"~> 2.0.0", "2.1.0-beta", reject, "prerelease: its GA release is not below a ~> comparator's upper bound"},
	{"~> 2.0.1", "2.0.0-rc", reject, "prerelease: its GA release is below a ~> comparator's version"},
	{"~> 18446744073709551615", "18446744073709551615.9.9-rc", allow, ""},
	// "=" and "!=" judge the version itself by precedence.
	{"= 2.0.0", "2.0.0-beta", reject, "not equal by precedence to an = comparator's version"},
	{"2.0", "2.0.0-beta", reject, ""},
	{"!= 2.0.0", "2.0.0-beta", allow, reasonGABoundExact},
	{"!= 2.0.0-beta", "2.0.0-beta", reject, "equal by precedence to a != comparator's version"},
	{"!= 2.0.0-beta", "2.0.0-rc", allow, ""},
	{"= 2.0.0-beta, != 2.0.0-beta", "2.0.0-beta", reject, ""},
	{"= 2.0.0-beta, < 2.0.0", "2.0.0-beta", reject, "prerelease: its GA release is not below a < comparator's version"},
	{"= 2.0.0-beta, <= 2.0.0", "2.0.0-beta", allow, ""},
	// Every comparator that names a prerelease judges by precedence.
	{"< 2.0.0-rc", "2.0.0-beta", allow, ""},
	{"< 2.0.0-beta", "2.0.0-rc", reject, "not below a < comparator's version"},
	{"<= 1.0.0-rc", "2.0.0-beta", reject, "above a <= comparator's version"},
	{"> 1.0.0-rc", "1.0.0-beta", reject, "not above a > comparator's version"},
	{"~> 2.0.0-beta", "2.0.0-alpha", reject, "below a ~> comparator's version"},
	{"~> 2.0.0-beta", "2.0.0-rc", allow, reasonGABoundUpper},
	{"~> 2.0.0-beta", "2.1.0", reject, "not below a ~> comparator's upper bound"},
	// docs/policies.md, ga-bound: a "~>" that names a prerelease judges the
	// version by precedence at its lower bound, and the GA release at its
	// upper bound, which names none.
	{"~> 3.2.0-beta.1", "3.2.0-beta.2", allow, reasonGABoundUpper},
	{"~> 3.2.0-beta.1", "3.3.0-alpha.1", reject, "prerelease: its GA release is not below a ~> comparator's upper bound"},
	{"~> 3.2.0-beta.1", "3.2.0", allow, reasonReleaseHolds},
	{"~> 3.2.0-beta.1", "3.2.0-alpha", reject, "below a ~> comparator's version"},
	{"~> 3.2.0-beta.1", "3.2.5-rc.1", allow, ""},
	{"~> 3.2.0-beta.1", "3.3.0", reject, "not below a ~> comparator's upper bound"},
	{"~> 1.2.0-rc.1", "1.3.0-rc.1", reject, "prerelease: its GA release is not below a ~> comparator's upper bound"},
	{"~> 1.2.0-rc.1", "1.2.9-beta", allow, ""},
	{"~> 2.0.0-beta", "2.1.0-rc", reject, "prerelease: its GA release is not below a ~> comparator's upper bound"},
	{"~> 1.2-beta", "1.9.0-rc.1", allow, ""},
	{"~> 1.2-beta", "2.0.0-beta.1", reject, "prerelease: its GA release is not below a ~> comparator's upper bound"},
	{"~> 1-rc", "1.0.0-rc.1", allow, ""},
	{"~> 1-rc", "2.0.0-alpha", reject, ""},
	{">= 1.0.0, ~> 3.2.0-beta.1", "3.2.1-beta", allow, reasonGABoundGA},
	{"~> 3.2.0-beta.1, != 3.2.0-beta.2", "3.2.0-beta.2", reject, "equal by precedence to a != comparator's version"},
	{"~> 1.18446744073709551615.0-beta", "1.18446744073709551615.9-rc", allow, reasonGABoundExact},
	{">= 1.0.0-beta, < 2.0.0", "1.5.0-rc", allow, reasonGABoundGA},
	{">= 2.0.0-beta, < 2.0.0", "2.0.0-rc", reject, ""},
	{">= 2.0.0-beta, <= 2.0.0", "2.0.0-rc", allow, ""},
	{">= 2.0.0-beta, <= 2.0.0", "2.0.0-alpha", reject, "below a >= comparator's version"},
	// Releases are judged by precedence, B.
	{"~> 2.0.0-beta", "2.0.5", allow, reasonReleaseHolds},
	{"< 2.0.0", "2.0.0", reject, "not below a < comparator's version"},
	{"< 2.0.0-rc", "2.0.0", reject, ""},
	{"!= 1.0.0+abc", "1.0.0+def", reject, ""},
	// Partial versions, build metadata and the "v" prefix.
	{"< 2", "2.0.0-beta", reject, ""},
	{">= 2.0.0+abc", "v2.0.0-rc+def", allow, ""},
	{"<= v1.9", "v1.9.0-rc", allow, ""},
	// The empty constraint has no comparator to refuse anything.
	{"", "1.0.0", allow, reasonEmptyRelease},
	{"", "1.0.0-beta", allow, reasonGABoundEmpty},
	{"   ", "0.0.0-0", allow, ""},
}

func TestGABound(t *testing.T) { runTable(t, GABound{}, gaBoundCases) }
