package policies

import "testing"

var anyPreCases = []verdictCase{
	// docs/policies.md, any-pre.
	{">= 1.1.0-beta.2", "2.0.0-beta.1", allow, reasonAnyPreAllow},
	{">= 1.0.0, != 1.5.0-rc.1", "1.5.0-rc.2", reject, reasonAnyPreNotEqual},
	{">= 1.0.0-0, < 2.0.0", "2.0.0-beta.1", allow, reasonAnyPreAllow},
	// docs/policies.md, the other policies' examples: those its verdict table
	// does not state (TestDocVerdictTable checks the ones it does), or with
	// the exact reason.
	{">= 1.0.0, = 2.0.0-beta", "2.0.0-beta", allow, ""},
	{">= 1.1.0-beta.2", "1.1.0-rc.1", allow, ""},
	{"~> 1.0.0-beta", "1.0.1", allow, reasonReleaseHolds},
	{">= 1.0.0, < 2.0.0", "2.0.0-beta.1", reject, reasonAnyPreNone},
	{">= 1.1.0-beta.2", "1.1.0-beta.1", reject, "below a >= comparator's version"},
	{"~> 1.2", "2.0.0-beta.1", reject, reasonAnyPreNone},
	{"< 2.0.0", "2.0.0-beta.1", reject, ""},
	{">= 1.0.0, < 2.0.0", "2.0.0-beta", reject, ""},
	{"~> 2.0.0", "2.0.0-beta", reject, "below a ~> comparator's version"},
	{">= 1.12.0", "1.12.0-beta1", reject, ""},
	{">= 1.12.0-beta1", "1.12.0", allow, ""},
	{">= 1.0.0", "1.0.0", allow, ""},
	{">= 1.0.0", "1.1.0-beta.1", reject, reasonAnyPreNone},
	{">= 1.0.0", "0.9.0", reject, ""},
	{">= 3.0.0", "2.1.0-rc.1", reject, ""},
	// A prerelease of any base opts in, under every operator but "!=".
	{"> 1.0.0-rc, < 3.0.0", "2.5.0-beta", allow, ""},
	{"<= 3.0.0-rc", "1.0.0-beta", allow, ""},
	{"< 3.0.0-rc, >= 1.0.0", "2.0.0-alpha", allow, ""},
	{"~> 1.2.3-beta", "1.3.0-beta", allow, ""},
	{"~> 1.2.3-beta", "1.2.3-alpha", reject, "below a ~> comparator's version"},
	{"~> 1.2-beta", "1.5.0-beta", allow, ""},
	{"~> 1.2-beta", "2.0.0-beta", allow, ""},
	{"= 1.0.0-beta, >= 0.1.0", "1.0.0-rc", reject, "not equal by precedence to an = comparator's version"},
	{"1.0.0-beta", "1.0.0-beta", allow, ""},
	{">= 0.0.0-0", "5.0.0-alpha", allow, ""},
	// "!=" never opts in.
	{"!= 1.0.0-beta", "1.0.0-rc", reject, reasonAnyPreNotEqual},
	{"!= 1.0.0-beta", "1.0.0-beta", reject, "equal by precedence to a != comparator's version"},
	{"!= 1.0.0-beta", "1.0.0", allow, ""},
	{"!= 1.0.0", "1.0.0-beta", reject, reasonAnyPreNone},
	{"!= 2.0.0-rc, >= 1.0.0-beta", "1.5.0-rc", allow, ""},
	{"!= 2.0.0-rc, >= 1.0.0-beta", "2.0.0-rc", reject, "equal by precedence to a != comparator's version"},
	// Partial versions, build metadata and the "v" prefix.
	{">= 1.2-beta", "1.3.0-rc", allow, ""},
	{"< 2", "2.0.0-beta", reject, ""},
	{">= 1.0.0-beta+abc", "1.0.0-beta+def", allow, ""},
	{">= v1.0.0-rc", "v1.9.0-alpha+b", allow, ""},
	// The empty constraint names no prerelease.
	{"", "1.0.0", allow, reasonEmptyRelease},
	{"", "1.0.0-beta", reject, reasonAnyPreEmpty},
}

func TestAnyPre(t *testing.T) { runTable(t, AnyPre{}, anyPreCases) }
