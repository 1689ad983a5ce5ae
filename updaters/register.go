package updaters

import (
	"fmt"
	"strings"

	"github.com/prerel/prerel/engine"
)

// All returns the policies of this package in their catalogue order:
// renovate, dependabot, terraform-module-versions. Each call returns a
// new slice.
func All() []engine.Policy {
	return []engine.Policy{Renovate{}, Dependabot{}, TerraformModuleVersions{}}
}

// Named returns the policy of the updater called name; the error of
// another name lists the updaters.
func Named(name string) (engine.Policy, error) {
	var names []string
	for _, p := range All() {
		if p.Name() == name {
			return p, nil
		}
		names = append(names, p.Name())
	}
	return nil, fmt.Errorf("not an updater; expected one of %s", strings.Join(names, ", "))
}
