package readers_test

import (
	"strings"
	"testing"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/readers"
)

// The examples of each type's doc, and more: verdicts, with a word each
// reason must hold.
func TestExamples(t *testing.T) {
	tests := []struct {
		p                   engine.Policy
		constraint, version string
		want                engine.Verdict
		reason              string
	}{
		// terraform-ls: go-version's Check, or nothing.
		{readers.TerraformLS{}, ">= 2.0.0-beta.1", "2.0.0-beta.2", engine.Allow, "Check: true"},
		{readers.TerraformLS{}, ">= 2.0.0-beta.1", "2.0.0", engine.Allow, "Check: true"},
		{readers.TerraformLS{}, "~> 1.0", "1.1.0", engine.Allow, "Check: true"},
		{readers.TerraformLS{}, "~> 1.0", "2.0.0-beta.1", engine.Reject, `"~> 1.0" refuses it`},
		{readers.TerraformLS{}, "", "2.0.0-beta.1", engine.Allow, "no version argument"},
		{readers.TerraformLS{}, " ", "2.0.0-beta.1", engine.Allow, "terraform-schema drops"},
		{readers.TerraformLS{}, "=> 1.0", "2.0.0-beta.1", engine.Allow, "terraform-schema drops"},
		{readers.TerraformLS{}, "= 1.0.0", "1.0.0+b", engine.Allow, "Check: true"},
		{readers.TerraformLS{}, ">= 1.0.0", "1.0.0.0", engine.Allow, "Check: true"},
		{readers.TerraformLS{}, ">= 1.0.0", "v1.0.0", engine.Allow, "Check: true"},
		{readers.TerraformLS{}, ">= 1.0.0", "x", engine.Invalid, "terraform-ls drops it"},
		{readers.TerraformLS{}, "", "x", engine.Invalid, "NewVersion"},
		// tfupdate: every release, whatever the constraint.
		{readers.TFUpdate{}, "~> 1.0", "2.0.0", engine.Allow, "replaces the constraint"},
		{readers.TFUpdate{}, "= 2.0.0-beta.1", "2.0.0-beta.1", engine.Reject, "never a prerelease"},
		{readers.TFUpdate{}, "= 2.0.0-beta.1", "1.5.0", engine.Allow, "a release"},
		{readers.TFUpdate{}, "=> 1.0", "1.0.0", engine.Allow, "a release"},
		{readers.TFUpdate{}, "", "1.0.0", engine.Allow, "a release"},
		{readers.TFUpdate{}, "", "1.0.0.0", engine.Allow, "a release"},
		{readers.TFUpdate{}, "", "1.0.0+b", engine.Allow, "a release"},
		{readers.TFUpdate{}, "", "1.0.0-beta+b", engine.Reject, "prerelease"},
		{readers.TFUpdate{}, "", "x", engine.Invalid, "tfupdate drops it"},
		// opentofu-engine: go-versions' Ruby-style set for releases, no
		// prerelease.
		{readers.OpenTofuEngine{}, "= 2.0.0-beta.1", "2.0.0-beta.1", engine.Reject, "an exact pin too"},
		{readers.OpenTofuEngine{}, "2.0.0-beta.1", "2.0.0-beta.1", engine.Reject, "an exact pin too"},
		{readers.OpenTofuEngine{}, "", "2.0.0-beta.1", engine.Reject, "prerelease"},
		{readers.OpenTofuEngine{}, ">= 1.0.0-beta", "1.0.0", engine.Allow, "the set has it"},
		{readers.OpenTofuEngine{}, "~> 1.2", "1.9.0", engine.Allow, "the set has it"},
		{readers.OpenTofuEngine{}, "~> 1.2", "2.0.0", engine.Reject, "does not have it"},
		{readers.OpenTofuEngine{}, "~> 1.2.0", "1.3.0", engine.Reject, "does not have it"},
		{readers.OpenTofuEngine{}, "= 1.0.0", "1.0.0+b", engine.Reject, "does not have it"},
		{readers.OpenTofuEngine{}, ">= v1.0.0", "1.0.0", engine.Invalid, "experimental engine refuses it"},
		{readers.OpenTofuEngine{}, "=> 1.0", "1.0.0", engine.Invalid, "configuration loader refuses it"},
		{readers.OpenTofuEngine{}, " ", "1.0.0", engine.Invalid, "configuration loader refuses it"},
		{readers.OpenTofuEngine{}, "", "1.0.0.0", engine.Allow, "no constraint"},
		{readers.OpenTofuEngine{}, ">= 1.0.0", "1.0.0.0", engine.Invalid, "OpenTofu panics"},
		{readers.OpenTofuEngine{}, ">= 1.0.0", "v1.1.0", engine.Allow, "the set has it"},
		{readers.OpenTofuEngine{}, ">= 1.0.0", "x", engine.Invalid, "skips it"},
		{readers.OpenTofuEngine{}, ">= 99999999999999999999", "1.0.0", engine.Invalid, "refuses it"},
	}
	for _, tt := range tests {
		got := engine.Evaluate(tt.p, tt.constraint, tt.version)
		if got.Verdict != tt.want || !strings.Contains(got.Reason, tt.reason) {
			t.Errorf("%s %q %q: %v (%s), want %v (%q)", tt.p.Name(), tt.constraint, tt.version, got.Verdict, got.Reason, tt.want, tt.reason)
		}
	}
}

