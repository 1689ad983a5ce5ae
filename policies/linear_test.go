package policies

import "testing"

var linearCases = []verdictCase{
	// docs/policies.md, linear.
	{">= 1.0.0, < 2.0.0", "2.0.0-beta.1", allow, reasonLinearAllow},
	{">= 1.1.0-beta.2", "1.1.0-beta.1", reject, "below a >= comparator's version"},
	{"~> 1.2", "2.0.0-beta.1", allow, reasonLinearAllow},
	// docs/policies.md, the other policies' examples: those its verdict table
	// does not state (TestDocVerdictTable checks the ones it does), or with
	// the exact reason.
	{">= 1.0.0, = 2.0.0-beta", "2.0.0-beta", allow, ""},
	{">= 1.1.0-beta.2", "1.1.0-rc.1", allow, ""},
	{"~> 1.0.0-beta", "1.0.1", allow, reasonReleaseHolds},
	{"< 2.0.0", "2.0.0-beta.1", allow, ""},
	{">= 1.0.0, < 2.0.0", "2.0.0-beta", allow, ""},
	{"~> 2.0.0", "2.0.0-beta", reject, "below a ~> comparator's version"},
	{">= 1.0.0-0, < 2.0.0", "2.0.0-beta.1", allow, ""},
	{">= 1.12.0", "1.12.0-beta1", reject, ""},
	{">= 1.12.0-beta1", "1.12.0", allow, ""},
	{">= 1.0.0", "1.0.0", allow, ""},
	{">= 1.0.0", "1.1.0-beta.1", allow, ""},
	{">= 1.0.0", "0.9.0", reject, ""},
	{">= 3.0.0", "2.1.0-rc.1", reject, ""},
	{">= 3.0.0", "1.9.0", reject, ""},
	// Partial versions: missing parts are zero.
	{">= 1.2", "1.2.0-rc.1", reject, ""},
	{">= 1.2", "1.2.1-rc.1", allow, ""},
	{"< 2", "2.0.0-beta", allow, ""},
	{"< 2", "2.0.0", reject, "not below a < comparator's version"},
	{"<= 2", "2.0.0-beta", allow, ""},
	{"<= 2", "2.0.1-beta", reject, "above a <= comparator's version"},
	{"> 1", "1.0.1-0", allow, ""},
	{"> 1", "1.0.0-rc", reject, "not above a > comparator's version"},
	{"1.2", "1.2.0-beta", reject, "not equal by precedence to an = comparator's version"},
	{"= 1-rc.1", "1.0.0-rc.1", allow, ""},
	// "~>" of each precision: the upper bound lets the next release's
	// prereleases in.
	{"~> 1", "2.0.0-0", allow, ""},
	{"~> 1", "1.5.0-beta", allow, ""},
	{"~> 1", "1.0.0-rc", reject, "below a ~> comparator's version"},
	{"~> 1", "2.0.0", reject, "not below a ~> comparator's upper bound"},
	{"~> 1.2", "1.2.0-rc", reject, ""},
	{"~> 1.2", "1.2.5-beta", allow, ""},
	{"~> 1.2.3", "1.3.0-beta", allow, ""},
	{"~> 1.2.3", "1.3.0", reject, ""},
	{"~> 1.2.3", "1.2.3-rc", reject, ""},
	{"~> 1.2.3-beta", "1.2.3-rc.1", allow, ""},
	{"~> 1.2.3-beta", "1.2.3-alpha", reject, ""},
	{"~> 1.2.3-beta", "1.3.0-beta", allow, ""},
	{"~> 1.2.3-beta", "1.2.4", allow, ""},
	{"~> 0", "0.0.0-alpha", reject, ""},
	{"~> 0", "1.0.0-alpha", allow, ""},
	{"~> 18446744073709551615", "18446744073709551616.0.0-0", invalid, ""},
	{"~> 18446744073709551615", "18446744073709551615.9.9-rc", allow, ""},
	// "=" and "!=" by precedence.
	{"!= 1.0.0", "1.0.0-beta", allow, ""},
	{"!= 1.0.0-beta", "1.0.0-beta", reject, "equal by precedence to a != comparator's version"},
	{"!= 1.0.0-beta", "1.0.0-rc", allow, ""},
	{"= 1.0.0", "1.0.0-beta", reject, ""},
	{"= 1.0.0-beta", "1.0.0-beta.1", reject, ""},
	{"= 2.0.0-beta, != 2.0.0-beta", "2.0.0-beta", reject, ""},
	// Several comparators.
	{">= 1.0.0-beta, < 2.0.0-beta", "2.0.0-alpha", allow, ""},
	{">= 1.0.0-beta, < 2.0.0-beta", "2.0.0-beta", reject, ""},
	{">= 1.0.0-alpha, <= 1.0.0-rc.5", "1.0.0-rc.10", reject, ""},
	{"> 1.0.0, < 1.0.1", "1.0.1-beta", allow, ""},
	{"< 0.0.1", "0.0.1-0", allow, ""},
	{"< 0.0.0-1", "0.0.0-0", allow, ""},
	// Build metadata never counts; the "v" prefix is only spelling.
	{"= 1.0.0-beta+abc", "1.0.0-beta+def", allow, ""},
	{"< 1.0.0+abc", "1.0.0-rc+def", allow, ""},
	{"~> v5.3", "v6.0.0-rc.1", allow, ""},
	// The empty constraint admits every version.
	{"", "1.0.0", allow, reasonEmptyRelease},
	{"", "1.0.0-beta", allow, reasonLinearEmpty},
	{"   ", "0.0.0-0", allow, ""},
}

func TestLinear(t *testing.T) { runTable(t, Linear{}, linearCases) }
