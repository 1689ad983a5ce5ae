package policies

import (
	"testing"

	"github.com/prerel/prerel/engine"
)

// TestFallbackPairwiseIsLinear checks that fallback answers every table pair
// as linear does.
func TestFallbackPairwiseIsLinear(t *testing.T) {
	for _, tc := range verdictRows(t) {
		f := engine.Evaluate(Fallback{}, tc.constraint, tc.version)
		l := engine.Evaluate(Linear{}, tc.constraint, tc.version)
		if f.Verdict != l.Verdict {
			t.Errorf("%q | %q: fallback %v (%s), linear %v (%s)", tc.constraint, tc.version, f.Verdict, f.Reason, l.Verdict, l.Reason)
		}
	}
}

func TestFallbackSelect(t *testing.T) {
	tests := []struct {
		constraint string
		available  []string
		want       string // "" when nothing is selected
		unreadable []string
	}{
		// docs/policies.md, fallback.
		{">= 1.0.0", []string{"1.0.0", "1.1.0-beta.1"}, "1.0.0", nil},
		{">= 1.0.0", []string{"0.9.0", "1.1.0-beta.1"}, "1.1.0-beta.1", nil},
		{">= 3.0.0", []string{"1.9.0", "2.1.0-rc.1"}, "", nil},
		// A release in range wins over every newer prerelease.
		{"~> 1.2", []string{"1.2.0", "1.9.0-rc.1", "2.0.0-beta.1", "2.0.0"}, "1.2.0", nil},
		{"", []string{"3.0.0-rc.1", "1.0.0", "2.0.0-beta"}, "1.0.0", nil},
		// With no release in range, the newest prerelease in range.
		{"~> 1.2", []string{"1.1.0", "1.9.0-rc.1", "1.9.0-rc.2", "2.0.0-beta.1", "2.0.0"}, "2.0.0-beta.1", nil},
		{">= 2.0.0-0, < 2.0.0", []string{"1.9.0", "2.0.0-alpha", "2.0.0-rc", "2.0.0-beta", "2.0.0"}, "2.0.0-rc", nil},
		{"", []string{"1.0.0-beta", "1.0.0-alpha"}, "1.0.0-beta", nil},
		// Prereleases out of range are never selected.
		{">= 2.0.0", []string{"1.9.0", "2.0.0-rc.1"}, "", nil},
		{"= 1.0.0-rc.1", []string{"1.0.0", "1.0.0-rc.1", "1.0.0-rc.2"}, "1.0.0-rc.1", nil},
		{"!= 1.0.0, >= 1.0.0-0", []string{"1.0.0", "1.0.0-rc.1"}, "1.0.0-rc.1", nil},
		// Of equal versions the first listed wins; a "v" prefix and build
		// metadata are kept as written.
		{">= 1.0.0", []string{"v1.2.0+a", "1.2.0+b", "1.1.0"}, "v1.2.0+a", nil},
		{">= 2.0.0-0", []string{"2.0.0-rc+b", "v2.0.0-rc"}, "2.0.0-rc+b", nil},
		// Unreadable versions are reported in list order, never selected.
		{">= 1.0.0", []string{"1.0", "2.0.0-beta", "not-a-version", "1.0.0"}, "1.0.0", []string{"1.0", "not-a-version"}},
		{">= 1.0.0", []string{"9.9", "2.0.0-beta"}, "2.0.0-beta", []string{"9.9"}},
		{">= 1.0.0", nil, "", nil},
	}
	for _, tt := range tests {
		sel, err := engine.Select(Fallback{}, tt.constraint, tt.available)
		if err != nil {
			t.Errorf("Select(%q, %q): %v", tt.constraint, tt.available, err)
			continue
		}
		if sel.Version != tt.want || sel.Found != (tt.want != "") {
			t.Errorf("Select(%q, %q) = %q (found %v), want %q", tt.constraint, tt.available, sel.Version, sel.Found, tt.want)
		}
		var unreadable []string
		for _, u := range sel.Unreadable {
			if u.Reason == "" {
				t.Errorf("Select(%q, %q): unreadable %q has no reason", tt.constraint, tt.available, u.Version)
			}
			unreadable = append(unreadable, u.Version)
		}
		if len(unreadable) != len(tt.unreadable) {
			t.Errorf("Select(%q, %q): unreadable %q, want %q", tt.constraint, tt.available, unreadable, tt.unreadable)
			continue
		}
		for i := range unreadable {
			if unreadable[i] != tt.unreadable[i] {
				t.Errorf("Select(%q, %q): unreadable %q, want %q", tt.constraint, tt.available, unreadable, tt.unreadable)
				break
			}
		}
	}
	if _, err := engine.Select(Fallback{}, ">= ", []string{"1.0.0"}); err == nil {
		t.Error("Select refused no unparsable constraint")
	}
}

// TestFallbackSelectsReleaseElseLinear checks, over the versions of the
// tables grouped by constraint, that fallback selects the newest release in
// range when there is one, and otherwise what linear selects.
func TestFallbackSelectsReleaseElseLinear(t *testing.T) {
	byConstraint := map[string][]string{}
	for _, tc := range verdictRows(t) {
		byConstraint[tc.constraint] = append(byConstraint[tc.constraint], tc.version)
	}
	for c, vs := range byConstraint {
		cons, err := engine.ParseConstraint(c)
		if err != nil {
			continue
		}
		f, err := engine.Select(Fallback{}, c, vs)
		if err != nil {
			t.Fatalf("%q: %v", c, err)
		}
		want, _ := engine.Select(Linear{}, c, vs)
		if r := newestRelease(cons, vs); r != "" {
			want.Version = r
		}
		if f.Version != want.Version || f.Found != want.Found {
			t.Errorf("%q over %q: fallback selects %q, want %q", c, vs, f.Version, want.Version)
		}
	}
}

// newestRelease is the newest release of vs in range of c, the first of
// equal ones, or "".
func newestRelease(c engine.Constraint, vs []string) string {
	var best engine.Version
	text := ""
	for _, v := range vs {
		p, err := engine.ParseVersion(v)
		if err != nil || p.IsPrerelease() || !c.Holds(p) {
			continue
		}
		if text == "" || best.Less(p) {
			best, text = p, v
		}
	}
	return text
}
