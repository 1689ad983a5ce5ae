package policies

import (
	"errors"
	"strings"
	"testing"

	"github.com/prerel/prerel/engine"
)

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
