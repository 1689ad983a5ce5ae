package updaters

import "github.com/prerel/prerel/engine"

// All returns the policies of this package in their catalogue order:
// renovate, dependabot, terraform-module-versions. Each call returns a
// new slice.
func All() []engine.Policy {
	return []engine.Policy{Renovate{}, Dependabot{}, TerraformModuleVersions{}}
}
