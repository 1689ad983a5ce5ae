package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// baseOnly admits by base satisfaction alone: the simplest native rule.
type baseOnly struct{ name string }

func (p baseOnly) Name() string { return p.name }
func (baseOnly) Rule() string   { return "B(c, v) alone" }
func (p baseOnly) Compile(c string) (Matcher, error) {
	return CompileNative(p, c)
}
func (baseOnly) Judge(c *Constraint, v *Version) Result {
	if c.Holds(*v) {
		return Allowed("holds")
	}
	return Rejected("does not hold")
}

func TestVerdictText(t *testing.T) {
	for _, v := range []Verdict{Allow, Reject, Invalid} {
		got, err := ParseVerdict(v.String())
		if err != nil || got != v {
			t.Errorf("ParseVerdict(%q) = %v, %v", v.String(), got, err)
		}
		text, _ := v.MarshalText()
		var back Verdict
		if err := back.UnmarshalText(text); err != nil || back != v {
			t.Errorf("text round trip of %v: %v, %v", v, back, err)
		}
	}
	if _, err := ParseVerdict("maybe"); err == nil {
		t.Error("ParseVerdict(maybe) succeeded")
	}
	if Verdict(7).String() != "verdict(7)" {
		t.Errorf("Verdict(7) = %s", Verdict(7))
	}
}

func TestEvaluate(t *testing.T) {
	p := baseOnly{"base"}
	tests := []struct {
		c, v   string
		want   Verdict
		reason string
	}{
		{">= 1.0.0", "1.2.0", Allow, "holds"},
		{">= 1.0.0", "0.2.0", Reject, "does not hold"},
		{">= x", "1.0.0", Invalid, `constraint ">= x": column 4`},
		{">= 1.0.0", "1.0", Invalid, `version "1.0": column 4`},
	}
	for _, tt := range tests {
		r := Evaluate(p, tt.c, tt.v)
		if r.Verdict != tt.want || !strings.Contains(r.Reason, tt.reason) {
			t.Errorf("Evaluate(%q, %q) = %v %q, want %v %q", tt.c, tt.v, r.Verdict, r.Reason, tt.want, tt.reason)
		}
	}
}

func TestSelect(t *testing.T) {
	p := baseOnly{"base"}
	available := []string{"1.0.0", "v1.2.0", "1.2.0+other", "2.0.0-beta.1", "garbage", "1.1.0"}
	tests := []struct {
		c     string
		want  string
		found bool
	}{
		{">= 1.0.0", "2.0.0-beta.1", true},
		{"< 2.0.0-0", "v1.2.0", true}, // the first of two equal versions is kept
		{"~> 1.1.0", "1.1.0", true},
		{">= 3.0.0", "", false},
	}
	for _, tt := range tests {
		sel, err := Select(p, tt.c, available)
		if err != nil {
			t.Fatal(err)
		}
		if sel.Found != tt.found || sel.Version != tt.want {
			t.Errorf("Select(%q) = %q %v, want %q %v", tt.c, sel.Version, sel.Found, tt.want, tt.found)
		}
		if len(sel.Unreadable) != 1 || sel.Unreadable[0].Version != "garbage" || !strings.Contains(sel.Unreadable[0].Reason, "column 1") {
			t.Errorf("Unreadable = %+v", sel.Unreadable)
		}
	}
	if _, err := Select(p, "=>1", available); err == nil {
		t.Error("Select with a bad constraint succeeded")
	}
}

// listPolicy admits only versions it lists, and cannot order itself.
type listPolicy struct{ allow map[string]bool }

func (listPolicy) Name() string                      { return "list" }
func (listPolicy) Rule() string                      { return "the listed versions" }
func (p listPolicy) Compile(string) (Matcher, error) { return p, nil }
func (p listPolicy) Match(v string) Result {
	if p.allow[v] {
		return Allowed("listed")
	}
	return Rejected("not listed")
}

func TestSelectNewestReportsUnorderable(t *testing.T) {
	sel := SelectNewest(listPolicy{map[string]bool{"1.0": true, "0.9.0": true}}, []string{"1.0", "0.9.0", "2.0.0"})
	if sel.Version != "0.9.0" || len(sel.Unreadable) != 1 || !strings.Contains(sel.Unreadable[0].Reason, "cannot be ordered") {
		t.Errorf("SelectNewest = %+v", sel)
	}
}

