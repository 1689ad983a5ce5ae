package updaters_test

import (
	"reflect"
	"testing"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/updaters"
)

// The examples of each policy's doc comment, and the readings that set
// the tools apart from Terraform.
func TestExamples(t *testing.T) {
	tests := []struct {
		policy     engine.Policy
		constraint string
		version    string
		want       engine.Verdict
	}{
		{updaters.Renovate{}, "~> 0.14", "0.15.0", engine.Reject},
		{updaters.Renovate{}, "~> 0.14", "0.14.9", engine.Allow},
		{updaters.Renovate{}, "~> 4", "5.0.0", engine.Allow},
		{updaters.Renovate{}, "1.2", "1.2.5", engine.Allow},
		{updaters.Renovate{}, "= 1.2", "1.3.0", engine.Reject},
		{updaters.Renovate{}, ">= 1.0.0-beta", "1.0.0-rc.1", engine.Allow},
		{updaters.Renovate{}, ">= 1.0.0-beta", "1.1.0-rc.1", engine.Reject},
		{updaters.Renovate{}, "~> 4.0, != 4.2.0", "4.2.0", engine.Invalid},
		{updaters.Renovate{}, "~> 4.0, != 4.2.0", "4.2.6", engine.Invalid},
		{updaters.Renovate{}, "~> 4.0, != v4.2.0", "4.2.0", engine.Invalid},
		{updaters.Renovate{}, "!= 4.2.0", "4.3.0", engine.Invalid},
		{updaters.Renovate{}, "\t~> 1.2\n", "1.5.0", engine.Allow},
		{updaters.Renovate{}, "\v~> 1.2", "1.5.0", engine.Invalid},
		{updaters.Renovate{}, "", "1.0.0", engine.Invalid},
		{updaters.Renovate{}, "1.0-beta", "1.0.0", engine.Invalid},
		{updaters.Renovate{}, "=> 1.0", "1.0.0", engine.Invalid},
		{updaters.Renovate{}, ">= 0.0.0", "1.0.0-beta", engine.Reject},
		{updaters.Renovate{}, "< 0", "0.0.0", engine.Reject},

		{updaters.Dependabot{}, "~> 1.2", "1.9.0", engine.Allow},
		{updaters.Dependabot{}, "~> 1.2", "2.0.0-beta", engine.Reject},
		{updaters.Dependabot{}, ">= 1.0", "2.0.0-beta", engine.Reject},
		{updaters.Dependabot{}, ">= 1.0.0-rc1", "2.0.0-beta", engine.Allow},
		{updaters.Dependabot{}, ">= 1.0, != 0.9.0-rc1", "2.0.0-beta", engine.Allow},
		{updaters.Dependabot{}, "~> 1.0.0-rc9", "1.0.0-rc10", engine.Allow},
		{updaters.Dependabot{}, "> 1.0.0-rc9", "1.0.0-rc10", engine.Allow},
		{updaters.Dependabot{}, "= 1.0.0+b", "1.0.0", engine.Invalid},
		{updaters.Dependabot{}, "1.0,", "1.0.0", engine.Allow},
		{updaters.Dependabot{}, "1.0,,2", "1.0.0", engine.Invalid},
		{updaters.Dependabot{}, "", "1.0.0-beta", engine.Reject},
		{updaters.Dependabot{}, "", "1.0.0", engine.Allow},
		{updaters.Dependabot{}, "= v1.0.0", "v1.0.0+b", engine.Allow},
		{updaters.Dependabot{}, "> 1.0.0-beta", "1.0.0-0", engine.Allow},

		{updaters.TerraformModuleVersions{}, "~> 1.2", "1.5.0", engine.Reject},
		{updaters.TerraformModuleVersions{}, "~> 1.2", "1.2.9", engine.Allow},
		{updaters.TerraformModuleVersions{}, "~> 1", "1.5.0", engine.Allow},
		{updaters.TerraformModuleVersions{}, "1.2", "1.2.5", engine.Allow},
		{updaters.TerraformModuleVersions{}, "= 1.2.0", "1.2.0", engine.Allow},
		{updaters.TerraformModuleVersions{}, ">= 1.0.0-0", "1.1.0-rc1", engine.Reject},
		{updaters.TerraformModuleVersions{}, "^1.2 || 3.x", "3.4.0", engine.Allow},
		{updaters.TerraformModuleVersions{}, "01.2", "1.2.0", engine.Invalid},
		{updaters.TerraformModuleVersions{}, "~> 1.2.3.4", "1.2.3", engine.Invalid},
		{updaters.TerraformModuleVersions{}, "", "1.2.3", engine.Invalid},
	}
	for _, tt := range tests {
		if got := engine.Evaluate(tt.policy, tt.constraint, tt.version); got.Verdict != tt.want {
			t.Errorf("%s %q %q = %v (%s), want %v", tt.policy.Name(), tt.constraint, tt.version, got.Verdict, got.Reason, tt.want)
		}
	}
}

