package adapters

import (
	"strings"
	"testing"

	semver "github.com/Masterminds/semver/v3"

	"github.com/prerel/prerel/engine"
)

// names is the order of All, the column order of verdictTests.
var names = []string{
	"hashicorp", "apparentlymart", "apparentlymart-exact",
	"masterminds", "masterminds-pre", "terraform-module", "opentofu-module",
	"go-versions-cargo",
}

// verdictTests pins what each library does. want holds one verdict per
// adapter, in the order of names: A allow, R reject, I invalid. Every
// expectation was taken from running the libraries at the versions in
// go.mod and is written out, so a library change fails the test.
var verdictTests = []struct {
	constraint, version string
	want                string
	note                string
}{
	{"~> 1", "2.0.0", "A R R R R A A R", "hashicorp: a one-part ~> has no upper bound"},
	{"~> 10", "11.10.10", "A R R R R A A R", "hashicorp, module installers: ~> 10 admits 11.10.10"},
	{"~> 1.2", "1.9.0", "A A A A A A A A", "masterminds: translated ~> keeps the Terraform meaning"},
	{"~> 1.2", "2.0.0-beta.1", "R R A R A R R R", "linear policies let the next release's prereleases in"},
	{"~>1.2", "1.5.0", "A A A A A A A A", "no space after the operator"},
	{"~> 1.0.0-beta", "1.0.1", "R A A A A R R A", "hashicorp: ~> with a prerelease admits prereleases only"},
	{"~> 1.2.3-beta", "1.2.4-beta", "R R A A A R R R", "masterminds: the translated lower bound opts the group in"},
	{"~> 2.0.0-beta.1", "2.0.0-beta.2", "A R A A A R R A", "module installers: ~> excludes every prerelease"},
	{"= 1.0.0", "1.0.0+def", "A R R A A A A R", "hashicorp, masterminds: metadata ignored; go-versions: exact sets keep it"},
	{"1.0.0+def", "1.0.0+def", "A A A A A A A A", "go-versions: the same metadata is a member"},
	{"0.0.0", "0.0.0+b", "A R R A A A A R", "go-versions: metadata, not Unspecified"},
	{"!= 1.0.0", "1.0.0-beta", "A R A R A R R R", "hashicorp: != skips the prerelease gate"},
	{"= 1.0.0", "1.0.0.0-beta", "A I I I I R R I", "hashicorp: = skips the gate, and precedence ignores the prerelease when the part counts differ"},
	{"!= 1.0.0", "1.0.0.0-beta", "R I I I I R R I", "hashicorp: the same through !="},
	{">= 1.0.0", "1.0.0.0-beta", "R I I I I R R I", "hashicorp: a range comparator keeps the gate"},
	{"= 1.0.0", "1.0.0-beta", "R R R R R R R R", ""},
	{">= 1.1.0-beta.2", "1.1.0-rc.1", "A R A A A R R A", "hashicorp: same base prerelease passes"},
	{">= 1.1.0-beta.2", "1.1.0-beta.3", "A R A A A R R A", ""},
	{">= 1.1.0-beta.2", "2.0.0-beta.1", "R R A A A R R R", "hashicorp: other base refused"},
	{">= 1.0.0-beta, < 1.0.0", "1.0.0-rc.1", "R R A A A R R A", "hashicorp: the release comparator refuses every prerelease"},
	{">= 1.0.0, < 2.0.0", "2.0.0-beta.1", "R R A R A R R R", ""},
	{">= 1.0.0, = 2.0.0-beta", "2.0.0-beta", "R A A A A R R A", "go-versions: requested exactly"},
	{"= 2.0.0-beta.1", "2.0.0-beta.1", "A A A A A R R A", "module installers: the space after = excludes it"},
	{"=2.0.0-beta.1", "2.0.0-beta.1", "A A A A A A A A", "module installers: without the space it is admitted"},
	{"2.0.0-beta.1", "2.0.0-beta.1", "A A A A A A A A", "module installers: bare version admits it"},
	{"2.0.0-beta.1", "2.0.0-beta.1+b", "A R R A A R R R", "module installers: the exact set keeps metadata"},
	{"2.0.0-beta.1", "v2.0.0-beta.1", "A I I A A A A I", "module installers: the candidate's v is dropped by String()"},
	{"2.0.0-beta1", "2.0.0beta1", "A I I I I A A I", "module installers: go-version reads a prerelease without -"},
	{">= 2.0.0-beta.1, <= 2.0.0-beta.5", "2.0.0-beta.2", "A R A A A R R A", "module installers: a comma excludes every prerelease"},
	{">=2.0.0-beta.1,<3.0.0", "2.0.0-beta.1", "R R A A A R R A", "module installers: npm-style wants spaces, not commas"},
	{">=2.0.0-beta.1", "2.0.0-beta.1", "A R A A A R R A", "module installers: a range is not an exact request"},
	{"!= 2.0.0-beta.2", "2.0.0-beta.1", "A R A A A R R R", "module installers: != excludes every prerelease"},
	{">=1.0.0", "1.0.0-beta", "R R R R R R R R", ""},
	{"v0.0.3-alpha.1", "0.0.3-alpha.1", "A I I A A R A I", "opentofu-module: v stripped on retry"},
	{"v2.0.0-beta.1", "2.0.0-beta.1", "A I I A A R A I", ""},
	{"~> v1.0", "1.0.0-beta", "R I I R R R R I", "opentofu-module: the retry fails too"},
	{"1.2.3.4-beta", "1.2.3.4-beta", "A I I I I R R I", "hashicorp: four parts"},
	{">= 1.0.0, != 1.5.0-rc.1", "1.5.0-rc.2", "R R A A A R R R", "masterminds: != with a prerelease opts the group in"},
	{">= 1.0.0-beta", "1.0.0-alpha.beta", "R R A R R R R A", "go-versions: beta sorts below alpha.beta"},
	{"> 1.0.0-alpha.beta", "1.0.0-beta", "A R R A A R R R", "go-versions: beta sorts below alpha.beta"},
	{"= 0.0.0", "0.0.0", "A R R A A A A R", "go-versions: Unspecified is in no set"},
	{">= 0.0.0", "0.0.0", "A R R A A A A R", "go-versions: Unspecified is in no set"},
	{"< 1.0.0", "0.0.0", "A R R A A A A R", "go-versions: Unspecified is in no set"},
	{"", "0.0.0", "I R A A A A A R", "apparentlymart-exact: the empty constraint is All, the one set with 0.0.0"},
	{"", "0.0.0-beta", "I R A R R R R R", "masterminds-pre: * is a tilde from 0.0.0"},
	{"", "1.0.0", "I A A A A A A A", "go-version refuses \"\"; the module installers read no version argument"},
	{"", "1.0.0-beta", "I R A R A R R R", ""},
	{" ", "1.0.0", "I A A A A I I A", "blank text: go-version refuses it, and so do the module installers; the others read no constraint"},
	{"<= 1.2", "1.2.5", "R R R R R R R R", "masterminds: zero-filled, not an x-range"},
	{"1.2", "1.2.0", "A A A A A A A A", ""},
	{"= 1.2", "1.2.0", "A A A A A A A A", ""},
	{">= v1.0.0", "1.0.0", "A I I A A A A I", "go-versions: v refused"},
	{">=  1.0.0", "1.0.0", "A I I A A A A I", "go-versions: two spaces after the operator"},
	{">= 1.0.0 < 2", "1.0.0", "I I I I I I I I", "every parser wants a comma"},
	{"99999999999999999999", "1.0.0", "I I I I I I I I", "go-versions panics, recovered"},
	{">= 1.0", "99999999999999999999.0.0", "I I I I I I I I", "go-versions panics, recovered"},
	{">= 1.0.0", "1.0", "A A A A A A A A", "partial versions"},
	{">= 1.0.0", "v1.0.0", "A I I A A A A I", "go-versions: v refused"},
	{">= 1.0.0", "01.0.0", "A A A A A A A A", "leading zeros accepted"},
	{">= 1.0.0", "1.2.3.4", "A I I I I A A I", ""},
	{">= 1.0.0", "1.0.0beta", "R I I I I R R I", ""},
	{">= 1.0.0", "", "I I I I I I I I", ""},
	{">= 1.0.0", "latest", "I I I I I I I I", ""},
	{">= 1.0.0", " 1.0.0", "I I I I I I I I", ""},
	{"~> 1.2-beta", "1.2.0-rc.1", "A R A A A R R A", "go-versions-cargo: the prerelease of a two-part ~> stays on its lower bound"},
	{"~> 1.2-beta", "1.3.0-rc.1", "R R A A A R R R", "go-versions-cargo: only the named base opts in"},
	{"< 1.0.0-rc.1", "1.0.0-beta", "A R A A A R R A", "go-versions-cargo: an upper bound that names a prerelease opts its base in"},
	{"!= 1.0.0-beta, >= 1.0.0-alpha", "1.0.0-beta.2", "A R A A A R R A", "go-versions-cargo: >= opts the base in, != never does"},
	{"> 1.0.0-beta, < 2.0.0-beta", "1.5.0-beta", "R R A A A R R R", "go-versions-cargo: neither bound names base 1.5.0"},
	{"> 1.0.0-beta, < 2.0.0-beta", "2.0.0-alpha", "R R A A A R R A", "go-versions-cargo: the upper bound opts base 2.0.0 in"},
	{"1.0.0-beta+b", "1.0.0-beta", "A R R A A R R R", "go-versions: an exact set keeps the constraint's metadata"},
	{"~> 1.18446744073709551615.0", "1.18446744073709551615.1", "I R R A A I I R", "go-versions: the next minor wraps to zero, an empty range"},
}