type selfSelecting struct{ baseOnly }

func (selfSelecting) Select(string, []string) (Selection, error) {
	return Selection{}, errors.New("decided by the policy")
}

func TestSelectDefersToSelector(t *testing.T) {
	if _, err := Select(selfSelecting{baseOnly{"self"}}, "", nil); err == nil || err.Error() != "decided by the policy" {
		t.Errorf("Select did not defer to Selector: %v", err)
	}
}

func TestRegistry(t *testing.T) {
	r := NewRegistry()
	for _, name := range []string{"b-2", "a"} {
		if err := r.Register(baseOnly{name}); err != nil {
			t.Fatal(err)
		}
	}
	bad := []struct {
		p    Policy
		want string
	}{
		{baseOnly{"a"}, `"a" is already registered`},
		{baseOnly{""}, "empty policy name"},
		{baseOnly{"Upper"}, "only lower case letters"},
		{baseOnly{"has space"}, "only lower case letters"},
		{nil, "nil policy"},
	}
	for _, tt := range bad {
		if err := r.Register(tt.p); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Register(%v) = %v, want %q", tt.p, err, tt.want)
		}
	}
	if got := strings.Join(r.Names(), ","); got != "b-2,a" {
		t.Errorf("Names = %s, want registration order", got)
	}
	if p, ok := r.Lookup("a"); !ok || p.Name() != "a" {
		t.Error("Lookup(a) failed")
	}
	if _, ok := r.Lookup("zzz"); ok {
		t.Error("Lookup(zzz) succeeded")
	}
	ps, err := r.Resolve([]string{"a", "b-2"})
	if err != nil || len(ps) != 2 || ps[0].Name() != "a" {
		t.Errorf("Resolve = %v, %v", ps, err)
	}
	if _, err := r.Resolve([]string{"a", "nope"}); err == nil || !strings.Contains(err.Error(), `unknown policy "nope" (known: a, b-2)`) {
		t.Errorf("Resolve(nope) = %v", err)
	}
	if all, _ := r.Resolve(nil); len(all) != 2 {
		t.Errorf("Resolve(nil) = %d policies", len(all))
	}
}

func TestSelectReleasesFirst(t *testing.T) {
	available := []string{"1.0.0", "2.0.0-beta.1", "1.1.0-rc.1", "1.0.5", "garbage"}
	tests := []struct {
		c, want string
		found   bool
	}{
		{">= 1.0.0", "1.0.5", true},          // a release wins over a newer prerelease
		{">= 2.0.0-0", "2.0.0-beta.1", true}, // no release: the newest prerelease
		{">= 1.1.0-0, < 1.2.0", "1.1.0-rc.1", true},
		{">= 3.0.0", "", false},
	}
	for _, tt := range tests {
		m, err := CompileNative(baseOnly{"base"}, tt.c)
		if err != nil {
			t.Fatal(err)
		}
		sel := SelectReleasesFirst(m, available)
		if sel.Found != tt.found || sel.Version != tt.want {
			t.Errorf("SelectReleasesFirst(%q) = %q (found %v), want %q (found %v)", tt.c, sel.Version, sel.Found, tt.want, tt.found)
		}
		if len(sel.Unreadable) != 1 || sel.Unreadable[0].Version != "garbage" {
			t.Errorf("SelectReleasesFirst(%q): unreadable %v, want garbage", tt.c, sel.Unreadable)
		}
	}
}

// TestSelectionString prints a selection as the version chosen, "none",
// and how many versions could not be read.
func TestSelectionString(t *testing.T) {
	for _, tt := range []struct {
		sel  Selection
		want string
	}{
		{Selection{Version: "2.0.0-beta.2", Found: true}, "2.0.0-beta.2"},
		{Selection{}, "none"},
		{Selection{Unreadable: []Unreadable{{Version: "x"}}}, "none (1 unreadable)"},
		{Selection{Version: "1.0.0", Found: true, Unreadable: []Unreadable{{Version: "x"}, {Version: "y"}}}, "1.0.0 (2 unreadable)"},
	} {
		if got := tt.sel.String(); got != tt.want {
			t.Errorf("%#v: %q, want %q", tt.sel, got, tt.want)
		}
		if got := fmt.Sprint(tt.sel); got != tt.want {
			t.Errorf("fmt.Sprint: %q, want %q", got, tt.want)
		}
	}
}
