package updaters

import "testing"

func TestNamed(t *testing.T) {
	for _, tt := range []struct{ name, err string }{
		{"renovate", ""},
		{"dependabot", ""},
		{"terraform-module-versions", ""},
		{"Renovate", "not an updater; expected one of renovate, dependabot, terraform-module-versions"},
		{"", "not an updater; expected one of renovate, dependabot, terraform-module-versions"},
	} {
		p, err := Named(tt.name)
		switch {
		case tt.err == "" && (err != nil || p == nil || p.Name() != tt.name):
			t.Errorf("Named(%q) = %v, %v", tt.name, p, err)
		case tt.err != "" && (err == nil || err.Error() != tt.err || p != nil):
			t.Errorf("Named(%q) = %v, %v; want the error %q", tt.name, p, err, tt.err)
		}
	}
}
