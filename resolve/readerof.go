package resolve

import (
	"time"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/terraform/registry"
	"github.com/prerel/prerel/updaters"
)

// modulesOnly are the readers of module calls alone:
// terraform-module-versions checks module versions, terraform-ls looks
// up a module's version to show its inputs, and OpenTofu's new engine
// reads module calls (providers stay with the installer).
var modulesOnly = map[string]bool{"terraform-module-versions": true, "terraform-ls": true, "opentofu-engine": true}

// readerCooldowns are how the bots apply a minimum release age, each as
// docs/cooldown.md says where it is modelled from: the cooldown itself
// (package updaters), the hosts each dates, what it does when every
// candidate is held back.
var readerCooldowns = map[string]*ReaderCooldown{
	// Renovate 44's terraform datasources date registry.terraform.io (v2)
	// and registry.opentofu.org (api.opentofu.org) alone; lock file
	// maintenance runs init -upgrade, without the age.
	"renovate": {Cooldown: updaters.RenovateCooldown, DatedHosts: []string{registry.PublicTerraformHost, registry.PublicOpenTofuHost},
		ProvidersWithoutAge: true, Pending: "every candidate pending (minimumReleaseAge, internalChecksFilter strict): no update"},
	// Dependabot asks registry.terraform.io's v2 API whatever the host.
	"dependabot": {Cooldown: updaters.DependabotCooldown, PublicDates: true, Pending: "every candidate in cooldown: no update"},
}

// ReaderOf is the Reader a policy of an updater or another reader of
// constraints stands for, by its name: whether it reads module calls
// alone, and how it applies a minimum release age (Renovate's and
// Dependabot's cooldowns), nil for a reader that has none.
func ReaderOf(p engine.Policy) Reader {
	return Reader{Name: p.Name(), Policy: p, ModulesOnly: modulesOnly[p.Name()], Cooldown: readerCooldowns[p.Name()]}
}

// RFC4444Reader is the name of the reading of OpenTofu's RFC #4444 (a
// module dependency cooldown for tofu init): the age first, module calls
// alone, with OpenTofu's module installer as the rule.
const RFC4444Reader = "tofu-rfc4444"

// WithRFC4444 adds the RFC's reading to readers when the report has a
// cooldown and policies has OpenTofu's module installer: without a
// cooldown it reads as today's tofu init.
func (r *Report) WithRFC4444(policies *engine.Registry, readers []Reader) []Reader {
	p, ok := policies.Lookup(OpenTofuModulePolicy)
	if r.Cooldown == nil || !ok {
		return readers
	}
	return append(readers, Reader{Name: RFC4444Reader, Policy: p, ModulesOnly: true,
		Cooldown: &ReaderCooldown{Cooldown: rfc4444Cooldown, ModulesOnly: true}})
}

// rfc4444Cooldown is the RFC's order: the versions younger than the
// minimum age are left out before the installer selects; an exact pin
// is exempt, as prerel's own default and Terraform PR #38372 do, and an
// undated version held back.
func rfc4444Cooldown(minAge time.Duration, now time.Time) engine.Cooldown {
	return engine.Cooldown{MinAge: minAge, Now: now, AgeFirst: true}
}