func TestGemVersionOrder(t *testing.T) {
	// Ascending by Gem::Version#<=>.
	order := []string{"1.0.0-alpha.beta", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-beta", "1.0.0-rc9", "1.0.0-rc10", "1.0.0-0", "1.0.0", "v1.0.1", "1.1"}
	for i := 1; i < len(order); i++ {
		a, err := updaters.ParseGemVersion(order[i-1])
		if err != nil {
			t.Fatal(err)
		}
		b, err := updaters.ParseGemVersion(order[i])
		if err != nil {
			t.Fatal(err)
		}
		if a.Compare(b) >= 0 || b.Compare(a) <= 0 {
			t.Errorf("%s is not below %s", order[i-1], order[i])
		}
	}
	a, _ := updaters.ParseGemVersion("1.0")
	b, _ := updaters.ParseGemVersion("v1.0.0+b")
	if a.Compare(b) != 0 {
		t.Errorf("1.0 and v1.0.0+b are not equal")
	}
}

func TestSelection(t *testing.T) {
	versions := []string{"1.0.0-rc9", "1.0.0-rc10", "0.9.0", "1.1.0-beta"}
	sel, err := engine.Select(updaters.Dependabot{}, "> 0.9.0-rc1", versions)
	if err != nil || sel.Version != "1.1.0-beta" {
		t.Errorf("dependabot selects %+v, %v; want 1.1.0-beta", sel, err)
	}
	sel, err = engine.Select(updaters.Dependabot{}, "< 1.1.0", versions)
	if err != nil || sel.Version != "0.9.0" {
		t.Errorf("dependabot selects %+v, %v; want 0.9.0 (no prerelease wanted)", sel, err)
	}
	sel, err = engine.Select(updaters.Dependabot{}, "~> 1.0.0-rc1", versions)
	if err != nil || sel.Version != "1.0.0-rc10" {
		t.Errorf("dependabot selects %+v, %v; want 1.0.0-rc10", sel, err)
	}
	if p := updaters.DependabotProposal(">= 0.1", "", versions); p.Version != "0.9.0" {
		t.Errorf("DependabotProposal = %+v, want 0.9.0", p)
	}
	if p := updaters.DependabotProposal(">= 0.1", "0.9.0-rc1", versions); p.Version != "1.1.0-beta" {
		t.Errorf("DependabotProposal from a prerelease = %+v, want 1.1.0-beta", p)
	}

	all := []string{"1.2.0", "1.2.1-rc.1", "1.3.0-beta", "1.3.0", "2.0.0-rc.1", "1.2.1-rc.2", "bad"}
	if got, want := updaters.RenovateCandidates("1.2.0", all), []string{"1.3.0"}; !reflect.DeepEqual(got, want) {
		t.Errorf("RenovateCandidates from a release = %v, want %v", got, want)
	}
	if got, want := updaters.RenovateCandidates("1.2.1-rc.1", all), []string{"1.3.0", "1.2.1-rc.2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("RenovateCandidates from a prerelease = %v, want %v", got, want)
	}
	if got := updaters.RenovateCandidates("bad", all); got != nil {
		t.Errorf("RenovateCandidates from an unreadable version = %v, want none", got)
	}
	padded := []string{"1.2.0", " 1.3.0", "1.2.1-rc.2", " 1.2.1 "}
	if got, want := updaters.RenovateCandidates("1.2.0", padded), []string(nil); !reflect.DeepEqual(got, want) {
		t.Errorf("RenovateCandidates of releases with blanks from a release = %q, want %q", got, want)
	}
	if got, want := updaters.RenovateCandidates("1.2.1-rc.1", padded), []string{"1.2.1-rc.2", " 1.2.1 "}; !reflect.DeepEqual(got, want) {
		t.Errorf("RenovateCandidates of releases with blanks from a prerelease = %q, want %q", got, want)
	}
}

// TestRenovateLookup checks what Renovate's lookup selects and proposes
// in the cases where it parts from the newest candidate above the
// selected version.
func TestRenovateLookup(t *testing.T) {
	r := updaters.Renovate{}
	all := []string{"1.0.0", "1.2.0", "1.5.0", "1.6.0-rc.1", "2.0.0", "2.1.0"}
	tests := []struct {
		name                string
		constraint, current string
		want                string // "" for none
	}{
		{"the newest candidate", "~> 1.2", "", "2.1.0"},
		{"from the locked version", "~> 1.2", "1.2.0", "2.1.0"},
		{"a refused constraint: the dependency is skipped", "~> 1.2, != 1.5.0", "", ""},
		{"a refused constraint, locked", "~> 1.2, != 1.5.0", "1.2.0", ""},
		{"nothing listed satisfies a single version: from that version", "1.3.0", "", "2.1.0"},
		{"nothing listed satisfies a single version after =", "= 1.3.0", "", "2.1.0"},
		{"nothing listed satisfies a range: skipped", "~> 3.0", "", ""},
		{"a single version above the locked one: no downgrade", "1.9.0", "1.0.0", "2.1.0"},
		{"a single version above every candidate", "3.0.0", "1.0.0", ""},
		{"an unreadable locked version", "~> 1.2", "bad", ""},
	}
	for _, tt := range tests {
		sel, err := engine.Select(r, tt.constraint, all)
		got, ok := r.Propose(tt.constraint, tt.current, sel.Version, all)
		if tt.want == "" && ok || tt.want != "" && got != tt.want {
			t.Errorf("%s: Propose(%q, %q, %q) = %q, %v (Select: %v); want %q", tt.name, tt.constraint, tt.current, sel.Version, got, ok, err, tt.want)
		}
	}

	// The newest of equal versions is the last listed.
	if got, _ := r.Propose("~> 1.0", "", "1.0.0", []string{"1.0.0", "2.0.0", "v2.0.0"}); got != "v2.0.0" {
		t.Errorf("Propose among equal versions = %q, want the last listed, v2.0.0", got)
	}
	// A release listed with blanks around it is not stable for Renovate:
	// a candidate only above a prerelease of its own MAJOR.MINOR.PATCH.
	// getNewValue cannot write it into a single-version constraint: with
	// nothing locked the lookup drops that update, with a lock file it is
	// a lock-file update.
	if got, _ := r.Propose("1.0.0", "", "1.0.0", []string{"1.0.0", "1.1.0", " 2.0.0"}); got != "1.1.0" {
		t.Errorf("Propose past a release with blanks = %q, want 1.1.0", got)
	}
	blank := []string{"2.0.0-rc.1", " 2.0.0"}
	if got, ok := r.Propose("2.0.0-rc.1", "", "2.0.0-rc.1", blank); ok {
		t.Errorf("Propose of a release with blanks into a single version = %q, want none", got)
	}
	if got, _ := r.Propose("2.0.0-rc.1", "2.0.0-rc.1", "2.0.0-rc.1", blank); got != " 2.0.0" {
		t.Errorf("Propose of a release with blanks into a single version, locked = %q, want \" 2.0.0\"", got)
	}
	if _, err := engine.Select(r, "~> 1.2, != 1.5.0", all); err == nil {
		t.Errorf("Select accepts a constraint with a != term; Renovate skips it")
	}
}
