package impact_test

import (
	"strings"
	"testing"
	"time"

	"github.com/prerel/prerel/impact"
)

// TestClassList reads class names, "changed" for every change, and
// refuses a name given twice or unknown.
func TestClassList(t *testing.T) {
	var l impact.ClassList
	if err := l.Set("unchanged, refused"); err != nil {
		t.Fatal(err)
	}
	if err := l.Set("changed"); err != nil {
		t.Fatal(err)
	}
	if len(l.Classes) != len(impact.Classes) || l.Classes[0] != impact.Unchanged || l.Classes[1] != impact.Refused {
		t.Errorf("classes %q, want every class, unchanged and refused first", l.Classes)
	}
	if got := l.String(); got != "unchanged,refused,changed" {
		t.Errorf("String() = %q", got)
	}
	for _, s := range []string{"refused", "nope"} {
		err := l.Set(s)
		if err == nil {
			t.Errorf("%q: no error", s)
		} else if s == "nope" && !strings.Contains(err.Error(), "or changed for every class but unchanged") {
			t.Errorf("%q: %v", s, err)
		}
	}
}

// TestOutcome counts the calls of the classes named, and none when none
// falls in them.
func TestOutcome(t *testing.T) {
	r := runSmall(t, "linear", false)
	text, unlisted := r.Outcome([]impact.Class{impact.PrereleaseLaterMinorOrMajor, impact.Unchanged, impact.Refused}, false)
	if want := "--fail-on: 6 calls fall in the classes named: prerelease-later-minor-or-major 3, unchanged 3"; text != want || unlisted {
		t.Errorf("got %q, %v; want %q", text, unlisted, want)
	}
	if text, unlisted := r.Outcome([]impact.Class{impact.Refused}, false); text != "" || unlisted {
		t.Errorf("no call refused: got %q, %v", text, unlisted)
	}
}

// TestDated tells a domain with publication dates from one without.
func TestDated(t *testing.T) {
	d := smallDomain()
	if d.Dated() {
		t.Error("the small domain has no dates")
	}
	d.Histories["vpc.txt"].Published = map[string]time.Time{"v1.0.0": time.Unix(0, 0)}
	if !d.Dated() {
		t.Error("a history with dates: not dated")
	}
}