// Selections: the program's own order and ties.
func TestSelect(t *testing.T) {
	many := []string{"1.0.0+a", "0.1.0", "0.2.0", "0.3.0", "0.4.0", "0.5.0", "0.6.0", "0.7.0", "0.8.0", "0.9.0", "0.10.0", "0.11.0", "0.12.0", "1.0.0+b"}
	tests := []struct {
		p          engine.Policy
		constraint string
		available  []string
		want       string // "" for none
	}{
		{readers.TerraformLS{}, ">= 2.0.0-beta.1", []string{"1.0.0", "2.0.0-beta.1", "2.0.0-beta.2"}, "2.0.0-beta.2"},
		{readers.TerraformLS{}, "", []string{"1.0.0", "2.0.0-beta.1", "x"}, "2.0.0-beta.1"},
		{readers.TerraformLS{}, "~> 1.0", []string{"1.1.0", "2.0.0"}, "1.1.0"},
		{readers.TerraformLS{}, "~> 1.0", []string{"2.0.0"}, ""},
		// Equal versions: the first in list order for a short list.
		{readers.TerraformLS{}, ">= 1.0.0", []string{"1.0.0+b", "v1.0.0", "1.0.0"}, "1.0.0+b"},
		{readers.TerraformLS{}, ">= 1.0.0", []string{"v1.0.0", "1.0.0+b", "1.0.0"}, "v1.0.0"},
		{readers.TFUpdate{}, "~> 1.0", []string{"1.0.0", "3.0.0", "2.0.0-beta.1"}, "3.0.0"},
		{readers.TFUpdate{}, "= 2.0.0-beta.1", []string{"2.0.0-beta.1"}, ""},
		{readers.TFUpdate{}, "", []string{"x", "1.0.0.0", "0.9.0"}, "1.0.0.0"},
		// Equal versions: the last in list order for a short list.
		{readers.TFUpdate{}, "", []string{"1.0.0+b", "v1.0.0", "1.0.0"}, "1.0.0"},
		{readers.OpenTofuEngine{}, "= 2.0.0-beta.1", []string{"1.0.0", "2.0.0-beta.1"}, ""},
		{readers.OpenTofuEngine{}, ">= 1.0.0", []string{"1.0.0", "2.0.0-beta.1", "1.5.0"}, "1.5.0"},
		{readers.OpenTofuEngine{}, ">= 1.0.0", []string{"1.0.0+b", "v1.0.0", "1.0.0"}, "1.0.0+b"},
	}
	for _, tt := range tests {
		sel, err := engine.Select(tt.p, tt.constraint, tt.available)
		if err != nil {
			t.Errorf("%s %q %v: %v", tt.p.Name(), tt.constraint, tt.available, err)
			continue
		}
		if got := map[bool]string{true: sel.Version}[sel.Found]; got != tt.want {
			t.Errorf("%s %q %v: selects %q, want %q", tt.p.Name(), tt.constraint, tt.available, got, tt.want)
		}
	}
	// A list of more than 12 versions is sorted by pdqsort, which does not
	// keep the order of equal versions: the policies sort with the same
	// call, so they pick what the program picks (the proofs check it).
	for _, p := range []engine.Policy{readers.TerraformLS{}, readers.TFUpdate{}} {
		sel, err := engine.Select(p, ">= 1.0.0", many)
		if err != nil || !sel.Found || !strings.HasPrefix(sel.Version, "1.0.0+") {
			t.Errorf("%s on %d versions: %v %v", p.Name(), len(many), sel, err)
		}
	}
}

// The engine refuses a constraint OpenTofu's engine refuses, in Select
// too.
func TestOpenTofuEngineSelectRefuses(t *testing.T) {
	if _, err := engine.Select(readers.OpenTofuEngine{}, "=> 1.0", []string{"1.0.0"}); err == nil {
		t.Error("Select accepted a constraint go-version refuses")
	}
}
