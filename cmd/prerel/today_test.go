package main

import (
	"slices"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/resolve"
)

// TestOneToday holds every place that names today's rule to the same
// policies: the catalogue, which prerel policies, the reports and the
// playground mark; the reference compare measures against; the
// installers resolve, pin and impact (through resolve's names) compare
// with.
func TestOneToday(t *testing.T) {
	today := catalogue.TodayPolicies()
	if want := []string{resolve.TerraformModulePolicy, resolve.OpenTofuModulePolicy, resolve.ProviderPolicy}; !slices.Equal(today, want) {
		t.Errorf("the catalogue's today %q, resolve's %q", today, want)
	}
	if compare.DefaultReference != today[0] {
		t.Errorf("compare measures against %q, the catalogue's today is %q", compare.DefaultReference, today)
	}
}