func verdictLetter(v engine.Verdict) string {
	switch v {
	case engine.Allow:
		return "A"
	case engine.Reject:
		return "R"
	case engine.Invalid:
		return "I"
	}
	return "?"
}

func TestVerdicts(t *testing.T) {
	all := All()
	for _, tt := range verdictTests {
		want := strings.Fields(tt.want)
		if len(want) != len(all) {
			t.Fatalf("%q | %q: want has %d verdicts, there are %d adapters", tt.constraint, tt.version, len(want), len(all))
		}
		for i, p := range all {
			r := engine.Evaluate(p, tt.constraint, tt.version)
			if got := verdictLetter(r.Verdict); got != want[i] {
				t.Errorf("%s: %q | %q = %s (%s), want %s; %s", p.Name(), tt.constraint, tt.version, r.Verdict, r.Reason, want[i], tt.note)
			}
			if r.Reason == "" {
				t.Errorf("%s: %q | %q: empty reason", p.Name(), tt.constraint, tt.version)
			}
		}
	}
}

func TestAll(t *testing.T) {
	var got []string
	for _, p := range All() {
		got = append(got, p.Name())
		if r := p.Rule(); r == "" || strings.ContainsAny(r, "\n\r") {
			t.Errorf("%s: Rule() = %q, want one non-empty line", p.Name(), r)
		}
		if _, ok := p.(engine.Selector); !ok {
			t.Errorf("%s does not implement engine.Selector", p.Name())
		}
	}
	if strings.Join(got, " ") != strings.Join(names, " ") {
		t.Errorf("All() names = %v, want %v", got, names)
	}
}

