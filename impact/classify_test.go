package impact_test

import (
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/impact"
)

func selects(v string) impact.Outcome { return impact.Outcome{Selects: &v} }

var (
	none   = impact.Outcome{}
	refuse = impact.Outcome{Refuses: "malformed"}
)

// TestClassify decides every class from the two outcomes alone.
func TestClassify(t *testing.T) {
	tests := []struct {
		name  string
		b, p  impact.Outcome
		class impact.Class
	}{
		{"same version", selects("1.2.0"), selects("1.2.0"), impact.Unchanged},
		{"both none", none, none, impact.Unchanged},
		{"both refuse", refuse, impact.Outcome{Refuses: "another reason"}, impact.Unchanged},
		{"P refuses", selects("1.0.0"), refuse, impact.Refused},
		{"B refuses", refuse, none, impact.Refused},
		{"P none", selects("1.0.0"), none, impact.NoneInsteadOfVersion},
		{"B none", none, selects("2.0.0-rc1"), impact.VersionInsteadOfNone},
		{"later prerelease of the same release", selects("2.0.0-beta.1"), selects("2.0.0-beta.2"), impact.PrereleaseSameRelease},
		{"earlier prerelease of the same release", selects("2.0.0-beta.2"), selects("2.0.0-beta.1"), impact.PrereleaseSameRelease},
		{"prerelease of the release B installs", selects("1.5.0"), selects("1.5.0-rc.1"), impact.PrereleaseSameRelease},
		{"later patch", selects("1.2.3"), selects("1.2.4-rc.1"), impact.PrereleaseLaterPatch},
		{"later patch, B a prerelease", selects("1.2.3-beta"), selects("1.2.4-rc.1"), impact.PrereleaseLaterPatch},
		{"later minor", selects("1.2.3"), selects("1.3.0-beta.1"), impact.PrereleaseLaterMinorOrMajor},
		{"later major", selects("1.9.0"), selects("2.0.0-beta.1"), impact.PrereleaseLaterMinorOrMajor},
		{"later major, lower minor", selects("1.9.9"), selects("2.0.0-alpha"), impact.PrereleaseLaterMinorOrMajor},
		{"earlier prerelease", selects("2.0.0"), selects("1.1.0-rc.1"), impact.OtherPrerelease},
		{"release instead of prerelease", selects("2.0.0-beta.1"), selects("1.1.0"), impact.ReleaseInsteadOfPrerelease},
		{"the prerelease's own release", selects("2.0.0-beta.1"), selects("2.0.0"), impact.ReleaseInsteadOfPrerelease},
		{"other release, higher", selects("1.5.0"), selects("2.0.0"), impact.OtherRelease},
		{"other release, lower", selects("2.0.0"), selects("1.5.0"), impact.OtherRelease},
		{"same precedence, other build", selects("1.0.0+a"), selects("1.0.0+b"), impact.OtherRelease},
	}
	seen := map[impact.Class]bool{}
	for _, tt := range tests {
		if got := impact.Classify(tt.b, tt.p); got != tt.class {
			t.Errorf("%s: Classify(B %s, P %s) = %s, want %s", tt.name, tt.b, tt.p, got, tt.class)
		}
		seen[tt.class] = true
	}
	for _, c := range impact.Classes {
		if !seen[c] {
			t.Errorf("class %s has no case", c)
		}
	}
}

