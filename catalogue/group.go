package catalogue

import (
	"sync"

	"github.com/prerel/prerel/adapters"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/policies"
	"github.com/prerel/prerel/readers"
	"github.com/prerel/prerel/updaters"
)

// The groups a report or the playground puts the catalogue's policies in,
// in the order they are shown.
const (
	// GroupInstallers holds what Terraform and OpenTofu do today: the
	// native strict rule and the adapters that stand for an installer.
	GroupInstallers = "installers"
	// GroupUpdaters holds the readings of the bots that propose or lock
	// versions: Renovate, Dependabot and terraform-module-versions.
	// Terragrunt's tfr:// sources, tenv and Atlantis read constraints with
	// hashicorp/go-version's Check, the "hashicorp" library policy.
	GroupUpdaters = "updaters"
	// GroupReaders holds the readings of the other programs that read a
	// module's constraint besides "init": the editors' language server
	// (terraform-ls), tfupdate, and OpenTofu's experimental engine. It is
	// shown next to the updaters.
	GroupReaders = "readers"
	// GroupLibraries holds the version libraries wrapped as they behave.
	GroupLibraries = "libraries"
	// GroupProposals holds the candidate rules for prerelease matching.
	GroupProposals = "proposals"
	// GroupOwn holds every policy the catalogue does not ship: a user's
	// HCL or command policy, or one registered by a program.
	GroupOwn = "your own"
)

// today maps the policies that are today's rule, each the real installer
// wrapped as it behaves, to what it stands for: Terraform's and
// OpenTofu's module installers for module calls, and the provider
// installer both share for providers. Nothing else is today's rule:
// strict states the documented rule ("only an exact = pin selects a
// prerelease"), which the installers' quirks depart from.
var today = map[string]string{
	"terraform-module": "Terraform's module calls",
	"opentofu-module":  "OpenTofu's module calls",
	"apparentlymart":   "providers, both installers",
}

// Today returns what the policy named name is today's rule for when it
// is one ("Terraform's module calls"), and "" for every other policy.
func Today(name string) string { return today[name] }

// TodayPolicies lists the policies that are today's rule: Terraform's
// module installer, OpenTofu's, then the provider installer.
func TodayPolicies() []string {
	return []string{"terraform-module", "opentofu-module", "apparentlymart"}
}

// Groups lists the groups in the order they are shown.
func Groups() []string {
	return []string{GroupInstallers, GroupUpdaters, GroupReaders, GroupLibraries, GroupProposals, GroupOwn}
}

// grouped is a policy that names its group: one of Groups. The native
// policies are proposals unless they say otherwise.
type grouped interface{ Group() string }

// groupOf maps each policy the catalogue ships to its group: the group a
// policy names, else installers for today's rule, else its package's
// (proposals for the native policies, libraries for the adapters, then
// updaters and readers).
var groupOf = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, list := range []struct {
		policies []engine.Policy
		group    string
	}{
		{policies.All(), GroupProposals},
		{adapters.All(), GroupLibraries},
		{updaters.All(), GroupUpdaters},
		{readers.All(), GroupReaders},
	} {
		for _, p := range list.policies {
			g := list.group
			switch q, ok := p.(grouped); {
			case ok:
				g = q.Group()
			case today[p.Name()] != "":
				g = GroupInstallers
			}
			m[p.Name()] = g
		}
	}
	return m
})

// Group returns the group of the policy named name: one of Groups, and
// GroupOwn for a name the catalogue does not ship.
func Group(name string) string {
	if g, ok := groupOf()[name]; ok {
		return g
	}
	return GroupOwn
}