func lookup(t *testing.T, name string) engine.Policy {
	t.Helper()
	for _, p := range All() {
		if p.Name() == name {
			return p
		}
	}
	t.Fatalf("no adapter %q", name)
	return nil
}

// reasonTests pin that a reason says what the library was asked and what
// it answered.
var reasonTests = []struct {
	policy, constraint, version string
	verdict                     engine.Verdict
	reason                      string // substring
}{
	{"hashicorp", "= 1.0.0", "1.0.0-beta", engine.Reject, `go-version Check: false ("= 1.0.0" refuses it)`},
	{"hashicorp", ">= 1.0.0, < 2.0.0", "2.0.0", engine.Reject, `("< 2.0.0" refuses it)`},
	{"hashicorp", "~> 1", "2.0.0", engine.Allow, "go-version Check: true"},
	{"hashicorp", "", "1.0.0-beta", engine.Invalid, "go-version NewConstraint: malformed constraint: "},
	{"hashicorp", ">= 1.0.0 < 2", "1.0.0", engine.Invalid, "go-version NewConstraint: malformed constraint: >= 1.0.0 < 2"},
	{"hashicorp", ">= 1.0.0", "latest", engine.Invalid, "go-version NewVersion: malformed version: latest"},
	{"apparentlymart", "!= 1.0.0", "1.0.0-beta", engine.Reject, "go-versions MeetingConstraints: not in set (prerelease not requested exactly)"},
	{"apparentlymart", "= 2.0.0-beta.1", "2.0.0-beta.1", engine.Allow, "go-versions MeetingConstraints: in set"},
	{"apparentlymart", "= 1.0.0", "1.0.0+def", engine.Reject, "go-versions MeetingConstraints: not in set"},
	{"apparentlymart", "= 0.0.0", "0.0.0", engine.Reject, "0.0.0 is the library's Unspecified version"},
	{"apparentlymart-exact", ">= 0.0.0", "0.0.0", engine.Reject, "go-versions MeetingConstraintsExact: not in set (0.0.0 is the library's Unspecified version"},
	{"apparentlymart-exact", "", "0.0.0", engine.Allow, "go-versions MeetingConstraintsExact: in set"},
	{"apparentlymart", "v1.0.0", "1.0.0", engine.Invalid, `go-versions ParseRubyStyleMulti: invalid specification "v1.0.0": a "v" prefix should not be used`},
	{"apparentlymart", ">= 1.0.0", "v1.0.0", engine.Invalid, `go-versions ParseVersion: a "v" prefix should not be used`},
	{"apparentlymart", "99999999999999999999", "1.0.0", engine.Invalid, `go-versions ParseRubyStyleMulti panicked on this input: strconv.ParseUint: parsing "99999999999999999999": value out of range`},
	{"apparentlymart-exact", ">= 1.0", "99999999999999999999.0.0", engine.Invalid, "go-versions ParseVersion panicked on this input"},
	{"masterminds", ">= 1.0.0, < 2.0.0", "2.0.0-beta.1", engine.Reject, `Masterminds Check(">=1.0.0, <2.0.0"): false: "2.0.0-beta.1" is a prerelease version and the constraint is only looking for release versions`},
	{"masterminds-pre", ">= 1.0.0, < 2.0.0", "2.0.0-beta.1", engine.Allow, `Masterminds Check(">=1.0.0, <2.0.0"): true`},
	{"masterminds-pre", "", "0.0.0-beta", engine.Reject, `Masterminds Check("*"): false: "0.0.0-beta" is less than "*"`},
	{"masterminds", ">= 1.0.0 < 2", "1.0.0", engine.Invalid, `translating to Masterminds syntax: constraint ">= 1.0.0 < 2": column 10: expected "," between comparators`},
	{"masterminds", ">= 1.0.0", "1.2.3.4", engine.Invalid, "Masterminds NewVersion: invalid semantic version"},
	{"terraform-module", "= 2.0.0-beta.1", "2.0.0-beta.1", engine.Reject, `prerelease excluded: the npm-style parser (go-versions MeetingConstraintsString) refused "= 2.0.0-beta.1": no spaces allowed after operator "="`},
	{"terraform-module", ">=2.0.0-beta.1,<3.0.0", "2.0.0-beta.1", engine.Reject, "commas are not needed to separate version selections"},
	{"terraform-module", "~> 2.0.0-beta.1", "2.0.0-beta.2", engine.Reject, `invalid constraint operator "~>"`},
	{"terraform-module", "", "1.0.0-beta", engine.Reject, `refused "": empty specification`},
	{"terraform-module", "", "1.0.0", engine.Allow, "go-version Check: true (no constraint)"},
	{"terraform-module", ">=2.0.0-beta.1", "2.0.0-beta.1", engine.Reject, "prerelease excluded: not in the go-versions MeetingConstraints set (not requested exactly)"},
	{"terraform-module", "2.0.0-beta.1", "2.0.0-beta.1", engine.Allow, "prerelease in the go-versions MeetingConstraints set; go-version Check: true"},
	{"terraform-module", "1.2.3.4-beta", "1.2.3.4-beta", engine.Reject, "too many numbered portions"},
	{"terraform-module", " ", "1.0.0", engine.Invalid, "go-version NewConstraint: malformed constraint"},
	{"terraform-module", "v0.0.3-alpha.1", "0.0.3-alpha.1", engine.Reject, `refused "v0.0.3-alpha.1": a "v" prefix should not be used`},
	{"opentofu-module", "v0.0.3-alpha.1", "0.0.3-alpha.1", engine.Allow, "prerelease in the go-versions MeetingConstraints set"},
	{"opentofu-module", "~> v1.0", "1.0.0-beta", engine.Reject, `refused "~> v1.0": invalid constraint operator "~>", and with v prefixes stripped "~> 1.0": invalid constraint operator "~>"`},
	{"opentofu-module", "~> 1.0", "1.0.0-beta", engine.Reject, `refused "~> 1.0": invalid constraint operator "~>"`},
	{"go-versions-cargo", ">= 1.1.0-beta.2", "1.1.0-rc.1", engine.Allow, "go-versions cargo set: in set (in range, and a comparator other than != names a prerelease of its base)"},
	{"go-versions-cargo", ">= 1.1.0-beta.2", "1.2.0", engine.Allow, "go-versions cargo set: in set (a release in range)"},
	{"go-versions-cargo", ">= 1.1.0-beta.2", "2.0.0-beta.1", engine.Reject, "go-versions cargo set: not in set (prerelease in range, but no comparator other than != names a prerelease of its base)"},
	{"go-versions-cargo", ">= 1.1.0-beta.2", "1.1.0-beta.1", engine.Reject, "go-versions cargo set: not in set (not in range)"},
	{"go-versions-cargo", "= 1.0.0", "1.0.0+def", engine.Reject, "not in set (not in range; without its build metadata it would be: = and != sets keep the whole version)"},
	{"go-versions-cargo", "", "0.0.0", engine.Reject, "0.0.0 is the library's Unspecified version"},
	{"go-versions-cargo", "~> v1.0", "1.0.0", engine.Invalid, `go-versions ParseRubyStyleMulti: invalid specification "~> v1.0": a "v" prefix should not be used when specifying versions`},
	{"go-versions-cargo", ">= 1.0.0", "v1.0.0", engine.Invalid, `go-versions ParseVersion: a "v" prefix should not be used`},
	{"go-versions-cargo", "99999999999999999999", "1.0.0", engine.Invalid, "go-versions ParseRubyStyleMulti panicked on this input"},
}

