package catalogue

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

var groupOf = map[string]string{
	"strict":                    GroupInstallers,
	"terraform-module":          GroupInstallers,
	"opentofu-module":           GroupInstallers,
	"apparentlymart":            GroupInstallers,
	"core-only":                 GroupInstallers,
	"hashicorp":                 GroupLibraries,
	"apparentlymart-exact":      GroupLibraries,
	"masterminds":               GroupLibraries,
	"masterminds-pre":           GroupLibraries,
	"go-versions-cargo":         GroupLibraries,
	"renovate":                  GroupUpdaters,
	"dependabot":                GroupUpdaters,
	"terraform-module-versions": GroupUpdaters,
	"terraform-ls":              GroupReaders,
	"tfupdate":                  GroupReaders,
	"opentofu-engine":           GroupReaders,
	"lexical":                   GroupProposals,
	"cargo":                     GroupProposals,
	"linear":                    GroupProposals,
	"linear-tight":              GroupProposals,
	"ga-bound":                  GroupProposals,
	"any-pre":                   GroupProposals,
	"fallback":                  GroupProposals,
}

// Group returns the group of the policy named name: one of Groups, and
// GroupOwn for a name the catalogue does not ship.
func Group(name string) string {
	if g, ok := groupOf[name]; ok {
		return g
	}
	return GroupOwn
}
