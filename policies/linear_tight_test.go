package policies

import "testing"

var linearTightCases = []verdictCase{
	// docs/policies.md, linear-tight.
	{"~> 1.2", "2.0.0-beta.1", reject, reasonTightExclude},
	{"~> 1.2", "1.9.0-rc.1", allow, reasonTightAllow},
	{"< 2.0.0", "2.0.0-beta.1", allow, reasonTightAllow},
	// docs/policies.md, the other policies' examples: those its verdict table
	// does not state (TestDocVerdictTable checks the ones it does), or with
	// the exact reason.
	{">= 1.0.0, = 2.0.0-beta", "2.0.0-beta", allow, ""},
	{">= 1.1.0-beta.2", "1.1.0-rc.1", allow, ""},
	{"~> 1.0.0-beta", "1.0.1", allow, reasonReleaseHolds},
	{">= 1.1.0-beta.2", "1.1.0-beta.1", reject, "below a >= comparator's version"},
	{">= 1.0.0, < 2.0.0", "2.0.0-beta", allow, ""},
	{"~> 2.0.0", "2.0.0-beta", reject, "below a ~> comparator's version"},
	{">= 1.0.0-0, < 2.0.0", "2.0.0-beta.1", allow, ""},
	{">= 1.12.0", "1.12.0-beta1", reject, ""},
	{">= 1.12.0-beta1", "1.12.0", allow, ""},
	{">= 1.0.0", "1.0.0", allow, ""},
	{">= 1.0.0", "1.1.0-beta.1", allow, ""},
	{">= 1.0.0", "0.9.0", reject, ""},
	{">= 3.0.0", "2.1.0-rc.1", reject, ""},
	// "~>" of each precision stops before the next release's
	// prereleases: "~> 1.2.3" is ">= 1.2.3, < 1.3.0-0".
	{"~> 1", "2.0.0-0", reject, reasonTightExclude},
	{"~> 1", "1.9.9-rc", allow, ""},
	{"~> 1", "1.0.0-rc", reject, "below a ~> comparator's version"},
	{"~> 1", "2.0.0", reject, "not below a ~> comparator's upper bound"},
	{"~> 1.2", "1.2.0-rc", reject, "below a ~> comparator's version"},
	{"~> 1.2", "1.2.1-rc", allow, ""},
	{"~> 1.2", "2.0.0", reject, ""},
	{"~> 1.2", "1.9.9", allow, ""},
	{"~> 1.2.3", "1.3.0-beta", reject, reasonTightExclude},
	{"~> 1.2.3", "1.2.9-beta", allow, ""},
	{"~> 1.2.3", "1.3.0", reject, ""},
	{"~> 1.2.3", "1.2.3-rc", reject, ""},
	{"~> 1.2.3", "2.0.0-beta", reject, "not below a ~> comparator's upper bound"},
	{"~> 0", "1.0.0-alpha", reject, reasonTightExclude},
	{"~> 0.0", "0.9.0-alpha", allow, ""},
	// The lower bound keeps its prerelease.
	{"~> 1.2.3-beta", "1.2.3-rc.1", allow, ""},
	{"~> 1.2.3-beta", "1.2.3-alpha", reject, ""},
	{"~> 1.2.3-beta", "1.3.0-beta", reject, reasonTightExclude},
	{"~> 1.2.3-beta", "1.2.4-beta", allow, ""},
	{"~> 1.2-beta", "2.0.0-beta", reject, reasonTightExclude},
	{"~> 1.2-beta", "1.2.0-rc", allow, ""},
	// No upper bound when the next number would overflow.
	{"~> 18446744073709551615", "18446744073709551615.9.9-rc", allow, ""},
	{"~> 1.18446744073709551615.0", "1.18446744073709551615.1-rc", allow, ""},
	// An explicit "<" or "<=" stays as written, next to a "~>" too.
	{"<= 2.0.0", "2.0.0-beta", allow, ""},
	{"< 2.0.0-0", "2.0.0-0", reject, "not below a < comparator's version"},
	{"< 2", "2.0.0-beta", allow, ""},
	{"~> 1.2, < 2.0.0", "2.0.0-beta", reject, reasonTightExclude},
	{"~> 1.2, < 1.5.0", "1.5.0-beta", allow, ""},
	{">= 1.0.0, < 2.0.0, ~> 1.2", "2.0.0-rc.1", reject, reasonTightExclude},
	{"~> 1.2, ~> 1.9.0", "2.0.0-rc.1", reject, "not below a ~> comparator's upper bound"},
	// "=" and "!=" by precedence.
	{"!= 1.0.0", "1.0.0-beta", allow, ""},
	{"= 2.0.0-beta, ~> 1.0", "2.0.0-beta", reject, reasonTightExclude},
	{"= 1.5.0-beta, ~> 1.0", "1.5.0-beta", allow, ""},
	// Build metadata and the "v" prefix.
	{"~> v1.2+build", "v2.0.0-rc+b", reject, reasonTightExclude},
	{"~> v1.2", "v1.3.0-rc+b", allow, ""},
	// The empty constraint admits every version.
	{"", "1.0.0", allow, reasonEmptyRelease},
	{"", "1.0.0-beta", allow, reasonTightEmpty},
}

func TestLinearTight(t *testing.T) { runTable(t, LinearTight{}, linearTightCases) }
