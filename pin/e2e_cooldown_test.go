package pin_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/prerel/prerel/pin"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/terraform/config"
	"github.com/prerel/prerel/terraform/registry"
	"github.com/prerel/prerel/terraform/registry/registrytest"
)

// datedRegistry is the test registry with the dates of its module
// versions, as the registries' dates APIs give them.
type datedRegistry struct {
	*registrytest.Registry
	published map[string]time.Time
}

func (d datedRegistry) ModuleDates(_ context.Context, _ tfaddr.ModulePackage, _ []string) (*registry.DateListing, error) {
	return &registry.DateListing{Published: d.published, From: "the test registry's dates"}, nil
}

func (d datedRegistry) ProviderDates(context.Context, tfaddr.Provider, []string) (*registry.DateListing, error) {
	return &registry.DateListing{Note: "the test registry dates no provider"}, nil
}

// TestEndToEndCooldown makes the real init honour a minimum release age
// that prerel.hcl sets: init would install 1.1.0, published two days
// ago; the pin installs 1.0.0, the newest version a week old. Six days
// later 1.1.0 is eligible, and Check finds the pin stale.
func TestEndToEndCooldown(t *testing.T) {
	for _, bin := range installers(t) {
		t.Run(filepath.Base(bin), func(t *testing.T) { endToEndCooldown(t, bin) })
	}
}

func endToEndCooldown(t *testing.T, bin string) {
	e := newE2E(t, bin)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	src := datedRegistry{e.reg, map[string]time.Time{
		"1.0.0": now.Add(-30 * 24 * time.Hour), "1.1.0": now.Add(-2 * 24 * time.Hour), "2.0.0-beta.1": now.Add(-20 * 24 * time.Hour),
	}}
	e.write(filepath.Join(e.root, "main.tf"), "module \"net\" {\n  source  = \""+netSource+"\"\n  version = \"~> 1.0\"\n}\n")
	e.write(filepath.Join(e.root, policyconfig.DefaultFile), "default_policy = \"cargo\"\nmin_age = \"7d\"\n")
	cfg, diags := policyconfig.LoadDir(policies, e.root)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	plan := func(at time.Time) *pin.Plan {
		t.Helper()
		rep, err := runResolve(context.Background(), resolve.Options{Dir: e.root, ModulesDir: filepath.Join(e.data, "modules"),
			Config: cfg, Versions: src, Policies: policies, SkipFile: pin.Skip, Now: at})
		if err != nil {
			t.Fatal(err)
		}
		tree, diags := config.LoadTree(e.root, config.TreeOptions{ModulesDir: filepath.Join(e.data, "modules"), SkipFile: pin.Skip})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		p, err := pin.Build(rep, tree, pin.Options{Policies: policies})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}

	e.init()
	if got := e.installed(); got["net"] != "1.1.0" {
		t.Fatalf("without pins init installed %v, want net 1.1.0", got)
	}
	p := plan(now)
	if len(p.Pins) != 1 || p.Pins[0].Version != "1.0.0" || len(p.Pins[0].HeldBack) != 1 || p.Pins[0].HeldBack[0].Version != "1.1.0" {
		t.Fatalf("pins %+v, want net at 1.0.0 with 1.1.0 held back", p.Pins)
	}
	if c := p.Files[0].Content; !strings.Contains(c, "eligible since 2026-02-") {
		t.Errorf("the pin's comment has no eligible since:\n%s", c)
	}
	if err := pin.Write(p, pin.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	e.init()
	if got := e.installed(); got["net"] != "1.0.0" {
		t.Errorf("with the pin init installed %v, want net 1.0.0", got)
	}

	// The same day, the check passes; six days later 1.1.0 is eligible.
	if diffs, err := pin.Check(plan(now)); err != nil || len(diffs) != 0 {
		t.Errorf("Check the same day: %+v, %v", diffs, err)
	}
	diffs, err := pin.Check(plan(now.Add(6 * 24 * time.Hour)))
	if err != nil {
		t.Fatal(err)
	}
	if len(diffs) != 1 || diffs[0].Kind != "stale" {
		t.Errorf("Check once 1.1.0 is eligible: %+v, want the pin file stale", diffs)
	}
}