func TestReasons(t *testing.T) {
	for _, tt := range reasonTests {
		r := engine.Evaluate(lookup(t, tt.policy), tt.constraint, tt.version)
		if r.Verdict != tt.verdict || !strings.Contains(r.Reason, tt.reason) {
			t.Errorf("%s: %q | %q = %s %q, want %s containing %q", tt.policy, tt.constraint, tt.version, r.Verdict, r.Reason, tt.verdict, tt.reason)
		}
	}
}

func TestOpenTofuStripsOnlyOnFailure(t *testing.T) {
	// The retry runs only when the first parse fails, and strips only
	// matches of go-version's pattern that start with "v".
	tests := []struct{ in, want string }{
		{"v1.0.0", "1.0.0"},
		{"~> v5.3.1", "~> 5.3.1"},
		{">= v1.0, <= v2.0-beta.1", ">= 1.0, <= 2.0-beta.1"},
		{"= 1.0.0-dev", "= 1.0.0-dev"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := stripVPrefixes(tt.in); got != tt.want {
			t.Errorf("stripVPrefixes(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMastermindsConstraint(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{"~> 1.2.3", ">=1.2.3, <1.3.0", ""},
		{"~> 1.2", ">=1.2.0, <2.0.0", ""},
		{"~> 1", ">=1.0.0, <2.0.0", ""},
		{"~> 1.2.3-beta", ">=1.2.3-beta, <1.3.0", ""},
		{"~> v5.3.1", ">=5.3.1, <5.4.0", ""},
		{"<= 1.2", "<=1.2.0", ""},
		{"= 1.2", "=1.2.0", ""},
		{"1.2.3-rc.1+b.7", "=1.2.3-rc.1+b.7", ""},
		{">= 1.0.0, != 1.5.0-rc.1", ">=1.0.0, !=1.5.0-rc.1", ""},
		{"> 1, < 2", ">1.0.0, <2.0.0", ""},
		{"", "*", ""},
		{"  ", "*", ""},
		{"~> 18446744073709551615", ">=18446744073709551615.0.0", ""},
		{"~> 1.18446744073709551615.0", ">=1.18446744073709551615.0", ""},
		{">= 1.0.0 < 2", "", `column 10: expected "," between comparators`},
		{"^1.2", "", "unknown operator"},
	}
	for _, tt := range tests {
		got, err := MastermindsConstraint(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("MastermindsConstraint(%q) error = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("MastermindsConstraint(%q) = %q, %v, want %q", tt.in, got, err, tt.want)
		}
	}
}

// TestMastermindsRawSyntax pins why the constraint is translated: given
// Terraform syntax as written, Masterminds reads "~>" as its tilde and a
// partial version as an x-range.
func TestMastermindsRawSyntax(t *testing.T) {
	tests := []struct {
		constraint, version string
		want                bool
	}{
		{"~> 1.2", "1.9.0", false},   // Terraform: < 2.0.0; Masterminds: < 1.3.0
		{"~> 1.2", "1.2.9", true},    //
		{"<= 1.2", "1.2.5", true},    // an x-range: <= 1.2.x
		{"<= 1.2.0", "1.2.5", false}, // the translation
		{"*", "0.0.0-beta", false},   // even with IncludePrerelease, below
	}
	for _, tt := range tests {
		cs, err := semver.NewConstraint(tt.constraint)
		if err != nil {
			t.Fatalf("NewConstraint(%q): %v", tt.constraint, err)
		}
		cs.IncludePrerelease = true
		v := semver.MustParse(tt.version)
		if got := cs.Check(v); got != tt.want {
			t.Errorf("Masterminds %q | %q = %v, want %v", tt.constraint, tt.version, got, tt.want)
		}
	}
	if _, err := semver.NewConstraint(""); err == nil {
		t.Errorf(`Masterminds NewConstraint("") accepted; the translation to "*" is no longer needed`)
	}
}

func TestMastermindsTooLong(t *testing.T) {
	// The translation is longer than the constraint; Masterminds refuses
	// more than 512 bytes.
	c := strings.Repeat("~> 1.2.3, ", 30) + "~> 1.2.3"
	for _, name := range []string{"masterminds", "masterminds-pre"} {
		r := engine.Evaluate(lookup(t, name), c, "1.2.3")
		if r.Verdict != engine.Invalid || !strings.Contains(r.Reason, "constraint string is too long (max 512 bytes)") {
			t.Errorf("%s: %d-byte constraint = %s %q, want invalid: too long", name, len(c), r.Verdict, r.Reason)
		}
	}
	if r := engine.Evaluate(lookup(t, "hashicorp"), c, "1.2.3"); r.Verdict != engine.Allow {
		t.Errorf("hashicorp: long constraint = %s %q, want allow", r.Verdict, r.Reason)
	}
}

var selectTests = []struct {
	policy, constraint string
	available          []string
	want               string // "" when nothing is found
	unreadable         []string
	note               string
}{
	{"hashicorp", ">= 1.0.0-alpha", []string{"1.0.0-beta.alpha", "1.0.0-beta"}, "1.0.0-beta", nil,
		"go-version sorts 1.0.0-beta.alpha below 1.0.0-beta"},
	{"hashicorp", ">= 1.0.0-alpha", []string{"1.0.0-beta", "1.0.0-beta.alpha"}, "1.0.0-beta", nil, ""},
	{"masterminds-pre", ">= 1.0.0-alpha", []string{"1.0.0-beta", "1.0.0-beta.alpha"}, "1.0.0-beta.alpha", nil,
		"Masterminds follows SemVer"},
	{"apparentlymart-exact", ">= 1.0.0-alpha", []string{"1.0.0-beta", "1.0.0-alpha.beta"}, "1.0.0-alpha.beta", nil,
		"go-versions sorts 1.0.0-beta below 1.0.0-alpha.beta"},
	{"masterminds-pre", ">= 1.0.0-alpha", []string{"1.0.0-alpha.beta", "1.0.0-beta"}, "1.0.0-beta", nil, ""},
	{"hashicorp", ">= 1.0.0", []string{"1.0.0+a", "1.0.0+b", "v1.0.0"}, "1.0.0+a", nil, "first of equal ones"},
	{"apparentlymart", ">= 1.0.0", []string{"1.0.0+a", "1.0.0+b"}, "1.0.0+a", nil, "first of equal ones"},
	{"masterminds", ">= 1.0.0", []string{"1.0.0+b", "1.0.0+a", "v1.0.0"}, "1.0.0+b", nil, "first of equal ones"},
	{"terraform-module", ">= 1.0.0", []string{"v1.0.0", "1.0.0"}, "v1.0.0", nil, "first of equal ones"},
	{"apparentlymart", "~> 1.0", []string{"v1.1.0", "1.0.0", "1.5.0", "2.0.0-beta.1", "99999999999999999999.0.0"}, "1.5.0",
		[]string{"v1.1.0", "99999999999999999999.0.0"}, ""},
	{"terraform-module", "~> 10", []string{"latest", "10.0.0", "11.10.10", "12.0.0-beta"}, "11.10.10", []string{"latest"},
		"~> 10 admits 11.10.10"},
	{"terraform-module", "", []string{"1.0.0", "2.0.0-beta.1"}, "1.0.0", nil, "no version argument: no prerelease"},
	{"terraform-module", "v2.0.0-beta.1", []string{"1.0.0", "2.0.0-beta.1"}, "", nil, ""},
	{"opentofu-module", "v2.0.0-beta.1", []string{"1.0.0", "2.0.0-beta.1"}, "2.0.0-beta.1", nil, ""},
	{"masterminds", "~> 1.2", []string{"1.2.0", "1.9.0", "2.0.0-beta.1", "1.2.3.4"}, "1.9.0", []string{"1.2.3.4"}, ""},
	{"masterminds-pre", "~> 1.2", []string{"1.2.0", "1.9.0", "2.0.0-beta.1"}, "2.0.0-beta.1", nil, ""},
	{"go-versions-cargo", ">= 1.1.0-beta.2", []string{"1.1.0-beta.3", "2.0.0-beta.1", "1.1.0-rc.1", "v1.1.0"}, "1.1.0-rc.1", []string{"v1.1.0"},
		"prereleases of the named base only"},
	{"go-versions-cargo", ">= 1.0.0-alpha", []string{"1.0.0-beta", "1.0.0-alpha.beta"}, "1.0.0-alpha.beta", nil,
		"go-versions sorts 1.0.0-beta below 1.0.0-alpha.beta"},
	{"go-versions-cargo", "~> 1.2", []string{"1.2.0", "1.9.0", "2.0.0-beta.1", "1.5.0-rc.1"}, "1.9.0", nil, ""},
}

func TestSelect(t *testing.T) {
	for _, tt := range selectTests {
		p := lookup(t, tt.policy)
		for _, via := range []string{"Select", "engine.Select"} {
			var sel engine.Selection
			var err error
			if via == "Select" {
				sel, err = p.(engine.Selector).Select(tt.constraint, tt.available)
			} else {
				sel, err = engine.Select(p, tt.constraint, tt.available)
			}
			if err != nil {
				t.Errorf("%s %s(%q): %v", tt.policy, via, tt.constraint, err)
				continue
			}
			if sel.Found != (tt.want != "") || sel.Version != tt.want {
				t.Errorf("%s %s(%q, %q) = %q (found %v), want %q; %s", tt.policy, via, tt.constraint, tt.available, sel.Version, sel.Found, tt.want, tt.note)
			}
			var unreadable []string
			for _, u := range sel.Unreadable {
				unreadable = append(unreadable, u.Version)
				if u.Reason == "" {
					t.Errorf("%s %s: unreadable %q without a reason", tt.policy, via, u.Version)
				}
			}
			if strings.Join(unreadable, " ") != strings.Join(tt.unreadable, " ") {
				t.Errorf("%s %s(%q, %q) unreadable = %q, want %q", tt.policy, via, tt.constraint, tt.available, unreadable, tt.unreadable)
			}
		}
	}
}

func TestSelectRefusedConstraint(t *testing.T) {
	for _, p := range All() {
		if _, err := engine.Select(p, ">= 1.0.0 < 2", []string{"1.0.0"}); err == nil {
			t.Errorf("%s: Select accepted a constraint every library refuses", p.Name())
		}
	}
}

// TestOneVersionTable checks that a table of the one version gives the
// result of Evaluate, or its refusal of the constraint, on every pair of
// the verdict table.
func TestOneVersionTable(t *testing.T) {
	for _, tt := range verdictTests {
		for _, p := range All() {
			versions := []string{tt.version}
			checkTable(t, engine.ReadVersions(p, versions), p, tt.constraint, versions)
		}
	}
}

func TestExplain(t *testing.T) {
	tests := []struct {
		policy, constraint, version string
		steps                       []string // substrings of "subject: detail", in order
	}{
		{"hashicorp", ">= 1.0.0, < 2.0.0", "2.0.0-beta.1", []string{
			`version.NewConstraint: 2 piece(s)`,
			`version.NewVersion: read "2.0.0-beta.1" as 2.0.0-beta.1, segments [2 0 0], prerelease "beta.1"`,
			`>= 1.0.0: Constraint.Check: false`,
			`< 2.0.0: Constraint.Check: false`,
			`Constraints.Check: false`,
		}},
		{"apparentlymart", "~> 1.2", "1.5.0-beta", []string{
			`constraints.ParseRubyStyleMulti: accepted "~> 1.2"`,
			`go-versions MeetingConstraints: the set is`,
			`versions.ParseVersion: read "1.5.0-beta" as 1.5.0-beta`,
			`MeetingConstraintsExact(spec).Has: true`,
			`go-versions MeetingConstraints(spec).Has: false`,
		}},
		{"apparentlymart-exact", "= 0.0.0", "0.0.0", []string{
			`Set.Has: 0.0.0 is versions.Unspecified`,
			`(spec).Has: false`,
		}},
		{"masterminds", "~> 1.2", "1.5.0-beta", []string{
			`translation: "~> 1.2" is ">=1.2.0, <2.0.0" in Masterminds syntax`,
			`semver.NewConstraint: accepted ">=1.2.0, <2.0.0"; IncludePrerelease = false`,
			`semver.NewVersion: read "1.5.0-beta" as 1.5.0-beta`,
			`Constraints.Validate: "1.5.0-beta" is a prerelease version`,
			`Constraints.Check: false`,
		}},
		{"terraform-module", "= 2.0.0-beta.1", "2.0.0-beta.1", []string{
			`version.NewConstraint: 1 piece(s); String() is "= 2.0.0-beta.1"`,
			`versions.MeetingConstraintsString: the npm-style parser (go-versions MeetingConstraintsString) refused "= 2.0.0-beta.1": no spaces allowed after operator "="; the installer skips every prerelease`,
		}},
		{"terraform-module", ">=2.0.0-beta.1", "2.0.0-beta.1", []string{
			`versions.MeetingConstraintsString: the set is`,
			`prerelease: not in the go-versions MeetingConstraints set (not requested exactly); the installer skips it`,
		}},
		{"opentofu-module", "v2.0.0-beta.1", "2.0.0-beta.1", []string{
			`versions.MeetingConstraintsString: refused "v2.0.0-beta.1"; accepted it with v prefixes stripped, "2.0.0-beta.1"`,
			`Set.Has: true`,
			`v2.0.0-beta.1: Constraint.Check: true`,
			`Constraints.Check: true`,
		}},
		{"go-versions-cargo", ">= 1.0.0-beta, < 1.0.0", "1.0.0-rc.1", []string{
			`constraints.ParseRubyStyleMulti: accepted ">= 1.0.0-beta, < 1.0.0": 2 comparator(s)`,
			`>= 1.0.0-beta: range versions.AtLeast(versions.MustParseVersion("1.0.0-beta"))`,
			`>= 1.0.0-beta: names a prerelease: opts in the prereleases of its base, versions.Intersection(versions.AtLeast(versions.MustParseVersion("1.0.0-0")), versions.OlderThan(versions.MustParseVersion("1.0.0")))`,
			`< 1.0.0: range versions.OlderThan(versions.MustParseVersion("1.0.0"))`,
			`< 1.0.0: names no prerelease`,
			`range: versions.Intersection(`,
			`set: versions.Union(`,
			`versions.ParseVersion: read "1.0.0-rc.1" as 1.0.0-rc.1`,
			`range.Has: true`,
			`windows.Has: true: a comparator other than != names a prerelease of base 1.0.0`,
			`set.Has: true`,
		}},
		{"go-versions-cargo", "~> 1.2, != 1.5.0-beta", "1.5.0-rc.1", []string{
			`~> 1.2.*: range versions.Intersection(versions.AtLeast(versions.MustParseVersion("1.2.0")), versions.OlderThan(versions.MustParseVersion("2.0.0")))`,
			`!= 1.5.0-beta: names a prerelease, but != never opts in`,
			`windows.Has: false: no comparator other than != names a prerelease of base 1.5.0`,
			`set.Has: false`,
		}},
		{"go-versions-cargo", "= 0.0.0", "0.0.0", []string{
			`Set.Has: 0.0.0 is versions.Unspecified`,
			`set.Has: false`,
		}},
		{"go-versions-cargo", "v1.0.0", "1.0.0", []string{
			`constraints.ParseRubyStyleMulti: go-versions ParseRubyStyleMulti: invalid specification "v1.0.0"`,
		}},
		{"terraform-module", "", "latest", []string{
			`constraint: empty`,
			`version.NewVersion: go-version NewVersion: malformed version: latest; the installer skips it`,
		}},
	}
	for _, tt := range tests {
		p := lookup(t, tt.policy)
		e := engine.Explain(p, tt.constraint, tt.version)
		if r := engine.Evaluate(p, tt.constraint, tt.version); e.Result != r {
			t.Errorf("%s: Explain(%q, %q).Result = %v, Evaluate = %v", tt.policy, tt.constraint, tt.version, e.Result, r)
		}
		var lines []string
		for _, s := range e.Steps {
			lines = append(lines, s.Subject+": "+s.Detail)
		}
		i := 0
		for _, line := range lines {
			if i < len(tt.steps) && strings.Contains(line, tt.steps[i]) {
				i++
			}
		}
		if i < len(tt.steps) {
			t.Errorf("%s: Explain(%q, %q) lacks step %q in order; steps:\n%s", tt.policy, tt.constraint, tt.version, tt.steps[i], strings.Join(lines, "\n"))
		}
	}
}
