package resolve_test

import (
	"testing"
	"time"

	"github.com/prerel/prerel/resolve"
)

// TestReaderOf reads module calls alone for the readers that do, and
// applies the bots' own cooldowns.
func TestReaderOf(t *testing.T) {
	tests := []struct {
		name        string
		modulesOnly bool
		pending     string // the cooldown's Pending, "-" for no cooldown
	}{
		{"renovate", false, "every candidate pending (minimumReleaseAge, internalChecksFilter strict): no update"},
		{"dependabot", false, "every candidate in cooldown: no update"},
		{"terraform-module-versions", true, "-"},
		{"terraform-ls", true, "-"},
		{"opentofu-engine", true, "-"},
		{"tfupdate", false, "-"},
	}
	for _, tt := range tests {
		rd := resolve.ReaderOf(mustPolicies(t, tt.name)[0])
		pending := "-"
		if rd.Cooldown != nil {
			pending = rd.Cooldown.Pending
		}
		if rd.Name != tt.name || rd.ModulesOnly != tt.modulesOnly || pending != tt.pending {
			t.Errorf("%s: name %q, modules only %v, pending %q", tt.name, rd.Name, rd.ModulesOnly, pending)
		}
	}
}

// TestWithRFC4444 adds the RFC's reading, age first and module calls
// alone, only under a cooldown.
func TestWithRFC4444(t *testing.T) {
	without := cooldownRun(t, cooldownNow, false, nil)
	without.Cooldown = nil
	if got := without.WithRFC4444(testRegistry, nil); len(got) != 0 {
		t.Errorf("without a cooldown: %d readers", len(got))
	}
	got := cooldownRun(t, cooldownNow, false, nil).WithRFC4444(testRegistry, nil)
	if len(got) != 1 {
		t.Fatalf("under a cooldown: %d readers", len(got))
	}
	rd := got[0]
	c := rd.Cooldown.Cooldown(time.Hour, cooldownNow)
	if rd.Name != resolve.RFC4444Reader || rd.Policy.Name() != resolve.OpenTofuModulePolicy || !rd.ModulesOnly || !rd.Cooldown.ModulesOnly || !c.AgeFirst || c.MinAge != time.Hour {
		t.Errorf("the RFC's reader: %+v, cooldown %+v", rd, c)
	}
}
