package compare_test

import (
	"strings"
	"testing"

	"github.com/prerel/prerel/compare"
)

// TestDriftTold tells the first changes of a drift, counts the rest and
// says how to rewrite the baseline; a match tells nothing.
func TestDriftTold(t *testing.T) {
	if got := (&compare.Drift{Matches: true}).Told("base.json", 2); got != "" {
		t.Errorf("a match: %q", got)
	}
	d := &compare.Drift{
		Policies:    []compare.PolicyDrift{{Policy: "strict", Changed: 3}},
		Changes:     []compare.Change{{Text: "one"}, {Text: "two\x1b"}, {Text: "three"}},
		ChangesLeft: 4,
	}
	got := d.Told("base\n.json", 2)
	for _, want := range []string{
		"the run differs from the baseline base\\n.json in 7 ways:\n  strict: ",
		"\n  - one\n  - two\\x1b\n  ... and 5 more changes (the report lists the changed verdicts per policy)\n",
		"If the change is intended, rewrite the baseline with --write-baseline base\\n.json.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("got\n%s\nwant it to hold %q", got, want)
		}
	}
}
