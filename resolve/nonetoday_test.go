package resolve_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/prerel/prerel/internal/golden"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/terraform/registry"
)

// TestNoneToday resolves module calls that today's installer cannot
// satisfy, each under cargo, and checks what NoneToday says of each
// against a golden file: why today's installer selects none, what the
// chosen policy selects, and the pin.
func TestNoneToday(t *testing.T) {
	cases := []struct {
		constraint string
		versions   []string
	}{
		// hashicorp/terraform#36985: init finds "no available version".
		{">= 2.0.0-beta.1", []string{"1.0.0", "2.0.0-beta.1"}},
		{"~> 1.2.0-rc1", []string{"1.1.0", "1.2.0-rc1", "1.2.0-rc2"}},
		{"2.0.0-rc1, >= 1.0.0", []string{"1.0.0", "2.0.0-rc1"}},
		{">= 1.0.0", []string{"0.9.0", "1.1.0-beta.1"}},
		{"~> 9.0", []string{"1.0.0", "2.0.0-rc.1"}},
		{">= 1.0.0", []string{"1.0.0", "1.1.0-beta.1"}},
	}
	var main, index strings.Builder
	index.WriteString(`{"modules": {`)
	for i, c := range cases {
		fmt.Fprintf(&main, "module \"m%d\" {\n  source  = \"corp/m%d/aws\"\n  version = %q\n}\n", i, i, c.constraint)
		if i > 0 {
			index.WriteString(", ")
		}
		fmt.Fprintf(&index, "%q: %s", fmt.Sprintf("corp/m%d/aws", i), moduleBody(c.versions...))
	}
	index.WriteString("}}")
	dir := writeDir(t, map[string]string{"main.tf": main.String(), "index.json": index.String(),
		"prerel.hcl": `default_policy = "cargo"`})
	x, err := registry.LoadIndex(filepath.Join(dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: loadConfig(t, dir), Versions: x, Policies: testRegistry})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := range r.Items {
		it := &r.Items[i]
		fmt.Fprintf(&b, "%q with %s:\n", it.Constraint, strings.Join(cases[i].versions, ", "))
		n := it.NoneToday()
		if n == nil {
			b.WriteString("  (today's installer selects a version, or none is within the constraint)\n\n")
			continue
		}
		fmt.Fprintf(&b, "  why: %s\n  selects: %s\n  pin: %s\n\n", n.Why, strings.Join(n.Selects, ", "), n.Pin)
	}
	golden.Check(t, filepath.Join("testdata", "golden", "nonetoday.txt"), []byte(b.String()))
}

// TestNoneTodayOutsideByPrecedence checks that NoneToday explains an item
// no listed version of which is within the constraint by precedence,
// while the chosen policy selects one by its own rule: ga-bound admits
// 2.0.0-beta.1 for "~> 2.0" by its release.
func TestNoneTodayOutsideByPrecedence(t *testing.T) {
	dir := writeDir(t, map[string]string{"main.tf": moduleCall("~> 2.0"),
		"index.json": `{"modules": {"corp/db/aws": ` + moduleBody("1.0.0", "1.5.0", "2.0.0-beta.1") + `}}`,
		"prerel.hcl": `module "db" { policy = "ga-bound" }`})
	x, err := registry.LoadIndex(filepath.Join(dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: loadConfig(t, dir), Versions: x, Policies: testRegistry})
	if err != nil {
		t.Fatal(err)
	}
	it := &r.Items[0]
	if it.NoMatch != nil {
		t.Errorf("ga-bound selects %v, yet NoMatch = %+v", it.Selected, it.NoMatch)
	}
	n := it.NoneToday()
	if n == nil {
		t.Fatal("NoneToday is nil")
	}
	if want := `no listed version is within "~> 2.0" by precedence, which today's installer requires`; n.Why != want {
		t.Errorf("Why = %q, want %q", n.Why, want)
	}
	if !strings.Contains(n.Pin, `version = "2.0.0-beta.1"`) || !slices.Contains(n.Selects, "ga-bound selects 2.0.0-beta.1") {
		t.Errorf("NoneToday = %+v", n)
	}
}
