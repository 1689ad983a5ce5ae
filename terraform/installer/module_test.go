package installer_test

import (
	"testing"

	"github.com/prerel/prerel/adapters"
	"github.com/prerel/prerel/terraform/installer"
)

// TestModuleInstallTable is, per release, what init installs for a
// module call from a module registry's answer: every release reads the
// versions with go-version, skipping what it cannot read, and filters
// them as the module installer does (the terraform-module and
// opentofu-module adapters).
func TestModuleInstallTable(t *testing.T) {
	answer := []string{"1.0.0", "1.2.3", "1.2.3.4", "v1.2.5", "", "1.3.0-beta1", "1.2.3.4-rc1"}
	rows := []struct {
		constraint string
		want       string // the version installed, or "none"
	}{
		{">= 1.2.3", "v1.2.5"},
		{"~> 1.2.3.0", "1.2.3.4"},
		{"= 1.2.3.4", "1.2.3.4"},
		{"1.3.0-beta1", "1.3.0-beta1"},
		{"1.2.3.4-rc1", "none"},
		{"< 1.0.0", "none"},
	}
	for _, s := range installer.Releases {
		r := installer.MustParse(s)
		kept, skipped := r.ModuleVersions(answer)
		if len(skipped) != 1 || skipped[0].Version != "" {
			t.Errorf("%s: skipped %v, want the empty version", s, skipped)
		}
		for _, row := range rows {
			sel, err := adapters.ModuleInstaller{OpenTofu: r.Product == installer.OpenTofu}.Select(row.constraint, kept)
			got := "none"
			if err != nil {
				got = "error: " + err.Error()
			} else if sel.Found {
				got = sel.Version
			}
			if got != row.want {
				t.Errorf("%s: %q installs %s, want %s", s, row.constraint, got, row.want)
			}
		}
	}
}
