package policies

import (
	"errors"
	"strings"
	"testing"

	"github.com/prerel/prerel/engine"
)

var coreOnlyCases = []verdictCase{
	// docs/policies.md, core-only.
	{">= 1.12.0", "1.12.0-beta1", allow, reasonCoreAllow},
	{"< 2.0.0", "2.0.0-beta.1", reject, "prerelease: its version core is not below a < comparator's version"},
	{">= 1.12.0-beta1", "1.12.0", invalid, `prerelease version constraints are not supported: ">= 1.12.0-beta1" (comparator 1 of 1) names the prerelease 1.12.0-beta1; a prerelease version matches by its version core only`},
	// docs/policies.md, the other policies' examples: those its verdict table
	// does not state (TestDocVerdictTable checks the ones it does), or with
	// the exact reason.
	{">= 1.0.0, = 2.0.0-beta", "2.0.0-beta", invalid, `prerelease version constraints are not supported: "= 2.0.0-beta" (comparator 2 of 2) names the prerelease 2.0.0-beta; a prerelease version matches by its version core only`},
	{">= 1.1.0-beta.2", "1.1.0-rc.1", invalid, ""},
	{">= 1.1.0-beta.2", "1.1.0-beta.1", invalid, ""},
	{"~> 1.2", "2.0.0-beta.1", reject, "prerelease: its version core is not below a ~> comparator's upper bound"},
	{">= 1.0.0, < 2.0.0", "2.0.0-beta", reject, ""},
	{">= 1.0.0-0, < 2.0.0", "2.0.0-beta.1", invalid, ""},
	{">= 1.0.0", "1.0.0", allow, reasonReleaseHolds},
	{">= 1.0.0", "1.1.0-beta.1", allow, ""},
	{">= 1.0.0", "0.9.0", reject, "below a >= comparator's version"},
	{">= 3.0.0", "2.1.0-rc.1", reject, "prerelease: its version core is below a >= comparator's version"},
	// Every operator judges the version core, "=" and "!=" included.
	{"2.0", "2.0.0-beta", allow, ""},
	{"= 2.0.0", "2.0.1-beta", reject, "prerelease: its version core is not equal to an = comparator's version"},
	{"!= 2.0.0", "2.0.0-beta", reject, "prerelease: its version core is equal to a != comparator's version"},
	{"!= 2.0.0", "2.0.1-beta", allow, ""},
	{"> 2.0.0", "2.0.0-beta", reject, "prerelease: its version core is not above a > comparator's version"},
	{"> 1.9.9", "2.0.0-beta", allow, ""},
	{"<= 2.0.0", "2.0.0-beta", allow, ""},
	{"<= 1.9.9", "2.0.0-beta", reject, "prerelease: its version core is above a <= comparator's version"},
	{"~> 2.0.1", "2.0.0-rc", reject, "prerelease: its version core is below a ~> comparator's version"},
	{"~> 2.0.1", "2.0.1-rc", allow, ""},
	{"~> 1", "2.0.0-rc", reject, ""},
	{"~> 18446744073709551615", "18446744073709551615.9.9-rc", allow, ""},
	// Releases are judged by precedence, B.
	{"< 2.0.0", "2.0.0", reject, "not below a < comparator's version"},
	{"!= 2.0.0", "2.0.0+build", reject, ""},
	{"~> 1.2", "1.9.9", allow, ""},
	// Partial versions, build metadata and the "v" prefix.
	{"< 2", "2.0.0-beta", reject, ""},
	{">= 1.12+abc", "v1.12.0-beta1+def", allow, ""},
	{"~> v1.12.0", "v1.12.3-rc.1", allow, ""},
	// A prerelease anywhere in the constraint is refused, before the
	// version is read.
	{"!= 1.0.0-beta", "1.0.0", invalid, ""},
	{"~> 1.2-beta", "1.5.0", invalid, ""},
	{">= 1.0.0-beta", "not-a-version", invalid, ""},
	{"v1.0.0-rc.1+build", "1.0.0", invalid, `prerelease version constraints are not supported: "v1.0.0-rc.1+build" (comparator 1 of 1) names the prerelease 1.0.0-rc.1; a prerelease version matches by its version core only`},
	// A constraint without a prerelease judges unreadable versions Invalid.
	{">= 1.0.0", "1.0.0-", invalid, ""},
	// The empty constraint admits every version.
	{"", "1.0.0", allow, reasonEmptyRelease},
	{"", "1.0.0-beta", allow, reasonCoreEmpty},
}

func TestCoreOnly(t *testing.T) { runTable(t, CoreOnly{}, coreOnlyCases) }

func TestCoreOnlyError(t *testing.T) {
	_, err := CoreOnly{}.Compile(">= 1.0.0, < 2.0.0-rc, != 1.5.0-beta")
	if !errors.Is(err, ErrPrereleaseConstraint) {
		t.Fatalf("Compile error %v, want ErrPrereleaseConstraint", err)
	}
	if !strings.Contains(err.Error(), `"< 2.0.0-rc" (comparator 2 of 3)`) {
		t.Errorf("Compile error %q does not name the first comparator with a prerelease", err)
	}
	if _, err := engine.ReadVersions(CoreOnly{}, []string{"1.0.0"}).Compile("= 1.0.0-rc"); !errors.Is(err, ErrPrereleaseConstraint) {
		t.Errorf("table Compile error %v, want ErrPrereleaseConstraint", err)
	}
	// Judge on a parsed constraint that names a prerelease is Invalid too.
	c, v := engine.MustParseConstraint(">= 1.0.0-rc"), engine.MustParseVersion("1.0.0")
	r := CoreOnly{}.Judge(&c, &v)
	if r.Verdict != engine.Invalid || r.Reason != ErrPrereleaseConstraint.Error() {
		t.Errorf("Judge = %+v, want Invalid", r)
	}
	if _, err := engine.Select(CoreOnly{}, ">= 1.0.0-rc", []string{"1.0.0"}); !errors.Is(err, ErrPrereleaseConstraint) {
		t.Errorf("Select error %v, want ErrPrereleaseConstraint", err)
	}
}