// TestAssess runs real policies over small histories: the class and the
// cause a user reads in the report.
func TestAssess(t *testing.T) {
	reg := catalogue.New()
	pol := func(name string) engine.Policy {
		p, ok := reg.Lookup(name)
		if !ok {
			t.Fatalf("no policy %s", name)
		}
		return p
	}
	tests := []struct {
		name          string
		p, b          string
		constraint    string
		history       []string
		against, pSel string // "" none, "!" refuses
		class         impact.Class
		cause         impact.Cause
	}{
		{
			name: "go-version reads a one-part ~> 1 as >= 1, for providers today's installer does not",
			p:    "hashicorp", b: "apparentlymart", constraint: "~> 1", history: []string{"1.0.0", "1.5.0", "2.0.0"},
			against: "1.5.0", pSel: "2.0.0", class: impact.OtherRelease, cause: impact.CauseReading,
		},
		{
			name: "cargo against today's module installer, which reads ~> 1 as >= 1",
			p:    "cargo", b: "terraform-module", constraint: "~> 1", history: []string{"1.0.0", "1.5.0", "2.0.0"},
			against: "2.0.0", pSel: "1.5.0", class: impact.OtherRelease, cause: impact.CauseReading,
		},
		{
			name: "hashicorp and terraform-module read ~> 1 alike: both are go-version",
			p:    "hashicorp", b: "terraform-module", constraint: "~> 1", history: []string{"1.0.0", "1.5.0", "2.0.0"},
			against: "2.0.0", pSel: "2.0.0", class: impact.Unchanged,
		},
		{
			name: "~> 1.0 admits the next major's beta under linear",
			p:    "linear", b: "terraform-module", constraint: "~> 1.0", history: []string{"1.0.0", "1.1.0", "2.0.0-beta.1"},
			against: "1.1.0", pSel: "2.0.0-beta.1", class: impact.PrereleaseLaterMinorOrMajor, cause: impact.CausePrereleaseRule,
		},
		{
			name: "a later patch's release candidate",
			p:    "linear", b: "terraform-module", constraint: "~> 1.2.3", history: []string{"1.2.3", "1.2.4-rc.1", "1.3.0"},
			against: "1.2.3", pSel: "1.2.4-rc.1", class: impact.PrereleaseLaterPatch, cause: impact.CausePrereleaseRule,
		},
		{
			name: "go-version's prerelease precedence: it ranks 2.0.0-beta above 2.0.0-beta.alpha",
			p:    "lexical", b: "hashicorp", constraint: ">= 2.0.0-beta", history: []string{"1.0.0", "2.0.0-beta", "2.0.0-beta.alpha"},
			against: "2.0.0-beta", pSel: "2.0.0-beta.alpha", class: impact.PrereleaseSameRelease, cause: impact.CausePrereleaseRule,
		},
		{
			name: "a beta of the release B installs: B reads ~> 1 as >= 1, P admits 2.0.0-beta.1 below 2.0.0",
			p:    "linear", b: "terraform-module", constraint: "~> 1", history: []string{"1.0.0", "2.0.0-beta.1", "2.0.0"},
			against: "2.0.0", pSel: "2.0.0-beta.1", class: impact.PrereleaseSameRelease, cause: impact.CauseReading,
		},
		{
			name: "an earlier release's candidate",
			p:    "linear", b: "terraform-module", constraint: "~> 1", history: []string{"1.0.0", "1.1.0-rc.1", "2.0.0"},
			against: "2.0.0", pSel: "1.1.0-rc.1", class: impact.OtherPrerelease, cause: impact.CauseReading,
		},
		{
			name: "a release where B installs the beta",
			p:    "cargo", b: "linear", constraint: "~> 1.0", history: []string{"1.0.0", "1.1.0", "2.0.0-beta.1"},
			against: "2.0.0-beta.1", pSel: "1.1.0", class: impact.ReleaseInsteadOfPrerelease, cause: impact.CausePrereleaseRule,
		},
		{
			name: "an exact prerelease pin next to a release bound",
			p:    "terraform-module", b: "strict", constraint: "2.0.0-rc1, >= 1.0.0", history: []string{"1.0.0", "2.0.0-rc1"},
			against: "2.0.0-rc1", pSel: "", class: impact.NoneInsteadOfVersion, cause: impact.CausePrereleaseRule,
		},
		{
			name: "the same, the other way",
			p:    "strict", b: "terraform-module", constraint: "2.0.0-rc1, >= 1.0.0", history: []string{"1.0.0", "2.0.0-rc1"},
			against: "", pSel: "2.0.0-rc1", class: impact.VersionInsteadOfNone, cause: impact.CausePrereleaseRule,
		},
		{
			name: "go-version refuses the empty constraint",
			p:    "hashicorp", b: "apparentlymart", constraint: "", history: []string{"1.0.0", "1.1.0"},
			against: "1.1.0", pSel: "!", class: impact.Refused, cause: impact.CauseReading,
		},
		{
			name: "core-only refuses a constraint that names a prerelease",
			p:    "core-only", b: "apparentlymart", constraint: ">= 1.0.0-beta", history: []string{"1.0.0", "1.1.0"},
			against: "1.1.0", pSel: "!", class: impact.Refused, cause: impact.CausePrereleaseRule,
		},
		{
			name: "both refuse",
			p:    "cargo", b: "apparentlymart", constraint: "<desired_provider_version>", history: []string{"1.0.0"},
			against: "!", pSel: "!", class: impact.Unchanged,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := impact.Assess(pol(tt.p), pol(tt.b), tt.constraint, tt.history)
			if got := outcomeCode(a.Against); got != tt.against {
				t.Errorf("%s installs %q, want %q", tt.b, got, tt.against)
			}
			if got := outcomeCode(a.Policy); got != tt.pSel {
				t.Errorf("%s installs %q, want %q", tt.p, got, tt.pSel)
			}
			if a.Class != tt.class || a.Cause != tt.cause {
				t.Errorf("class %s, cause %q; want %s, %q", a.Class, a.Cause, tt.class, tt.cause)
			}
		})
	}
}

// outcomeCode is "" for none, "!" for a refusal, else the version.
func outcomeCode(o impact.Outcome) string {
	if o.Refused() {
		return "!"
	}
	return o.Version()
}

func TestWithoutPrereleases(t *testing.T) {
	tests := []struct{ in, want string }{
		{">= 1.71.3-beta1", ">= 1.71.3"},
		{"~> 1.2.0-rc1, != 1.2.1", "~> 1.2.0, != 1.2.1"},
		{"2.0.0-rc1,>=1.0.0", "2.0.0,>=1.0.0"},
		{">= v1.2-alpha-20220328", ">= v1.2"},
		{"= 1.0.0-beta.1+build-7", "= 1.0.0+build-7"},
		{">= 1.0.0+build-7", ">= 1.0.0+build-7"}, // no prerelease: as it is
		{"~> 5.0", "~> 5.0"},
		{"", ""},
		{"<desired_provider_version>", "<desired_provider_version>"}, // not a constraint: as it is
	}
	for _, tt := range tests {
		if got := impact.WithoutPrereleases(tt.in); got != tt.want {
			t.Errorf("WithoutPrereleases(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if _, err := engine.ParseConstraint(tt.in); err == nil {
			if c, err := engine.ParseConstraint(impact.WithoutPrereleases(tt.in)); err != nil || c.NamesPrerelease() {
				t.Errorf("WithoutPrereleases(%q): %v, names a prerelease: %v", tt.in, err, err == nil && c.NamesPrerelease())
			}
		}
	}
}

func TestParseClass(t *testing.T) {
	for _, c := range impact.Classes {
		if got, err := impact.ParseClass(string(c)); err != nil || got != c {
			t.Errorf("ParseClass(%q) = %q, %v", c, got, err)
		}
	}
	if _, err := impact.ParseClass("surprise"); err == nil {
		t.Error("ParseClass(surprise): no error")
	}
}
