package policies

import (
	"strings"
	"testing"
	"time"

	"github.com/prerel/prerel/engine"
)

// day is the unit of the cooldown tests' dates.
const day = 24 * time.Hour

// cooldownNow is the time the cooldown tests count ages at.
var cooldownNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// history is a list of versions with their ages in days at cooldownNow;
// a negative age is a version without a date.
type history []struct {
	version string
	age     float64
}

func (h history) split() ([]string, engine.Dates) {
	vs := make([]string, len(h))
	ds := make(engine.Dates, len(h))
	for i, e := range h {
		vs[i] = e.version
		if e.age >= 0 {
			ds[i] = cooldownNow.Add(-time.Duration(e.age * float64(day)))
		}
	}
	return vs, ds
}

// trapHistory is the fallback trap: one release in range, two days old,
// and an older prerelease of the same range.
var trapHistory = history{{"1.0.0", 30}, {"1.1.0-beta.1", 20}, {"1.1.0", 2}}

func TestCooldown(t *testing.T) {
	week := engine.Cooldown{MinAge: 7 * day, Now: cooldownNow}
	undated := week
	undated.AllowUndated = true
	ageFirst := week
	ageFirst.AgeFirst = true
	tests := []struct {
		name       string
		policy     engine.Policy
		constraint string
		history    history
		cooldown   engine.Cooldown
		want       string // "" for none
		held       string // the versions held back, newest first
		exempt     bool
	}{
		{"no cooldown", Fallback{}, ">= 1.0.0", trapHistory, engine.Cooldown{}, "1.1.0", "", false},
		// The fallback trap: under prerel's order the policy decides on
		// the whole list (a release fits, so no prerelease is admitted),
		// then 1.1.0 is held back and 1.0.0 is selected.
		{"fallback, policy first", Fallback{}, ">= 1.0.0", trapHistory, week, "1.0.0", "1.1.0", false},
		// Under the age-first order the young release is gone before the
		// policy sees the list, and it falls back to the prerelease.
		{"fallback, age first springs the trap", Fallback{}, ">= 1.0.1", trapHistory, ageFirst, "1.1.0-beta.1", "1.1.0", false},
		{"fallback, policy first, no trap", Fallback{}, ">= 1.0.1", trapHistory, week, "", "1.1.0", false},
		{"fallback, age first, a release left", Fallback{}, ">= 1.0.0", trapHistory, ageFirst, "1.0.0", "1.1.0", false},
		// A policy that admits the prerelease on the whole list keeps it.
		{"linear admits the prerelease", Linear{}, ">= 1.1.0-beta.1", trapHistory, week, "1.1.0-beta.1", "1.1.0", false},
		{"exact pin exempt", Cargo{}, "1.1.0", trapHistory, week, "1.1.0", "", true},
		{"exact pin with =", Cargo{}, "= 1.1.0", trapHistory, week, "1.1.0", "", true},
		{"two comparators are no pin", Cargo{}, "= 1.1.0, != 1.0.0", trapHistory, week, "", "1.1.0", false},
		{"old enough", Cargo{}, ">= 1.0.0", history{{"1.0.0", 30}, {"1.1.0", 7}}, week, "1.1.0", "", false},
		{"undated held back", Cargo{}, ">= 1.0.0", history{{"1.0.0", 30}, {"1.1.0", -1}}, week, "1.0.0", "1.1.0", false},
		{"undated allowed", Cargo{}, ">= 1.0.0", history{{"1.0.0", 30}, {"1.1.0", -1}}, undated, "1.1.0", "", false},
		{"everything young", Cargo{}, ">= 1.0.0", history{{"1.0.0", 1}, {"1.1.0", 0}}, week, "", "1.1.0 1.0.0", false},
		{"older young backport not listed", Cargo{}, ">= 1.0.0", history{{"1.0.5", 1}, {"1.1.0", 30}}, week, "1.1.0", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vs, ds := tt.history.split()
			got, err := engine.SelectCooled(tt.policy, tt.constraint, vs, ds, tt.cooldown)
			if err != nil {
				t.Fatal(err)
			}
			var held []string
			for _, h := range got.HeldBack {
				held = append(held, h.Version)
			}
			if got.Version != tt.want || got.Found != (tt.want != "") || strings.Join(held, " ") != tt.held || (got.Exempt != "") != tt.exempt {
				t.Errorf("got %q (found %v), held back %q, exempt %q; want %q, held back %q, exempt %v",
					got.Version, got.Found, held, got.Exempt, tt.want, tt.held, tt.exempt)
			}
		})
	}
}

// TestCooldownDates checks the dates a held-back version and the selection
// carry.
func TestCooldownDates(t *testing.T) {
	vs, ds := trapHistory.split()
	got, err := engine.SelectCooled(Fallback{}, ">= 1.0.0", vs, ds, engine.Cooldown{MinAge: 7 * day, Now: cooldownNow})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.HeldBack) != 1 {
		t.Fatalf("held back %v, want 1.1.0", got.HeldBack)
	}
	h := got.HeldBack[0]
	if !h.PublishedAt.Equal(cooldownNow.Add(-2*day)) || !h.EligibleAt.Equal(cooldownNow.Add(5*day)) {
		t.Errorf("1.1.0 published %v, eligible %v", h.PublishedAt, h.EligibleAt)
	}
	if got.EligibleSince == nil || !got.EligibleSince.Equal(cooldownNow.Add(-23*day)) {
		t.Errorf("1.0.0 eligible since %v, want 23 days ago", got.EligibleSince)
	}
	if !got.Changed() || got.Without.Version != "1.1.0" {
		t.Errorf("Changed %v, without %q", got.Changed(), got.Without.Version)
	}
}

// TestCooldownSelectorGuard checks the order for a Selector that is no
// Admitter: when it selects a release on the whole list, the cooldown
// does not make it select a prerelease.
func TestCooldownSelectorGuard(t *testing.T) {
	vs, ds := trapHistory.split()
	got, err := engine.SelectCooled(selectorOnly{Fallback{}}, ">= 1.0.0", vs, ds, engine.Cooldown{MinAge: 7 * day, Now: cooldownNow})
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != "1.0.0" {
		t.Errorf("got %q, want 1.0.0", got.Version)
	}
}

// selectorOnly hides Fallback's Admitted.
type selectorOnly struct{ f Fallback }

func (s selectorOnly) Name() string { return s.f.Name() }
func (s selectorOnly) Rule() string { return s.f.Rule() }
func (s selectorOnly) Compile(c string) (engine.Matcher, error) {
	return s.f.Compile(c)
}
func (s selectorOnly) Select(c string, vs []string) (engine.Selection, error) {
	return s.f.Select(c, vs)
}

func TestParseMinAge(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want time.Duration
		err  bool
	}{
		{"7d", 7 * day, false},
		{"72h", 72 * time.Hour, false},
		{"2w", 14 * day, false},
		{"1h30m", 90 * time.Minute, false},
		{"0", 0, false},
		{"-1h", 0, true},
		{"7", 0, true},
		{"d", 0, true},
		{"99999d", 0, true},
		{"7 days", 0, true},
	} {
		got, err := engine.ParseMinAge(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("ParseMinAge(%q) = %v, %v", tt.in, got, err)
		}
	}
}
